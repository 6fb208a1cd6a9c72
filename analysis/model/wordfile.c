/*
 * analysis/model/wordfile.c - reading the analyses' small word-per-column line
 * files (see wordfile.h).
 */
#include "wordfile.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>

int wordfile_open(struct wordfile *w, const char *path, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->path = path;
	w->f = fopen(path, "r");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Split the line in place into words, up to a word that starts with `#`
 * (inside a word `#` is part of it: the names NAME#k of a names file). */
static void split_words(struct wordfile *w)
{
	char *s = w->buf;
	w->nwords = 0;
	w->col[0] = 1;
	for (;;) {
		while (blank(*s))
			s++;
		if (*s == '\0' || *s == '#')
			break;
		char *start = s;
		while (*s && !blank(*s))
			s++;
		if (w->nwords < WORDFILE_MAX_WORDS) {
			w->word[w->nwords] = start;
			w->col[w->nwords] = (unsigned long)(start - w->buf) + 1;
			w->col[w->nwords + 1] = (unsigned long)(s - w->buf) + 1;
		}
		w->nwords++;
		char end = *s;
		*s = '\0';
		if (end == '\0')
			break;
		s++;
	}
}

int wordfile_next(struct wordfile *w, char *err, size_t errlen)
{
	for (;;) {
		if (getline(&w->buf, &w->bufcap, w->f) < 0) {
			if (ferror(w->f)) {
				snprintf(err, errlen, "%s:%lu:1: read error", w->path, w->line + 1);
				return -1;
			}
			return 0;
		}
		w->line++;
		split_words(w);
		if (w->nwords > 0)
			return 1;
	}
}

unsigned long wordfile_col(const struct wordfile *w, size_t i)
{
	size_t kept = w->nwords < WORDFILE_MAX_WORDS ? w->nwords : WORDFILE_MAX_WORDS;
	return w->col[i < kept ? i : kept];
}

void wordfile_close(struct wordfile *w)
{
	if (w->f)
		fclose(w->f);
	free(w->buf);
	memset(w, 0, sizeof *w);
}

int wordfile_each(const char *path, int (*line)(const struct wordfile *w, const char *where, void *arg),
		  void *arg, char *err, size_t errlen)
{
	struct wordfile w;
	char where[600];
	if (wordfile_open(&w, path, err, errlen) < 0)
		return -1;
	int rc;
	while ((rc = wordfile_next(&w, err, errlen)) > 0) {
		snprintf(where, sizeof where, "%s:%lu:%lu", path, w.line, wordfile_col(&w, 0));
		if ((rc = line(&w, where, arg)) < 0)
			break;
	}
	wordfile_close(&w);
	return rc < 0 ? -1 : 0;
}

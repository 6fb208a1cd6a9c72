/*
 * analysis/model/wordfile.h - the small line files the analyses take beside a
 * trace: `dpm parallel --assign FILE` ("node.pid MACHINE" a line) and
 * `dpm causality --names FILE` ("node.pid NAME ROLE" a line).  Words are
 * separated by blanks; a word that starts with `#` starts a comment to the
 * end of the line (inside a word `#` is part of it: NAME#k); lines
 * without a word are skipped.  Each word keeps its 1-based column, so a
 * caller's error names it as "path:line:col: what is wrong".
 */
#ifndef DPM_ANALYSIS_MODEL_WORDFILE_H
#define DPM_ANALYSIS_MODEL_WORDFILE_H

#include <stddef.h>
#include <stdio.h>

#define WORDFILE_MAX_WORDS 8

struct wordfile {
	FILE *f;
	const char *path;
	unsigned long line;          /* number of the line last read */
	char *buf;
	size_t bufcap;
	size_t nwords;               /* words on the line (may exceed the kept) */
	char *word[WORDFILE_MAX_WORDS];
	unsigned long col[WORDFILE_MAX_WORDS + 1]; /* [nwords kept]: just past the last word */
};

/* 0 ok; -1 with "path: why" in err. */
int wordfile_open(struct wordfile *w, const char *path, char *err, size_t errlen);
/* The next line with a word: 1, 0 at the end, -1 with err filled. */
int wordfile_next(struct wordfile *w, char *err, size_t errlen);
/* The column of word i, or just past the last word kept when there is none. */
unsigned long wordfile_col(const struct wordfile *w, size_t i);
void wordfile_close(struct wordfile *w);

/* Read the file at path line by line: line(w, where, arg) for each line
 * with a word, where = "path:line:col" of its first word, until one returns
 * < 0 (having filled err).  0 ok; -1 with err filled. */
int wordfile_each(const char *path, int (*line)(const struct wordfile *w, const char *where, void *arg),
		  void *arg, char *err, size_t errlen);

#endif

/*
 * analysis/studies/thesis_ref.c - reading the thesis's published values (see
 * thesis_ref.h).  Strict on purpose: a value that cannot be read, a
 * duplicate cell, or a file without its "# source:" line is an error with
 * file:line, since a reference that silently lost a row would misinform.
 */
#include "thesis_ref.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model/csv_row.h"

static const char *const columns[] = { "figure", "key", "value", "uncertain", "where" };
#define NCOLUMNS (sizeof columns / sizeof columns[0])

/* The "# source:" line among the comments before the header. */
static int read_source(struct thesis_ref *ref, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[1024];
	unsigned long n = 0;
	while (fgets(line, sizeof line, f) && (line[0] == '#' || line[0] == '\n')) {
		n++;
		const char *s = line + 1;
		while (*s == ' ')
			s++;
		if (!strncmp(s, "source:", 7)) {
			s += 7;
			while (*s == ' ')
				s++;
			snprintf(ref->source, sizeof ref->source, "%.*s", (int)strcspn(s, "\r\n"), s);
		}
	}
	fclose(f);
	if (!ref->source[0]) {
		snprintf(err, errlen, "%s:%lu: no '# source:' line before the header", path, n + 1);
		return -1;
	}
	return 0;
}

static int find_columns(const struct csv_reader *r, int col[NCOLUMNS], char *err, size_t errlen)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		col[i] = csv_column(r, columns[i]);
		if (col[i] < 0) {
			snprintf(err, errlen, "%s:%lu: no '%s' column in the header (want "
				 "figure,key,value,uncertain,where)", r->path, r->line, columns[i]);
			return -1;
		}
	}
	return 0;
}

static int parse_value(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	while (*end == ' ')
		end++;
	return *s && !*end && !errno && isfinite(*v) ? 0 : -1;
}

/* Copy field s into dst (size len); -1 if empty or too long. */
static int text_field(char *dst, size_t len, const char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n == 0 || n >= len)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

static int parse_row(const struct csv_reader *r, const int col[NCOLUMNS], struct thesis_value *v,
		     char *err, size_t errlen)
{
	const char *what = NULL;
	const char *u = csv_field(r, col[3]);
	if (r->nfields != r->nheader)
		snprintf(err, errlen, "%s:%lu: %zu fields, the header has %zu", r->path, r->line,
			 r->nfields, r->nheader);
	else if (text_field(v->figure, sizeof v->figure, csv_field(r, col[0])) < 0)
		what = "figure";
	else if (text_field(v->key, sizeof v->key, csv_field(r, col[1])) < 0)
		what = "key";
	else if (parse_value(csv_field(r, col[2]), &v->value) < 0)
		snprintf(err, errlen, "%s:%lu: value '%s' is not a number", r->path, r->line,
			 csv_field(r, col[2]));
	else if (strcmp(u, "0") && strcmp(u, "1"))
		snprintf(err, errlen, "%s:%lu: uncertain '%s' is not 0 or 1", r->path, r->line, u);
	else if (text_field(v->where, sizeof v->where, csv_field(r, col[4])) < 0)
		what = "where";
	else {
		v->uncertain = u[0] == '1';
		return 0;
	}
	if (what)
		snprintf(err, errlen, "%s:%lu: %s is empty or too long", r->path, r->line, what);
	return -1;
}

static int add(struct thesis_ref *ref, const struct thesis_value *v, const struct csv_reader *r,
	       char *err, size_t errlen)
{
	if (thesis_ref_find(ref, v->figure, v->key)) {
		snprintf(err, errlen, "%s:%lu: %s %s is given twice", r->path, r->line, v->figure,
			 v->key);
		return -1;
	}
	struct thesis_value *grown = realloc(ref->v, (ref->n + 1) * sizeof *grown);
	if (!grown) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	ref->v = grown;
	ref->v[ref->n++] = *v;
	return 0;
}

int thesis_ref_load(struct thesis_ref *ref, const char *path, char *err, size_t errlen)
{
	memset(ref, 0, sizeof *ref);
	snprintf(ref->path, sizeof ref->path, "%s", path);
	struct csv_reader r;
	if (read_source(ref, path, err, errlen) < 0 || csv_open(&r, path, err, errlen) < 0)
		return -1;
	int col[NCOLUMNS];
	int rc = find_columns(&r, col, err, errlen);
	struct thesis_value v;
	while (rc == 0 && (rc = csv_next(&r, err, errlen)) > 0) {
		rc = parse_row(&r, col, &v, err, errlen);
		if (rc == 0)
			rc = add(ref, &v, &r, err, errlen);
	}
	if (rc == 0 && ref->n == 0) {
		snprintf(err, errlen, "%s:%lu: no values", path, r.line + 1);
		rc = -1;
	}
	csv_close(&r);
	if (rc < 0)
		thesis_ref_free(ref);
	return rc;
}

void thesis_ref_free(struct thesis_ref *ref)
{
	free(ref->v);
	ref->v = NULL;
	ref->n = 0;
}

const struct thesis_value *thesis_ref_find(const struct thesis_ref *ref, const char *figure,
					   const char *key)
{
	for (size_t i = 0; i < ref->n; i++)
		if (!strcmp(ref->v[i].figure, figure) && !strcmp(ref->v[i].key, key))
			return &ref->v[i];
	return NULL;
}

size_t thesis_ref_count(const struct thesis_ref *ref, const char *figure)
{
	size_t n = 0;
	for (size_t i = 0; i < ref->n; i++)
		n += !strcmp(ref->v[i].figure, figure);
	return n;
}

const char *thesis_ref_default(char *buf, size_t len)
{
	static const char rel[] = "analysis/studies/thesis_reference.csv";
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		/* BUILD/bin/dpm: the tree is two directories above bin/. */
		for (int up = 0; up < 3; up++) {
			char *slash = strrchr(exe, '/');
			if (!slash)
				break;
			*slash = '\0';
		}
		snprintf(buf, len, "%s/%s", exe, rel);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	snprintf(buf, len, "%s", rel);
	return buf;
}

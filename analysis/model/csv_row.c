/*
 * analysis/model/csv_row.c - in-place CSV row splitting and number parsing for
 * the analyses' inputs (see csv_row.h).
 */
#include "csv_row.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void strip_eol(char *s, ssize_t *len)
{
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
		s[--*len] = '\0';
}

static int skippable(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0' || *s == '#';
}

static size_t split(char *s, char **fields)
{
	size_t n = 0;
	for (;;) {
		if (n < CSV_MAX_FIELDS)
			fields[n++] = s;
		char *comma = strchr(s, ',');
		if (!comma)
			return n;
		*comma = '\0';
		s = comma + 1;
	}
}

/* Read lines until one that is not blank or a comment: 1, 0 at EOF. */
static int read_line(struct csv_reader *r)
{
	for (;;) {
		ssize_t len = getline(&r->buf, &r->bufcap, r->f);
		if (len < 0)
			return 0;
		r->line++;
		strip_eol(r->buf, &len);
		r->len = (size_t)len;
		if (!skippable(r->buf))
			return 1;
	}
}

static char *trimmed_copy(const char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	char *c = malloc(n + 1);
	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

int csv_open(struct csv_reader *r, const char *path, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	r->f = fopen(path, "r");
	if (!r->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!read_line(r)) {
		snprintf(err, errlen, "%s:%lu:1: no header row (empty file)", path, r->line + 1);
		csv_close(r);
		return -1;
	}
	char *names[CSV_MAX_FIELDS];
	size_t n = split(r->buf, names);
	for (size_t i = 0; i < n; i++) {
		r->header[i] = trimmed_copy(names[i]);
		if (!r->header[i]) {
			snprintf(err, errlen, "%s: out of memory", path);
			csv_close(r);
			return -1;
		}
		r->nheader++;
	}
	return 0;
}

void csv_close(struct csv_reader *r)
{
	if (r->f)
		fclose(r->f);
	for (size_t i = 0; i < r->nheader; i++)
		free(r->header[i]);
	free(r->buf);
	memset(r, 0, sizeof *r);
}

int csv_column(const struct csv_reader *r, const char *name)
{
	for (size_t i = 0; i < r->nheader; i++)
		if (!strcmp(r->header[i], name))
			return (int)i;
	return -1;
}

int csv_next(struct csv_reader *r, char *err, size_t errlen)
{
	if (!read_line(r)) {
		if (ferror(r->f)) {
			snprintf(err, errlen, "%s:%lu:1: read error", r->path, r->line + 1);
			return -1;
		}
		return 0;
	}
	r->nfields = split(r->buf, r->fields);
	return 1;
}

const char *csv_field(const struct csv_reader *r, int col)
{
	if (col < 0 || (size_t)col >= r->nfields)
		return "";
	const char *s = r->fields[col];
	while (*s == ' ')
		s++;
	return s;
}

unsigned long csv_col(const struct csv_reader *r, int col)
{
	if (col < 0 || (size_t)col >= r->nfields)
		return (unsigned long)r->len + 1;
	return (unsigned long)(csv_field(r, col) - r->buf) + 1;
}

int csv_parse_u64(const char *s, uint64_t *out)
{
	while (*s == ' ')
		s++;
	if (*s == '\0')
		return 0;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	uint64_t v = 0;
	const char *p = s;
	for (; *p; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, d, &v))
			return -1;
	}
	while (*p == ' ')
		p++;
	if (p == s || *p != '\0')
		return -1;
	*out = v;
	return 1;
}

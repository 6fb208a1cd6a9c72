/*
 * servers/tsp/tsplib.c - the TSPLIB reader.  Line by line: the header is
 * "KEYWORD : value" lines, EDGE_WEIGHT_SECTION is followed by the weights
 * of EDGE_WEIGHT_FORMAT (the full matrix, or for a symmetric TSP one of
 * the four row-wise triangles) in any line layout, DISPLAY_DATA_SECTION and
 * NODE_COORD_SECTION are skipped, EOF ends the file.  Every mistake is reported once, with
 * the line and column where it was found; nothing is guessed.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsplib.h"

#define LINE_MAX_CHARS 4096

/* The EDGE_WEIGHT_FORMATs read: which cells of row i the section lists,
 * row after row (TSPLIB 95, section 1.4).  The triangles hold a symmetric
 * matrix: each weight is both (i, j) and (j, i). */
enum format { FMT_NONE, FMT_FULL_MATRIX, FMT_UPPER_ROW, FMT_LOWER_ROW, FMT_UPPER_DIAG_ROW,
	      FMT_LOWER_DIAG_ROW };
static const char *const format_names[] = {
	[FMT_FULL_MATRIX] = "FULL_MATRIX", [FMT_UPPER_ROW] = "UPPER_ROW",
	[FMT_LOWER_ROW] = "LOWER_ROW", [FMT_UPPER_DIAG_ROW] = "UPPER_DIAG_ROW",
	[FMT_LOWER_DIAG_ROW] = "LOWER_DIAG_ROW",
};
#define FORMATS_READ "FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW"

struct reader {
	FILE *f;
	const char *name;
	int line;
	char buf[LINE_MAX_CHARS + 2];
	char *err;
	size_t errlen;
	/* what the header said so far */
	int dimension, explicit_weights, symmetric, asymmetric, have_weights;
	enum format format;
};

static int fail(struct reader *r, int col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "%s:%d:%d: ", r->name, r->line, col);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next line into r->buf without its line end: 1, 0 at the end of the
 * input, -1 for a line too long. */
static int next_line(struct reader *r)
{
	size_t len = 0;
	int c, any = 0;
	while ((c = getc(r->f)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (len == LINE_MAX_CHARS) {
			r->line++;
			return fail(r, LINE_MAX_CHARS + 1, "line longer than %d characters", LINE_MAX_CHARS);
		}
		r->buf[len++] = (char)c;
	}
	if (!any)
		return 0;
	if (len > 0 && r->buf[len - 1] == '\r')
		len--;
	r->buf[len] = '\0';
	r->line++;
	return 1;
}

static char *skip_blanks(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int col_of(const struct reader *r, const char *p)
{
	return (int)(p - r->buf) + 1;
}

/* One weight token at *pp: 0 and *value, advancing *pp; -1 on error. */
static int read_weight(struct reader *r, char **pp, int32_t *value)
{
	char *start = *pp, *p = start;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	char saved = *p;
	*p = '\0';
	char *end;
	long v = strtol(start, &end, 10);
	int bad = end == start || *end != '\0';
	if (bad && (isdigit((unsigned char)*start) || *start == '-') && strchr(start, '.'))
		fail(r, col_of(r, start), "weight '%s' is not an integer", start);
	else if (bad)
		fail(r, col_of(r, start), "expected a weight, found '%s'", start);
	else if (v < 0)
		fail(r, col_of(r, start), "negative weight %ld", v);
	else if (v > TSP_MAX_COST)
		fail(r, col_of(r, start), "weight %ld above the limit %d", v, TSP_MAX_COST);
	*p = saved;
	*pp = p;
	if (bad || v < 0 || v > TSP_MAX_COST)
		return -1;
	*value = (int32_t)v;
	return 0;
}

/* Columns first..last of row i in the section, for the reader's format. */
static void row_span(const struct reader *r, int i, int *first, int *last)
{
	int n = r->dimension;
	switch (r->format) {
	case FMT_UPPER_ROW: *first = i + 1; *last = n - 1; break;
	case FMT_LOWER_ROW: *first = 0; *last = i - 1; break;
	case FMT_UPPER_DIAG_ROW: *first = i; *last = n - 1; break;
	case FMT_LOWER_DIAG_ROW: *first = 0; *last = i; break;
	default: *first = 0; *last = n - 1; break;
	}
}

/* How many weights the section holds. */
static int weights_wanted(const struct reader *r)
{
	int want = 0;
	for (int i = 0, first, last; i < r->dimension; i++) {
		row_span(r, i, &first, &last);
		want += last >= first ? last - first + 1 : 0;
	}
	return want;
}

/* The cell of the next weight after (*i, *j), rows in order, skipping empty
 * rows; (-1, -1) to start. */
static void next_cell(const struct reader *r, int *i, int *j)
{
	int first, last;
	if (*i >= 0) {
		row_span(r, *i, &first, &last);
		if (*j < last) {
			++*j;
			return;
		}
	}
	do
		row_span(r, ++*i, &first, &last);
	while (last < first && *i < r->dimension - 1);
	*j = first;
}

/* Place a weight at row i, column j; a full matrix of a TSP must be
 * symmetric, a triangle is mirrored. */
static int place_weight(struct reader *r, struct tsp_instance *t, int i, int j, int32_t w, int col)
{
	if (i == j)
		w = 0;
	if (r->format != FMT_FULL_MATRIX) {
		tsp_set_cost(t, j, i, w);
	} else if (r->symmetric && i > j && w != tsp_cost(t, j, i)) {
		return fail(r, col, "TYPE TSP, but the weight from %d to %d (%d) differs from %d to %d (%d)",
			    i + 1, j + 1, (int)w, j + 1, i + 1, (int)tsp_cost(t, j, i));
	}
	tsp_set_cost(t, i, j, w);
	return 0;
}

/* The weights after EDGE_WEIGHT_SECTION; p: the rest of the keyword's line. */
static int read_weights(struct reader *r, struct tsp_instance *t, char *p)
{
	int want = weights_wanted(r), got = 0, i = -1, j = -1;
	t->n = r->dimension;
	for (;;) {
		for (p = skip_blanks(p); *p; p = skip_blanks(p)) {
			if (got == want && r->format == FMT_FULL_MATRIX)
				return fail(r, col_of(r, p), "more than DIMENSION x DIMENSION = %d weights", want);
			if (got == want)
				return fail(r, col_of(r, p), "more than the %d weights of %s for DIMENSION %d",
					    want, format_names[r->format], r->dimension);
			int32_t w;
			char *at = p;
			next_cell(r, &i, &j);
			if (read_weight(r, &p, &w) < 0 || place_weight(r, t, i, j, w, col_of(r, at)) < 0)
				return -1;
			got++;
		}
		if (got == want)
			return 0;
		int more = next_line(r);
		if (more < 0)
			return -1;
		if (!more)
			return fail(r, 1, "EDGE_WEIGHT_SECTION ends after %d of %d weights", got, want);
		p = r->buf;
	}
}

/* Skip a coordinate section: its lines start with a digit or a blank. */
static int skip_section(struct reader *r, int *pending)
{
	int more;
	while ((more = next_line(r)) > 0) {
		char *p = skip_blanks(r->buf);
		if (*p && !isdigit((unsigned char)*p) && *p != '-' && *p != '.') {
			*pending = 1; /* a keyword: the caller reads this line */
			return 0;
		}
	}
	return more;
}

static int value_is(const char *value, const char *want)
{
	return !strcmp(value, want);
}

/* One header line "KEYWORD [:] value"; 1 when EOF was read. */
static int header_line(struct reader *r, struct tsp_instance *t, int *pending)
{
	char *p = skip_blanks(r->buf);
	if (!*p)
		return 0;
	char *key = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	size_t keylen = (size_t)(p - key);
	char keyword[64];
	if (keylen == 0 || keylen >= sizeof keyword)
		return fail(r, col_of(r, key), "expected a keyword");
	memcpy(keyword, key, keylen);
	keyword[keylen] = '\0';
	p = skip_blanks(p);
	if (*p == ':')
		p = skip_blanks(p + 1);
	char *value = p;
	for (char *e = value + strlen(value); e > value && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0';
	int vcol = col_of(r, value);

	if (value_is(keyword, "NAME") || value_is(keyword, "COMMENT") ||
	    value_is(keyword, "DISPLAY_DATA_TYPE") || value_is(keyword, "NODE_COORD_TYPE"))
		return 0;
	if (value_is(keyword, "EOF"))
		return 1;
	if (value_is(keyword, "TYPE")) {
		if (!value_is(value, "TSP") && !value_is(value, "ATSP"))
			return fail(r, vcol, "TYPE '%s' is not supported: only TSP and ATSP", value);
		r->symmetric = value_is(value, "TSP");
		r->asymmetric = !r->symmetric;
		return 0;
	}
	if (value_is(keyword, "DIMENSION")) {
		char *end;
		long d = strtol(value, &end, 10);
		if (end == value || *end)
			return fail(r, vcol, "DIMENSION '%s' is not a number", value);
		if (d < TSP_MIN_N || d > TSP_MAX_N)
			return fail(r, vcol, "DIMENSION %ld out of range %d..%d", d, TSP_MIN_N, TSP_MAX_N);
		r->dimension = (int)d;
		return 0;
	}
	if (value_is(keyword, "EDGE_WEIGHT_TYPE")) {
		if (!value_is(value, "EXPLICIT"))
			return fail(r, vcol, "EDGE_WEIGHT_TYPE '%s' is not supported: only EXPLICIT", value);
		r->explicit_weights = 1;
		return 0;
	}
	if (value_is(keyword, "EDGE_WEIGHT_FORMAT")) {
		r->format = FMT_NONE;
		for (size_t f = FMT_FULL_MATRIX; f < sizeof format_names / sizeof *format_names; f++)
			if (value_is(value, format_names[f]))
				r->format = (enum format)f;
		if (r->format == FMT_NONE)
			return fail(r, vcol, "EDGE_WEIGHT_FORMAT '%s' is not supported: only " FORMATS_READ, value);
		return 0;
	}
	if (value_is(keyword, "EDGE_WEIGHT_SECTION")) {
		if (!r->dimension)
			return fail(r, col_of(r, key), "EDGE_WEIGHT_SECTION before DIMENSION");
		if (!r->explicit_weights || r->format == FMT_NONE)
			return fail(r, col_of(r, key), "EDGE_WEIGHT_SECTION without EDGE_WEIGHT_TYPE: EXPLICIT "
					"and an EDGE_WEIGHT_FORMAT");
		if (r->asymmetric && r->format != FMT_FULL_MATRIX)
			return fail(r, col_of(r, key), "TYPE ATSP needs EDGE_WEIGHT_FORMAT: FULL_MATRIX, not %s",
				    format_names[r->format]);
		if (r->have_weights)
			return fail(r, col_of(r, key), "a second EDGE_WEIGHT_SECTION");
		r->have_weights = 1;
		return read_weights(r, t, value);
	}
	if (value_is(keyword, "DISPLAY_DATA_SECTION") || value_is(keyword, "NODE_COORD_SECTION"))
		return skip_section(r, pending);
	return fail(r, col_of(r, key), "unknown keyword '%s'", keyword);
}

int tsplib_read(FILE *f, const char *name, struct tsp_instance *t, char *err, size_t errlen)
{
	static struct reader r;
	r = (struct reader){ .f = f, .name = name, .err = err, .errlen = errlen };
	int pending = 0, more = 0;
	while (pending || (more = next_line(&r)) > 0) {
		pending = 0;
		int done = header_line(&r, t, &pending);
		if (done < 0)
			return -1;
		if (done)
			break;
	}
	if (more < 0)
		return -1;
	if (r.line == 0) {
		r.line = 1;
		return fail(&r, 1, "empty input: expected a TSPLIB instance");
	}
	if (!r.have_weights)
		return fail(&r, 1, "no EDGE_WEIGHT_SECTION");
	return 0;
}

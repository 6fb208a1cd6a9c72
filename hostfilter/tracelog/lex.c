/*
 * hostfilter/tracelog/lex.c - tokenizer for the description and rule languages.
 *
 * Hand-written and tiny: the languages have a dozen tokens.  Positions are
 * 1-based lines and byte columns, as compilers print them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

void lex_init(struct lexer *lx, const char *file, const char *text, size_t len,
	      int first_line, char *err, size_t errlen)
{
	lx->file = file;
	lx->p = text;
	lx->end = text + len;
	lx->line = first_line;
	lx->line_start = text;
	lx->err = err;
	lx->errlen = errlen;
}

int lex_error(struct lexer *lx, int line, int col, const char *fmt, ...)
{
	int n = snprintf(lx->err, lx->errlen, "%s:%d:%d: ", lx->file, line, col);
	if (n >= 0 && (size_t)n < lx->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_'; }

/* Skip blanks, newlines and `//` comments. */
static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;
		if (c == '\n') {
			lx->p++;
			lx->line++;
			lx->line_start = lx->p;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else {
			return;
		}
	}
}

static void lex_name(struct lexer *lx, struct token *t)
{
	const char *s = lx->p;
	while (lx->p < lx->end && is_name_char((unsigned char)*lx->p))
		lx->p++;
	size_t n = (size_t)(lx->p - s);
	if (n > LEX_NAME_MAX) {
		lex_error(lx, t->line, t->col, "name too long (at most %d characters)", LEX_NAME_MAX);
		t->kind = TOK_ERROR;
		return;
	}
	memcpy(t->text, s, n);
	t->text[n] = 0;
	t->kind = TOK_NAME;
}

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

static void lex_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->p;
	unsigned base = 10;
	if (lx->end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    digit_value((unsigned char)s[2]) < 16) {
		base = 16;
		lx->p += 2;
	}
	uint64_t v = 0;
	int overflow = 0;
	while (lx->p < lx->end && digit_value((unsigned char)*lx->p) < (int)base) {
		unsigned d = (unsigned)digit_value((unsigned char)*lx->p++);
		if (v > (UINT64_MAX - d) / base)
			overflow = 1;
		v = v * base + d;
	}
	if (lx->p < lx->end && is_name_char((unsigned char)*lx->p)) {
		while (lx->p < lx->end && is_name_char((unsigned char)*lx->p))
			lx->p++;
		lex_error(lx, t->line, t->col, "bad number '%.*s'", (int)(lx->p - s), s);
		t->kind = TOK_ERROR;
		return;
	}
	if (overflow) {
		lex_error(lx, t->line, t->col, "number '%.*s' does not fit in 64 bits", (int)(lx->p - s), s);
		t->kind = TOK_ERROR;
		return;
	}
	t->number = v;
	t->kind = TOK_NUMBER;
}

static const char *const two_char_puncts[] = { "!=", "<>", "<=", ">=" };
static const char one_char_puncts[] = ".,;=*#<>";

void lex_next(struct lexer *lx, struct token *t)
{
	skip_space(lx);
	t->line = lx->line;
	t->col = (int)(lx->p - lx->line_start) + 1;
	t->text[0] = 0;
	t->number = 0;
	if (lx->p >= lx->end) {
		t->kind = TOK_EOF;
		return;
	}
	unsigned char c = (unsigned char)*lx->p;
	if (is_name_start(c)) {
		lex_name(lx, t);
		return;
	}
	if (isdigit(c)) {
		lex_number(lx, t);
		return;
	}
	for (size_t i = 0; i < sizeof two_char_puncts / sizeof two_char_puncts[0]; i++) {
		if (lx->end - lx->p >= 2 && !memcmp(lx->p, two_char_puncts[i], 2)) {
			memcpy(t->text, lx->p, 2);
			t->text[2] = 0;
			lx->p += 2;
			t->kind = TOK_PUNCT;
			return;
		}
	}
	if (c != 0 && strchr(one_char_puncts, c)) {
		t->text[0] = (char)c;
		t->text[1] = 0;
		lx->p++;
		t->kind = TOK_PUNCT;
		return;
	}
	if (isprint(c))
		lex_error(lx, t->line, t->col, "unexpected character '%c'", c);
	else
		lex_error(lx, t->line, t->col, "unexpected byte 0x%02x", c);
	t->kind = TOK_ERROR;
}

int lex_expected(struct lexer *lx, const struct token *t, const char *what)
{
	char found[64];
	if (t->kind == TOK_ERROR)
		return -1;
	return lex_error(lx, t->line, t->col, "expected %s, found %s", what,
			 tok_describe(t, found, sizeof found));
}

int tok_is(const struct token *t, const char *s)
{
	return t->kind == TOK_PUNCT && !strcmp(t->text, s);
}

const char *tok_describe(const struct token *t, char *buf, size_t len)
{
	switch (t->kind) {
	case TOK_EOF:
		snprintf(buf, len, "end of file");
		break;
	case TOK_NUMBER:
		snprintf(buf, len, "number %llu", (unsigned long long)t->number);
		break;
	default:
		snprintf(buf, len, "'%s'", t->text);
		break;
	}
	return buf;
}

char *lex_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	int failed = ferror(f);
	fclose(f);
	if (!buf || failed) {
		snprintf(err, errlen, "%s: %s", path, buf ? "read error" : "out of memory");
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

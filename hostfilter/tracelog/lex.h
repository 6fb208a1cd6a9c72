/*
 * hostfilter/tracelog/lex.h - the tokenizer shared by the two little languages of
 * the filter: trace descriptions (desc.c) and selection rules (rules.c).
 *
 * Both languages are made of the same few tokens (names, unsigned numbers,
 * one- or two-character punctuation) with free white space and `//`
 * comments, so one tokenizer serves both and every error in either language
 * comes out in the same `file:line:col: message` form.  `#` is a token (the
 * rules' discard marker), which is why comments are `//` and not `#`.
 */
#ifndef DPM_HOSTFILTER_LEX_H
#define DPM_HOSTFILTER_LEX_H

#include <stddef.h>
#include <stdint.h>

#define LEX_NAME_MAX 31 /* longest name, in characters */

enum tok_kind {
	TOK_EOF,
	TOK_NAME,   /* [A-Za-z_][A-Za-z0-9_]*                       */
	TOK_NUMBER, /* decimal or 0x hexadecimal, fits in 64 bits    */
	TOK_PUNCT,  /* . , ; = * # < > != <> <= >=                   */
	TOK_ERROR   /* the lexer has written the error message        */
};

struct token {
	enum tok_kind kind;
	int line, col;
	char text[LEX_NAME_MAX + 1]; /* the name, or the punctuation */
	uint64_t number;
};

struct lexer {
	const char *file;  /* for messages */
	const char *p;     /* next character */
	const char *end;
	int line;
	const char *line_start;
	char *err;         /* where messages go */
	size_t errlen;
};

void lex_init(struct lexer *lx, const char *file, const char *text, size_t len,
	      int first_line, char *err, size_t errlen);

/* Read the next token into *t.  On a lexical error t->kind is TOK_ERROR and
 * the message is in lx->err. */
void lex_next(struct lexer *lx, struct token *t);

/* Write "file:line:col: message" into lx->err; returns -1 for convenience. */
int lex_error(struct lexer *lx, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Fail with "expected WHAT, found TOKEN" at t (nothing more to say if t
 * is already a lexical error); returns -1. */
int lex_expected(struct lexer *lx, const struct token *t, const char *what);

/* Whether t is the punctuation `s`. */
int tok_is(const struct token *t, const char *s);

/* A short description of t for messages: "'foo'", "'='", "end of file". */
const char *tok_describe(const struct token *t, char *buf, size_t len);

/* Read a whole file into a NUL-terminated heap buffer; NULL and a message
 * ("path: reason") in err on failure. */
char *lex_read_file(const char *path, size_t *len, char *err, size_t errlen);

#endif

/*
 * hostfilter/tracelog/desc.c - parser of the trace description language.
 *
 * Recursive descent over lex.c's tokens; it checks what one description
 * can check on its own (lengths, bases, duplicate field names).  Checks
 * across descriptions (the header, duplicate type numbers) belong to
 * formats.c, because the log reuses this parser for flat descriptions in
 * which type numbers repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "grow.h"

struct parser {
	struct lexer lx;
	struct token tok;
};

static void advance(struct parser *ps)
{
	lex_next(&ps->lx, &ps->tok);
}

static int expected(struct parser *ps, const char *what)
{
	return lex_expected(&ps->lx, &ps->tok, what);
}

static int expect_punct(struct parser *ps, const char *p, const char *what)
{
	if (!tok_is(&ps->tok, p))
		return expected(ps, what);
	advance(ps);
	return 0;
}

/* A number where `what` is expected, with its position (for range errors). */
struct number_at {
	uint64_t v;
	int line, col;
};

static int expect_number(struct parser *ps, const char *what, struct number_at *n)
{
	n->v = 0;
	n->line = ps->tok.line;
	n->col = ps->tok.col;
	if (ps->tok.kind != TOK_NUMBER)
		return expected(ps, what);
	n->v = ps->tok.number;
	advance(ps);
	return 0;
}

/* name "," offset "," length "," base */
static int parse_field(struct parser *ps, struct desc *d)
{
	struct desc_field *f = &d->fields[d->nfields];
	struct number_at offset, length, base;
	int line = ps->tok.line, col = ps->tok.col;
	if (d->nfields == DESC_FIELDS_MAX)
		return lex_error(&ps->lx, line, col, "too many fields in '%s' (at most %d)", d->name,
				 DESC_FIELDS_MAX);
	if (desc_field_index(d, ps->tok.text) >= 0)
		return lex_error(&ps->lx, line, col, "field '%s' appears twice in '%s'", ps->tok.text,
				 d->name);
	memset(f, 0, sizeof *f);
	strcpy(f->name, ps->tok.text);
	f->line = line;
	f->col = col;
	advance(ps);
	if (expect_punct(ps, ",", "',' after the field name") ||
	    expect_number(ps, "the field's offset", &offset) ||
	    expect_punct(ps, ",", "',' after the offset") ||
	    expect_number(ps, "the field's length", &length) ||
	    expect_punct(ps, ",", "',' after the length") ||
	    expect_number(ps, "the field's display base", &base))
		return -1;
	if (offset.v > DESC_OFFSET_MAX)
		return lex_error(&ps->lx, offset.line, offset.col, "offset %llu is too large (at most %d)",
				 (unsigned long long)offset.v, DESC_OFFSET_MAX);
	if (length.v != 1 && length.v != 2 && length.v != 4 && length.v != 8)
		return lex_error(&ps->lx, length.line, length.col,
				 "field length must be 1, 2, 4 or 8, not %llu", (unsigned long long)length.v);
	if (base.v != 2 && base.v != 8 && base.v != 10 && base.v != 16)
		return lex_error(&ps->lx, base.line, base.col, "base must be 2, 8, 10 or 16, not %llu",
				 (unsigned long long)base.v);
	f->offset = (uint32_t)offset.v;
	f->length = (uint8_t)length.v;
	f->base = (uint8_t)base.v;
	d->nfields++;
	return 0;
}

static struct desc *new_desc(struct desc_set *set)
{
	if (grow_for_one_more((void **)&set->descs, &set->cap, set->n, sizeof *set->descs))
		return NULL;
	struct desc *d = &set->descs[set->n];
	memset(d, 0, sizeof *d);
	return d;
}

static int parse_description(struct parser *ps, struct desc_set *set)
{
	struct desc *d = new_desc(set);
	if (!d)
		return lex_error(&ps->lx, ps->tok.line, ps->tok.col, "out of memory");
	if (ps->tok.kind != TOK_NAME)
		return expected(ps, "a description name");
	strcpy(d->name, ps->tok.text);
	d->line = ps->tok.line;
	d->col = ps->tok.col;
	advance(ps);

	struct number_at type;
	char what[80];
	snprintf(what, sizeof what, "a type number after '%s'", d->name);
	if (expect_number(ps, what, &type))
		return -1;
	if (type.v > DESC_TYPE_MAX)
		return lex_error(&ps->lx, type.line, type.col, "type number %llu is too large (at most %d)",
				 (unsigned long long)type.v, DESC_TYPE_MAX);
	d->type = (uint32_t)type.v;
	if (expect_punct(ps, ".", "'.' after the type number"))
		return -1;
	while (ps->tok.kind == TOK_NAME)
		if (parse_field(ps, d))
			return -1;
	if (expect_punct(ps, ";", "a field or ';' ending the description"))
		return -1;
	set->n++;
	return 0;
}

int desc_parse(struct desc_set *set, const char *file, const char *text, size_t len,
	       int first_line, char *err, size_t errlen)
{
	struct parser ps;
	set->file = file;
	lex_init(&ps.lx, file, text, len, first_line, err, errlen);
	advance(&ps);
	while (ps.tok.kind != TOK_EOF)
		if (parse_description(&ps, set))
			return -1;
	return 0;
}

int desc_load(struct desc_set *set, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = lex_read_file(path, &len, err, errlen);
	if (!text)
		return -1;
	int r = desc_parse(set, path, text, len, 1, err, errlen);
	free(text);
	return r;
}

void desc_free(struct desc_set *set)
{
	free(set->descs);
	memset(set, 0, sizeof *set);
}

uint32_t desc_extent(const struct desc *d)
{
	uint32_t end = 0;
	for (size_t i = 0; i < d->nfields; i++)
		if (d->fields[i].offset + d->fields[i].length > end)
			end = d->fields[i].offset + d->fields[i].length;
	return end;
}

int desc_field_index(const struct desc *d, const char *name)
{
	for (size_t i = 0; i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, name))
			return (int)i;
	return -1;
}

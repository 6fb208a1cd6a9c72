/*
 * hostfilter/filter/rules.c - parse selection rules and compile them per trace type.
 *
 * One rule at a time: parse it into terms, resolve names (fields, the
 * `type` alias of traceType, trace types by name), then compile it for
 * every format it can match.  A rule that can match no format is an error
 * that says why, so --check catches a misspelt or misplaced field.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostfilter/tracelog/grow.h"
#include "rules.h"

#define RULE_TERMS_MAX 64

enum value_kind { V_NUMBER, V_WILDCARD, V_FIELD, V_TYPE };

struct term {
	char field[LEX_NAME_MAX + 1]; /* as written */
	const char *name;             /* field looked up (after the `type` alias) */
	int line, col;
	enum rule_op op;
	int discard;
	enum value_kind kind;
	uint64_t number;              /* V_NUMBER, V_TYPE */
	char other[LEX_NAME_MAX + 1]; /* V_FIELD */
	int vline, vcol;
};

struct source_rule {
	int line, col;
	size_t n;
	struct term t[RULE_TERMS_MAX];
};

struct rule_vec {
	struct compiled_rule *v;
	size_t n, cap;
};

struct compiler {
	struct rules *r;
	const struct formats *fm;
	struct lexer lx;
	struct token tok;
	struct rule_vec per_type[FORMAT_TYPES];
};

static const struct {
	const char *text;
	enum rule_op op;
} operators[] = {
	{ "=", OP_EQ }, { "!=", OP_NE }, { "<>", OP_NE }, { "<", OP_LT },
	{ ">", OP_GT }, { "<=", OP_LE }, { ">=", OP_GE },
};

static inline int op_holds(unsigned op, uint64_t a, uint64_t b)
{
	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_GT: return a > b;
	case OP_LE: return a <= b;
	default: return a >= b;
	}
}

/* ---- names ---------------------------------------------------------- */

/* The name a field is found under in some format ("" if none);
 * case_blind finds it ignoring case (for "did you mean"). */
static const char *known_field(const struct formats *fm, const char *name, int case_blind)
{
	const struct desc *h = fm->header;
	for (size_t k = 0; k < h->nfields; k++)
		if (case_blind ? !strcasecmp(h->fields[k].name, name) : !strcmp(h->fields[k].name, name))
			return h->fields[k].name;
	for (size_t i = 0; i < fm->n; i++)
		for (size_t k = 0; k < fm->list[i].nfields; k++) {
			const char *fname = fm->list[i].fields[k].name;
			if (case_blind ? !strcasecmp(fname, name) : !strcmp(fname, name))
				return fname;
		}
	return NULL;
}

static int unknown_field(struct compiler *c, const char *name, int line, int col,
			 const char *what)
{
	const char *near = known_field(c->fm, name, 1);
	if (near)
		return lex_error(&c->lx, line, col, "unknown %s '%s' (did you mean '%s'?)", what,
				 name, near);
	return lex_error(&c->lx, line, col, "unknown %s '%s'", what, name);
}

/* `type` is the thesis's short name for traceType (Fig. 3.4), unless a
 * description has a field really called `type`. */
static const char *field_alias(const struct formats *fm, const char *name)
{
	if (!strcmp(name, "type") && !known_field(fm, "type", 0))
		return fm->type_field.name;
	return name;
}

static int is_type_field(const struct compiler *c, const char *name)
{
	return !strcmp(name, c->fm->type_field.name);
}

static int resolve_term(struct compiler *c, struct term *t)
{
	t->name = field_alias(c->fm, t->field);
	if (!known_field(c->fm, t->name, 0))
		return unknown_field(c, t->field, t->line, t->col, "field");
	if (t->kind == V_WILDCARD && t->op != OP_EQ)
		return lex_error(&c->lx, t->vline, t->vcol,
				 "'*' matches any value, so it goes only with '='");
	if (t->kind != V_FIELD)
		return 0;
	if (is_type_field(c, t->name)) {
		const struct format *f = formats_by_name(c->fm, t->other);
		if (f) {
			t->kind = V_TYPE;
			t->number = f->type;
			return 0;
		}
	}
	const char *other = field_alias(c->fm, t->other);
	if (known_field(c->fm, other, 0)) {
		if (other != t->other) /* an alias: its field's own name */
			strcpy(t->other, other);
		return 0;
	}
	return unknown_field(c, t->other, t->vline, t->vcol,
			     is_type_field(c, t->name) ? "trace type or field" : "field");
}

/* ---- compiling ------------------------------------------------------ */

static int push_cond(struct rules *r, struct cond cd)
{
	if (grow_for_one_more((void **)&r->conds, &r->conds_cap, r->nconds, sizeof *r->conds))
		return -1;
	r->conds[r->nconds++] = cd;
	return 0;
}

static int push_rule(struct rule_vec *vec, struct compiled_rule cr)
{
	if (grow_for_one_more((void **)&vec->v, &vec->cap, vec->n, sizeof *vec->v))
		return -1;
	vec->v[vec->n++] = cr;
	return 0;
}

/* Whether the rule's constant conditions on traceType hold for type. */
static int type_conds_hold(const struct compiler *c, const struct source_rule *sr, uint32_t type)
{
	for (size_t i = 0; i < sr->n; i++) {
		const struct term *t = &sr->t[i];
		if (is_type_field(c, t->name) && (t->kind == V_NUMBER || t->kind == V_TYPE) &&
		    !op_holds(t->op, type, t->number))
			return 0;
	}
	return 1;
}

/* Compile one term for format f.  1 added (or decided true), 0 the rule
 * cannot match f, -1 error. */
static int compile_term(struct compiler *c, const struct format *f, const struct term *t,
			uint64_t *kept)
{
	int fi = format_field_index(f, t->name);
	if (fi < 0)
		return 0;
	const struct format_field *ff = &f->fields[fi];
	if (t->discard)
		*kept &= ~(1ull << fi);
	if (t->kind == V_WILDCARD)
		return 1;
	if (is_type_field(c, t->name) && t->kind != V_FIELD)
		return 1; /* decided by type_conds_hold */
	struct cond cd = { .offset = ff->offset, .length = ff->length, .op = (uint8_t)t->op };
	if (t->kind == V_FIELD) {
		int oi = format_field_index(f, t->other);
		if (oi < 0)
			return 0;
		cd.by_field = 1;
		cd.other_offset = f->fields[oi].offset;
		cd.other_length = f->fields[oi].length;
	} else {
		if (ff->length < 8 && t->number >> (8 * ff->length))
			return lex_error(&c->lx, t->vline, t->vcol,
					 "value %llu does not fit in the %u-byte field '%s'",
					 (unsigned long long)t->number, ff->length, t->field);
		cd.constant = t->number;
	}
	if (push_cond(c->r, cd))
		return lex_error(&c->lx, t->line, t->col, "out of memory");
	return 1;
}

/* Compile sr for f: 1 compiled, 0 cannot match f, -1 error. */
static int compile_for_format(struct compiler *c, const struct source_rule *sr,
			      const struct format *f)
{
	struct rules *r = c->r;
	size_t first = r->nconds;
	uint64_t kept = layout_all_fields(f);
	if (!type_conds_hold(c, sr, f->type))
		return 0;
	for (size_t i = 0; i < sr->n; i++) {
		int k = compile_term(c, f, &sr->t[i], &kept);
		if (k <= 0) {
			r->nconds = first;
			return k;
		}
	}
	int layout = layout_get(&r->layouts, f, kept);
	struct compiled_rule cr = { (uint32_t)first, (uint32_t)(r->nconds - first), (uint32_t)layout };
	if (layout < 0 || push_rule(&c->per_type[f->type], cr))
		return lex_error(&c->lx, sr->line, sr->col, "out of memory");
	return 1;
}

/* The rule matches no format: say which term is to blame. */
static int explain_no_match(struct compiler *c, const struct source_rule *sr)
{
	const struct format *only = NULL;
	size_t candidates = 0;
	for (size_t i = 0; i < c->fm->n; i++)
		if (type_conds_hold(c, sr, c->fm->list[i].type)) {
			candidates++;
			only = &c->fm->list[i];
		}
	if (!candidates)
		return lex_error(&c->lx, sr->line, sr->col,
				 "no trace type satisfies this rule's conditions on %s",
				 c->fm->type_field.name);
	for (size_t i = 0; i < sr->n; i++) {
		const struct term *t = &sr->t[i];
		const char *names[2] = { t->name, t->kind == V_FIELD ? t->other : NULL };
		int lines[2] = { t->line, t->vline }, cols[2] = { t->col, t->vcol };
		for (int k = 0; k < 2 && names[k]; k++) {
			int found = 0;
			for (size_t j = 0; j < c->fm->n && !found; j++)
				found = type_conds_hold(c, sr, c->fm->list[j].type) &&
					format_field_index(&c->fm->list[j], names[k]) >= 0;
			if (found)
				continue;
			if (candidates == 1)
				return lex_error(&c->lx, lines[k], cols[k], "%s traces have no field '%s'",
						 only->name, names[k]);
			return lex_error(&c->lx, lines[k], cols[k],
					 "no trace type this rule selects has a field '%s'", names[k]);
		}
	}
	return lex_error(&c->lx, sr->line, sr->col, "no trace type has all the fields of this rule");
}

static int compile_rule(struct compiler *c, struct source_rule *sr)
{
	for (size_t i = 0; i < sr->n; i++)
		if (resolve_term(c, &sr->t[i]))
			return -1;
	int matched = 0;
	for (size_t i = 0; i < c->fm->n; i++) {
		int k = compile_for_format(c, sr, &c->fm->list[i]);
		if (k < 0)
			return -1;
		matched += k;
	}
	return matched ? 0 : explain_no_match(c, sr);
}

/* ---- parsing -------------------------------------------------------- */

static void advance(struct compiler *c)
{
	lex_next(&c->lx, &c->tok);
}

static int expected(struct compiler *c, const char *what)
{
	return lex_expected(&c->lx, &c->tok, what);
}

static int parse_operator(struct compiler *c, struct term *t)
{
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		if (tok_is(&c->tok, operators[i].text)) {
			t->op = operators[i].op;
			advance(c);
			return 0;
		}
	}
	char what[96];
	snprintf(what, sizeof what, "an operator (=, !=, <, >, <=, >=) after '%s'", t->field);
	return expected(c, what);
}

static int parse_value(struct compiler *c, struct term *t)
{
	if (tok_is(&c->tok, "#")) {
		t->discard = 1;
		advance(c);
	}
	t->vline = c->tok.line;
	t->vcol = c->tok.col;
	if (c->tok.kind == TOK_NUMBER) {
		t->kind = V_NUMBER;
		t->number = c->tok.number;
	} else if (tok_is(&c->tok, "*")) {
		t->kind = V_WILDCARD;
	} else if (c->tok.kind == TOK_NAME) {
		t->kind = V_FIELD;
		strcpy(t->other, c->tok.text);
	} else {
		return expected(c, "a value (a number, '*' or a field name)");
	}
	advance(c);
	return 0;
}

static int parse_term(struct compiler *c, struct source_rule *sr)
{
	if (sr->n == RULE_TERMS_MAX)
		return lex_error(&c->lx, c->tok.line, c->tok.col, "too many terms in one rule (at most %d)",
				 RULE_TERMS_MAX);
	struct term *t = &sr->t[sr->n];
	memset(t, 0, sizeof *t);
	if (c->tok.kind != TOK_NAME)
		return expected(c, "a field name");
	strcpy(t->field, c->tok.text);
	t->line = c->tok.line;
	t->col = c->tok.col;
	advance(c);
	if (parse_operator(c, t) || parse_value(c, t))
		return -1;
	sr->n++;
	return 0;
}

static int parse_rule(struct compiler *c, struct source_rule *sr)
{
	sr->line = c->tok.line;
	sr->col = c->tok.col;
	sr->n = 0;
	if (tok_is(&c->tok, ";"))
		return lex_error(&c->lx, sr->line, sr->col, "empty rule");
	for (;;) {
		if (parse_term(c, sr))
			return -1;
		if (tok_is(&c->tok, ";")) {
			advance(c);
			return 0;
		}
		if (!tok_is(&c->tok, ","))
			return expected(c, "',' or ';' after the value");
		advance(c);
	}
}

/* Lay the per-type rule lists out in one array. */
static int flatten(struct compiler *c)
{
	struct rules *r = c->r;
	size_t total = 0;
	for (int t = 0; t < FORMAT_TYPES; t++)
		total += c->per_type[t].n;
	r->compiled = malloc((total ? total : 1) * sizeof *r->compiled);
	if (!r->compiled)
		return -1;
	for (int t = 0; t < FORMAT_TYPES; t++) {
		r->by_type[t].first = (uint32_t)r->ncompiled;
		r->by_type[t].n = (uint32_t)c->per_type[t].n;
		for (size_t i = 0; i < c->per_type[t].n; i++)
			r->compiled[r->ncompiled++] = c->per_type[t].v[i];
	}
	return 0;
}

/* Every format gets its full layout first, so layout i is format i whole. */
static int start(struct rules *r, const struct formats *fm)
{
	memset(r, 0, sizeof *r);
	r->fm = fm;
	for (size_t i = 0; i < fm->n; i++)
		if (layout_get(&r->layouts, &fm->list[i], layout_all_fields(&fm->list[i])) < 0)
			return -1;
	return 0;
}

int rules_parse(struct rules *r, const struct formats *fm, const char *file, const char *text,
		size_t len, char *err, size_t errlen)
{
	struct compiler *c = calloc(1, sizeof *c);
	struct source_rule *sr = malloc(sizeof *sr);
	int rc = -1;
	memset(r, 0, sizeof *r);
	if (!c || !sr || start(r, fm)) {
		snprintf(err, errlen, "%s: out of memory", file);
		goto out;
	}
	c->r = r;
	c->fm = fm;
	lex_init(&c->lx, file, text, len, 1, err, errlen);
	advance(c);
	while (c->tok.kind != TOK_EOF) {
		if (c->tok.kind == TOK_ERROR || parse_rule(c, sr) || compile_rule(c, sr))
			goto out;
		r->nsource++;
	}
	if (!r->nsource) {
		lex_error(&c->lx, 1, 1, "no rules (to keep every trace, give no rules file)");
		goto out;
	}
	if (flatten(c))
		snprintf(err, errlen, "%s: out of memory", file);
	else
		rc = 0;
out:
	if (c)
		for (int t = 0; t < FORMAT_TYPES; t++)
			free(c->per_type[t].v);
	free(c);
	free(sr);
	if (rc < 0)
		rules_free(r); /* rules refused leave nothing allocated */
	return rc;
}

static int keep_everything(struct rules *r, const struct formats *fm)
{
	if (start(r, fm))
		return -1;
	r->compiled = malloc((fm->n ? fm->n : 1) * sizeof *r->compiled);
	if (!r->compiled)
		return -1;
	for (size_t i = 0; i < fm->n; i++) {
		r->compiled[i] = (struct compiled_rule){ 0, 0, (uint32_t)i };
		r->by_type[fm->list[i].type] = (struct type_rules){ (uint32_t)i, 1 };
	}
	r->ncompiled = fm->n;
	return 0;
}

int rules_load(struct rules *r, const struct formats *fm, const char *path, char *err,
	       size_t errlen)
{
	if (!path) {
		if (keep_everything(r, fm) == 0)
			return 0;
		rules_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	size_t len;
	char *text = lex_read_file(path, &len, err, errlen);
	if (!text)
		return -1;
	int rc = rules_parse(r, fm, path, text, len, err, errlen);
	free(text);
	return rc;
}

void rules_free(struct rules *r)
{
	layout_set_free(&r->layouts);
	free(r->conds);
	free(r->compiled);
	memset(r, 0, sizeof *r);
}

static inline int cond_holds(const struct cond *cd, const uint8_t *rec)
{
	uint64_t a = field_load(rec + cd->offset, cd->length);
	uint64_t b = cd->by_field ? field_load(rec + cd->other_offset, cd->other_length)
				  : cd->constant;
	return op_holds(cd->op, a, b);
}

int rules_select(const struct rules *r, uint32_t type, const uint8_t *rec)
{
	const struct type_rules *tr = &r->by_type[type];
	const struct compiled_rule *cr = r->compiled + tr->first;
	for (uint32_t i = 0; i < tr->n; i++, cr++) {
		/* By index: with no condition in any rule, conds is NULL, and
		 * NULL + 0 is already undefined behaviour. */
		uint32_t k = 0;
		while (k < cr->nconds && cond_holds(&r->conds[cr->first_cond + k], rec))
			k++;
		if (k == cr->nconds)
			return (int)cr->layout;
	}
	return -1;
}

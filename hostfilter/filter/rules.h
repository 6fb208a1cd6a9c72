/*
 * hostfilter/filter/rules.h - selection rules (Miller's thesis Fig. 3.4/3.5), compiled.
 *
 *   rules = rule { rule } ;
 *   rule  = term { "," term } ";" ;
 *   term  = FIELD op [ "#" ] value ;
 *   op    = "=" | "!=" | "<>" | "<" | ">" | "<=" | ">=" ;
 *   value = NUMBER | "*" | FIELD | TYPENAME ;
 *
 * A trace is kept if any rule matches; a rule matches if every term holds;
 * a term on a field the trace does not have makes the rule not match.
 * The first matching rule's `#` terms say which fields are dropped.
 *
 * Compilation does all name work at startup: for every trace type it keeps
 * only the rules that can match that type, as arrays of conditions
 * (offset, length, operator, constant or other field's offset); terms
 * decided by the type alone (traceType=SEND, field=*) disappear.  The
 * record loop is then a few loads and compares, with no allocation.
 */
#ifndef DPM_HOSTFILTER_RULES_H
#define DPM_HOSTFILTER_RULES_H

#include "hostfilter/tracelog/formats.h"
#include "hostfilter/tracelog/layout.h"

enum rule_op { OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE };

struct cond {
	uint16_t offset;
	uint8_t length;
	uint8_t op;
	uint8_t by_field;     /* compare with another field, not `constant` */
	uint8_t other_length;
	uint16_t other_offset;
	uint64_t constant;
};

struct compiled_rule {
	uint32_t first_cond, nconds;
	uint32_t layout; /* layout of accepted traces (after discards) */
};

struct type_rules {
	uint32_t first, n; /* range of compiled_rule */
};

struct rules {
	const struct formats *fm;
	struct layout_set layouts; /* layout i < fm->n: format i, all fields */
	size_t nsource;            /* rules written in the file; 0 = keep all */
	struct cond *conds;
	size_t nconds, conds_cap;
	struct compiled_rule *compiled;
	size_t ncompiled;
	struct type_rules by_type[FORMAT_TYPES];
};

/* Rules from `path`; with path NULL, one rule per type keeping every trace
 * whole.  0, or -1 with "file:line:col: message" in err. */
int rules_load(struct rules *r, const struct formats *fm, const char *path, char *err,
	       size_t errlen);

/* Rules from text (file is the name used in messages). */
int rules_parse(struct rules *r, const struct formats *fm, const char *file, const char *text,
		size_t len, char *err, size_t errlen);

void rules_free(struct rules *r);

/* Layout number for a record of `type` (a known type) if a rule accepts
 * it, else -1. */
int rules_select(const struct rules *r, uint32_t type, const uint8_t *rec);

/* The layout keeping every field of format f. */
static inline uint32_t rules_full_layout(const struct rules *r, const struct format *f)
{
	return (uint32_t)(f - r->fm->list);
}

#endif

/*
 * tests/fuzz/fuzz_rules.c - the filter's two languages: trace descriptions
 * (hostfilter/tracelog/desc.h, resolved into record formats by formats.h)
 * and selection rules (hostfilter/filter/rules.h), then the compiled rules
 * run on records.  An input "DESCRIPTIONS\n----\nRULES" gives both; an
 * input with no "----" line is tried as descriptions and as rules against
 * the built-in descriptions.  The records the rules select on are the
 * input's own bytes, one record per described type; a selected record's
 * layout must be one the rules made.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hostfilter/filter/rules.h"
#include "hostfilter/tracelog/desc.h"
#include "hostfilter/tracelog/formats.h"

static struct formats builtin;
static int have_builtin;

static void select_all(const struct rules *r, const struct formats *fm, const uint8_t *data,
		       size_t size)
{
	uint8_t rec[1024];
	for (size_t i = 0; i < fm->n; i++) {
		const struct format *f = &fm->list[i];
		if (f->min_size > sizeof rec || f->type >= FORMAT_TYPES)
			continue;
		/* The record's bytes: the input over and over (zeros if empty). */
		for (size_t k = 0; k < f->min_size; k++)
			rec[k] = size ? data[(k + i) % size] : 0;
		int layout = rules_select(r, f->type, rec);
		if (layout >= 0 && (size_t)layout >= r->layouts.n)
			fuzz_fail("rules_select gave layout %d of %zu", layout, r->layouts.n);
	}
}

static void try_rules(const struct formats *fm, const uint8_t *text, size_t len)
{
	char err[512];
	struct rules r;
	if (rules_parse(&r, fm, "rules", (const char *)text, len, err, sizeof err) == 0) {
		select_all(&r, fm, text, len);
		rules_free(&r);
	} else if (!memchr(err, ':', strnlen(err, sizeof err))) {
		fuzz_fail("a rules error without file:line:col: '%s'", err);
	}
}

static int try_descriptions(struct formats *fm, const uint8_t *text, size_t len)
{
	char err[512];
	struct desc_set set;
	memset(&set, 0, sizeof set);
	if (desc_parse(&set, "descs", (const char *)text, len, 1, err, sizeof err) == 0)
		for (size_t i = 0; i < set.n; i++)
			(void)desc_extent(&set.descs[i]);
	desc_free(&set);
	return formats_load(fm, fuzz_file(0, text, len), err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (!have_builtin) {
		if (formats_load(&builtin, NULL, err, sizeof err))
			fuzz_fail("built-in descriptions: %s", err);
		have_builtin = 1;
	}
	const uint8_t *a, *b;
	size_t alen, blen;
	fuzz_split(data, size, &a, &alen, &b, &blen);
	struct formats fm;
	if (a + alen == data + size) {
		if (try_descriptions(&fm, data, size) == 0)
			formats_free(&fm);
		try_rules(&builtin, data, size);
		return 0;
	}
	if (try_descriptions(&fm, a, alen) == 0) {
		try_rules(&fm, b, blen);
		formats_free(&fm);
	}
	return 0;
}

/*
 * analysis/report/extension.c - finding published values among the
 * report's extensions (see extension.h).
 */
#include "extension.h"

const struct report_extension *report_refs(const struct report_extension *ext, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ext[i].ref_value)
			return &ext[i];
	return NULL;
}

const struct report_extension *report_refs_for(const struct report_extension *ext, size_t n,
					       const struct report_run *r)
{
	const struct report_extension *refs = report_refs(ext, n);
	return refs && (!refs->ref_applies || refs->ref_applies(refs->ctx, r)) ? refs : NULL;
}

int report_ref(const struct report_extension *refs, enum report_ref_kind kind, const char *key,
	       struct report_refval *v)
{
	return refs && refs->ref_value(refs->ctx, kind, key, v);
}

/*
 * hostfilter/tracelog/layout.h - the shape of a record in the log: a trace type and
 * the fields it kept after a rule's discards, packed in description order.
 *
 * A rule that discards fields gives its accepted traces a smaller layout;
 * every distinct (type, kept fields) pair gets one layout number, and the
 * log's header describes each layout once.  Packing is precomputed as a
 * few copy runs (adjacent kept fields merge), so a record with nothing
 * discarded is one memcpy.
 */
#ifndef DPM_HOSTFILTER_LAYOUT_H
#define DPM_HOSTFILTER_LAYOUT_H

#include <stdio.h>
#include <string.h>

#include "formats.h"

struct layout_run {
	uint16_t src, dst, len;
};

struct layout {
	const struct format *format;
	uint64_t kept;        /* bit i: format field i is kept */
	uint32_t packed_size; /* bytes of the packed fields */
	size_t nruns;
	struct layout_run runs[FORMAT_FIELDS_MAX];
};

struct layout_set {
	size_t n, cap;
	struct layout *v;
	uint32_t max_packed; /* largest packed_size */
};

/* Number of the layout for (f, kept), adding it if new; -1 if out of memory. */
int layout_get(struct layout_set *ls, const struct format *f, uint64_t kept);

/* Every field of f kept. */
uint64_t layout_all_fields(const struct format *f);

void layout_set_free(struct layout_set *ls);

/* Write l as a flat description (offsets in the packed record), the form
 * the log header uses. */
void layout_describe(const struct layout *l, FILE *out);

/* Pack the kept fields of `rec` into `out`; returns the end of what was written. */
static inline uint8_t *layout_pack(const struct layout *l, const uint8_t *rec, uint8_t *out)
{
	for (size_t i = 0; i < l->nruns; i++)
		memcpy(out + l->runs[i].dst, rec + l->runs[i].src, l->runs[i].len);
	return out + l->packed_size;
}

#endif

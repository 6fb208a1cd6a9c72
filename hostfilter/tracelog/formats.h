/*
 * hostfilter/tracelog/formats.h - record formats: what a description file means.
 *
 * A description file holds the header (type 0) and one body per trace type
 * (offsets counted from the end of the header).  The filter wants, for each
 * type number on the wire, the whole record as one flat list of fields
 * (header fields first, at the same indices in every format) and where the
 * header keeps the record's type and size; formats_build() computes that
 * once at startup so the record loop only indexes arrays.
 */
#ifndef DPM_HOSTFILTER_FORMATS_H
#define DPM_HOSTFILTER_FORMATS_H

#include "desc.h"

#define FORMAT_TYPES 256      /* wire type numbers are 1..255 */
#define FORMAT_FIELDS_MAX DESC_FIELDS_MAX /* header + body fields */

struct format_field {
	const char *name; /* points into the description set */
	uint16_t offset;  /* from the start of the record */
	uint8_t length;
	uint8_t base;
};

struct format {
	uint32_t type;
	const char *name;
	size_t nfields;
	struct format_field fields[FORMAT_FIELDS_MAX];
	uint32_t min_size; /* a record of this type has at least these bytes */
};

struct formats {
	struct desc_set descs;
	const struct desc *header;
	size_t nheader;                         /* header fields */
	uint32_t header_size;                   /* extent of the header */
	struct format_field type_field;         /* header's traceType */
	struct format_field size_field;         /* header's size */
	size_t n;
	struct format *list;                    /* one per body description */
	struct format *by_type[FORMAT_TYPES];   /* NULL: unknown type */
};

/* Load descriptions from `path`, or the built-in kernel/abi/trace.desc if path
 * is NULL, and build the formats.  0, or -1 and "file:line:col: message". */
int formats_load(struct formats *fm, const char *path, char *err, size_t errlen);

/* Build from descriptions already parsed into fm->descs. */
int formats_build(struct formats *fm, char *err, size_t errlen);

void formats_free(struct formats *fm);

/* The format whose name is `name`, ignoring case; the thesis's event names
 * (SendMessage, ReceiveMessage, MessageQueued, CreatePath, ...) are
 * accepted for the descriptions they correspond to.  NULL if none. */
const struct format *formats_by_name(const struct formats *fm, const char *name);

/* Index of field `name` in f, or -1. */
int format_field_index(const struct format *f, const char *name);

/* Read a field of a record: 1, 2, 4 or 8 bytes little-endian. */
static inline uint64_t field_load(const uint8_t *p, unsigned length)
{
	switch (length) {
	case 1:
		return p[0];
	case 2: {
		uint16_t v;
		__builtin_memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;
		__builtin_memcpy(&v, p, 4);
		return v;
	}
	default: {
		uint64_t v;
		__builtin_memcpy(&v, p, 8);
		return v;
	}
	}
}

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "field_load assumes a little-endian host, like the trace format"
#endif

#endif

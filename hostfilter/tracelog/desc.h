/*
 * hostfilter/tracelog/desc.h - trace descriptions (the thesis's Fig. 3.3 language).
 *
 *   descriptions = { description } ;
 *   description  = NAME NUMBER "." { field } ";" ;
 *   field        = NAME "," NUMBER "," NUMBER "," NUMBER ;   name,offset,length,base
 *
 * Parsing (desc_parse) gives the descriptions as written.  Two users read
 * them differently, so the meaning is a separate step:
 *  - the filter resolves a file of them into record formats (formats.h):
 *    type 0 is the header, every other description is a body whose
 *    offsets count from the end of the header;
 *  - the log carries one flat description per kept layout (offsets count
 *    from the start of the packed record), read back by log.c.
 */
#ifndef DPM_HOSTFILTER_DESC_H
#define DPM_HOSTFILTER_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "lex.h"

#define DESC_FIELDS_MAX 64   /* fields in one description */
#define DESC_OFFSET_MAX 4095 /* largest field offset */
#define DESC_TYPE_MAX 65535  /* largest type number */

struct desc_field {
	char name[LEX_NAME_MAX + 1];
	uint32_t offset;
	uint8_t length; /* 1, 2, 4 or 8 bytes, little-endian */
	uint8_t base;   /* display base: 2, 8, 10 or 16 */
	int line, col;  /* where the field's name was written */
};

struct desc {
	char name[LEX_NAME_MAX + 1];
	uint32_t type;
	int line, col;
	size_t nfields;
	struct desc_field fields[DESC_FIELDS_MAX];
};

struct desc_set {
	const char *file; /* name used in messages (not owned) */
	size_t n, cap;
	struct desc *descs;
};

/* Parse `text` (len bytes; `first_line` is the line number of its first
 * line in `file`).  0 on success; -1 and "file:line:col: message" in err. */
int desc_parse(struct desc_set *set, const char *file, const char *text, size_t len,
	       int first_line, char *err, size_t errlen);

/* Read and parse a description file. */
int desc_load(struct desc_set *set, const char *path, char *err, size_t errlen);

void desc_free(struct desc_set *set);

/* Extent of a description: the end of its last byte (max offset + length). */
uint32_t desc_extent(const struct desc *d);

/* Index of field `name` in d, or -1. */
int desc_field_index(const struct desc *d, const char *name);

/* The descriptions the kernel's records follow: kernel/abi/trace.desc, built
 * into dpm (default_desc.c). */
extern const char dpm_default_desc[];
#define DPM_DEFAULT_DESC_NAME "kernel/abi/trace.desc"

#endif

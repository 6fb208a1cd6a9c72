/*
 * hostfilter/tracelog/formats.c - resolve a description file into record formats.
 *
 * Checks that need the whole file live here: a header exists and names
 * traceType and size, type numbers and names are unique, a body's fields
 * do not reuse a header field's name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats.h"

static int error_at(const struct formats *fm, int line, int col, char *err, size_t errlen,
		    const char *msg)
{
	snprintf(err, errlen, "%s:%d:%d: %s", fm->descs.file, line, col, msg);
	return -1;
}

static int find_header(struct formats *fm, char *err, size_t errlen)
{
	char msg[160];
	for (size_t i = 0; i < fm->descs.n; i++) {
		const struct desc *d = &fm->descs.descs[i];
		if (d->type != 0)
			continue;
		if (fm->header) {
			snprintf(msg, sizeof msg, "type number 0 is already used by '%s'",
				 fm->header->name);
			return error_at(fm, d->line, d->col, err, errlen, msg);
		}
		fm->header = d;
	}
	if (!fm->header)
		return error_at(fm, 1, 1, err, errlen, "no header description (type number 0)");
	const struct desc *h = fm->header;
	const char *needed[] = { "traceType", "size" };
	struct format_field *into[] = { &fm->type_field, &fm->size_field };
	for (int k = 0; k < 2; k++) {
		int i = desc_field_index(h, needed[k]);
		if (i < 0) {
			snprintf(msg, sizeof msg, "the header description must have a field '%s'",
				 needed[k]);
			return error_at(fm, h->line, h->col, err, errlen, msg);
		}
		into[k]->name = h->fields[i].name;
		into[k]->offset = (uint16_t)h->fields[i].offset;
		into[k]->length = h->fields[i].length;
		into[k]->base = h->fields[i].base;
	}
	fm->nheader = h->nfields;
	fm->header_size = desc_extent(h);
	return 0;
}

static void add_field(struct format *f, const struct desc_field *df, uint32_t base_offset)
{
	struct format_field *ff = &f->fields[f->nfields++];
	ff->name = df->name;
	ff->offset = (uint16_t)(base_offset + df->offset);
	ff->length = df->length;
	ff->base = df->base;
}

/* Check body d against what is already built; 0 or -1 with a message. */
static int check_body(const struct formats *fm, const struct desc *d, char *err, size_t errlen)
{
	char msg[200];
	if (d->type >= FORMAT_TYPES) {
		snprintf(msg, sizeof msg, "type number %u is too large for a trace (at most %d)",
			 d->type, FORMAT_TYPES - 1);
		return error_at(fm, d->line, d->col, err, errlen, msg);
	}
	for (size_t i = 0; i < fm->n; i++) {
		const struct format *o = &fm->list[i];
		if (o->type == d->type)
			snprintf(msg, sizeof msg, "type number %u is already used by '%s'", d->type,
				 o->name);
		else if (!strcasecmp(o->name, d->name))
			snprintf(msg, sizeof msg, "a description named '%s' already exists", o->name);
		else
			continue;
		return error_at(fm, d->line, d->col, err, errlen, msg);
	}
	for (size_t i = 0; i < d->nfields; i++) {
		if (desc_field_index(fm->header, d->fields[i].name) >= 0) {
			snprintf(msg, sizeof msg, "field '%s' is already a header field",
				 d->fields[i].name);
			return error_at(fm, d->fields[i].line, d->fields[i].col, err, errlen, msg);
		}
	}
	if (fm->header->nfields + d->nfields > FORMAT_FIELDS_MAX) {
		snprintf(msg, sizeof msg, "'%s' has too many fields with the header (at most %d)",
			 d->name, FORMAT_FIELDS_MAX);
		return error_at(fm, d->line, d->col, err, errlen, msg);
	}
	return 0;
}

int formats_build(struct formats *fm, char *err, size_t errlen)
{
	if (find_header(fm, err, errlen))
		return -1;
	fm->list = calloc(fm->descs.n ? fm->descs.n : 1, sizeof *fm->list);
	if (!fm->list)
		return error_at(fm, 1, 1, err, errlen, "out of memory");
	for (size_t i = 0; i < fm->descs.n; i++) {
		const struct desc *d = &fm->descs.descs[i];
		if (d == fm->header)
			continue;
		if (check_body(fm, d, err, errlen))
			return -1;
		struct format *f = &fm->list[fm->n++];
		f->type = d->type;
		f->name = d->name;
		for (size_t k = 0; k < fm->header->nfields; k++)
			add_field(f, &fm->header->fields[k], 0);
		for (size_t k = 0; k < d->nfields; k++)
			add_field(f, &d->fields[k], fm->header_size);
		f->min_size = fm->header_size + desc_extent(d);
		fm->by_type[d->type] = f;
	}
	return 0;
}

int formats_load(struct formats *fm, const char *path, char *err, size_t errlen)
{
	memset(fm, 0, sizeof *fm);
	int r;
	if (path)
		r = desc_load(&fm->descs, path, err, errlen);
	else
		r = desc_parse(&fm->descs, DPM_DEFAULT_DESC_NAME, dpm_default_desc,
			       strlen(dpm_default_desc), 1, err, errlen);
	if (!r)
		r = formats_build(fm, err, errlen);
	if (r)
		formats_free(fm); /* descriptions refused leave nothing allocated */
	return r;
}

void formats_free(struct formats *fm)
{
	free(fm->list);
	desc_free(&fm->descs);
	memset(fm, 0, sizeof *fm);
}

/* The thesis's event names (§3.2.1, §5.2.2) and ours. */
static const struct {
	const char *thesis, *ours;
} thesis_names[] = {
	{ "SendMessage", "SEND" },
	{ "ReceiveMessage", "RECEIVE" },
	{ "MessageQueued", "QUEUED" },
	{ "CreatePath", "CREATELINK" },
	{ "DestroyPath", "DESTROYLINK" },
	{ "DestroyProcess", "TERMPROCESS" },
};

const struct format *formats_by_name(const struct formats *fm, const char *name)
{
	for (size_t i = 0; i < fm->n; i++)
		if (!strcasecmp(fm->list[i].name, name))
			return &fm->list[i];
	for (size_t i = 0; i < sizeof thesis_names / sizeof thesis_names[0]; i++)
		if (!strcasecmp(thesis_names[i].thesis, name))
			return formats_by_name(fm, thesis_names[i].ours);
	return NULL;
}

int format_field_index(const struct format *f, const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return (int)i;
	return -1;
}

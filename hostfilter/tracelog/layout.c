/*
 * hostfilter/tracelog/layout.c - building and describing log record layouts.
 */
#include <stdlib.h>

#include "grow.h"
#include "layout.h"

uint64_t layout_all_fields(const struct format *f)
{
	return f->nfields >= 64 ? ~0ull : (1ull << f->nfields) - 1;
}

static void build_runs(struct layout *l)
{
	const struct format *f = l->format;
	uint16_t dst = 0;
	l->nruns = 0;
	for (size_t i = 0; i < f->nfields; i++) {
		if (!(l->kept >> i & 1))
			continue;
		const struct format_field *ff = &f->fields[i];
		struct layout_run *last = l->nruns ? &l->runs[l->nruns - 1] : NULL;
		if (last && last->src + last->len == ff->offset)
			last->len += ff->length;
		else
			l->runs[l->nruns++] = (struct layout_run){ ff->offset, dst, ff->length };
		dst += ff->length;
	}
	l->packed_size = dst;
}

int layout_get(struct layout_set *ls, const struct format *f, uint64_t kept)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->v[i].format == f && ls->v[i].kept == kept)
			return (int)i;
	if (grow_for_one_more((void **)&ls->v, &ls->cap, ls->n, sizeof *ls->v))
		return -1;
	struct layout *l = &ls->v[ls->n];
	l->format = f;
	l->kept = kept;
	build_runs(l);
	if (l->packed_size > ls->max_packed)
		ls->max_packed = l->packed_size;
	return (int)ls->n++;
}

void layout_set_free(struct layout_set *ls)
{
	free(ls->v);
	memset(ls, 0, sizeof *ls);
}

void layout_describe(const struct layout *l, FILE *out)
{
	const struct format *f = l->format;
	unsigned offset = 0;
	fprintf(out, "%s %u.", f->name, f->type);
	for (size_t i = 0; i < f->nfields; i++) {
		if (!(l->kept >> i & 1))
			continue;
		const struct format_field *ff = &f->fields[i];
		fprintf(out, "\n%s,%u,%u,%u", ff->name, offset, ff->length, ff->base);
		offset += ff->length;
	}
	fprintf(out, ";\n");
}

/*
 * analysis/report/page_parts.c - what the sections of the page share (see
 * page_parts.h).
 */
#include "page_parts.h"

#include <stdlib.h>

#include "html.h"

void report_figure_html(FILE *f, const struct report_figure *fig)
{
	char svg[128], sources[256];
	snprintf(svg, sizeof svg, "%s.svg", fig->id);
	if (fig->diagram)
		snprintf(sources, sizeof sources, "%s.dot", fig->id);
	else
		snprintf(sources, sizeof sources, "%s.dat %s.gp", fig->id, fig->id);
	html_figure(f, fig->id, svg, fig->made, fig->note, fig->caption, sources);
}

void report_table_begin(FILE *f, const struct report_run *r, const char *what,
			const char *caption, const char *heads)
{
	char id[160];
	snprintf(id, sizeof id, "%s-%s", r->spec->name, what);
	html_table_begin(f, id, NULL, caption, heads);
}

void report_ref_cell(FILE *f, const struct report_refval *v, const char *fmt)
{
	char shown[64];
	if (!v) {
		html_cell_none(f);
		return;
	}
	snprintf(shown, sizeof shown, fmt, v->value);
	fprintf(f, "<td class=\"n\" data-v=\"%.10g\">%s%s</td>", v->value, shown,
		v->uncertain ? " (?)" : "");
}

void report_panels(FILE *f, const struct report_page_data *d, enum report_place place,
		   size_t run)
{
	for (size_t k = 0; k < d->o->next; k++)
		if (d->o->ext[k].panel)
			d->o->ext[k].panel(d->o->ext[k].ctx, f, d, place, run);
}

static const double *rank_key;

static int by_key_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (rank_key[x] != rank_key[y])
		return rank_key[x] < rank_key[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

double *report_rank_alloc(size_t n, size_t **order)
{
	double *key = calloc(n + 1, sizeof *key);
	*order = calloc(n + 1, sizeof **order);
	if (!key || !*order) {
		free(key);
		free(*order);
		*order = NULL;
		return NULL;
	}
	return key;
}

void report_run_link_cell(FILE *f, const struct report_run *r)
{
	fputs("<td><a href=\"#", f);
	html_escape(f, r->spec->name);
	fputs("\">", f);
	html_escape(f, r->spec->name);
	fputs("</a></td>", f);
}

size_t report_rank(const double *key, size_t n, size_t *order)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (key[i] > 0)
			order[kept++] = i;
	rank_key = key;
	qsort(order, kept, sizeof *order, by_key_desc);
	return kept;
}

void report_left_out(FILE *f, size_t n, const char *what)
{
	if (n)
		html_para(f, "left-out", "%zu %s left out.", n, what);
}

/*
 * analysis/report/page_parts.h - what the sections of the page share
 * (page_parts.c): a figure with links to its sources, a run's table, a
 * cell of a published value, and the extensions' panels at a place.  It
 * sits below the sections and the page, which only call down to it.
 */
#ifndef DPM_ANALYSIS_REPORT_PAGE_PARTS_H
#define DPM_ANALYSIS_REPORT_PAGE_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "page_data.h"

/* A figure on the page, with links to the files it was drawn from. */
void report_figure_html(FILE *f, const struct report_figure *fig);
/* A table of run r with id "<run>-<what>" (html_table_begin's heads). */
void report_table_begin(FILE *f, const struct report_run *r, const char *what,
			const char *caption, const char *heads);
/* A cell with a published value v (fmt for the number, " (?)" when
 * uncertain), or "-" when v is NULL. */
void report_ref_cell(FILE *f, const struct report_refval *v, const char *fmt);
/* The extensions' panels at place (run: the run's index, for a run's places). */
void report_panels(FILE *f, const struct report_page_data *d, enum report_place place,
		   size_t run);

/* Rows ranked by key, greatest first (ties in index order), rows whose
 * key is 0 (or less) left out: their indices into order; how many kept. */
size_t report_rank(const double *key, size_t n, size_t *order);
/* Keys (zeroed) and an order for n rows, or NULL out of memory. */
double *report_rank_alloc(size_t n, size_t **order);
/* A cell linking to run r's section. */
void report_run_link_cell(FILE *f, const struct report_run *r);
/* "N WHAT left out." under a table, when n > 0. */
void report_left_out(FILE *f, size_t n, const char *what);

#endif

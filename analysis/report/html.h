/*
 * analysis/report/html.h - writing a static HTML page: escaping, the page frame
 * with its inline style sheet, tables whose cells keep their exact values,
 * and figures that fall back to a note when their picture could not be
 * drawn.
 *
 * Every table has an id, so tests and people can find it.  Empty elements
 * are closed (<img/>), so the page is well-formed XML as well as HTML.  A number cell
 * shows a rounded value and keeps the exact one in data-v (data-ns for a
 * time in nanoseconds): the page reads well and still carries what the
 * analysis computed.  Nothing is fetched from anywhere: the style is
 * inline, figures are files beside the page, and no script is needed.
 */
#ifndef DPM_ANALYSIS_REPORT_HTML_H
#define DPM_ANALYSIS_REPORT_HTML_H

#include <stdint.h>
#include <stdio.h>

void html_escape(FILE *f, const char *s);
/* Formatted text, escaped. */
void html_text(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void html_page_begin(FILE *f, const char *title);
void html_page_end(FILE *f);

/* <h2 id=...>title</h2> (level 2) or <h3> (level 3). */
void html_heading(FILE *f, int level, const char *id, const char *title);
/* A paragraph of escaped text; class may be NULL ("note", "ref"). */
void html_para(FILE *f, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A table: heads separated by '|'; a head starting with '#' is a number
 * column (right-aligned), the '#' is not shown.  class may be NULL, or
 * "ref" for the thesis's reference values. */
void html_table_begin(FILE *f, const char *id, const char *cls, const char *caption,
		      const char *heads);
void html_table_end(FILE *f);
void html_row_begin(FILE *f);
void html_row_end(FILE *f);
/* Cells: text, a whole number, a real shown with fmt (exact in data-v), a
 * time in ns shown for people (exact in data-ns), and an empty cell. */
void html_cell(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void html_cell_u64(FILE *f, uint64_t v);
void html_cell_real(FILE *f, const char *fmt, double v);
void html_cell_ns(FILE *f, double ns);
void html_cell_none(FILE *f);

/* A figure (element id "fig-" + id): the picture file if made, else note
 * in its place; then the caption and the files it was drawn from (names
 * separated by ' '). */
void html_figure(FILE *f, const char *id, const char *picture, int made, const char *note,
		 const char *caption, const char *sources);

#endif

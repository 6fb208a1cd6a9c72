/*
 * analysis/report/figure.h - a figure of the report and how it is made
 * (figure.c): its data (.dat) and gnuplot script (.gp), or Graphviz source
 * (.dot), written beside the page and drawn to SVG by the tool, with what
 * went wrong recorded for the page when the tool is missing or fails.
 * The run's plots (plot.h) and the studies' plots are built on it.
 */
#ifndef DPM_ANALYSIS_REPORT_FIGURE_H
#define DPM_ANALYSIS_REPORT_FIGURE_H

#include <stddef.h>
#include <stdio.h>

struct report_figure {
	char id[96];             /* element id on the page; files are DIR/<id>.{svg,dat,gp,dot} */
	char caption[600];
	char note[400];          /* why it was not drawn */
	int made;
	int diagram;             /* drawn by dot from <id>.dot, else by gnuplot */
};

struct report_tools {
	const char *dir;
	int missing;             /* a drawing tool was not found on PATH */
	int failed;              /* one ran and failed */
	char first_problem[400];
};

/* Run gnuplot on DIR/<fig->id>.gp (or dot on .dot) and record the result in
 * fig and tools. */
void report_draw(struct report_tools *tools, struct report_figure *fig, const char *program);

/* Open DIR/<id><ext> for writing; NULL with why. */
FILE *report_file(const char *dir, const char *id, const char *ext, char *why, size_t whylen);

/* Write fig's .dat with data() and .gp with script(), then draw it
 * unless data() wrote no point (empty: the note then).  -1 with why if a
 * file cannot be written. */
typedef int report_data_fn(FILE *f, const void *ctx);
typedef void report_script_fn(FILE *f, const struct report_figure *fig, const void *ctx);
int report_plot(struct report_tools *tools, struct report_figure *fig, const void *ctx,
		report_data_fn *data, report_script_fn *script, const char *empty, char *why,
		size_t whylen);
/* The first lines of every gnuplot script: SVG of width x height. */
void report_gp_preamble(FILE *f, const struct report_figure *fig, int width, int height);

#endif

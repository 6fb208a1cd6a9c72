/*
 * analysis/report/raw_section.c - the raw data section: each run's input,
 * linked where it lies (or, with --copy-raw, as copied beside the page
 * with its CSV), and how to redraw the figures.
 */
#include "sections.h"

#include "html.h"

static void link_cell(FILE *f, const char *file)
{
	fputs("<td><a href=\"", f);
	html_escape(f, file);
	fputs("\">", f);
	html_escape(f, file);
	fputs("</a></td>", f);
}

void report_section_raw(FILE *f, const struct report_page_data *d)
{
	int copied = d->o->copy_raw;
	html_heading(f, 2, "raw-data", "Raw data");
	if (copied)
		html_para(f, NULL, "Every run's input is copied here; a filter log also as the trace "
			  "CSV (docs/trace-csv.md) that 'dpm dump --csv' writes.");
	else
		html_para(f, NULL, "Every run's input is linked where it lies, not copied (dpm report "
			  "--copy-raw copies it here, a filter log also as its trace CSV); 'dpm dump "
			  "--csv LOG' writes the CSV of a log.");
	html_para(f, NULL, "Each figure's data (.dat) and gnuplot script (.gp), or Graphviz "
		  "source (.dot), is beside its SVG: run 'gnuplot NAME.gp' or 'dot -Tsvg -o "
		  "NAME.svg NAME.dot' in this directory to redraw. What the drawing tools printed "
		  "is in tools.log.");
	html_table_begin(f, "raw", NULL, "Inputs of each run",
			 copied ? "run|input as given|kept as|CSV" : "run|input as given|link");
	for (size_t i = 0; i < d->nruns; i++) {
		const struct report_run *r = &d->runs[i];
		html_row_begin(f);
		html_cell(f, "%s", r->spec->name);
		html_cell(f, "%s", r->spec->log);
		link_cell(f, r->raw_file);
		if (copied)
			link_cell(f, r->csv_file);
		html_row_end(f);
	}
	html_table_end(f);
}

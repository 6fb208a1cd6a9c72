/*
 * analysis/report/raw_section.c - the raw data section: each run's input
 * as given and as kept beside the page, and how to redraw the figures.
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
	html_heading(f, 2, "raw-data", "Raw data");
	html_para(f, NULL, "Every run's input is copied here; a filter log also as the trace CSV "
		  "(docs/trace-csv.md) that 'dpm dump --csv' writes. Each figure's data (.dat) and "
		  "gnuplot script (.gp), or Graphviz source (.dot), is beside its SVG: run 'gnuplot "
		  "NAME.gp' or 'dot -Tsvg -o NAME.svg NAME.dot' in this directory to redraw. What "
		  "the drawing tools printed is in tools.log.");
	html_table_begin(f, "raw", NULL, "Inputs of each run", "run|input as given|kept as|CSV");
	for (size_t i = 0; i < d->nruns; i++) {
		const struct report_run *r = &d->runs[i];
		html_row_begin(f);
		html_cell(f, "%s", r->spec->name);
		html_cell(f, "%s", r->spec->log);
		link_cell(f, r->raw_file);
		link_cell(f, r->csv_file);
		html_row_end(f);
	}
	html_table_end(f);
}


/*
 * analysis/report_page.c - DIR/index.html: the summary a reader sees first
 * (what was run, the key figures, a table comparing the runs), a section
 * per run, the predictions across runs, the thesis's reference values when
 * asked for, and the raw data.
 *
 * The page is written to a temporary file and renamed into place, so a
 * reader never sees half a page and a failed run leaves the old one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "html.h"
#include "report.h"

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

/* ---- summary --------------------------------------------------------------- */

static void key_figures(FILE *f, const struct report_run *r)
{
	char a[32], b[32];
	uint32_t busiest = report_busiest(r);
	const struct config_run *m = &r->cfg[CFG_MEASURED];
	fputs("<li>", f);
	html_text(f, "Run %s (%s): %zu events of %zu traced processes, %llu messages. Measured P "
		  "= %.3f (upper bound %.3f, with CPU contention %.3f) from T = %s over t_max = %s.",
		  r->spec->name, r->spec->log, r->tr.nev, r->tr.nproc - r->g.untraced,
		  (unsigned long long)r->st.total.sent, m->r.P, r->cfg[CFG_UPPER].r.P,
		  r->cfg[CFG_CONTENTION].r.P, fmt_ns(m->r.T, a, sizeof a),
		  fmt_ns(m->r.t_max, b, sizeof b));
	if (busiest != NO_PROC && r->st.total_cpu)
		html_text(f, " Busiest process: %s with %.1f%% of the CPU.", report_process(r, busiest),
			  100.0 * (double)r->st.p[busiest].cpu / (double)r->st.total_cpu);
	if (r->have_causality)
		html_text(f, " %zu requests followed through its servers.", r->cz.nrequests);
	fputs("</li>\n", f);
}

static void summary_table(FILE *f, const struct report_page_data *d)
{
	html_table_begin(f, "summary", NULL, "The runs side by side (P in the thesis's five "
			 "configurations)",
			 "run|#events|#processes|#messages|#bytes|#T|#t_max measured|#P upper bound|"
			 "#P measured|#P with contention|#P own machines|#P one machine|"
			 "#utilisation measured");
	for (size_t i = 0; i < d->nruns; i++) {
		const struct report_run *r = &d->runs[i];
		html_row_begin(f);
		fputs("<td><a href=\"#", f);
		html_escape(f, r->spec->name);
		fputs("\">", f);
		html_escape(f, r->spec->name);
		fputs("</a></td>", f);
		html_cell_u64(f, r->tr.nev);
		html_cell_u64(f, r->tr.nproc - r->g.untraced);
		html_cell_u64(f, r->st.total.sent);
		html_cell_u64(f, r->st.total.sent_bytes);
		html_cell_ns(f, r->cfg[CFG_MEASURED].r.T);
		html_cell_ns(f, r->cfg[CFG_MEASURED].r.t_max);
		for (size_t k = 0; k < CONFIGS_THESIS; k++)
			html_cell_real(f, "%.3f", r->cfg[k].r.P);
		html_cell_real(f, "%.3f", r->cfg[CFG_MEASURED].r.util);
		html_row_end(f);
	}
	html_table_end(f);
}

void report_section_summary(FILE *f, const struct report_page_data *d)
{
	html_heading(f, 2, "summary-section", "Summary");
	html_para(f, NULL, "%zu traced run%s, analysed by dpm report from the traces alone: message "
		  "statistics (thesis §5.2.2), the parallelism factor P in five configurations "
		  "(§5.2.3), paths of causality where requestors were named (§5.2.4)%s.", d->nruns,
		  d->nruns == 1 ? "" : "s", d->cross.n > 1 ? ", and each run's P predicted from the "
		  "others' traces (Fig. 5.17)" : "");
	if (d->tools->missing || d->tools->failed)
		html_para(f, "note", "Some figures could not be drawn (%s); their data and scripts "
			  "are beside this page.", d->tools->first_problem);
	fputs("<ul>\n", f);
	for (size_t i = 0; i < d->nruns; i++)
		key_figures(f, &d->runs[i]);
	fputs("</ul>\n", f);
	summary_table(f, d);
	if (d->nruns > 1)
		report_figure_html(f, &d->runs_plot);
}

/* ---- raw data -------------------------------------------------------------- */

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

/* ---- the page --------------------------------------------------------------- */

static void run_section(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	char title[160];
	snprintf(title, sizeof title, "Run %s", r->spec->name);
	html_heading(f, 2, r->spec->name, title);
	html_para(f, NULL, "Input: %s (%s). Delivery times: %s.", r->spec->log,
		  r->raw_is_log ? "a filter log" : "a trace CSV", r->mtime_what);
	report_section_stats(f, d, i);
	report_section_parallel(f, d, i);
	report_section_causality(f, d, i);
}

static void write_page(FILE *f, const struct report_page_data *d)
{
	html_page_begin(f, d->o->title);
	report_section_summary(f, d);
	if (d->o->study)
		report_section_study(f, d);
	for (size_t i = 0; i < d->nruns; i++)
		run_section(f, d, i);
	if (d->cross.n > 1)
		report_section_cross(f, d);
	report_section_reference(f, d);
	report_section_raw(f, d);
	html_page_end(f);
}

int report_page(const struct report_page_data *d, char *why, size_t whylen)
{
	char tmp[4096], path[4096];
	snprintf(tmp, sizeof tmp, "%s/.index.html.tmp", d->o->dir);
	snprintf(path, sizeof path, "%s/index.html", d->o->dir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	write_page(f, d);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(why, whylen, "writing %s failed", tmp);
		remove(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

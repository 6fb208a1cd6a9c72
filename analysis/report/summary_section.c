/*
 * analysis/report/summary_section.c - the summary a reader sees first:
 * what was run, the key figures of each run, and a table and plot
 * comparing the runs.
 */
#include "sections.h"

#include <string.h>

#include "analysis/model/cli.h"
#include "html.h"
#include "page_parts.h"

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
	if (!strcmp(r->clock, "virtual")) {
		/* one clock for every node: the run's completion can be measured */
		double took = trace_elapsed(&r->tr, 1), t = r->cfg[CFG_CONTENTION].r.t_max;
		html_text(f, " Recorded in virtual time, it took %s from its first to its last "
			  "event; t_max with CPU contention predicts %s (%+.1f%%).",
			  fmt_ns(took, a, sizeof a), fmt_ns(t, b, sizeof b),
			  took > 0 ? 100.0 * (t - took) / took : 0.0);
	}
	if (busiest != NO_PROC && r->st.total_cpu)
		html_text(f, " Busiest process: %s with %.1f%% of the CPU.", report_process(r, busiest),
			  100.0 * (double)r->st.p[busiest].cpu / (double)r->st.total_cpu);
	if (r->have_critical) {
		html_text(f, " Where the time went (its critical path): ");
		report_critical_shares(f, r, 3);
		html_text(f, ".");
	}
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


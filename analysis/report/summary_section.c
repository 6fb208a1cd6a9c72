/*
 * analysis/report/summary_section.c - the summary a reader sees first:
 * the answer (table `answer`: for each run what it was, T, P, what limits
 * P, and where the time of its critical path went, the biggest share
 * named, from `dpm critical`'s sums), then the key figures of each run,
 * and a table and plot comparing the runs.
 *
 * What limits P: the measured P with CPU contention is M times three
 * factors, each at most 1 - upper/M (the program's own dependencies),
 * measured/upper (delivery times), contention/measured (sharing a
 * machine's CPU) - so the smallest factor is what costs the most.
 */
#include "sections.h"

#include <math.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "html.h"
#include "page_parts.h"

/* The factor of P that costs most (see the top of the file), as text. */
static void limit_text(FILE *f, const struct report_run *r)
{
	double M = (double)r->cfg[CFG_CONTENTION].r.M, up = r->cfg[CFG_UPPER].r.P;
	double me = r->cfg[CFG_MEASURED].r.P, co = r->cfg[CFG_CONTENTION].r.P;
	double factor[3] = { M > 0 ? up / M : 1, up > 0 ? me / up : 1, me > 0 ? co / me : 1 };
	int k = 0;
	for (int i = 1; i < 3; i++)
		if (factor[i] < factor[k])
			k = i;
	if (factor[k] >= 0.9)
		html_text(f, "nothing much: %.2f of %.0f machines busy", co, M);
	else if (k == 0)
		html_text(f, "its own dependencies: at most %.2f of %.0f machines busy even with free "
			  "messages", up, M);
	else if (k == 1)
		html_text(f, "message delivery: %.2f without delivery times, %.2f with", up, me);
	else
		html_text(f, "sharing CPUs: %.2f alone, %.2f with contention", me, co);
}

/* The critical path's states as one stacked bar, a title on each part. */
static void states_bar(FILE *f, const struct critical_result *c)
{
	const double width = 240;
	double x = 0;
	fprintf(f, "<svg class=\"bar\" width=\"%.0f\" height=\"14\" viewBox=\"0 0 %.0f 14\" "
		   "role=\"img\">", width, width);
	for (int i = 0; i < CS_COUNT && c->length; i++) {
		double w = width * (double)c->job.ns[i] / (double)c->length;
		if (w <= 0)
			continue;
		fprintf(f, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"14\" fill=\"%s\">"
			   "<title>", x, w, report_state_color(i));
		html_text(f, "%s: %.1f%%", report_state_label(i),
			  100.0 * (double)c->job.ns[i] / (double)c->length);
		fputs("</title></rect>", f);
		x += w;
	}
	fputs("</svg>", f);
}

static void answer_row(FILE *f, const struct report_run *r)
{
	uint32_t busiest = report_busiest(r);
	html_row_begin(f);
	report_run_link_cell(f, r);
	html_cell(f, "%zu processes, %zu machines, %llu messages%s%s",
		  r->tr.nproc - r->g.untraced, (size_t)r->cfg[CFG_MEASURED].r.M,
		  (unsigned long long)r->st.total.sent, busiest != NO_PROC ? "; busiest " : "",
		  busiest != NO_PROC ? report_process(r, busiest) : "");
	html_cell_ns(f, r->cfg[CFG_MEASURED].r.T);
	html_cell_real(f, "%.2f", r->cfg[CFG_MEASURED].r.P);
	fputs("<td>", f);
	limit_text(f, r);
	fputs("</td>", f);
	const struct critical_result *c = &r->crit;
	if (!r->have_critical) {
		fputs("<td class=\"note\" colspan=\"2\">", f);
		html_text(f, "no critical path: %s", r->critical_why);
		fputs("</td>", f);
	} else {
		html_cell_ns(f, (double)c->length);
		fputs("<td class=\"where\">", f);
		states_bar(f, c);
		fputs("<br/><strong>", f);
		report_critical_shares(f, r, 1);
		fputs("</strong>", f);
		int second = 0;
		for (int i = 0; i < CS_COUNT; i++)
			second += c->job.ns[i] > 0;
		if (second > 1) {
			fputs("; then ", f);
			report_critical_shares_from(f, r, 1, 2);
		}
		fputs("</td>", f);
	}
	html_row_end(f);
}

/* The answer, one row a run, on one screen. */
static void answer_table(FILE *f, const struct report_page_data *d)
{
	html_table_begin(f, "answer", NULL, "The answer: for each run, P = T / t_max (how many "
			 "machines were busy on average), what limits P, and where the time of its "
			 "critical path went (the chain of dependent work from its first to its last "
			 "event, dpm critical), the biggest part first",
			 "run|what|#T (CPU)|#P|what limits P|#critical path|where its time went");
	for (size_t i = 0; i < d->nruns; i++)
		answer_row(f, &d->runs[i]);
	html_table_end(f);
	report_state_legend(f);
}

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
	report_run_link_cell(f, r);
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
	answer_table(f, d);
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


/*
 * analysis/report/stats_section.c - the message statistics of a run on the
 * page (thesis §5.2.2, Figs. 5.12-5.13): per process, by destination,
 * queues and message sizes, the numbers `dpm stats` prints, from the same
 * struct stats.
 */
#include "sections.h"

#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "page_parts.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static double mean(double sum, uint64_t n)
{
	return n ? sum / (double)n : 0;
}

/* Whether an extension published a %CPU for some process of r. */
static int any_ref_cpu(const struct report_extension *refs, const struct report_run *r)
{
	struct report_refval v;
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		if (report_ref(refs, REF_CPU_PCT, report_process(r, p), &v))
			return 1;
	return 0;
}

static void processes_table(FILE *f, const struct report_page_data *d, const struct report_run *r)
{
	const struct stats *s = &r->st;
	const struct report_extension *refs = report_refs_for(d->o->ext, d->o->next, r);
	int ref_column = any_ref_cpu(refs, r);
	char heads[512];
	snprintf(heads, sizeof heads, "process|#machine|#events|#%%CPU|#sent|#bytes sent|#%%msgs|"
		 "#%%bytes|#received|#bytes received|#local|#remote|#msgs/s%s%s",
		 ref_column ? "|#" : "", ref_column ? refs->ref_head[REF_CPU_PCT] : "");
	report_table_begin(f, r, "processes", "Per process, busiest first: CPU, messages and bytes sent "
			 "and received (%CPU of all processes' CPU; %msgs and %bytes of all sent; "
			 "msgs/s over the process's own span, blank when that is under 1% of the "
			 "run's)", heads);
	/* busiest first; a process with neither events nor messages is left out */
	size_t n = r->tr.nproc, *order;
	double *key = report_rank_alloc(n, &order);
	if (!key) {
		html_table_end(f);
		return;
	}
	for (uint32_t p = 0; p < n; p++) {
		const struct proc_stats *ps = &s->p[p];
		uint64_t msgs = ps->m.sent + ps->m.recv;
		key[p] = ps->events || msgs ? (double)ps->cpu + 1e-3 * (double)msgs + 1e-9 : 0;
	}
	size_t kept = report_rank(key, n, order);
	double run_span = trace_elapsed(&r->tr, !strcmp(r->clock, "virtual"));
	for (size_t i = 0; i < kept; i++) {
		uint32_t p = (uint32_t)order[i];
		const struct proc_stats *ps = &s->p[p];
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		html_cell_u64(f, r->tr.proc[p].machine);
		html_cell_u64(f, ps->events);
		html_cell_real(f, "%.2f", pct(ps->cpu, s->total_cpu));
		html_cell_u64(f, ps->m.sent);
		html_cell_u64(f, ps->m.sent_bytes);
		html_cell_real(f, "%.2f", pct(ps->m.sent, s->total.sent));
		html_cell_real(f, "%.2f", pct(ps->m.sent_bytes, s->total.sent_bytes));
		html_cell_u64(f, ps->m.recv);
		html_cell_u64(f, ps->m.recv_bytes);
		html_cell_u64(f, ps->m.local);
		html_cell_u64(f, ps->m.remote);
		/* a rate over a span too short to mean anything (one message,
		 * 20 us: "50000 msgs/s") is left blank */
		if ((double)(ps->last_time - ps->first_time) >= run_span / 100)
			html_cell_real(f, "%.1f", stats_rate(s, p, ps->m.sent + ps->m.recv));
		else
			html_cell_none(f);
		struct report_refval v;
		if (ref_column)
			report_ref_cell(f, report_ref(refs, REF_CPU_PCT, report_process(r, p), &v) ? &v
				       : NULL, "%.0f");
		html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, n - kept, "processes with no events and no messages");
	free(order);
	free(key);
}

static void destinations_table(FILE *f, const struct report_run *r)
{
	const struct stats *s = &r->st;
	report_table_begin(f, r, "destinations", "Messages by sender and destination, the most "
			   "first (thesis Fig. 5.12: the shares are of the sender's own messages and "
			   "bytes)",
			   "from|to|#sent|#% of sender's msgs|#bytes|#% of sender's bytes|where|"
			   "#mean size|#received");
	size_t *order;
	double *key = report_rank_alloc(s->npairs, &order);
	if (!key) {
		html_table_end(f);
		return;
	}
	for (size_t i = 0; i < s->npairs; i++)
		key[i] = (double)s->pair[i].m.sent + 1e-6 * (double)s->pair[i].m.recv;
	size_t kept = report_rank(key, s->npairs, order);
	for (size_t k = 0; k < kept; k++) {
			const struct pair_stats *ps = &s->pair[order[k]];
			uint32_t from = ps->src;
			html_row_begin(f);
			html_cell(f, "%s", report_process(r, ps->src));
			html_cell(f, "%s", report_process(r, ps->dst));
			html_cell_u64(f, ps->m.sent);
			html_cell_real(f, "%.2f", pct(ps->m.sent, s->p[from].m.sent));
			html_cell_u64(f, ps->m.sent_bytes);
			html_cell_real(f, "%.2f", pct(ps->m.sent_bytes, s->p[from].m.sent_bytes));
			html_cell(f, "%s", r->tr.proc[ps->src].machine == r->tr.proc[ps->dst].machine
						   ? "local" : "remote");
			html_cell_real(f, "%.1f", mean((double)ps->m.sent_bytes, ps->m.sent));
			html_cell_u64(f, ps->m.recv);
			html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, s->npairs - kept, "pairs with no messages");
	free(order);
	free(key);
}

static void queues_table(FILE *f, const struct report_run *r)
{
	const struct stats *s = &r->st;
	report_table_begin(f, r, "queues", "Message queues of the receivers, the longest total wait "
			 "first (wait: QUEUED to RECEIVE of the same message, on the receiver's clock)",
			 "process|#max length|#mean length|#waits|#min wait|#mean wait|#max wait");
	size_t n = r->tr.nproc, *order;
	double *key = report_rank_alloc(n, &order);
	if (!key) {
		html_table_end(f);
		return;
	}
	size_t any = 0;
	for (uint32_t p = 0; p < n; p++) {
		const struct proc_stats *ps = &s->p[p];
		any += ps->q_samples || ps->w.n;
		/* the longest total wait first, then the longest queue */
		key[p] = ps->w.sum + 1e-3 * (double)ps->q_max;
	}
	size_t kept = report_rank(key, n, order);
	for (size_t i = 0; i < kept; i++) {
		uint32_t p = (uint32_t)order[i];
		const struct proc_stats *ps = &s->p[p];
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		html_cell_u64(f, ps->q_max);
		html_cell_real(f, "%.2f", mean((double)ps->q_sum, ps->q_samples));
		html_cell_u64(f, ps->w.n);
		html_cell_ns(f, (double)ps->w.min);
		html_cell_ns(f, mean(ps->w.sum, ps->w.n));
		html_cell_ns(f, (double)ps->w.max);
		html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, any - kept, "receivers whose messages never waited");
	free(order);
	free(key);
}

static void sizes_table(FILE *f, const struct report_run *r)
{
	const struct stats *s = &r->st;
	report_table_begin(f, r, "sizes", "Message sizes (all messages sent)",
			 "#from bytes|#to bytes|#messages|#share %");
	for (unsigned b = 0; b < STATS_BUCKETS; b++) {
		if (!s->total.size_hist[b])
			continue;
		html_row_begin(f);
		html_cell_u64(f, b == 0 ? 0 : 1ull << (b - 1));
		html_cell_u64(f, b == 0 ? 0 : b >= 64 ? ~0ull : (1ull << b) - 1);
		html_cell_u64(f, s->total.size_hist[b]);
		html_cell_real(f, "%.2f", pct(s->total.size_hist[b], s->total.sent));
		html_row_end(f);
	}
	html_table_end(f);
}

void report_section_stats(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	const struct msg_counts *m = &r->st.total;
	char id[96];
	snprintf(id, sizeof id, "%s-stats", r->spec->name);
	html_heading(f, 3, id, "Message statistics");
	html_para(f, NULL, "%zu events, %zu processes, %llu messages sent (%llu bytes) and %llu "
		  "received; %llu local (%.1f%%) and %llu remote (%.1f%%). Queue lengths are %s.",
		  r->tr.nev, r->tr.nproc, (unsigned long long)m->sent,
		  (unsigned long long)m->sent_bytes, (unsigned long long)m->recv,
		  (unsigned long long)m->local, pct(m->local, m->sent),
		  (unsigned long long)m->remote, pct(m->remote, m->sent),
		  r->st.queue_rebuilt ? "rebuilt from QUEUED and RECEIVE where the trace lacks them"
				      : "as traced");
	processes_table(f, d, r);
	report_figure_html(f, &d->plots[i][PLOT_CPU]);
	report_panels(f, d, PLACE_RUN_CPU, i);
	destinations_table(f, r);
	queues_table(f, r);
	report_figure_html(f, &d->plots[i][PLOT_SIZES]);
	sizes_table(f, r);
}

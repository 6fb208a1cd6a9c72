/*
 * analysis/report/parallel_section.c - the parallelism of a run on the
 * page (thesis §5.2.3, §5.3.1): P, T, t_max and utilisation in the five
 * configurations of `dpm parallel --all`, each process's part of T and of
 * the maximum path, the maximum paths themselves, and the profile and
 * timeline plots.
 */
#include "sections.h"

#include <stdlib.h>

#include "html.h"
#include "page_parts.h"

#define PATH_ROWS 20

static void p_table(FILE *f, const struct report_page_data *d, const struct report_run *r)
{
	const struct report_extension *refs = report_refs_for(d->o->ext, d->o->next, r);
	char heads[512];
	snprintf(heads, sizeof heads, "configuration|mode|#machines M|#T|#t_max|#P|#utilisation|"
		 "#path stretches|#path messages%s%s", refs ? "|#" : "",
		 refs ? refs->ref_head[REF_P] : "");
	report_table_begin(f, r, "p", "P = T / t_max in the thesis's five configurations "
			 "(utilisation = P / M)", heads);
	for (size_t k = 0; k < CONFIGS_THESIS; k++) {
		const struct config_run *c = &r->cfg[k];
		html_row_begin(f);
		html_cell(f, "%s", c->label);
		html_cell(f, "%s", c->mode);
		html_cell_u64(f, c->r.M);
		html_cell_ns(f, c->r.T);
		html_cell_ns(f, c->r.t_max);
		html_cell_real(f, "%.3f", c->r.P);
		html_cell_real(f, "%.3f", c->r.util);
		html_cell_u64(f, c->npath);
		html_cell_u64(f, config_path_messages(c));
		struct report_refval v;
		if (refs)
			report_ref_cell(f, report_ref(refs, REF_P, c->mode, &v) ? &v : NULL, "%.2f");
		html_row_end(f);
	}
	html_table_end(f);
}

static void process_table(FILE *f, const struct report_run *r)
{
	const struct config_run *m = &r->cfg[CFG_MEASURED];
	report_table_begin(f, r, "tproc", "Each traced process's CPU time t_proc (the most first), its "
			 "share of T, and the CPU it adds to the maximum path of the measured "
			 "configuration",
			 "process|#machine|#events|#t_proc|#% of T|#on the measured path");
	size_t n = r->tr.nproc, *order;
	double *key = report_rank_alloc(n, &order);
	if (!key) {
		html_table_end(f);
		return;
	}
	size_t traced = 0;
	for (uint32_t p = 0; p < n; p++) {
		traced += (size_t)report_traced(r, p);
		key[p] = report_traced(r, p) ? (double)cgraph_tproc(&r->g, p) : 0;
	}
	size_t kept = report_rank(key, n, order);
	for (size_t i = 0; i < kept; i++) {
		uint32_t p = (uint32_t)order[i];
		double tp = (double)cgraph_tproc(&r->g, p);
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		html_cell_u64(f, r->tr.proc[p].machine);
		html_cell_u64(f, r->g.first[p + 1] - r->g.first[p]);
		html_cell_ns(f, tp);
		html_cell_real(f, "%.2f", m->r.T > 0 ? 100 * tp / m->r.T : 0);
		html_cell_ns(f, config_path_cpu(m, p));
		html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, traced - kept, "traced processes that used no CPU");
	free(order);
	free(key);
}

static const char *kind_name(uint8_t kind)
{
	return kind == CROSS_MESSAGE ? "message" : kind == CROSS_EXTERNAL ? "external wait" : "end";
}

static void path_table(FILE *f, const struct report_run *r, size_t k)
{
	const struct config_run *c = &r->cfg[k];
	char what[128];
	snprintf(what, sizeof what, "path-%s", c->mode);
	fputs("<details>\n<summary>", f);
	html_text(f, "Maximum path, %s: %zu stretches, %zu messages", c->label, c->npath,
		  config_path_messages(c));
	fputs("</summary>\n", f);
	report_table_begin(f, r, what, "The maximum path, stretch by stretch (the first rows)",
			 "#step|process|machine|#CPU|#remote MOVEDATA|#events|then|to|#arc time|#bytes");
	for (size_t i = 0; i < c->npath && i < PATH_ROWS; i++) {
		const struct path_step *s = &c->path[i];
		const struct event *e = cgraph_event(&r->g, s->to);
		html_row_begin(f);
		html_cell_u64(f, i + 1);
		html_cell(f, "%s", report_process(r, s->proc));
		html_cell(f, "%s", c->a.label[c->a.machine_of[s->proc]]);
		html_cell_ns(f, s->cpu);
		html_cell_ns(f, s->wait);
		html_cell_u64(f, s->to - s->from + 1);
		html_cell(f, "%s", kind_name(s->out_kind));
		if (s->out_kind == CROSS_NONE) {
			html_cell(f, "%s", "");
			html_cell_none(f);
			html_cell_none(f);
		} else {
			html_cell(f, "%s", report_process(r, c->path[i + 1].proc));
			html_cell_ns(f, s->out_weight);
			if (s->out_kind == CROSS_MESSAGE && (e->flags & EV_LENGTH))
				html_cell_u64(f, e->length);
			else
				html_cell_none(f);
		}
		html_row_end(f);
	}
	html_table_end(f);
	if (c->npath > PATH_ROWS)
		html_para(f, NULL, "... %zu more stretches: 'dpm parallel --all --path-steps 0 %s' "
			  "lists them all.", c->npath - PATH_ROWS, r->spec->log);
	fputs("</details>\n", f);
}

static void graph_summary(FILE *f, const struct report_run *r)
{
	const struct cgraph *g = &r->g;
	html_para(f, NULL, "The computation graph has %zu nodes (events of %zu traced processes, "
		  "%zu named without events of their own), %zu message arcs and %zu external waits. "
		  "Delivery times: %s.", g->nnodes, r->tr.nproc - g->untraced, g->untraced,
		  g->nmessages, g->nexternal, r->mtime_what);
	if (g->unmatched_receives)
		html_para(f, "note", "%zu receives from traced processes have no matching send.",
			  g->unmatched_receives);
	if (r->tr.dropped)
		html_para(f, "note", "The kernels dropped %llu traces; P may be wrong.",
			  (unsigned long long)r->tr.dropped);
}

void report_section_parallel(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	char id[96];
	snprintf(id, sizeof id, "%s-parallel", r->spec->name);
	html_heading(f, 3, id, "Parallelism");
	graph_summary(f, r);
	p_table(f, d, r);
	report_figure_html(f, &d->plots[i][PLOT_P]);
	report_panels(f, d, PLACE_RUN_P, i);
	html_para(f, NULL, "Read it as the thesis does: the upper bound is the most any placement "
		  "or network could give; the drop to 'measured' is what delivery times cost, the "
		  "drop to 'with CPU contention' what sharing machines costs; the two predicted rows "
		  "say whether another placement would do better.");
	report_figure_html(f, &d->plots[i][PLOT_PROFILE]);
	process_table(f, r);
	for (size_t k = 0; k < CONFIGS_THESIS; k++)
		path_table(f, r, k);
}

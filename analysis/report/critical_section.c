/*
 * analysis/report/critical_section.c - where a run's time went on the page
 * (INMON, thesis 004 Ch. 5-7; docs/critical.md): the critical path's
 * states, its share by process, and the requests by server, from the same
 * sums `dpm critical` prints (analysis/model/critical_sum.c), so page and
 * command agree.  The summary takes its "where the time went" from here.
 */
#include "sections.h"

#include "analysis/model/cli.h"
#include "html.h"
#include "page_parts.h"

void report_critical_shares(FILE *f, const struct report_run *r, int top)
{
	const struct critical_result *c = &r->crit;
	int used[CS_COUNT] = { 0 };
	for (int n = 0; n < top; n++) {
		int best = -1;
		for (int i = 0; i < CS_COUNT; i++)
			if (!used[i] && c->job.ns[i] && (best < 0 || c->job.ns[i] > c->job.ns[best]))
				best = i;
		if (best < 0)
			break;
		used[best] = 1;
		html_text(f, "%s%.1f%% %s", n ? ", " : "",
			  c->length ? 100.0 * (double)c->job.ns[best] / (double)c->length : 0.0,
			  cstate_name[best]);
	}
}

static void states_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	report_table_begin(f, r, "critical-states", "The critical path's length in states",
			   "state|#on the path|#% of the path");
	for (int i = 0; i < CS_COUNT; i++) {
		html_row_begin(f);
		html_cell(f, "%s", cstate_name[i]);
		html_cell_ns(f, (double)c->job.ns[i]);
		html_cell_real(f, "%.1f", c->length ? 100.0 * (double)c->job.ns[i] / (double)c->length
						     : 0.0);
		html_row_end(f);
	}
	html_table_end(f);
}

static void heads(char *buf, size_t len, const char *first)
{
	size_t used = (size_t)snprintf(buf, len, "%s|#total", first);
	for (int i = 0; i < CS_COUNT && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "|#%s", cstate_name[i]);
}

static void states_cells(FILE *f, const struct cstates *s)
{
	html_cell_ns(f, (double)cstates_total(s));
	for (int i = 0; i < CS_COUNT; i++)
		html_cell_ns(f, (double)s->ns[i]);
}

static void process_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	char h[512];
	heads(h, sizeof h, "process");
	report_table_begin(f, r, "critical-processes", "The critical path by process (a message's "
			   "flight is its receiver's)", h);
	for (uint32_t p = 0; p < r->tr.nproc; p++) {
		if (!cstates_total(&c->proc[p].path))
			continue;
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		states_cells(f, &c->proc[p].path);
		html_row_end(f);
	}
	html_table_end(f);
}

static void server_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	char h[512];
	heads(h, sizeof h, "server|#requests|#mean response");
	report_table_begin(f, r, "critical-servers", "Requests (CALLs) by the server called: "
			   "their response times in states, summed", h);
	for (uint32_t p = 0; p < r->tr.nproc; p++) {
		if (!c->server[p].count)
			continue;
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		html_cell_u64(f, c->server[p].count);
		html_cell_ns(f, (double)c->server[p].response / (double)c->server[p].count);
		states_cells(f, &c->server[p].states);
		html_row_end(f);
	}
	html_table_end(f);
}

void report_section_critical(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	char id[160], a[32], b[32];
	snprintf(id, sizeof id, "%s-critical", r->spec->name);
	html_heading(f, 3, id, "Where the time went: the critical path");
	if (!r->have_critical) {
		html_para(f, "note", "No critical path: %s.", r->critical_why);
		return;
	}
	const struct critical_result *c = &r->crit;
	fputs("<p>", f);
	html_text(f, "The run took %s from its first to its last event; its critical path "
		  "(dpm critical: INMON's walk back from the last event, at each RECEIVE following "
		  "whichever of the process and the message came last) is %s in %zu steps: ",
		  fmt_ns((double)c->elapsed, a, sizeof a), fmt_ns((double)c->length, b, sizeof b),
		  c->path.nsteps);
	report_critical_shares(f, r, 3);
	html_text(f, ". Making anything else faster cannot shorten the run; a state's share is the "
		  "most that removing it could gain.");
	fputs("</p>\n", f);
	states_table(f, r);
	process_table(f, r);
	if (c->nrequests)
		server_table(f, r);
}

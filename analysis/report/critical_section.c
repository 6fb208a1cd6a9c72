/*
 * analysis/report/critical_section.c - where a run's time went on the page
 * (INMON, thesis 004 Ch. 5-7; docs/critical.md): the critical path's
 * states, its share by process, and the requests by server, from the same
 * sums `dpm critical` prints (analysis/model/critical_sum.c), so page and
 * command agree.  The summary takes its "where the time went" from here.
 */
#include "sections.h"

#include <stdlib.h>

#include "analysis/model/cli.h"
#include "html.h"
#include "page_parts.h"

const char *report_state_label(int state)
{
	static const char *const label[CS_COUNT] = {
		[CS_RUNNING] = "CPU (running)",
		[CS_READY] = "waiting for a processor (ready)",
		[CS_FLIGHT] = "messages in flight",
		[CS_QUEUED] = "queued at a receiver",
		[CS_BLOCKED_RECEIVE] = "blocked in RECEIVE",
		[CS_BLOCKED_CALL] = "blocked on a CALL",
		[CS_EXTERNAL] = "disk and other external waits",
		[CS_KERNEL] = "kernel work",
	};
	return state >= 0 && state < CS_COUNT ? label[state] : "?";
}

const char *report_state_color(int state)
{
	static const char *const color[CS_COUNT] = {
		[CS_RUNNING] = "#2f9e44",        [CS_READY] = "#f59f00",
		[CS_FLIGHT] = "#1c7ed6",         [CS_QUEUED] = "#ae3ec9",
		[CS_BLOCKED_RECEIVE] = "#ced4da", [CS_BLOCKED_CALL] = "#91a7ff",
		[CS_EXTERNAL] = "#e03131",       [CS_KERNEL] = "#495057",
	};
	return state >= 0 && state < CS_COUNT ? color[state] : "#000";
}

void report_state_legend(FILE *f)
{
	fputs("<p class=\"legend\">", f);
	for (int i = 0; i < CS_COUNT; i++) {
		fprintf(f, "<span><svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" "
			   "fill=\"%s\"/></svg> ", report_state_color(i));
		html_escape(f, report_state_label(i));
		fputs("</span> ", f);
	}
	fputs("</p>\n", f);
}

void report_critical_shares_from(FILE *f, const struct report_run *r, int skip, int top)
{
	const struct critical_result *c = &r->crit;
	int used[CS_COUNT] = { 0 };
	for (int n = 0; n < skip + top; n++) {
		int best = -1;
		for (int i = 0; i < CS_COUNT; i++)
			if (!used[i] && c->job.ns[i] && (best < 0 || c->job.ns[i] > c->job.ns[best]))
				best = i;
		if (best < 0)
			break;
		used[best] = 1;
		if (n < skip)
			continue;
		html_text(f, "%s%.1f%% %s", n > skip ? ", " : "",
			  c->length ? 100.0 * (double)c->job.ns[best] / (double)c->length : 0.0,
			  report_state_label(best));
	}
}

void report_critical_shares(FILE *f, const struct report_run *r, int top)
{
	report_critical_shares_from(f, r, 0, top);
}

static void states_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	report_table_begin(f, r, "critical-states", "The critical path's length in states, the most first",
			   "state|what it is|#on the path|#% of the path");
	double key[CS_COUNT];
	size_t order[CS_COUNT];
	for (int i = 0; i < CS_COUNT; i++)
		key[i] = (double)c->job.ns[i];
	size_t kept = report_rank(key, CS_COUNT, order);
	for (size_t k = 0; k < kept; k++) {
		size_t i = order[k];
		html_row_begin(f);
		html_cell(f, "%s", cstate_name[i]);
		html_cell(f, "%s", report_state_label((int)i));
		html_cell_ns(f, (double)c->job.ns[i]);
		html_cell_real(f, "%.1f", c->length ? 100.0 * (double)c->job.ns[i] / (double)c->length
						     : 0.0);
		html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, CS_COUNT - kept, "states with no time on the path");
}

/* The heads of a table of states: its columns of zeros (shown[i] == 0)
 * left out. */
static void heads(char *buf, size_t len, const char *first, const int *shown)
{
	size_t used = (size_t)snprintf(buf, len, "%s|#total", first);
	for (int i = 0; i < CS_COUNT && used < len; i++)
		if (shown[i])
			used += (size_t)snprintf(buf + used, len - used, "|#%s", cstate_name[i]);
}

static void states_cells(FILE *f, const struct cstates *s, const int *shown)
{
	html_cell_ns(f, (double)cstates_total(s));
	for (int i = 0; i < CS_COUNT; i++)
		if (shown[i])
			html_cell_ns(f, (double)s->ns[i]);
}

/* Which states have time in the sum s (the table's total). */
static void shown_states(const struct cstates *s, int *shown)
{
	for (int i = 0; i < CS_COUNT; i++)
		shown[i] = s->ns[i] != 0;
}

static void process_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	char h[512];
	int shown[CS_COUNT];
	shown_states(&c->job, shown); /* the processes' shares add up to the path */
	heads(h, sizeof h, "process", shown);
	report_table_begin(f, r, "critical-processes", "The critical path by process, the longest "
			   "share first (a message's flight is its receiver's)", h);
	size_t n = r->tr.nproc, *order = NULL, kept = 0;
	double *key = report_rank_alloc(n, &order);
	if (key) {
		for (uint32_t p = 0; p < n; p++)
			key[p] = (double)cstates_total(&c->proc[p].path);
		kept = report_rank(key, n, order);
	}
	for (size_t i = 0; i < kept; i++) {
		uint32_t p = (uint32_t)order[i];
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		states_cells(f, &c->proc[p].path, shown);
		html_row_end(f);
	}
	html_table_end(f);
	report_left_out(f, n - kept, "processes not on the path (and the states with no time on it)");
	free(order);
	free(key);
}

static void server_table(FILE *f, const struct report_run *r)
{
	const struct critical_result *c = &r->crit;
	char h[512];
	int shown[CS_COUNT];
	struct cstates all = { { 0 } };
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		cstates_add(&all, &c->server[p].states);
	shown_states(&all, shown);
	heads(h, sizeof h, "server|#requests|#mean response", shown);
	report_table_begin(f, r, "critical-servers", "Requests (CALLs) by the server called, the "
			   "most total response time first: their response times in states, summed", h);
	size_t n = r->tr.nproc, *order = NULL, kept = 0;
	double *key = report_rank_alloc(n, &order);
	if (key) {
		for (uint32_t p = 0; p < n; p++)
			key[p] = c->server[p].count ? (double)c->server[p].response + 1e-9 : 0;
		kept = report_rank(key, n, order);
	}
	for (size_t i = 0; i < kept; i++) {
		uint32_t p = (uint32_t)order[i];
		html_row_begin(f);
		html_cell(f, "%s", report_process(r, p));
		html_cell_u64(f, c->server[p].count);
		html_cell_ns(f, (double)c->server[p].response / (double)c->server[p].count);
		states_cells(f, &c->server[p].states, shown);
		html_row_end(f);
	}
	html_table_end(f);
	free(order);
	free(key);
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

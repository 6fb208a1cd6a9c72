/*
 * analysis/report/overview.c - a run's timelines on its own clock, drawn
 * as SVG here (no gnuplot: the file must stay small however long the run):
 * NAME-overview.svg, the whole run at a glance, and NAME-zoom.svg, a
 * window in its middle.
 *
 * A lane per process (the busiest 48, grouped by machine, as the
 * space-time diagram's), coloured by what the process was doing: running,
 * ready, blocked in RECEIVE, blocked on a CALL, waiting on something
 * external, a remote MOVEDATA's flight.  Those are the states `dpm
 * critical` gives each stretch between two events of a process
 * (cstretch_states: its CPU first, then ready, then the wait that ends
 * at the event), so the picture and the critical path agree.  The lane is
 * cut into COLUMNS columns and each column painted one state: the
 * process's activity (running, ready, ...) when that fills a quarter of
 * the column, else its longest wait - a server busy 10% of the time in
 * short bursts would otherwise look idle; runs of one colour are one
 * rectangle, so the file's size is
 * bounded by lanes x columns, not by the trace.  Messages are lines from
 * SEND to RECEIVE: in the overview at most MAX_LINES of them, every k-th
 * (the caption says k); in the zoom every message of the window, which
 * starts at the run's middle message and holds ZOOM_MESSAGES of them.
 * Needs the run on one clock (the critical path's condition).
 */
#include "overview.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "html.h"
#include "sections.h"
#include "timeline.h"

#define COLUMNS 400
#define LANE_H 12
#define LABEL_W 110
#define PLOT_W 800
#define MAX_LINES 400
#define ZOOM_MESSAGES 150

/* Add [a, b) of state st into the lane's columns over [t0, t1). */
static void add_span(double *col, double t0, double t1, double a, double b, int st)
{
	double w = (t1 - t0) / COLUMNS;
	if (b <= t0 || a >= t1 || b <= a)
		return;
	a = a < t0 ? t0 : a;
	b = b > t1 ? t1 : b;
	for (size_t i = (size_t)((a - t0) / w); i < COLUMNS && t0 + (double)i * w < b; i++) {
		double lo = t0 + (double)i * w, hi = lo + w;
		double o = (b < hi ? b : hi) - (a > lo ? a : lo);
		if (o > 0)
			col[i * CS_COUNT + (size_t)st] += o;
	}
}

/* The columns of process p's lane over [t0, t1). */
static void fill_lane(const struct cnet *n, uint32_t p, double t0, double t1, double *col)
{
	const struct cgraph *g = &n->g;
	memset(col, 0, COLUMNS * CS_COUNT * sizeof *col);
	for (uint32_t k = g->first[p] + 1; k < g->first[p + 1]; k++) {
		struct cstates s;
		cstretch_states(n, k, &s);
		double at = (double)cnet_time(n, k - 1);
		/* CPU first, then ready, then the wait that ends at the event */
		static const int order[] = { CS_RUNNING, CS_READY, CS_FLIGHT, CS_QUEUED,
					     CS_BLOCKED_RECEIVE, CS_BLOCKED_CALL, CS_EXTERNAL,
					     CS_KERNEL };
		for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
			double len = (double)s.ns[order[i]];
			add_span(col, t0, t1, at, at + len, order[i]);
			at += len;
		}
	}
}

/* What a column shows: the process's activity (running, ready, a flight,
 * kernel work) when it fills at least a quarter of the time the column
 * covers, the largest of it; else the largest wait; -1 for nothing. */
static int column_state(const double *c)
{
	static const int active[] = { CS_RUNNING, CS_READY, CS_FLIGHT, CS_KERNEL };
	double all = 0, busy = 0, best = 0;
	int st = -1, act = -1;
	for (int s = 0; s < CS_COUNT; s++) {
		all += c[s];
		if (c[s] > best) {
			best = c[s];
			st = s;
		}
	}
	best = 0;
	for (size_t i = 0; i < sizeof active / sizeof active[0]; i++) {
		busy += c[active[i]];
		if (c[active[i]] > best) {
			best = c[active[i]];
			act = active[i];
		}
	}
	return act >= 0 && busy >= all / 4 ? act : st;
}

static double x_of(double t, double t0, double t1)
{
	return LABEL_W + PLOT_W * (t - t0) / (t1 - t0);
}

/* Ticks under the lanes, times from the run's first event (base). */
static void axis(FILE *f, double t0, double t1, double y, double base)
{
	char a[32];
	fprintf(f, "<g font-size=\"10\" fill=\"#333\">");
	for (int i = 0; i <= 4; i++) {
		double t = t0 + (t1 - t0) * i / 4;
		double x = x_of(t, t0, t1);
		/* the first tick from the run's start, the others from the first */
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s%s</text>", x, y, x, y + 4,
			x, y + 15, i == 0 ? "start" : i == 4 ? "end" : "middle", i ? "+" : "",
			fmt_ns(i ? t - t0 : t - base, a, sizeof a));
	}
	fprintf(f, "</g>\n");
}

/* One picture of [t0, t1): lanes, then message lines (every `every`-th of
 * those whose SEND is in the window, at most `cap`).  Returns lines drawn. */
static size_t draw(FILE *f, const struct report_run *r, double t0, double t1, size_t every,
		   size_t cap, const int *lane, const uint32_t *order, size_t nlanes)
{
	const struct cnet *n = &r->crit.net;
	const struct cgraph *g = &n->g;
	double base = (double)n->t0;
	double h = (double)(nlanes * LANE_H);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		   "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n", LABEL_W + PLOT_W + 10,
		h + 24, LABEL_W + PLOT_W + 10, h + 24);
	double *col = malloc(COLUMNS * CS_COUNT * sizeof *col);
	if (!col)
		return 0;
	for (size_t l = 0; l < nlanes; l++) {
		uint32_t p = order[l];
		double y = (double)(l * LANE_H);
		fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">",
			LABEL_W - 4, y + LANE_H - 2);
		html_escape(f, report_process(r, p));
		fputs("</text>", f);
		fill_lane(n, p, t0, t1, col);
		int cur = -1;
		size_t from = 0;
		for (size_t i = 0; i <= COLUMNS; i++) {
			int st = i < COLUMNS ? column_state(&col[i * CS_COUNT]) : -1;
			if (st == cur)
				continue;
			if (cur >= 0)
				fprintf(f, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" "
					   "fill=\"%s\"/>", LABEL_W + (double)PLOT_W * (double)from / COLUMNS,
					y + 1, (double)PLOT_W * (double)(i - from) / COLUMNS, LANE_H - 2,
					report_state_color(cur));
			cur = st;
			from = i;
		}
		fputc('\n', f);
	}
	free(col);
	size_t seen = 0, drawn = 0;
	fprintf(f, "<g stroke=\"#000\" stroke-opacity=\".45\" stroke-width=\".7\">");
	for (uint32_t k = 0; k < g->nnodes && drawn < cap; k++) {
		if (g->kind[k] != CROSS_MESSAGE)
			continue;
		uint32_t s = g->cross[k];
		int a = lane[g->node_proc[s]], b = lane[g->node_proc[k]];
		double ts = (double)cnet_time(n, s), tr = (double)cnet_time(n, k);
		if (a < 0 || b < 0 || ts < t0 || ts >= t1 || seen++ % every)
			continue;
		if (tr > t1)
			tr = t1;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x_of(ts, t0, t1),
			a * LANE_H + LANE_H / 2, x_of(tr, t0, t1), b * LANE_H + LANE_H / 2);
		drawn++;
	}
	fprintf(f, "</g>\n");
	axis(f, t0, t1, h + 2, base);
	fprintf(f, "</svg>\n");
	return drawn;
}

static int by_time(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Messages between lanes: their SEND times, sorted; how many. */
static size_t send_times(const struct report_run *r, const int *lane, uint64_t *out)
{
	const struct cnet *n = &r->crit.net;
	const struct cgraph *g = &n->g;
	size_t m = 0;
	for (uint32_t k = 0; k < g->nnodes; k++)
		if (g->kind[k] == CROSS_MESSAGE && lane[g->node_proc[g->cross[k]]] >= 0 &&
		    lane[g->node_proc[k]] >= 0)
			out[m++] = cnet_time(n, g->cross[k]);
	qsort(out, m, sizeof *out, by_time);
	return m;
}

static int write_svg(const char *dir, const char *name, const char *what, FILE **f, char *why,
		     size_t whylen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s-%s.svg", dir, name, what);
	*f = fopen(path, "w");
	if (!*f)
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
	return *f ? 0 : -1;
}

int report_overview(struct report_run *r, const char *dir, char *why, size_t whylen)
{
	struct report_overview *o = &r->overview;
	memset(o, 0, sizeof *o);
	if (!r->have_critical)
		return 0;
	const struct cnet *n = &r->crit.net;
	size_t np = r->tr.nproc, nn = n->g.nnodes;
	int *lane = malloc((np + 1) * sizeof *lane);
	uint32_t *order = malloc((np + 1) * sizeof *order);
	uint64_t *sends = malloc((nn + 1) * sizeof *sends);
	int rc = -1;
	FILE *f = NULL;
	if (!lane || !order || !sends) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	o->lanes = report_timeline_lanes(r, lane, order);
	o->t0 = (double)n->t0;
	o->t1 = (double)cnet_time(n, n->last);
	if (o->t1 <= o->t0)
		o->t1 = o->t0 + 1;
	o->messages = send_times(r, lane, sends);
	o->every = o->messages > MAX_LINES ? (o->messages + MAX_LINES - 1) / MAX_LINES : 1;
	if (write_svg(dir, r->spec->name, "overview", &f, why, whylen) < 0)
		goto out;
	o->drawn = draw(f, r, o->t0, o->t1, o->every, MAX_LINES, lane, order, o->lanes);
	if (fclose(f) != 0) {
		snprintf(why, whylen, "writing %s-overview.svg failed", r->spec->name);
		goto out;
	}
	/* the zoom: from the middle message, ZOOM_MESSAGES of them */
	size_t mid = o->messages / 2, last = mid + ZOOM_MESSAGES;
	o->z0 = o->messages ? (double)sends[mid] : o->t0;
	o->z1 = o->messages > last ? (double)sends[last] : o->t1;
	if (o->z1 <= o->z0)
		o->z1 = o->z0 + 1;
	if (write_svg(dir, r->spec->name, "zoom", &f, why, whylen) < 0)
		goto out;
	o->zdrawn = draw(f, r, o->z0, o->z1, 1, ZOOM_MESSAGES, lane, order, o->lanes);
	if (fclose(f) != 0) {
		snprintf(why, whylen, "writing %s-zoom.svg failed", r->spec->name);
		goto out;
	}
	o->made = 1;
	rc = 0;
out:
	free(lane);
	free(order);
	free(sends);
	return rc;
}

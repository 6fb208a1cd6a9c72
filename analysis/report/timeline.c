/*
 * analysis/report/timeline.c - what the space-time diagram and the
 * parallelism profile of a run show, taken from the timing of its
 * computation graph rather than from the nodes' clocks (which are never
 * compared across machines).
 *
 * Under a timing every node k has a time when[k]; the process arc into k
 * (its CPU time c) is drawn as the process running from when[k-1] for c,
 * the earliest it could, and a message as a line from its SEND to its
 * RECEIVE.  With no contention the running time adds up to T over a span
 * of t_max, so the profile's mean is P.  A long trace is cut to a window
 * from 0 that holds at most TIMELINE_MAX_STRETCHES stretches and
 * TIMELINE_MAX_MESSAGES messages, so the picture stays readable; lanes are
 * the TIMELINE_MAX_LANES busiest processes, grouped by machine.
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>


#define TIMELINE_MAX_STRETCHES 1500
#define TIMELINE_MAX_MESSAGES 150

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The k-th smallest of v[0..n) (k < n), or t_max when n <= k. */
static double kth_time(double *v, size_t n, size_t k, double t_max)
{
	if (n <= k)
		return t_max;
	qsort(v, n, sizeof *v, by_double);
	return v[k];
}

static const struct report_run *lane_run;

/* Lanes grouped by machine, then by process id. */
static int by_machine(const void *a, const void *b)
{
	const struct process *x = &lane_run->tr.proc[*(const uint32_t *)a];
	const struct process *y = &lane_run->tr.proc[*(const uint32_t *)b];
	if (x->machine != y->machine)
		return x->machine < y->machine ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

size_t report_timeline_lanes(const struct report_run *r, int *lane, uint32_t *order)
{
	size_t n = report_cpu_ranking(r, order);
	if (n > TIMELINE_MAX_LANES)
		n = TIMELINE_MAX_LANES;
	lane_run = r;
	qsort(order, n, sizeof *order, by_machine);
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		lane[p] = -1;
	for (size_t i = 0; i < n; i++)
		lane[order[i]] = (int)i;
	return n;
}

/* End of the window shown: before the stretch or message that would
 * pass the limits. */
static double window_end(const struct report_run *r, const int *lane, const double *when,
			 double t_max)
{
	const struct cgraph *g = &r->g;
	double *starts = malloc((g->nnodes + 1) * sizeof *starts);
	double *sends = malloc((g->nnodes + 1) * sizeof *sends);
	size_t ns = 0, nm = 0;
	if (!starts || !sends) {
		free(starts);
		free(sends);
		return t_max;
	}
	for (uint32_t k = 0; k < g->nnodes; k++) {
		if (lane[g->node_proc[k]] < 0)
			continue;
		if (!cgraph_is_first(g, k) && cgraph_proc_arc(g, k) > 0)
			starts[ns++] = when[k - 1];
		if (g->kind[k] == CROSS_MESSAGE && lane[g->node_proc[g->cross[k]]] >= 0)
			sends[nm++] = when[k];
	}
	double a = kth_time(starts, ns, TIMELINE_MAX_STRETCHES, t_max);
	double b = kth_time(sends, nm, TIMELINE_MAX_MESSAGES, t_max);
	free(starts);
	free(sends);
	return a < b ? a : b;
}

static void write_lanes(FILE *f, const struct report_run *r, struct timeline *tl,
			const uint32_t *order, size_t n)
{
	fprintf(f, "# lanes:");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, " %zu=%s", i, report_process(r, order[i]));
		tl->lane_proc[i] = order[i];
	}
	tl->nlanes = n;
	fprintf(f, "\n");
}

int report_timeline(const struct report_run *r, FILE *f, struct timeline *tl)
{
	const struct cgraph *g = &r->g;
	const double *when = r->when_measured;
	int *lane = malloc((r->tr.nproc + 1) * sizeof *lane);
	uint32_t *order = malloc((r->tr.nproc + 1) * sizeof *order);
	if (!lane || !order) {
		free(lane);
		free(order);
		return -1;
	}
	memset(tl, 0, sizeof *tl);
	tl->t_max = r->cfg[CFG_MEASURED].r.t_max;
	size_t nlanes = report_timeline_lanes(r, lane, order);
	tl->until = window_end(r, lane, when, tl->t_max);
	tl->all_msgs = g->nmessages;
	write_lanes(f, r, tl, order, nlanes);
	fprintf(f, "# block 0, a process running: start_ns lane cpu_ns 0\n");
	for (uint32_t k = 0; k < g->nnodes; k++) {
		uint64_t c = cgraph_is_first(g, k) ? 0 : cgraph_proc_arc(g, k);
		int l = lane[g->node_proc[k]];
		if (c == 0 || l < 0 || when[k - 1] >= tl->until)
			continue;
		double len = when[k - 1] + (double)c > tl->until ? tl->until - when[k - 1] : (double)c;
		fprintf(f, "%.0f %d %.0f 0\n", when[k - 1], l, len);
		tl->nruns++;
	}
	fprintf(f, "\n\n# block 1, a message: send_ns sender_lane receive_after_ns "
		   "lanes_to_receiver\n");
	for (uint32_t k = 0; k < g->nnodes; k++) {
		if (g->kind[k] != CROSS_MESSAGE)
			continue;
		uint32_t s = g->cross[k];
		int from = lane[g->node_proc[s]], to = lane[g->node_proc[k]];
		if (from < 0 || to < 0 || when[k] > tl->until)
			continue;
		fprintf(f, "%.0f %d %.0f %d\n", when[s], from, when[k] - when[s], to - from);
		tl->nmsgs++;
	}
	free(lane);
	free(order);
	return ferror(f) ? -1 : 0;
}

void report_profile(const struct report_run *r, const double *when, double t_max,
		    double *bins, size_t nbins)
{
	const struct cgraph *g = &r->g;
	memset(bins, 0, nbins * sizeof *bins);
	if (t_max <= 0)
		return;
	double width = t_max / (double)nbins;
	for (uint32_t k = 0; k < g->nnodes; k++) {
		uint64_t c = cgraph_is_first(g, k) ? 0 : cgraph_proc_arc(g, k);
		if (c == 0)
			continue;
		double a = when[k - 1], b = a + (double)c;
		for (size_t i = (size_t)(a / width); i < nbins && (double)i * width < b; i++) {
			double lo = (double)i * width, hi = lo + width;
			double overlap = (b < hi ? b : hi) - (a > lo ? a : lo);
			if (overlap > 0)
				bins[i] += overlap;
		}
	}
	for (size_t i = 0; i < nbins; i++)
		bins[i] /= width;
}

/*
 * analysis/model/critical_whatif.c - what-if on the interaction network
 * (critical.h: cnet_whatif), in the spirit of Coz's virtual speedups: the
 * same vertices and edges re-timed with some processes' CPU k times faster
 * and/or every remote message taking a given time in flight; an untraced
 * process made faster (the kernel's node.0: its disk) shortens the waits
 * for it.
 *
 * Shaped as one pass in a topological order (Kahn: each vertex waits for
 * its process's previous vertex, the SEND of its message, the
 * CREATEPROCESS that made it, the TERMPROCESS a notice of a child's end
 * announces).  What is a duration stays one (ready time, a creation,
 * waits on untraced processes, a delivery's pickup); what was a wait for
 * another process is recomputed by the join: a RECEIVE happens when both
 * its process asked and its message arrived.  With no change every vertex
 * gets its measured time back (tests/unit/test_critical.c checks it), so
 * the result is a prediction from the run, not a second model.
 */
#include "critical.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t faster(uint64_t ns, double speed)
{
	return speed == 1.0 ? ns : (uint64_t)llround((double)ns / speed);
}

static uint64_t plus(uint64_t t, int64_t d)
{
	return d < 0 && (uint64_t)-d > t ? 0 : t + (uint64_t)d;
}

/* Vertex k of the re-timed network w, its predecessors done. */
static void retime(const struct cnet *n, struct cnet *w, const struct cwhatif *cw, uint32_t k)
{
	const struct cgraph *g = &n->g;
	const struct event *e = cgraph_event(g, k);
	uint32_t p = g->node_proc[k];
	int first = cgraph_is_first(g, k), recv = e->type == TRACE_RECEIVE;
	int matched = g->kind[k] == CROSS_MESSAGE;
	uint64_t t = e->time;
	int64_t flight = 0;
	if (matched) {
		uint32_t s = g->cross[k];
		int remote = cgraph_event(g, s)->machine != e->machine;
		flight = cw->latency >= 0 && remote ? cw->latency
						    : (int64_t)(cnet_arrived_at(n, k) - cnet_time(n, s));
		if (remote)
			flight += cw->latency_add;
		if (flight < 0)
			flight = 0;
	}
	uint32_t term = n->exit_of[k];
	int64_t relay = 0; /* a child's end relayed from its node: one remote message */
	if (term != NO_NODE) {
		relay = (int64_t)(cnet_arrived_at(n, k) - cnet_time(n, term));
		if (cgraph_event(g, term)->machine != e->machine)
			relay += cw->latency_add;
	}
	w->wc[k] = 0;
	if (first) {
		uint32_t f = n->fork[p];
		if (recv && term != NO_NODE) {
			w->wq[k] = plus(w->wt[term], relay);
			w->wt[k] = w->wq[k] + (t - cnet_arrived_at(n, k));
		} else if (recv && matched) {
			w->wq[k] = plus(w->wt[g->cross[k]], flight);
			w->wt[k] = w->wq[k] + (t - cnet_arrived_at(n, k));
		} else if (f != NO_NODE) {
			w->wt[k] = w->wt[f] + (t - cnet_time(n, f));
		} else {
			w->wt[k] = t;
		}
		if (recv && !matched)
			w->wq[k] = w->wt[k];
		return;
	}
	uint64_t prev = cnet_time(n, k - 1), c = cnet_stretch_cpu(n, k);
	if (!recv) {
		uint64_t c2 = faster(c, cw->speed[p]);
		int64_t trips = 2 * cw->latency_add * (int64_t)cnet_movedata_trips(n, k);
		w->wt[k] = w->wt[k - 1] + plus(t - prev - c, trips) + c2;
		w->wc[k] = c2;
		return;
	}
	uint64_t r = cnet_asked_at(n, k), a = cnet_arrived_at(n, k);
	uint64_t cpu_pre = r - prev, post = t - (a > r ? a : r);
	uint64_t cpu_post = c - cpu_pre;
	if (cpu_post > post)
		cpu_post = post;
	uint64_t pre2 = faster(cpu_pre, cw->speed[p]), post2 = faster(cpu_post, cw->speed[p]);
	uint64_t r2 = w->wt[k - 1] + pre2;
	uint64_t a2;
	if (matched)
		a2 = plus(w->wt[g->cross[k]], flight);
	else if (term != NO_NODE)
		a2 = plus(w->wt[term], relay);
	else if (a > r && e->src != NO_PROC && !g->tr->proc[e->src].traced)
		/* an untraced server made faster, or its answers sooner */
		a2 = plus(r2 + faster(a - r, cw->speed[e->src]),
			  cw->wait_add ? cw->wait_add[e->src] : 0);
	else
		a2 = plus(r2, (int64_t)(a - r));
	w->wq[k] = a2;
	w->wt[k] = (a2 > r2 ? a2 : r2) + post - cpu_post + post2;
	w->wc[k] = pre2 + post2 + (c - cpu_pre - cpu_post);
}

int cnet_whatif(const struct cnet *n, const struct cwhatif *c, struct cnet *w, char *err,
		size_t errlen)
{
	const struct cgraph *g = &n->g;
	size_t nn = g->nnodes;
	*w = *n;
	w->wt = malloc(nn * sizeof *w->wt);
	w->wq = calloc(nn, sizeof *w->wq);
	w->wc = calloc(nn, sizeof *w->wc);
	int rc = -1;
	if (!w->wt || !w->wq || !w->wc) {
		snprintf(err, errlen, "%s: out of memory", g->tr->path);
		goto out;
	}
	for (size_t i = 0; i < nn; i++)
		retime(n, w, c, n->order[i]);
	w->last = 0;
	for (uint32_t k = 1; k < nn; k++)
		if (w->wt[k] > w->wt[w->last] ||
		    (w->wt[k] == w->wt[w->last] && g->node_ev[k] > g->node_ev[w->last]))
			w->last = k;
	rc = 0;
out:
	if (rc < 0)
		cnet_whatif_free(w);
	return rc;
}

void cnet_whatif_free(struct cnet *w)
{
	free(w->wt);
	free(w->wq);
	free(w->wc);
	w->wt = w->wq = w->wc = NULL;
}

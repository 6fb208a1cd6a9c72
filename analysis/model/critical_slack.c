/*
 * analysis/model/critical_slack.c - the slack of every vertex of the
 * interaction network (critical.h: cnet_slack), the CPM's "latest finish
 * minus actual" on the run's own times.
 *
 * One backward pass in reverse topological order (cnet.order): when a
 * vertex is reached all its successors have their latest times, and it
 * bounds its predecessors.  Through a plain edge the predecessor must keep
 * the measured duration.  At a join (a RECEIVE of a traced message or of a
 * child's exit notice) what is fixed is the stretch after the later of
 * "asked" and "arrived"; each side may be late up to that point, so the
 * side that came first (the B-edge) has the difference as slack and the
 * other has none.  Hence every vertex on a critical path has slack 0
 * (tests/unit/test_critical.c checks it on random runs).
 */
#include "critical.h"

#include <stdlib.h>

static void bound(uint64_t *latest, uint32_t v, uint64_t limit, uint64_t less)
{
	uint64_t t = limit > less ? limit - less : 0;
	if (t < latest[v])
		latest[v] = t;
}

int cnet_slack(const struct cnet *n, uint64_t *slack)
{
	const struct cgraph *g = &n->g;
	size_t nn = g->nnodes;
	const uint32_t *order = n->order;
	uint64_t *latest = slack; /* the latest times, turned into slack at the end */
	uint64_t end = cnet_time(n, n->last);
	for (size_t k = 0; k < nn; k++)
		latest[k] = end;
	for (size_t i = nn; i-- > 0;) {
		uint32_t k = order[i];
		const struct event *e = cgraph_event(g, k);
		uint64_t t = cnet_time(n, k), lf = latest[k];
		int first = cgraph_is_first(g, k);
		uint32_t from = g->kind[k] == CROSS_MESSAGE ? g->cross[k] : n->exit_of[k];
		if (e->type == TRACE_RECEIVE && from != NO_NODE) {
			uint64_t a = cnet_arrived_at(n, k), r = first ? 0 : cnet_asked_at(n, k);
			uint64_t both = a > r ? a : r, x = lf > t - both ? lf - (t - both) : 0;
			bound(latest, from, x, a - cnet_time(n, from));
			if (!first)
				bound(latest, k - 1, x, r - cnet_time(n, k - 1));
		} else if (!first) {
			bound(latest, k - 1, lf, t - cnet_time(n, k - 1));
		}
		if (first && n->fork[g->node_proc[k]] != NO_NODE) {
			uint32_t f = n->fork[g->node_proc[k]];
			bound(latest, f, lf, t - cnet_time(n, f));
		}
	}
	for (size_t k = 0; k < nn; k++)
		slack[k] = latest[k] > cnet_time(n, (uint32_t)k) ? latest[k] - cnet_time(n, (uint32_t)k)
								: 0;
	return 0;
}

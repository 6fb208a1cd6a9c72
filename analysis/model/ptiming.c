/*
 * analysis/model/ptiming.c - the per-node results of a timing, the weight
 * of a cross arc and the check that a timing reached every process's end
 * (see ptiming.h): what both timings and P share.
 */
#include "ptiming.h"

#include <stdio.h>
#include <stdlib.h>

int pwork_alloc(struct pwork *w, size_t nnodes)
{
	w->when = malloc((nnodes + 1) * sizeof *w->when);
	w->via = malloc(nnodes + 1);
	w->queued = calloc(nnodes + 1, sizeof *w->queued);
	if (!w->when || !w->via || !w->queued) {
		pwork_free(w);
		return -1;
	}
	return 0;
}

void pwork_free(struct pwork *w)
{
	free(w->when);
	free(w->via);
	free(w->queued);
	w->when = NULL;
	w->via = NULL;
	w->queued = NULL;
}

uint32_t message_len(const struct cgraph *g, uint32_t s, uint32_t r)
{
	const struct event *re = cgraph_event(g, r), *se = cgraph_event(g, s);
	return (re->flags & EV_LENGTH) ? re->length : (se->flags & EV_LENGTH) ? se->length : 0;
}

int same_machine(const struct cgraph *g, const struct pconfig *c, uint32_t s, uint32_t r)
{
	return c->machine_of[g->node_proc[s]] == c->machine_of[g->node_proc[r]];
}

double cross_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k)
{
	uint32_t s = g->cross[k];
	const struct event *re = cgraph_event(g, k), *se = cgraph_event(g, s);
	if (g->kind[k] == CROSS_EXTERNAL)
		return re->time > se->time ? (double)(re->time - se->time) : 0;
	return mtime(c->mt, message_len(g, s, k), same_machine(g, c, s, k));
}

double arc_weight(const struct cgraph *g, const struct pconfig *c, const struct pwork *w,
		  uint32_t k)
{
	return cross_weight(g, c, k) + w->queued[k];
}

double proc_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k, int waited)
{
	if (cgraph_is_first(g, k))
		return 0;
	double w = (double)cgraph_proc_arc(g, k);
	uint32_t prev = k - 1, r = g->succ[prev], s = g->cross[prev];
	if (r != NO_NODE && !same_machine(g, c, prev, r))
		w += mtime_transport(c->mt, message_len(g, prev, r), 0);
	if (s != NO_NODE && g->kind[prev] == CROSS_MESSAGE && !waited && !same_machine(g, c, s, prev))
		w += mtime_transport(c->mt, message_len(g, s, prev), 1);
	return w;
}

/* Whether process q (NO_PROC: none) owns an area on a machine other than
 * the mover's. */
static int remote_side(const struct pconfig *c, uint32_t mover, uint32_t q)
{
	return q != NO_PROC && q != mover && c->machine_of[q] != c->machine_of[mover];
}

double wait_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k)
{
	const struct event *e = cgraph_event(g, k);
	if (e->type != TRACE_MOVEDATA || !(e->flags & EV_LENGTH))
		return 0;
	uint32_t mover = g->node_proc[k];
	int sides = remote_side(c, mover, e->src) + remote_side(c, mover, e->dst);
	double trips = 0;
	for (uint32_t left = sides ? e->length : 0; left > 0;) {
		uint32_t chunk = left < MOVEDATA_CHUNK_BYTES ? left : MOVEDATA_CHUNK_BYTES;
		trips += mtime(c->mt, chunk, 0) + mtime(c->mt, 0, 0);
		left -= chunk;
	}
	return sides * trips;
}

int check_all_timed(const struct cgraph *g, const uint32_t *pos, char *err, size_t errlen)
{
	for (uint32_t p = 0; p < g->tr->nproc; p++) {
		if (pos[p] == g->first[p + 1])
			continue;
		char name[32];
		const struct event *e = cgraph_event(g, pos[p]);
		snprintf(err, errlen,
			 "%s:%u: the trace contradicts itself: process %s cannot reach this %s "
			 "(its message is sent only after the receiver's later events)",
			 g->tr->path, e->line, process_name(g->tr, p, name, sizeof name),
			 event_type_name(e->type));
		return -1;
	}
	return 0;
}

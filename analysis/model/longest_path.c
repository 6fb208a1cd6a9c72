/*
 * analysis/model/longest_path.c - t_max without CPU sharing: the longest path
 * through the labelled computation graph.
 *
 * Nodes are taken in a topological order found by following the processes
 * themselves: each process advances until it reaches a RECEIVE whose SEND
 * has not been timed yet, and is woken when that SEND is.  That is Kahn's
 * algorithm specialised to in-degree <= 2, linear in the number of nodes
 * and free of recursion, so 10 million events need no deep stack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "longest_path.h"

struct walk {
	uint32_t *pos;     /* next node of each process */
	uint8_t *blocked;
	uint32_t *ready;   /* stack of processes that can advance */
	size_t nready;
};

static int walk_init(struct walk *k, const struct cgraph *g)
{
	size_t np = g->tr->nproc;
	k->pos = malloc((np + 1) * sizeof *k->pos);
	k->blocked = calloc(np + 1, 1);
	k->ready = malloc((np + 1) * sizeof *k->ready);
	if (!k->pos || !k->blocked || !k->ready)
		return -1;
	k->nready = 0;
	for (size_t p = 0; p < np; p++) {
		k->pos[p] = g->first[p];
		k->ready[k->nready++] = (uint32_t)p;
	}
	return 0;
}

static void walk_free(struct walk *k)
{
	free(k->pos);
	free(k->blocked);
	free(k->ready);
}

static int cross_done(const struct cgraph *g, const struct walk *k, uint32_t c)
{
	return c < k->pos[g->node_proc[c]];
}

static void time_node(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		      uint32_t n)
{
	double t = cgraph_is_first(g, n) ? 0
					 : w->when[n - 1] + proc_weight(g, c, n, w->via[n - 1]) +
						   wait_weight(g, c, n);
	w->via[n] = 0;
	w->queued[n] = 0; /* no link queueing without contention */
	if (g->cross[n] != NO_NODE) {
		double m = w->when[g->cross[n]] + cross_weight(g, c, n);
		if (m > t) {
			t = m;
			w->via[n] = 1;
		}
	}
	w->when[n] = t;
}

/* Advance process p as far as it can go. */
static void advance(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		    struct walk *k, uint32_t p)
{
	for (uint32_t end = g->first[p + 1]; k->pos[p] < end; k->pos[p]++) {
		uint32_t n = k->pos[p];
		if (g->cross[n] != NO_NODE && !cross_done(g, k, g->cross[n])) {
			k->blocked[p] = 1;
			return;
		}
		time_node(g, c, w, n);
		uint32_t r = g->succ[n];
		if (r != NO_NODE) {
			uint32_t q = g->node_proc[r];
			if (k->blocked[q] && k->pos[q] == r) {
				k->blocked[q] = 0;
				k->ready[k->nready++] = q;
			}
		}
	}
}

int longest_path(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		 char *err, size_t errlen)
{
	struct walk k;
	if (walk_init(&k, g) < 0) {
		walk_free(&k);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (k.nready > 0) {
		uint32_t p = k.ready[--k.nready];
		advance(g, c, w, &k, p);
	}
	int rc = check_all_timed(g, k.pos, err, errlen);
	walk_free(&k);
	return rc;
}

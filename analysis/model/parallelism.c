/*
 * analysis/model/parallelism.c - P, T, M and the maximum path for one
 * configuration (see parallelism.h); the timing itself is in
 * longest_path.c and reweight.c, which this file picks between.
 */
#include "parallelism.h"

#include "longest_path.h"
#include "reweight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t machines_used(const struct cgraph *g, const uint32_t *machine_of)
{
	size_t np = g->tr->nproc, m = 0;
	uint32_t maxm = 0;
	for (size_t p = 0; p < np; p++)
		if (machine_of[p] > maxm)
			maxm = machine_of[p];
	uint8_t *seen = calloc((size_t)maxm + 1, 1);
	if (!seen)
		return 0;
	for (size_t p = 0; p < np; p++)
		if (g->first[p] < g->first[p + 1] && !seen[machine_of[p]]) {
			seen[machine_of[p]] = 1;
			m++;
		}
	free(seen);
	return m;
}

int parallel_eval(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		  struct presult *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->end = NO_NODE;
	int rc = c->contention ? reweight_simulate(g, c, w, err, errlen)
			       : longest_path(g, c, w, err, errlen);
	if (rc < 0)
		return -1;
	for (size_t p = 0; p < g->tr->nproc; p++)
		r->T += (double)cgraph_tproc(g, (uint32_t)p);
	for (uint32_t k = 0; k < g->nnodes; k++)
		if (r->end == NO_NODE || w->when[k] > r->t_max) {
			r->t_max = w->when[k];
			r->end = k;
		}
	r->P = r->t_max > 0 ? r->T / r->t_max : 0;
	r->M = machines_used(g, c->machine_of);
	r->util = r->M ? r->P / (double)r->M : 0;
	return 0;
}

/* Node before n on the maximum path, NO_NODE at its start. */
static uint32_t path_pred(const struct cgraph *g, const struct pwork *w, uint32_t n)
{
	if (w->via[n])
		return g->cross[n];
	return cgraph_is_first(g, n) ? NO_NODE : n - 1;
}

struct path_step *max_path(const struct cgraph *g, const struct pconfig *c,
			   const struct pwork *w, const struct presult *r, size_t *n)
{
	*n = 0;
	if (r->end == NO_NODE)
		return NULL;
	size_t count = 1;
	for (uint32_t k = r->end; w->via[k] || !cgraph_is_first(g, k); k = path_pred(g, w, k))
		count += w->via[k];
	struct path_step *s = calloc(count, sizeof *s);
	if (!s)
		return NULL;
	size_t i = count;
	uint32_t k = r->end;
	s[--i] = (struct path_step){ .proc = g->node_proc[k], .to = k };
	for (;;) {
		s[i].from = k;
		uint32_t prev = path_pred(g, w, k);
		if (prev == NO_NODE)
			break;
		if (w->via[k]) {
			s[--i] = (struct path_step){ .proc = g->node_proc[prev], .to = prev,
						     .out_kind = g->kind[k],
						     .out_weight = arc_weight(g, c, w, k) };
		} else {
			s[i].cpu += proc_weight(g, c, k, w->via[k - 1]);
			s[i].wait += wait_weight(g, c, k);
		}
		k = prev;
	}
	*n = count;
	return s;
}

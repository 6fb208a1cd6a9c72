/*
 * servers/tsp/bnb.h - the branch-and-bound core: the reduced-matrix lower
 * bound of a tour prefix, the exact depth-first search below a prefix, and
 * a server's answer to one subproblem.  No DEMOS calls: the host unit tests
 * run exactly this code against Held-Karp.
 */
#ifndef DPM_TSP_BNB_H
#define DPM_TSP_BNB_H
#include <stdint.h>

#include "instance.h"
#include "protocol.h"

/* A lower bound on every tour beginning with path[0..len-1] (path[0] is
 * city 0): the path's cost plus the reduction (row minima, then column
 * minima) of the cost matrix of the rest, a Hamiltonian path from the last
 * city through the unvisited ones back to city 0.  For a complete path it
 * is the tour's cost. */
int32_t bnb_bound(const struct tsp_instance *t, const uint8_t *path, int len);

struct bnb_result {
	int found;              /* a tour cheaper than `upper` exists below the prefix */
	int32_t cost;           /* the cheapest such tour's cost                       */
	uint8_t tour[TSP_MAX_N];
	uint32_t nodes;         /* lower bounds computed                               */
};

/* The cheapest tour beginning with path[0..len-1] and costing less than
 * `upper`: depth first, children in increasing bound, pruned at the best
 * cost found so far. */
void bnb_solve(const struct tsp_instance *t, const uint8_t *path, int len, int32_t upper,
	       struct bnb_result *out);

/* What a server answers to `sub` (docs/tsp.md, "The message protocol"). */
void bnb_answer(const struct tsp_instance *t, const struct tsp_subproblem *sub, struct tsp_answer *ans);
#endif

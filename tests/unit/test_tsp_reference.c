/*
 * tests/unit/test_tsp_reference.c - Held-Karp: best[S][j] is the cheapest
 * path from city 0 through exactly the cities of S (a subset of 1..n-1)
 * ending in j (in S).  O(2^n n^2) time, independent of any bound, which is
 * what makes it a reference for the branch and bound.
 */
#include <stdlib.h>

#include "test_tsp_reference.h"

int32_t held_karp(const struct tsp_instance *t)
{
	int n = t->n, m = n - 1;
	if (n < 2 || n > HELD_KARP_MAX_N)
		return -1;
	uint32_t sets = 1u << m;
	int32_t *best = malloc(sizeof *best * sets * (size_t)m);
	if (!best)
		return -1;
	/* city j (1..n-1) is bit j-1; best[S * m + (j-1)] */
	for (uint32_t s = 1; s < sets; s++) {
		for (int j = 0; j < m; j++) {
			int32_t *cell = &best[s * (uint32_t)m + (uint32_t)j];
			*cell = TSP_INF;
			if (!(s & (1u << j)))
				continue;
			uint32_t rest = s & ~(1u << j);
			if (!rest) {
				*cell = tsp_cost(t, 0, j + 1);
				continue;
			}
			for (int k = 0; k < m; k++) {
				int32_t before = (rest & (1u << k)) ? best[rest * (uint32_t)m + (uint32_t)k] : TSP_INF;
				if (before < TSP_INF && before + tsp_cost(t, k + 1, j + 1) < *cell)
					*cell = before + tsp_cost(t, k + 1, j + 1);
			}
		}
	}
	int32_t tour = TSP_INF;
	for (int j = 0; j < m; j++) {
		int32_t path = best[(sets - 1) * (uint32_t)m + (uint32_t)j];
		if (path < TSP_INF && path + tsp_cost(t, j + 1, 0) < tour)
			tour = path + tsp_cost(t, j + 1, 0);
	}
	free(best);
	return tour;
}

/*
 * servers/tsp/instance.h - a travelling-salesman instance: the N x N cost
 * matrix every TSP process works on, its limits, and the deterministic
 * random generator behind `tsp -n N -s SEED`.  Plain C with no DEMOS calls,
 * so the host unit tests and the guest programs share it.
 *
 * Costs are integers in 0..TSP_MAX_COST; with at most TSP_MAX_N cities any
 * tour or bound fits in an int32_t well below TSP_INF, so the search needs
 * no overflow checks.
 */
#ifndef DPM_TSP_INSTANCE_H
#define DPM_TSP_INSTANCE_H
#include <stdint.h>

#define TSP_MAX_N 64
#define TSP_MIN_N 2
#define TSP_MAX_COST 10000000
#define TSP_INF (1 << 30) /* "no edge" and "no tour yet": above every tour */

struct tsp_instance {
	int n;
	int32_t cost[TSP_MAX_N * TSP_MAX_N]; /* cost[i * TSP_MAX_N + j]: from i to j */
};

static inline int32_t tsp_cost(const struct tsp_instance *t, int from, int to)
{
	return t->cost[from * TSP_MAX_N + to];
}

static inline void tsp_set_cost(struct tsp_instance *t, int from, int to, int32_t c)
{
	t->cost[from * TSP_MAX_N + to] = c;
}

/* The generator behind tsp_random_instance (also the hostile guest
 * suite's, t_storm): the next of a xorshift32 sequence (state != 0). */
uint32_t xorshift32(uint32_t *state);
/* A symmetric instance of n cities with costs 1..1000 drawn from `seed`;
 * the same (n, seed) gives the same matrix on every machine. */
void tsp_random_instance(struct tsp_instance *t, int n, uint32_t seed);

/* Cost of the closed tour visiting tour[0..n-1] and back to tour[0]; -1
 * when tour is not a permutation of 0..n-1 starting at city 0. */
int32_t tsp_tour_cost(const struct tsp_instance *t, const uint8_t *tour);
#endif

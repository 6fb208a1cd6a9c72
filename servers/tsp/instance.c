/*
 * servers/tsp/instance.c - the random instance generator and the tour
 * check shared by the controller, the servers and the tests.  The
 * generator is xorshift32 so that a seed means the same matrix on the host
 * and in the guest, independent of any C library's rand().
 */
#include "instance.h"

uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

void tsp_random_instance(struct tsp_instance *t, int n, uint32_t seed)
{
	uint32_t state = seed * 2654435761u + 0x9e3779b9u; /* never 0 for small seeds */
	if (!state)
		state = 1;
	t->n = n;
	for (int i = 0; i < n; i++) {
		tsp_set_cost(t, i, i, 0);
		for (int j = i + 1; j < n; j++) {
			int32_t c = (int32_t)(xorshift32(&state) % 1000u) + 1;
			tsp_set_cost(t, i, j, c);
			tsp_set_cost(t, j, i, c);
		}
	}
}

int32_t tsp_tour_cost(const struct tsp_instance *t, const uint8_t *tour)
{
	uint8_t seen[TSP_MAX_N] = { 0 };
	int32_t sum = 0;
	if (t->n < 1 || tour[0] != 0)
		return -1;
	for (int i = 0; i < t->n; i++) {
		if (tour[i] >= t->n || seen[tour[i]])
			return -1;
		seen[tour[i]] = 1;
		sum += tsp_cost(t, tour[i], tour[(i + 1) % t->n]);
	}
	return sum;
}

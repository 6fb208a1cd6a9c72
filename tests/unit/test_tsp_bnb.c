/*
 * tests/unit/test_tsp_bnb.c - the branch-and-bound core a server runs
 * (servers/tsp/bnb.c) against Held-Karp: bounds never exceed the best
 * completion, the search finds optimal tours on symmetric and asymmetric
 * instances of 2..12 cities, and the upper bound prunes exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "servers/tsp/bnb.h"
#include "test_tsp_reference.h"

static struct tsp_instance inst;

/* An asymmetric instance with costs 0..99 (zeros and ties included). */
static void asymmetric_instance(struct tsp_instance *t, int n, uint32_t seed)
{
	uint32_t x = seed * 747796405u + 2891336453u;
	t->n = n;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			x = x * 1664525u + 1013904223u;
			tsp_set_cost(t, i, j, i == j ? 0 : (int32_t)((x >> 16) % 100u));
		}
}

static void assert_solves_optimally(const struct tsp_instance *t)
{
	struct bnb_result r;
	uint8_t root = 0;
	bnb_solve(t, &root, 1, TSP_INF, &r);
	assert_true(r.found);
	assert_int_equal(r.cost, held_karp(t));
	assert_int_equal(tsp_tour_cost(t, r.tour), r.cost);
}

static void test_random_generator_is_deterministic_and_symmetric(void **state)
{
	(void)state;
	static struct tsp_instance again;
	tsp_random_instance(&inst, 12, 7);
	tsp_random_instance(&again, 12, 7);
	assert_memory_equal(inst.cost, again.cost, sizeof inst.cost);
	assert_int_equal(tsp_cost(&inst, 0, 1), 501); /* pinned: tests in the guest use the same seeds */
	for (int i = 0; i < 12; i++)
		for (int j = 0; j < 12; j++) {
			assert_int_equal(tsp_cost(&inst, i, j), tsp_cost(&inst, j, i));
			if (i != j)
				assert_true(tsp_cost(&inst, i, j) >= 1 && tsp_cost(&inst, i, j) <= 1000);
		}
	tsp_random_instance(&again, 12, 8);
	assert_memory_not_equal(inst.cost, again.cost, sizeof inst.cost);
}

static void test_tour_cost_checks_the_tour(void **state)
{
	(void)state;
	tsp_random_instance(&inst, 4, 1);
	uint8_t good[4] = { 0, 2, 1, 3 }, repeat[4] = { 0, 2, 2, 3 }, late0[4] = { 1, 0, 2, 3 };
	assert_int_equal(tsp_tour_cost(&inst, good), tsp_cost(&inst, 0, 2) + tsp_cost(&inst, 2, 1) +
						      tsp_cost(&inst, 1, 3) + tsp_cost(&inst, 3, 0));
	assert_int_equal(tsp_tour_cost(&inst, repeat), -1);
	assert_int_equal(tsp_tour_cost(&inst, late0), -1);
}

static void test_bound_of_a_complete_path_is_its_tour_cost(void **state)
{
	(void)state;
	tsp_random_instance(&inst, 6, 3);
	uint8_t tour[6] = { 0, 5, 2, 4, 1, 3 };
	assert_int_equal(bnb_bound(&inst, tour, 6), tsp_tour_cost(&inst, tour));
	/* one city left: the rest is forced, so the bound is exact too */
	assert_int_equal(bnb_bound(&inst, tour, 5), tsp_tour_cost(&inst, tour));
}

static void test_bound_is_a_real_lower_bound(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 60; seed++) {
		int n = 4 + (int)(seed % 8);
		tsp_random_instance(&inst, n, seed);
		int32_t opt = held_karp(&inst);
		uint8_t root = 0;
		int32_t b = bnb_bound(&inst, &root, 1);
		assert_true(b <= opt);
		/* and more than the cheapest-edge bound: n times the cheapest edge */
		int32_t cheapest = TSP_INF;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (i != j && tsp_cost(&inst, i, j) < cheapest)
					cheapest = tsp_cost(&inst, i, j);
		assert_true(b >= n * cheapest);
		/* every prefix: the bound is below the best tour through it */
		struct bnb_result r;
		uint8_t prefix[2] = { 0, (uint8_t)(1 + seed % (uint32_t)(n - 1)) };
		bnb_solve(&inst, prefix, 2, TSP_INF, &r);
		assert_true(r.found);
		assert_true(bnb_bound(&inst, prefix, 2) <= r.cost);
		assert_true(r.cost >= opt);
	}
}

static void test_solve_is_optimal_on_symmetric_instances(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 200; seed++) {
		tsp_random_instance(&inst, 2 + (int)(seed % 11), seed);
		assert_solves_optimally(&inst);
	}
}

static void test_solve_is_optimal_on_asymmetric_instances(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 200; seed++) {
		asymmetric_instance(&inst, 2 + (int)(seed % 11), seed);
		assert_solves_optimally(&inst);
	}
}

static void test_upper_bound_prunes_exactly(void **state)
{
	(void)state;
	struct bnb_result r;
	uint8_t root = 0;
	tsp_random_instance(&inst, 10, 42);
	int32_t opt = held_karp(&inst);
	bnb_solve(&inst, &root, 1, opt, &r);
	assert_false(r.found); /* nothing strictly cheaper than the optimum */
	bnb_solve(&inst, &root, 1, opt + 1, &r);
	assert_true(r.found);
	assert_int_equal(r.cost, opt);
	uint32_t nodes_free = r.nodes;
	bnb_solve(&inst, &root, 1, TSP_INF, &r);
	assert_true(r.nodes >= nodes_free); /* a good upper bound only saves work */
}

static void test_answer_follows_the_protocol(void **state)
{
	(void)state;
	tsp_random_instance(&inst, 9, 5);
	int32_t opt = held_karp(&inst);
	struct tsp_subproblem sub = { .id = 77, .mode = TSP_BOUND, .upper = TSP_INF, .len = 2, .path = { 0, 3 } };
	struct tsp_answer ans;
	bnb_answer(&inst, &sub, &ans);
	assert_int_equal(ans.id, 77);
	assert_int_equal(ans.status, TSP_BOUNDED);
	assert_int_equal(ans.value, bnb_bound(&inst, sub.path, 2));
	assert_int_equal(ans.nodes, 1);
	sub.upper = ans.value;
	bnb_answer(&inst, &sub, &ans);
	assert_int_equal(ans.status, TSP_PRUNED);

	sub = (struct tsp_subproblem){ .id = 78, .mode = TSP_SOLVE, .upper = TSP_INF, .len = 1, .path = { 0 } };
	bnb_answer(&inst, &sub, &ans);
	assert_int_equal(ans.status, TSP_SOLVED);
	assert_int_equal(ans.value, opt);
	assert_int_equal(tsp_tour_cost(&inst, ans.tour), opt);
	assert_true(ans.nodes > 1);
	sub.upper = opt;
	bnb_answer(&inst, &sub, &ans);
	assert_int_equal(ans.status, TSP_PRUNED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_generator_is_deterministic_and_symmetric),
		cmocka_unit_test(test_tour_cost_checks_the_tour),
		cmocka_unit_test(test_bound_of_a_complete_path_is_its_tour_cost),
		cmocka_unit_test(test_bound_is_a_real_lower_bound),
		cmocka_unit_test(test_solve_is_optimal_on_symmetric_instances),
		cmocka_unit_test(test_solve_is_optimal_on_asymmetric_instances),
		cmocka_unit_test(test_upper_bound_prunes_exactly),
		cmocka_unit_test(test_answer_follows_the_protocol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

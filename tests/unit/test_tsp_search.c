/*
 * tests/unit/test_tsp_search.c - the controller's search (servers/tsp/
 * search.c) driven by simulated servers that run the real server code
 * (bnb_answer) and answer in a scrambled order, as servers on several
 * nodes would.  Every version, with 1, 2 and 4 servers and every split
 * depth, must find the Held-Karp optimum; the versions must differ the way
 * docs/tsp.md says; and answers nobody asked for are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "servers/tsp/bnb.h"
#include "servers/tsp/search.h"
#include "test_tsp_reference.h"

static struct tsp_instance inst;
static struct search srch;

/* Run the search with `servers` simulated servers holding up to
 * search_queue_depth(version) subproblems each; answers are taken in an
 * order drawn from `seed`.  Returns the largest number outstanding. */
static int run(struct search *s, const struct tsp_instance *t, int version, int depth, int servers,
	       uint32_t seed)
{
	static struct tsp_subproblem held[64];
	int nheld = 0, most = 0, room = servers * search_queue_depth(version);
	uint32_t x = seed | 1;
	search_start(s, t, version, depth);
	while (!s->done) {
		while (nheld < room && search_next(s, &held[nheld]))
			nheld++;
		assert_true(nheld > 0); /* the search never waits for nothing */
		assert_int_equal(search_outstanding(s), nheld);
		if (nheld > most)
			most = nheld;
		x = x * 1103515245u + 12345u;
		int pick = (int)((x >> 8) % (uint32_t)nheld);
		struct tsp_answer ans;
		bnb_answer(t, &held[pick], &ans);
		held[pick] = held[--nheld];
		assert_int_equal(search_answer(s, &ans), 0);
	}
	assert_int_equal(nheld, 0);
	return most;
}

static void assert_optimal(const struct search *s, const struct tsp_instance *t)
{
	assert_int_equal(s->best, held_karp(t));
	assert_int_equal(tsp_tour_cost(t, s->best_tour), s->best);
}

static void test_every_version_servers_and_depth_is_optimal(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 24; seed++) {
		int n = 2 + (int)(seed % 11);
		tsp_random_instance(&inst, n, seed);
		for (int v = TSP_V1; v <= TSP_V3; v++)
			for (int p = 1; p <= 4; p *= 2)
				for (int d = 1; d <= n - 1; d++) {
					run(&srch, &inst, v, d, p, seed * 31 + (uint32_t)d);
					assert_optimal(&srch, &inst);
				}
	}
}

static void test_default_depth_is_optimal_at_twelve_cities(void **state)
{
	(void)state;
	for (uint32_t seed = 100; seed < 110; seed++) {
		tsp_random_instance(&inst, 12, seed);
		for (int v = TSP_V1; v <= TSP_V3; v++) {
			run(&srch, &inst, v, search_default_depth(12), 4, seed);
			assert_optimal(&srch, &inst);
		}
	}
}

static void test_v1_recomputes_what_v2_caches(void **state)
{
	(void)state;
	static struct search v1, v2, v3;
	int more = 0;
	for (uint32_t seed = 1; seed <= 10; seed++) {
		tsp_random_instance(&inst, 11, seed);
		run(&v1, &inst, TSP_V1, 6, 2, seed);
		run(&v2, &inst, TSP_V2, 6, 2, seed);
		run(&v3, &inst, TSP_V3, 6, 2, seed);
		assert_int_equal(v1.best, v2.best);
		assert_int_equal(v2.stats.reexpansions, 0);
		assert_int_equal(v3.stats.reexpansions, 0);
		/* v1 = v2's expansions plus one re-expansion per return to a level */
		assert_int_equal(v1.stats.expansions, v2.stats.expansions + v1.stats.reexpansions);
		assert_true(v1.stats.subproblems >= v2.stats.subproblems);
		more += v1.stats.reexpansions > 0;
		/* v3 walks the same tree as v2: only the queueing differs */
		assert_int_equal(v3.stats.expansions, v2.stats.expansions);
	}
	assert_true(more > 0);
}

static void test_v3_keeps_two_requests_at_each_server(void **state)
{
	(void)state;
	tsp_random_instance(&inst, 12, 9);
	assert_int_equal(search_queue_depth(TSP_V1), 1);
	assert_int_equal(search_queue_depth(TSP_V2), 1);
	assert_int_equal(search_queue_depth(TSP_V3), 2);
	assert_int_equal(run(&srch, &inst, TSP_V2, 3, 4, 1), 4);
	assert_int_equal(run(&srch, &inst, TSP_V3, 3, 4, 1), 8);
}

static void test_depth_one_hands_out_the_root_children_only(void **state)
{
	(void)state;
	tsp_random_instance(&inst, 8, 4);
	run(&srch, &inst, TSP_V2, 1, 2, 4);
	assert_int_equal(srch.stats.expansions, 1);
	assert_int_equal(srch.stats.subproblems, 7);
	assert_optimal(&srch, &inst);
}

static void test_unasked_answers_are_refused(void **state)
{
	(void)state;
	struct tsp_subproblem sub;
	struct tsp_answer ans;
	tsp_random_instance(&inst, 8, 2);
	search_start(&srch, &inst, TSP_V2, 3);
	assert_int_equal(search_outstanding(&srch), 0);
	assert_int_equal(search_next(&srch, &sub), 1);
	assert_int_equal(sub.mode, TSP_BOUND);
	assert_int_equal(sub.len, 2);
	bnb_answer(&inst, &sub, &ans);
	ans.id = sub.id + 1;                 /* not handed out yet */
	assert_int_equal(search_answer(&srch, &ans), -1);
	ans.id = sub.id;
	ans.status = TSP_SOLVED;             /* a bound was asked for */
	assert_int_equal(search_answer(&srch, &ans), -1);
	bnb_answer(&inst, &sub, &ans);
	assert_int_equal(search_answer(&srch, &ans), 0);
	assert_int_equal(search_answer(&srch, &ans), -1); /* answered twice */
	assert_int_equal(search_outstanding(&srch), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_version_servers_and_depth_is_optimal),
		cmocka_unit_test(test_default_depth_is_optimal_at_twelve_cities),
		cmocka_unit_test(test_v1_recomputes_what_v2_caches),
		cmocka_unit_test(test_v3_keeps_two_requests_at_each_server),
		cmocka_unit_test(test_depth_one_hands_out_the_root_children_only),
		cmocka_unit_test(test_unasked_answers_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

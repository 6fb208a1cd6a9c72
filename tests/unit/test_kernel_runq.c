/*
 * tests/unit/test_kernel_runq.c - the scheduler's set of runnable slots
 * (kernel/runq.h) against the scan of every slot it replaced: the same
 * pick from every cursor, after random joins and leaves, and the count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/runq.h"

/* The scheduler before runq.h: slots after the cursor, going round. */
static int scan_next(const int *in, uint32_t cursor)
{
	for (uint32_t n = 0, c = cursor; n < NPROC; n++) {
		c = (c + 1) % NPROC;
		if (in[c])
			return (int)c;
	}
	return -1;
}

static void empty_set_picks_nothing(void **state)
{
	(void)state;
	struct runq q;
	memset(&q, 0, sizeof q);
	for (uint32_t c = 0; c < NPROC; c++)
		assert_int_equal(runq_next(&q, c), -1);
	assert_int_equal(q.count, 0);
}

static void one_slot_is_picked_from_every_cursor(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < NPROC; i++) {
		struct runq q;
		memset(&q, 0, sizeof q);
		runq_add(&q, i);
		for (uint32_t c = 0; c < NPROC; c++)
			assert_int_equal(runq_next(&q, c), (int)i); /* the cursor's own slot last */
		runq_remove(&q, i);
		assert_int_equal(runq_next(&q, i), -1);
	}
}

static void random_sets_pick_as_the_scan(void **state)
{
	(void)state;
	srand(15);
	struct runq q;
	int in[NPROC] = { 0 };
	uint32_t count = 0;
	memset(&q, 0, sizeof q);
	for (int step = 0; step < 20000; step++) {
		uint32_t i = (uint32_t)rand() % NPROC;
		if (in[i]) {
			runq_remove(&q, i);
			count--;
		} else {
			runq_add(&q, i);
			count++;
		}
		in[i] = !in[i];
		assert_int_equal(q.count, count);
		uint32_t c = (uint32_t)rand() % NPROC;
		assert_int_equal(runq_next(&q, c), scan_next(in, c));
	}
}

/* Round robin: every member is picked once before any is picked twice. */
static void picks_go_round(void **state)
{
	(void)state;
	struct runq q;
	memset(&q, 0, sizeof q);
	const uint32_t members[] = { 0, 5, 31, 32, 33, NPROC - 1 };
	for (size_t k = 0; k < sizeof members / sizeof members[0]; k++)
		runq_add(&q, members[k]);
	uint32_t c = 7;
	const uint32_t order[] = { 31, 32, 33, NPROC - 1, 0, 5, 31 };
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		int next = runq_next(&q, c);
		assert_int_equal(next, (int)order[k]);
		c = (uint32_t)next;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_set_picks_nothing),
		cmocka_unit_test(one_slot_is_picked_from_every_cursor),
		cmocka_unit_test(random_sets_pick_as_the_scan),
		cmocka_unit_test(picks_go_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

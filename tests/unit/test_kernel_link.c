/*
 * tests/unit/test_kernel_link.c - the link table on the host: allocation
 * order, index validation (the only door a process has to its links),
 * freeing and counting, the free slots found and counted by the table's
 * set of slots in use.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"

static struct link_table t;

static int setup(void **state)
{
	(void)state;
	link_clear(&t);
	return 0;
}

static void alloc_takes_first_free_from(void **state)
{
	(void)state;
	struct link l = { .task = 0x10002, .code = 9 };
	assert_int_equal(link_alloc(&t, &l, 4), 4);
	assert_int_equal(link_alloc(&t, &l, 4), 5);
	assert_int_equal(link_alloc(&t, &l, 0), 0);
	assert_int_equal(link_free(&t, 4), 0);
	assert_int_equal(link_alloc(&t, &l, 4), 4);
	assert_int_equal(link_count(&t), 3);
}

static void alloc_fills_then_nospace(void **state)
{
	(void)state;
	struct link l = { .task = 1 };
	for (int i = 4; i < NLINK; i++)
		assert_int_equal(link_alloc(&t, &l, 4), i);
	assert_int_equal(link_alloc(&t, &l, 4), E_NOSPACE);
	assert_int_equal(link_alloc(&t, &l, 0), 0); /* slots below `from` are separate */
}

static void get_validates_every_index(void **state)
{
	(void)state;
	struct link l = { .task = 7, .code = 3 };
	int i = link_alloc(&t, &l, 4);
	assert_non_null(link_get(&t, i));
	assert_int_equal(link_get(&t, i)->code, 3);
	assert_true(link_get(&t, i)->in_use);
	assert_null(link_get(&t, -1));
	assert_null(link_get(&t, NLINK));
	assert_null(link_get(&t, 0x7fffffff));
	assert_null(link_get(&t, (int32_t)0x80000000));
	assert_null(link_get(&t, i + 1)); /* in range, free */
}

static void free_clears_and_rejects_twice(void **state)
{
	(void)state;
	struct link l = { .task = 7, .rights = LINK_READ, .data = 0x40001000, .data_len = 10 };
	int i = link_alloc(&t, &l, 4);
	assert_int_equal(link_free(&t, i), 0);
	assert_int_equal(link_free(&t, i), E_BADLINK);
	assert_int_equal(link_free(&t, -5), E_BADLINK);
	assert_int_equal(t.slot[i].data_len, 0); /* nothing of it stays behind */
	assert_int_equal(link_count(&t), 0);
}

static void put_replaces_slot(void **state)
{
	(void)state;
	struct link a = { .task = 1, .rights = LINK_REPLY }, b = { .task = 2 }, old = { .task = 9 };
	assert_int_equal(link_put(&t, 2, &a, &old), 2);
	assert_int_equal(old.in_use, 0);               /* the slot was free */
	assert_int_equal(link_put(&t, 2, &b, &old), 2);
	assert_int_equal(old.in_use, 1);               /* what it replaced, to answer */
	assert_int_equal(old.task, 1);
	assert_int_equal(old.rights, LINK_REPLY);
	assert_int_equal(link_get(&t, 2)->task, 2);
	assert_int_equal(link_put(&t, NLINK, &a, NULL), E_BADLINK);
	assert_int_equal(link_put(&t, -1, &a, NULL), E_BADLINK);
}

static void free_slot_writes_nothing(void **state)
{
	(void)state;
	struct link a = { .task = 1 };
	assert_int_equal(link_free_slot(&t, 4), 4);
	assert_int_equal(link_count(&t), 0);
	for (int i = 4; i < NLINK; i++)
		link_alloc(&t, &a, 4);
	assert_int_equal(link_free_slot(&t, 4), E_NOSPACE);
	assert_int_equal(link_free_slot(&t, 0), 0);
}

/* The table's set of slots in use against its slots: random allocations,
 * puts and frees, then every `from` asked of both. */
static void free_slots_follow_the_table(void **state)
{
	(void)state;
	srand(15);
	struct link a = { .task = 3 };
	for (int step = 0; step < 5000; step++) {
		int i = rand() % NLINK;
		switch (rand() % 3) {
		case 0: link_alloc(&t, &a, i); break;
		case 1: link_put(&t, i, &a, NULL); break;
		default: link_free(&t, i); break;
		}
		int used = 0;
		for (int s = 0; s < NLINK; s++)
			used += t.slot[s].in_use != 0;
		assert_int_equal(link_count(&t), used);
		for (int from = -1; from <= NLINK; from++) {
			int first = E_NOSPACE, nfree = 0;
			for (int s = from < 0 ? 0 : from; s < NLINK; s++) {
				if (!t.slot[s].in_use && first == E_NOSPACE)
					first = s;
				nfree += !t.slot[s].in_use;
			}
			assert_int_equal(link_free_slot(&t, from), first);
			assert_int_equal(link_free_count(&t, from), nfree);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(alloc_takes_first_free_from, setup),
		cmocka_unit_test_setup(alloc_fills_then_nospace, setup),
		cmocka_unit_test_setup(get_validates_every_index, setup),
		cmocka_unit_test_setup(free_clears_and_rejects_twice, setup),
		cmocka_unit_test_setup(put_replaces_slot, setup),
		cmocka_unit_test_setup(free_slot_writes_nothing, setup),
		cmocka_unit_test_setup(free_slots_follow_the_table, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

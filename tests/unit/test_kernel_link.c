/*
 * tests/unit/test_kernel_link.c - the link table on the host: allocation
 * order, index validation (the only door a process has to its links),
 * freeing and counting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
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
	struct link a = { .task = 1 }, b = { .task = 2 };
	assert_int_equal(link_put(&t, 2, &a), 2);
	assert_int_equal(link_put(&t, 2, &b), 2);
	assert_int_equal(link_get(&t, 2)->task, 2);
	assert_int_equal(link_put(&t, NLINK, &a), E_BADLINK);
	assert_int_equal(link_put(&t, -1, &a), E_BADLINK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(alloc_takes_first_free_from, setup),
		cmocka_unit_test_setup(alloc_fills_then_nospace, setup),
		cmocka_unit_test_setup(get_validates_every_index, setup),
		cmocka_unit_test_setup(free_clears_and_rejects_twice, setup),
		cmocka_unit_test_setup(put_replaces_slot, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

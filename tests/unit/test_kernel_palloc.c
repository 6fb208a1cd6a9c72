/*
 * tests/unit/test_kernel_palloc.c - the page allocator on the host, over a
 * region of ordinary memory: alignment, zeroing, exhaustion and reuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"

#define PAGES 16

static uint8_t *region;

static int setup(void **state)
{
	(void)state;
	region = aligned_alloc(4096, (PAGES + 1) * 4096);
	/* start unaligned: palloc_init must round in */
	palloc_init((uintptr_t)region + 100, (uintptr_t)region + (PAGES + 1) * 4096);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(region);
	return 0;
}

static void pages_aligned_zeroed_and_counted(void **state)
{
	(void)state;
	assert_int_equal(palloc_free_pages(), PAGES);
	uint8_t *p = palloc();
	assert_non_null(p);
	assert_int_equal((uintptr_t)p & 4095, 0);
	assert_true(p >= region + 4096 && p < region + (PAGES + 1) * 4096);
	for (int i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xab, 4096);
	pfree(p);
	uint8_t *q = palloc();
	assert_ptr_equal(q, p);   /* reused, and */
	assert_int_equal(q[100], 0); /* zeroed again */
	assert_int_equal(palloc_free_pages(), PAGES - 1);
}

static void exhaustion_returns_null(void **state)
{
	(void)state;
	void *pages[PAGES];
	for (int i = 0; i < PAGES; i++)
		assert_non_null(pages[i] = palloc());
	for (int i = 0; i < PAGES; i++)
		for (int j = i + 1; j < PAGES; j++)
			assert_ptr_not_equal(pages[i], pages[j]);
	assert_null(palloc());
	assert_int_equal(palloc_free_pages(), 0);
	pfree(pages[3]);
	assert_ptr_equal(palloc(), pages[3]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(pages_aligned_zeroed_and_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(exhaustion_returns_null, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

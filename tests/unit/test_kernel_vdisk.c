/*
 * tests/unit/test_kernel_vdisk.c - the disk model of virtual time on the
 * host (kernel/vdisk.c; docs/virtual-time.md §2.7): a request's completion
 * is max(issue, disk free) + latency + sectors * per-sector cost, requests
 * are served one at a time in issue order, a full queue refuses without
 * changing anything, and an absurd model saturates instead of wrapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "kernel/vdisk.h"

static struct vdisk d;

static uint64_t issue(uint64_t t, uint32_t count, uint32_t task)
{
	struct vdisk_req r = { .count = count, .task = task };
	assert_int_equal(vdisk_issue(&d, t, &r), 0);
	return r.done_at;
}

static void an_idle_disk_takes_latency_plus_sectors(void **state)
{
	(void)state;
	vdisk_init(&d, 4000000, 5000);
	assert_true(vdisk_next(&d) == UINT64_MAX);
	assert_null(vdisk_head(&d));
	/* 8 sectors (a 4 KiB block) at 1 ms: 1 ms + 4 ms + 40 us */
	assert_int_equal(issue(1000000, 8, 7), 5040000);
	assert_int_equal(vdisk_next(&d), 5040000);
	assert_int_equal(vdisk_head(&d)->task, 7);
	vdisk_pop(&d);
	/* issued after the disk is free again: from its own issue time */
	assert_int_equal(issue(9000000, 1, 7), 13005000);
}

static void requests_queue_behind_each_other_in_issue_order(void **state)
{
	(void)state;
	vdisk_init(&d, 1000, 10);
	assert_int_equal(issue(0, 2, 1), 1020);     /* 0 + 1000 + 20        */
	assert_int_equal(issue(500, 1, 2), 2030);   /* waits for 1020       */
	assert_int_equal(issue(600, 3, 3), 3060);   /* waits for 2030       */
	assert_int_equal(issue(5000, 1, 4), 6010);  /* the disk idle again  */
	for (uint32_t task = 1; task <= 4; task++) {
		assert_int_equal(vdisk_head(&d)->task, task);
		if (task < 4)
			assert_int_equal(vdisk_second(&d)->task, task + 1);
		else
			assert_null(vdisk_second(&d));
		vdisk_pop(&d);
	}
	assert_null(vdisk_head(&d));
	vdisk_pop(&d); /* popping nothing changes nothing */
	assert_true(vdisk_next(&d) == UINT64_MAX);
}

static void a_full_queue_refuses_and_changes_nothing(void **state)
{
	(void)state;
	vdisk_init(&d, 100, 1);
	for (uint32_t i = 0; i < VDISK_QUEUE; i++)
		issue(0, 1, i);
	uint64_t free_at = d.free_at;
	struct vdisk_req r = { .count = 1, .task = 999 };
	assert_int_equal(vdisk_issue(&d, 0, &r), -1);
	assert_int_equal(d.free_at, free_at);
	assert_int_equal(d.len, VDISK_QUEUE);
	assert_int_equal(vdisk_next(&d), 101);
	/* the ring wraps: pop one, issue one, order kept */
	vdisk_pop(&d);
	assert_int_equal(vdisk_issue(&d, 0, &r), 0);
	for (uint32_t i = 1; i < VDISK_QUEUE; i++) {
		assert_int_equal(vdisk_head(&d)->task, i);
		vdisk_pop(&d);
	}
	assert_int_equal(vdisk_head(&d)->task, 999);
	assert_int_equal(vdisk_head(&d)->done_at, free_at + 101);
}

static void an_absurd_model_saturates(void **state)
{
	(void)state;
	vdisk_init(&d, UINT64_MAX - 10, UINT64_MAX / 2);
	assert_true(issue(100, 8, 1) == UINT64_MAX);
	assert_true(issue(0, 1, 2) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_idle_disk_takes_latency_plus_sectors),
		cmocka_unit_test(requests_queue_behind_each_other_in_issue_order),
		cmocka_unit_test(a_full_queue_refuses_and_changes_nothing),
		cmocka_unit_test(an_absurd_model_saturates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

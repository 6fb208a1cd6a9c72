/*
 * tests/unit/test_kernel_msgqueue.c - the message pool and queues on the
 * host: FIFO order, taking a CALL's reply out of the middle, and the pool
 * running dry instead of growing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "kernel/kernel.h"

static struct msg_pool pool;

static struct kmsg *msg(uint32_t id, uint32_t reply_id)
{
	struct kmsg *m = msgpool_get(&pool);
	assert_non_null(m);
	m->id = id;
	m->reply_id = reply_id;
	return m;
}

static void fifo_order(void **state)
{
	(void)state;
	msgpool_init(&pool);
	struct msg_queue q = { 0 };
	for (uint32_t i = 1; i <= 10; i++)
		msgq_push(&q, msg(i, 0));
	assert_int_equal(q.len, 10);
	for (uint32_t i = 1; i <= 10; i++) {
		struct kmsg *m = msgq_take(&q, 0);
		assert_non_null(m);
		assert_int_equal(m->id, i);
		msgpool_put(&pool, m);
	}
	assert_null(msgq_take(&q, 0));
	assert_null(q.head);
	assert_null(q.tail);
	assert_int_equal(pool.in_use, 0);
}

static void reply_taken_from_middle(void **state)
{
	(void)state;
	msgpool_init(&pool);
	struct msg_queue q = { 0 };
	msgq_push(&q, msg(1, 0));
	msgq_push(&q, msg(2, 77));
	msgq_push(&q, msg(3, 0));
	assert_null(msgq_take(&q, 78));
	struct kmsg *r = msgq_take(&q, 77);
	assert_non_null(r);
	assert_int_equal(r->id, 2);
	assert_int_equal(q.len, 2);
	assert_int_equal(msgq_take(&q, 0)->id, 1);
	assert_int_equal(msgq_take(&q, 0)->id, 3);
	assert_int_equal(q.len, 0);
	msgq_push(&q, msg(4, 0)); /* tail was fixed up when 3 left */
	assert_ptr_equal(q.head, q.tail);
}

static void ordinary_receive_skips_replies(void **state)
{
	(void)state;
	msgpool_init(&pool);
	struct msg_queue q = { 0 };
	msgq_push(&q, msg(1, 5));
	assert_null(msgq_take(&q, 0));
	msgq_push(&q, msg(2, 0));
	assert_int_equal(msgq_take(&q, 0)->id, 2);
	assert_int_equal(msgq_take(&q, 5)->id, 1);
	assert_null(q.tail);
}

static void pool_runs_dry(void **state)
{
	(void)state;
	msgpool_init(&pool);
	struct kmsg *all[NMSG];
	for (int i = 0; i < NMSG; i++)
		assert_non_null(all[i] = msgpool_get(&pool));
	assert_null(msgpool_get(&pool));
	assert_int_equal(pool.in_use, NMSG);
	msgpool_put(&pool, all[5]);
	assert_ptr_equal(msgpool_get(&pool), all[5]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fifo_order),
		cmocka_unit_test(reply_taken_from_middle),
		cmocka_unit_test(ordinary_receive_skips_replies),
		cmocka_unit_test(pool_runs_dry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

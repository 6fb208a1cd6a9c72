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

static uint32_t backs[8], nbacks;
static void back(uint32_t node)
{
	backs[nbacks++ % 8] = node;
}

/* The reserve for credited messages: ordinary headers never take it, a
 * credited one does and gives it back (with its node) when put back. */
static void reserve_held_for_credited(void **state)
{
	(void)state;
	msgpool_init(&pool);
	pool.credit_back = back;
	nbacks = 0;
	assert_int_equal(msgpool_reserve(&pool, 3), 0);
	struct kmsg *all[NMSG];
	int n = 0;
	while ((all[n] = msgpool_get(&pool)))
		n++;
	assert_int_equal(n, NMSG - 3);
	assert_int_equal(msgpool_reserve(&pool, 1), -1);   /* nothing left to hold */
	struct kmsg *c[3];
	for (int i = 0; i < 3; i++) {
		assert_non_null(c[i] = msgpool_get_reserved(&pool, 7 + (uint32_t)i));
		assert_int_equal(c[i]->credit_node, 7 + (uint32_t)i);
	}
	assert_null(msgpool_get_reserved(&pool, 7));
	assert_int_equal(nbacks, 0);
	msgpool_put(&pool, c[1]);
	assert_int_equal(nbacks, 1);
	assert_int_equal(backs[0], 8);
	assert_null(msgpool_get(&pool));        /* back in the reserve, not for all */
	assert_non_null(c[1] = msgpool_get_reserved(&pool, 9));
	msgpool_put(&pool, all[0]);              /* an ordinary one: no credit */
	assert_int_equal(nbacks, 1);
	assert_non_null(msgpool_get(&pool));
	for (int i = 0; i < 3; i++)
		msgpool_put(&pool, c[i]);
	assert_int_equal(nbacks, 4);
	assert_int_equal(pool.reserve, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fifo_order),
		cmocka_unit_test(reply_taken_from_middle),
		cmocka_unit_test(ordinary_receive_skips_replies),
		cmocka_unit_test(pool_runs_dry),
		cmocka_unit_test(reserve_held_for_credited),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * tests/unit/test_kernel_credit.c - the counts of asynchronous remote SEND's
 * flow control (kernel/credit.c) on the host: a sender stops at its grant
 * and goes on as counts come back, counts that cannot be true are refused
 * and change nothing, the receiver's side refuses a peer past its grant and
 * says when to give credits back, and the counters may wrap.  Last, two
 * sides driven against each other with a slow receiver: nothing is ever
 * refused, in flight never exceeds the grant, and the sender stops.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "kernel/credit.h"

static const uint32_t nodes[] = { 1, 2, 3 };

static void init_leaves_out_self_and_refuses(void **state)
{
	(void)state;
	struct credits c;
	assert_int_equal(credit_init(&c, 2, nodes, 3, 4), 0);
	assert_int_equal(c.npeers, 2);
	assert_int_equal(credit_may_send(&c, 1), 1);
	assert_int_equal(credit_may_send(&c, 2), -1);   /* self */
	assert_int_equal(credit_may_send(&c, 9), -1);
	assert_int_equal(credit_sent(&c, 9), -1);
	assert_int_equal(credit_init(&c, 2, nodes, 3, 0), -1);
	uint32_t many[CREDIT_MAX_PEERS + 2];
	for (uint32_t i = 0; i < CREDIT_MAX_PEERS + 2; i++)
		many[i] = i + 10;
	assert_int_equal(credit_init(&c, 1, many, CREDIT_MAX_PEERS + 2, 4), -1);
}

static void sender_stops_at_grant(void **state)
{
	(void)state;
	struct credits c;
	credit_init(&c, 1, nodes, 3, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(credit_sent(&c, 2), 0);
	assert_int_equal(credit_may_send(&c, 2), 0);
	assert_int_equal(credit_sent(&c, 2), -1);
	assert_int_equal(credit_may_send(&c, 3), 1);    /* per peer */
	assert_int_equal(credit_heard(&c, 2, 0), 0);    /* nothing new */
	assert_int_equal(credit_heard(&c, 2, 3), 3);
	assert_int_equal(credit_may_send(&c, 2), 1);
	assert_int_equal(credit_heard(&c, 2, 3), 0);
	/* more than was sent, or going back: refused, nothing changed */
	assert_int_equal(credit_heard(&c, 2, 5), -1);
	assert_int_equal(credit_heard(&c, 2, 2), -1);
	assert_int_equal(credit_heard(&c, 2, 4), 1);
	assert_int_equal(credit_heard(&c, 9, 1), -1);
}

static void receiver_refuses_past_grant_and_says_when(void **state)
{
	(void)state;
	struct credits c;
	credit_init(&c, 2, nodes, 3, 4);
	assert_int_equal(credit_consumed(&c, 1), -1);   /* none held */
	for (int i = 0; i < 4; i++)
		assert_int_equal(credit_arrived(&c, 1), 0);
	assert_int_equal(credit_arrived(&c, 1), -1);
	assert_int_equal(credit_arrived(&c, 9), -1);
	assert_int_equal(credit_due(&c, 1, 0), 0);
	assert_int_equal(credit_consumed(&c, 1), 0);
	assert_int_equal(credit_due(&c, 1, 0), 1);
	assert_int_equal(credit_due(&c, 1, 2), 0);
	assert_int_equal(credit_arrived(&c, 1), 0);     /* one came back */
	assert_int_equal(credit_consumed(&c, 1), 0);
	assert_int_equal(credit_due(&c, 1, 2), 1);
	assert_int_equal(credit_tell(&c, 1), 2);
	assert_int_equal(credit_due(&c, 1, 0), 0);
	assert_int_equal(credit_tell(&c, 3), 0);
	assert_int_equal(credit_due(&c, 9, 0), 0);
}

static void counters_wrap(void **state)
{
	(void)state;
	struct credits c;
	credit_init(&c, 1, nodes, 3, 4);
	c.peers[0].sent = c.peers[0].heard = 0xfffffffeu;
	for (int i = 0; i < 4; i++)
		assert_int_equal(credit_sent(&c, 2), 0);
	assert_int_equal(c.peers[0].sent, 2);
	assert_int_equal(credit_may_send(&c, 2), 0);
	assert_int_equal(credit_heard(&c, 2, 1), 3);
	assert_int_equal(credit_heard(&c, 2, 3), -1);
	assert_int_equal(credit_heard(&c, 2, 2), 1);
	c.peers[1].arrived = c.peers[1].consumed = c.peers[1].told = 0xffffffffu;
	assert_int_equal(credit_arrived(&c, 3), 0);
	assert_int_equal(credit_consumed(&c, 3), 0);
	assert_int_equal(credit_due(&c, 3, 1), 1);
	assert_int_equal(credit_tell(&c, 3), 0);
}

/* Node 1 sends 1000 messages to node 2, which consumes one every third
 * step and gives credits back at half the grant or after 5 idle steps;
 * counts travel with a delay of 2 steps.  Nothing is refused, no more
 * than the grant is ever in flight, every message arrives, and the sender
 * waits at times. */
static void sender_and_slow_receiver(void **state)
{
	(void)state;
	enum { GRANT = 8, TOTAL = 1000, DELAY = 2 };
	struct credits s, r;
	credit_init(&s, 1, nodes, 2, GRANT);
	credit_init(&r, 2, nodes, 2, GRANT);
	uint32_t sent = 0, queued = 0, got = 0, waits = 0, quiet = 0;
	uint32_t counts[DELAY] = { 0 };
	int pending[DELAY] = { 0 };
	for (uint32_t step = 0; got < TOTAL; step++) {
		assert_true(step < 100000);
		int slot = (int)(step % DELAY);
		if (pending[slot]) {   /* a count sent DELAY steps ago arrives */
			assert_true(credit_heard(&s, 2, counts[slot]) >= 0);
			pending[slot] = 0;
		}
		if (sent < TOTAL) {
			if (credit_may_send(&s, 2) == 1) {
				assert_int_equal(credit_sent(&s, 2), 0);
				assert_int_equal(credit_arrived(&r, 1), 0);
				sent++, queued++;
			} else {
				waits++;
			}
		}
		assert_true(s.peers[0].sent - s.peers[0].heard <= GRANT);
		if (step % 3 == 0 && queued) {
			assert_int_equal(credit_consumed(&r, 1), 0);
			queued--, got++, quiet = 0;
		} else {
			quiet++;
		}
		if (credit_due(&r, 1, GRANT / 2) || (quiet >= 5 && credit_due(&r, 1, 0))) {
			int out = slot;   /* arrives DELAY steps on */
			assert_false(pending[out]);
			counts[out] = credit_tell(&r, 1);
			pending[out] = 1;
		}
	}
	assert_int_equal(got, TOTAL);
	assert_true(waits > TOTAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_leaves_out_self_and_refuses),
		cmocka_unit_test(sender_stops_at_grant),
		cmocka_unit_test(receiver_refuses_past_grant_and_says_when),
		cmocka_unit_test(counters_wrap),
		cmocka_unit_test(sender_and_slow_receiver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * tests/unit/test_hub_vtime.c - the hub's part of virtual time
 * (qemu/control/hub_vtime.c): frames are handed on in (time, node, arrival)
 * order whatever order they arrive in, and only once no other member can
 * still send an earlier one; a thinking controller holds every grant at its
 * event + the lookahead and its commands are stamped there; grants never go
 * back; a hold keeps each member at its own hold point until every
 * expected agent has spoken, and the first commands come at the latest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "qemu/control/hub_vtime.h"

#define L CTL_VT_LOOKAHEAD_NS

static struct hub_vt vt;

static void push(uint32_t member, uint64_t time, uint32_t id)
{
	struct ctl_frame f = { .magic = CTL_MAGIC, .type = CTL_OUTPUT, .id = id };
	assert_int_equal(hub_vt_push(&vt, member, time, &f, NULL), 0);
}

/* The id of the next event handed on, or 0 when none may go yet. */
static uint32_t next_id(void)
{
	struct hub_vt_event e;
	if (!hub_vt_next(&vt, &e))
		return 0;
	free(e.payload);
	return e.f.id;
}

/* Every test's events not handed on go (LeakSanitizer in `make check`). */
static int free_events(void **state)
{
	(void)state;
	hub_vt_free(&vt);
	return 0;
}

static void two_members(void)
{
	hub_vt_init(&vt, 0, 0);
	hub_vt_heard(&vt, 0, 1000);
	hub_vt_named(&vt, 0, 1);
	hub_vt_heard(&vt, 1, 1000);
	hub_vt_named(&vt, 1, 2);
}

static void events_go_in_time_order_once_settled(void **state)
{
	(void)state;
	two_members();
	push(1, 5000, 21);           /* node 2 at 5 us arrives first */
	assert_int_equal(next_id(), 0); /* node 1 may still send before 5 us */
	push(0, 3000, 11);           /* node 1 at 3 us: node 2 has promised 5 us */
	assert_int_equal(next_id(), 11);
	assert_int_equal(next_id(), 0); /* node 1 promised 3 us only */
	hub_vt_heard(&vt, 0, 5000);  /* a tie at 5 us: node 1 is not ordered after node 2 */
	assert_int_equal(next_id(), 0);
	hub_vt_heard(&vt, 0, 5001);
	assert_int_equal(next_id(), 21);
}

static void same_time_orders_by_node_then_arrival(void **state)
{
	(void)state;
	two_members();
	push(1, 4000, 21);
	push(0, 4000, 11);
	push(0, 4000, 12);
	hub_vt_heard(&vt, 0, 9000);
	hub_vt_heard(&vt, 1, 9000);
	assert_int_equal(next_id(), 11);
	assert_int_equal(next_id(), 12);
	assert_int_equal(next_id(), 21);
}

static void a_thinking_controller_holds_the_grant(void **state)
{
	(void)state;
	two_members();
	push(0, 2000, 11);
	hub_vt_heard(&vt, 1, 50000);
	assert_int_equal(hub_vt_grant(&vt, 1), 2000 + L); /* the event queued */
	assert_int_equal(next_id(), 11);
	hub_vt_think(&vt, 7, 2000);
	hub_vt_heard(&vt, 0, 90000);
	assert_int_equal(hub_vt_grant(&vt, 0), 2000 + L);
	assert_int_equal(hub_vt_stamp(&vt, 1), 2000 + L);
	push(1, 60000, 21);
	assert_int_equal(next_id(), 0); /* not while it thinks */
	hub_vt_idle(&vt, 8);            /* another controller's idle changes nothing */
	assert_int_equal(next_id(), 0);
	hub_vt_idle(&vt, 7);
	assert_int_equal(next_id(), 21);
	assert_int_equal(hub_vt_grant(&vt, 0), 60000 + L); /* the least promise now */
}

static void grants_never_go_back(void **state)
{
	(void)state;
	two_members();
	hub_vt_heard(&vt, 0, 40000);
	hub_vt_heard(&vt, 1, 40000);
	vt.m[0].granted = hub_vt_grant(&vt, 0);
	assert_int_equal(vt.m[0].granted, 40000 + L);
	hub_vt_heard(&vt, 2, 100);  /* a member joining late, far behind */
	assert_int_equal(hub_vt_grant(&vt, 0), 40000 + L);
	assert_int_equal(hub_vt_grant(&vt, 2), 100 + L);
	assert_int_equal(hub_vt_stamp(&vt, 0), 40000 + L); /* never before a grant */
	assert_true(hub_vt_grant(&vt, 5) == HUB_VT_NEVER);  /* not a member */
}

static void a_hold_ends_when_every_agent_has_spoken(void **state)
{
	(void)state;
	hub_vt_init(&vt, 2, 1);
	hub_vt_heard(&vt, 0, 7000);
	hub_vt_named(&vt, 0, 1);
	hub_vt_heard(&vt, 0, 900000000ull);
	assert_int_equal(hub_vt_grant(&vt, 0), 7000 + HUB_VT_HOLD_NS);
	assert_int_equal(hub_vt_end_hold(&vt), 0); /* node 2 has not spoken */
	hub_vt_heard(&vt, 1, 3000);
	assert_int_equal(hub_vt_end_hold(&vt), 0); /* nor named itself */
	hub_vt_named(&vt, 1, 2);
	assert_int_equal(hub_vt_grant(&vt, 1), 3000 + L); /* its own promise first */
	hub_vt_heard(&vt, 1, 900000000ull);
	assert_int_equal(hub_vt_grant(&vt, 1), 3000 + HUB_VT_HOLD_NS);
	assert_int_equal(hub_vt_end_hold(&vt), 1);
	assert_int_equal(hub_vt_start_time(&vt), 7000 + HUB_VT_HOLD_NS);
	assert_int_equal(hub_vt_stamp(&vt, 1), 7000 + HUB_VT_HOLD_NS);
	hub_vt_think(&vt, 7, hub_vt_start_time(&vt) - L);
	assert_int_equal(hub_vt_grant(&vt, 0), 7000 + HUB_VT_HOLD_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(events_go_in_time_order_once_settled, free_events),
		cmocka_unit_test_teardown(same_time_orders_by_node_then_arrival, free_events),
		cmocka_unit_test_teardown(a_thinking_controller_holds_the_grant, free_events),
		cmocka_unit_test_teardown(grants_never_go_back, free_events),
		cmocka_unit_test_teardown(a_hold_ends_when_every_agent_has_spoken, free_events),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	free(vt.ev);
	return r;
}

/*
 * tests/guest/t_quota.c - no process can wedge its node: one test per
 * defect of issue 16 (each failed on the kernel before its fix), every one
 * ending with the node's counters (KR_KSTATS) back where they were, so a
 * hostile sequence that leaks a header, a page or an alarm fails here.
 * Waits that a wrong kernel would make endless have a time limit
 * (gtest_receive_within, wait_child_within); nothing asserts on timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

#define LIMIT_MS 8000   /* long enough for a loaded host; only a wrong kernel reaches it */
#define E_DEAD_STATUS 9 /* t_child callonce ends with its CALL's error, negated */

/* X's end notice within the limit: 0, or E_WOULDBLOCK once X, left
 * waiting by a wrong kernel, has been killed (its notice then in *ex). */
static int caller_told(uint32_t x, struct kr_exit_notice *ex)
{
	int r = wait_child_within(x, LIMIT_MS, ex);
	if (r < 0) {
		pm_kill(x);
		wait_child(x, ex);
	}
	return r;
}

/* The request is known and its numbers hang together. */
static void counters_readable(void)
{
	const char *argv[] = { "t_child", "exit", "0", NULL };
	uint32_t task;
	struct kr_exit_notice ex;
	/* warm up: the process manager's first child may grow its heap */
	CHECK_EQ(spawn_child(argv, &task, NULL), 0);
	CHECK_EQ(wait_child(task, &ex), 0);
	struct kr_kstats k;
	CHECK_EQ(kernel_stats(0, &k), 0);
	CHECK(k.task != 0);
	CHECK(k.pages > 0 && k.pages <= k.page_quota);
	CHECK(k.links >= 3);
	CHECK(k.free_headers > k.msg_reserve);
	CHECK(k.free_pages > k.page_reserve);
	CHECK_EQ(kernel_stats(0x7fff0001, &k), E_DEAD);
	/* a message we send is charged to us until received */
	int l = self_link(1);
	CHECK_EQ(kernel_stats(0, &k), 0);
	uint32_t before = k.msgs;
	CHECK_EQ(sendmessage(l, &before, 4, -1), 0);
	CHECK_EQ(kernel_stats(0, &k), 0);
	CHECK_EQ(k.msgs, before + 1);
	uint32_t v;
	struct message m = message_into(&v, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(kernel_stats(0, &k), 0);
	CHECK_EQ(k.msgs, before);
	destroylink(l);
}

/* 1: a process that asks for short alarms and never receives fills its
 * own quota, not the node's headers. */
static void alarm_flood_bounded(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *argv[] = { "t_child", "alarmflood", "1000", NULL };
	uint32_t task;
	int cl;
	CHECK_EQ(spawn_child(argv, &task, &cl), 0);
	uint32_t report[2];
	struct message m = message_into(report, sizeof report);
	int r = gtest_receive_within(&m, LIMIT_MS);
	CHECK_EQ(r, 8);
	CHECK(m.reply >= 0);
	/* the node still has headers for everyone else */
	int self = self_link(2);
	for (uint32_t i = 0; i < 16; i++)
		CHECK_EQ(sendmessage(self, &i, 4, -1), 0);
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t v;
		struct message got = message_into(&v, 4);
		CHECK_EQ(gtest_receive(&got), 4);
		CHECK_EQ(v, i);
	}
	destroylink(self);
	struct kr_kstats k;
	CHECK_EQ(kernel_stats(task, &k), 0);
	CHECK(k.msgs <= k.msg_quota);
	CHECK(k.alarms <= k.alarm_quota);
	CHECK(k.free_headers > k.msg_reserve);
	uint32_t ok = 0x33;
	CHECK_EQ(sendmessage(m.reply, &ok, 4, -1), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child_within(task, LIMIT_MS, &ex), 0);
	CHECK_EQ(ex.reason, EXIT_NORMAL);
	CHECK_EQ(ex.status, 0);
	destroylink(cl);
	CHECK_NO_LEAK(&mk);
}

/* 2: a reply link passed inside a message still queued when its holder
 * ends is answered: the caller's CALL returns E_DEAD. */
static void passed_reply_link_answered_at_end(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	/* K: blocked in a CALL to us, so messages to it stay queued */
	const char *sink[] = { "t_child", "call-parent", NULL };
	uint32_t k, s, x;
	int kl, sl;
	CHECK_EQ(spawn_child(sink, &k, &kl), 0);
	uint32_t word;
	struct message m = message_into(&word, sizeof word);
	CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
	int k_reply = m.reply;
	CHECK(k_reply >= 0);
	/* S forwards the reply link of the CALL it gets to K, then ends */
	const char *fwd[] = { "t_child", "forward", NULL };
	CHECK_EQ(spawn_child_on(0, fwd, kl, &s, &sl), 0);
	/* X CALLs S */
	const char *caller[] = { "t_child", "callonce", NULL };
	CHECK_EQ(spawn_child_on(0, caller, sl, &x, NULL), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child_within(s, LIMIT_MS, &ex), 0);
	CHECK_EQ(ex.status, 0);                 /* forwarded: queued at K */
	CHECK_EQ(pm_kill(k), 0);
	CHECK_EQ(wait_child_within(k, LIMIT_MS, &ex), 0);
	int r = caller_told(x, &ex);
	CHECK_EQ(r, 0);                         /* X was told, not left waiting */
	CHECK_EQ(ex.status, E_DEAD_STATUS);
	destroylink(k_reply);
	destroylink(kl);
	destroylink(sl);
	CHECK_NO_LEAK(&mk);
}

/* 3: the process manager's give-link into a slot holding a reply link
 * answers that link's caller. */
static void givelink_over_reply_link_answers(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *keep[] = { "t_child", "keepreply", NULL };
	uint32_t h, x;
	int hl;
	CHECK_EQ(spawn_child(keep, &h, &hl), 0);
	const char *caller[] = { "t_child", "callonce", NULL };
	CHECK_EQ(spawn_child_on(0, caller, hl, &x, NULL), 0);
	uint32_t slot = 0;
	struct message m = message_into(&slot, sizeof slot);
	int got = gtest_receive_within(&m, LIMIT_MS);    /* H holds X's reply link there */
	int l = self_link(0x77);
	int given = pm_givelink(h, (int)slot, l);
	destroylink(l);
	struct kr_exit_notice ex;
	int r = caller_told(x, &ex);
	pm_kill(h);
	struct kr_exit_notice hx;
	wait_child(h, &hx);
	destroylink(hl);
	CHECK_EQ(got, 4);
	CHECK_EQ(given, (int)slot);
	CHECK_EQ(r, 0);
	CHECK_EQ(ex.status, E_DEAD_STATUS);
	CHECK_NO_LEAK(&mk);
}

/* 4: a heap growth that fails part way leaves nothing mapped (the child's
 * read above its break faults) and loses no page. */
static void failed_heap_growth_changes_nothing(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *argv[] = { "t_child", "brkfail", NULL };
	uint32_t task;
	struct kr_exit_notice ex;
	CHECK_EQ(spawn_child(argv, &task, NULL), 0);
	CHECK_EQ(wait_child_within(task, LIMIT_MS, &ex), 0);
	CHECK_EQ(ex.status == 0x42, 0);              /* 0x42: it read a leaked page */
	CHECK_EQ(ex.reason, EXIT_FAULT_MEMORY);
	/* here too: a growth past the quota fails whole, a small one works */
	uint32_t brk0 = (uint32_t)program_break(0);
	struct kr_kstats k0, k1;
	CHECK_EQ(kernel_stats(0, &k0), 0);
	CHECK_EQ(program_break(brk0 + (62u << 20)), E_NOMEM);
	CHECK_EQ(kernel_stats(0, &k1), 0);
	CHECK_EQ((uint32_t)program_break(0), brk0);
	CHECK_EQ(k1.pages, k0.pages);
	CHECK_EQ(program_break(brk0 + 4096), (int)(brk0 + 4096));
	*(volatile uint8_t *)(uintptr_t)(brk0 + 4095) = 1;
	CHECK_NO_LEAK(&mk);
}

/* 5: a process's alarms end with it, and no process can take them all. */
static void alarms_end_with_their_process(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *argv[] = { "t_child", "alarmhold", NULL };
	uint32_t task;
	int cl;
	for (int round = 0; round < 2; round++) {
		CHECK_EQ(spawn_child(argv, &task, &cl), 0);
		uint32_t n;
		struct message m = message_into(&n, sizeof n);
		CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
		CHECK(n >= 1);
		struct kr_exit_notice ex;
		CHECK_EQ(wait_child_within(task, LIMIT_MS, &ex), 0);
		CHECK_EQ(ex.status, 0);
		destroylink(cl);
	}
	/* ours still comes */
	CHECK_EQ(alarm_after(20, 0xa1a), 0);
	struct kr_alarm a;
	struct message m = message_into(&a, sizeof a);
	CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), (int)sizeof a);
	CHECK_EQ(a.kind, KR_ALARM);
	CHECK_EQ(a.code, 0xa1a);
	CHECK_NO_LEAK(&mk);
}

/* 6: RECEIVE and CALL with their buffer in read-only memory fail before
 * anything is taken or served. */
static const uint32_t ro_buf[4] = { 1 };

static void readonly_message_takes_nothing(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	struct message ro_msg = message_into((void *)(uintptr_t)ro_buf, sizeof ro_buf), *ro = &ro_msg;
	int l = self_link(0x66), pass = self_link(0x67);
	uint32_t v = 5;
	CHECK_EQ(sendmessage(l, &v, 4, pass), 0);
	CHECK_EQ(receivemessage(ro), E_BADADDR);
	CHECK_EQ(areceivemessage(ro), E_BADADDR);
	struct message m = message_into(&v, 4);
	CHECK_EQ(areceivemessage(&m), 4);          /* still there, whole */
	CHECK(m.passed >= 0);
	CHECK_EQ(m.code, 0x66);
	destroylink(m.passed);
	/* a kernel request with its reply read-only is not served */
	uint32_t brk0 = (uint32_t)program_break(0);
	uint32_t req[2] = { KR_BRK, brk0 + 8192 };
	CHECK_EQ(call(LINK_CONSOLE, req, sizeof req, -1, ro), E_BADADDR);
	CHECK_EQ((uint32_t)program_break(0), brk0);
	/* nor a CALL to a process: the one-request echo still has it */
	const char *argv[] = { "t_child", "echo", "1", NULL };
	uint32_t task;
	int el;
	CHECK_EQ(spawn_child(argv, &task, &el), 0);
	CHECK_EQ(call(el, &v, 4, -1, ro), E_BADADDR);
	uint32_t q = 0x1234, a = 0;
	struct message am = message_into(&a, sizeof a);
	CHECK_EQ(call(el, &q, 4, -1, &am), 4);
	CHECK_EQ(a, 0x1234);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child_within(task, LIMIT_MS, &ex), 0);
	destroylink(el);
	destroylink(l);
	destroylink(pass);
	CHECK_NO_LEAK(&mk);
}

/* 7: a kernel request is answered whenever it took effect, even with the
 * headers a process may use all taken (here by our own flood). */
#define SINKS 9
static void kernel_reply_needs_no_header(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *sink[] = { "t_child", "call-parent", NULL };
	uint32_t task[SINKS];
	int link[SINKS], reply[SINKS];
	for (int i = 0; i < SINKS; i++) {
		CHECK_EQ(spawn_child(sink, &task[i], &link[i]), 0);
		uint32_t w;
		struct message m = message_into(&w, sizeof w);
		CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
		reply[i] = m.reply;
	}
	int r = 0;
	uint32_t sent = 0;
	for (int i = 0; i < SINKS && r != E_NOMEM; i++)
		while ((r = sendmessage(link[i], &sent, 0, -1)) == 0)
			sent++;
	CHECK_EQ(r, E_NOMEM);                       /* headers ran out for us */
	uint32_t brk0 = (uint32_t)program_break(0);
	uint32_t req[2] = { KR_BRK, brk0 + 4096 }, got = 0;
	struct message m = message_into(&got, sizeof got);
	r = call(LINK_CONSOLE, req, sizeof req, -1, &m);
	uint32_t brk1 = (uint32_t)program_break(0);
	for (int i = 0; i < SINKS; i++) {
		uint32_t ok = 0x33;
		sendmessage(reply[i], &ok, 4, -1);
	}
	for (int i = 0; i < SINKS; i++) {
		struct kr_exit_notice ex;
		wait_child_within(task[i], LIMIT_MS, &ex);
		destroylink(link[i]);
	}
	CHECK_EQ(r, 4);                             /* served and answered */
	CHECK_EQ(got, brk0 + 4096);
	CHECK_EQ(brk1, brk0 + 4096);
	CHECK_NO_LEAK(&mk);
}

/* The process manager's end notice, refused because the headers processes
 * may use were all taken (E_NOMEM), is tried again like one a full queue
 * refused, and arrives once they are free. */
#define FILLED 7
static void end_notice_survives_full_pool(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	const char *sink[] = { "t_child", "call-parent", NULL };
	const char *fill[] = { "t_child", "fill", NULL };
	uint32_t task[FILLED], filler[FILLED], victim;
	int link[FILLED], reply[FILLED], vl, vreply;
	for (int i = 0; i <= FILLED; i++) {   /* FILLED sinks, then the victim */
		uint32_t w;
		CHECK_EQ(spawn_child(sink, i < FILLED ? &task[i] : &victim, i < FILLED ? &link[i] : &vl), 0);
		struct message m = message_into(&w, sizeof w);
		CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
		*(i < FILLED ? &reply[i] : &vreply) = m.reply;
	}
	int fl[FILLED], go[FILLED];
	for (int i = 0; i < FILLED; i++) {   /* each waits in a CALL to us before filling */
		uint32_t w;
		CHECK_EQ(spawn_child_on(0, fill, link[i], &filler[i], &fl[i]), 0);
		struct message m = message_into(&w, sizeof w);
		CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
		go[i] = m.reply;
	}
	uint32_t ok = 0x33;
	for (int i = 0; i < FILLED; i++)
		CHECK_EQ(sendmessage(go[i], &ok, 4, -1), 0);
	/* the fillers take every header processes may use */
	struct kr_kstats k, pm;
	uint32_t node = 0;
	node_info(&node, NULL);
	int full = 0;
	for (int tries = 0; tries < 100000 && !full; tries++)
		full = kernel_stats(0, &k) == 0 && k.free_headers <= k.msg_reserve;
	CHECK(full);
	/* the victim ends now: its notice finds no header for the process manager */
	CHECK_EQ(sendmessage(vreply, &ok, 4, -1), 0);
	int retrying = 0;
	for (int tries = 0; tries < 100000 && !retrying; tries++)
		retrying = kernel_stats(victim, &k) == E_DEAD && kernel_stats(TASK_OF(node, PM_PID), &pm) == 0 &&
			   pm.queue_len == 0 && pm.alarms > 0;
	for (int i = 0; i < FILLED; i++)
		sendmessage(reply[i], &ok, 4, -1);   /* the sinks end, their queues go */
	struct kr_exit_notice ex;
	int told = wait_child_within(victim, LIMIT_MS, &ex);
	for (int i = 0; i < FILLED; i++) {
		wait_child_within(task[i], LIMIT_MS, &ex);
		wait_child_within(filler[i], LIMIT_MS, &ex);
		destroylink(link[i]);
		destroylink(fl[i]);
	}
	destroylink(vl);
	CHECK(retrying);       /* the process manager waits on an alarm to try again */
	CHECK_EQ(told, 0);     /* and the notice came */
	CHECK_NO_LEAK(&mk);
}

/* A reply link moves: a kernel request (but the process manager's
 * give-link) refuses one rather than keep or drop it, and it stays ours. */
static void kernel_request_refuses_reply_link(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	int back = self_link(0x99);
	const char *caller[] = { "t_child", "callonce", NULL };
	uint32_t x;
	CHECK_EQ(spawn_child_on(0, caller, back, &x, NULL), 0);
	destroylink(back);
	uint32_t v;
	struct message m = message_into(&v, sizeof v);
	CHECK_EQ(gtest_receive_within(&m, LIMIT_MS), 4);
	CHECK(m.reply >= 0);
	uint32_t req = KR_TIME;
	uint64_t t[2];
	struct message tm = message_into(t, sizeof t);
	CHECK_EQ(call(LINK_CONSOLE, &req, 4, m.reply, &tm), E_INVAL);
	CHECK_EQ(sendmessage(LINK_CONSOLE, &req, 4, m.reply), E_INVAL);
	CHECK_EQ(sendmessage(m.reply, &v, 4, -1), 0);   /* still ours: X gets its answer */
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child_within(x, LIMIT_MS, &ex), 0);
	CHECK_EQ(ex.status, 100);
	CHECK_NO_LEAK(&mk);
}

GTESTS(
	{ "KR_KSTATS counters", counters_readable },
	{ "1 alarm flood stays in its quota", alarm_flood_bounded },
	{ "2 passed reply link answered when its holder ends", passed_reply_link_answered_at_end },
	{ "3 give-link over a reply link answers it", givelink_over_reply_link_answers },
	{ "4 failed heap growth changes nothing", failed_heap_growth_changes_nothing },
	{ "5 alarms end with their process", alarms_end_with_their_process },
	{ "6 read-only receive buffer takes nothing", readonly_message_takes_nothing },
	{ "7 kernel reply needs no header", kernel_reply_needs_no_header },
	{ "end notice tried again when headers ran out", end_notice_survives_full_pool },
	{ "kernel request refuses a reply link", kernel_request_refuses_reply_link },
);
/* `t_quota N` runs test N alone (to show one defect on an old kernel). */
int main(int argc, char **argv)
{
	int n = (int)(sizeof gtests / sizeof gtests[0]), only = argc > 1 ? atoi(argv[1]) : 0;
	printf("t_quota: %d tests\n", only ? 1 : n);   /* stdout's buffer taken before any flood */
	if (only >= 1 && only <= n)
		return gtest_run("quota", &gtests[only - 1], 1);
	return gtest_run("quota", gtests, n);
}

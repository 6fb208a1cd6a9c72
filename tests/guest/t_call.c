/*
 * tests/guest/t_call.c - CALL and reply links: round trips with a server
 * process, other messages left queued meanwhile, one-time reply links, and
 * every way a reply can fail to come (the server ends, drops the reply
 * link, the callee is dead); the kernel's fast path, which hands a message
 * to a receiver already waiting, seen to do what the general path does,
 * and to leave other processes their turns; REPLYRECEIVE, a server's
 * answer and its wait for the next request in one call.
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

/* Three CALLs to a t_child echo server (`mode`: echo, or rrecho, which
 * answers with REPLYRECEIVE), then to it ended. */
static void echo_round_trips(const char *mode)
{
	const char *argv[] = { "t_child", mode, "3", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	for (int i = 0; i < 3; i++) {
		char req[32], rep[32];
		int n = snprintf(req, sizeof req, "request %d", i);
		struct message m = message_into(rep, sizeof rep);
		CHECK_EQ(call(l, req, (uint32_t)n, -1, &m), n);
		CHECK(!memcmp(req, rep, (size_t)n));
		CHECK_EQ(m.from, task);
		CHECK_EQ(m.passed, -1);
		CHECK_EQ(m.reply, -1);
	}
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.reason, EXIT_NORMAL);
	CHECK_EQ(ex.status, 0); /* the child found its reply links one-time */
	CHECK_EQ(sendmessage(l, "x", 1, -1), E_DEAD);
	CHECK_EQ(call(l, "x", 1, -1, &(struct message){ 0 }), E_DEAD);
	destroylink(l);
}

/* CALLs to an echo server from out + so into in + dst, for every pair of
 * alignments and the lengths below: the request is copied straight from
 * the caller into the waiting server and the answer straight back
 * (kernel/fastpath.c, by words when it can: kernel/klib.c), and each
 * answer is the request's bytes with the bytes either side of it
 * untouched (0xee). */
static void calls_at_every_alignment(void)
{
	static const uint32_t lens[] = { 1, 3, 4, 7, 33, 64, 1000, MSG_MAX - 3, MSG_MAX };
	static uint8_t out[MSG_MAX + 8], in[MSG_MAX + 16];
	enum { NLENS = sizeof lens / sizeof lens[0], CALLS = 16 * NLENS };
	char n[12];
	snprintf(n, sizeof n, "%d", CALLS);
	const char *argv[] = { "t_child", "echo", n, NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	for (uint32_t so = 0; so < 4; so++)
		for (uint32_t dst = 0; dst < 4; dst++)
			for (unsigned k = 0; k < NLENS; k++) {
				uint32_t len = lens[k];
				for (uint32_t i = 0; i < len; i++)
					out[so + i] = (uint8_t)(i * 11 + so * 5 + dst + len);
				memset(in, 0xee, sizeof in);
				uint8_t *into = in + 4 + dst;
				struct message m = message_into(into, len);
				CHECK_EQ(call(l, out + so, len, -1, &m), (int)len);
				CHECK(!memcmp(into, out + so, len));
				CHECK_EQ(into[-1], 0xee);
				CHECK_EQ(into[len], 0xee);
			}
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	destroylink(l);
}

static void call_round_trip(void)
{
	echo_round_trips("echo");
}

static void call_leaves_other_messages_queued(void)
{
	const char *argv[] = { "t_child", "echo", "1", NULL };
	uint32_t task;
	int l, self = self_link(0x5e1f);
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	uint32_t v = 77, r = 0;
	CHECK_EQ(sendmessage(self, &v, 4, -1), 0);
	struct message m = message_into(&r, 4);
	uint32_t q = 5;
	CHECK_EQ(call(l, &q, 4, -1, &m), 4);
	CHECK_EQ(r, 5);
	CHECK_EQ(areceivemessage(&m), 4);      /* the earlier message is still there */
	CHECK_EQ(r, 77);
	CHECK_EQ(m.code, 0x5e1f);
	struct kr_exit_notice ex;
	wait_child(task, &ex);
	destroylink(l);
	destroylink(self);
}

static void reply_link_is_one_time(void)
{
	const char *argv[] = { "t_child", "call-parent", NULL };
	uint32_t task, word = 0;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct message m = message_into(&word, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(word, 0x22);
	CHECK(m.reply >= LINK_FIRST_FREE);
	uint32_t answer = 0x33;
	CHECK_EQ(sendmessage(m.reply, &answer, 4, -1), 0);
	CHECK_EQ(sendmessage(m.reply, &answer, 4, -1), E_BADLINK);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	destroylink(l);
}

static void server_ends_without_reply(void)
{
	const char *argv[] = { "t_child", "noreply", NULL };
	uint32_t task, v = 1;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(l, &v, 4, -1, &m), E_DEAD);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	destroylink(l);
}

static void server_destroys_reply_link(void)
{
	const char *argv[] = { "t_child", "dropreply", NULL };
	uint32_t task, v = 1;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(l, &v, 4, -1, &m), E_DEAD);
	CHECK_EQ(call(l, &v, 4, -1, &m), 4);   /* the server still answers the next */
	struct kr_exit_notice ex;
	wait_child(task, &ex);
	destroylink(l);
}

static void call_bad_arguments(void)
{
	int self = self_link(1);
	uint32_t v = 0;
	struct message bad = message_into(NULL, 4);
	CHECK_EQ(call(self, &v, 4, -1, &bad), E_BADADDR);
	bad = message_into((void *)0x100000, 4);
	CHECK_EQ(call(self, &v, 4, -1, &bad), E_BADADDR);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(-3, &v, 4, -1, &m), E_BADLINK);
	CHECK_EQ(call(self, &v, MSG_MAX + 1, -1, &m), E_TOOBIG);
	CHECK_EQ(call(self, (void *)0x100000, 4, -1, &m), E_BADADDR);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK); /* none of them sent anything */
	destroylink(self);
}

/* A CALL's request is found readable before anything is handed over, and
 * the range found so is remembered (kernel/uaccess.c, p->readable; a
 * range found writable, one of the last two receive buffers, counts too,
 * so the first two calls receive into two static buffers, far from the
 * stack): a request running past the end of the range remembered, off
 * the top of the stack, is refused with E_BADADDR and the server is given
 * nothing (it answers the calls before and after, and ends with status 0). */
static void call_past_a_range_found_readable(void)
{
	/* whole-message buffers: each is a range of its own */
	static uint8_t out[8], rep1[MSG_MAX], rep2[MSG_MAX];
	const char *argv[] = { "t_child", "echo", "4", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct message m = message_into(rep1, sizeof rep1);
	CHECK_EQ(call(l, out, sizeof out, -1, &m), (int)sizeof out);
	m = message_into(rep2, sizeof rep2);
	CHECK_EQ(call(l, out, sizeof out, -1, &m), (int)sizeof out);
	const uint8_t *top = (const uint8_t *)(uintptr_t)USER_STACK_TOP;
	m = message_into(rep1, sizeof rep1);
	CHECK_EQ(call(l, top - 8, 8, -1, &m), 8);
	CHECK(!memcmp(rep1, top - 8, 8));
	CHECK_EQ(call(l, top - 4, 8, -1, &m), E_BADADDR);
	CHECK_EQ(call(l, top - 100, 104, -1, &m), E_BADADDR);
	CHECK_EQ(call(l, top - 100, 100, -1, &m), 100);
	CHECK(!memcmp(rep1, top - 100, 100));
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	destroylink(l);
}

static void kernel_link_call(void)
{
	uint64_t now1, now2, cpu;
	CHECK_EQ(node_time(&now1, &cpu), 0);
	CHECK_EQ(node_time(&now2, NULL), 0);
	CHECK(now2 > now1);
	CHECK(cpu > 0);
	uint32_t bad = 999;
	struct message m = message_into(&bad, 4);
	CHECK_EQ(call(LINK_CONSOLE, &bad, 4, -1, &m), E_BADREQ);
	CHECK_EQ(call(LINK_CONSOLE, &bad, 2, -1, &m), E_BADREQ);
}

/* A message handed over to a receiver already waiting (the kernel's fast
 * path) and one the general path delivers (the receiver stopped) look
 * the same to the receiver; so does a CALL's request, with its reply link,
 * and the reply truncated into a short buffer. */
static void handed_over_as_queued(void)
{
	const char *argv[] = { "t_child", "report", "4", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct child_report fast, queued, called;
	struct message m = message_into(&fast, sizeof fast);
	CHECK_EQ(sendmessage(l, "abcdefghij", 10, -1), 0);  /* the child waits in its receive */
	CHECK_EQ(gtest_receive(&m), (int)sizeof fast);
	CHECK_EQ(pm_stop(task), 0);
	CHECK_EQ(sendmessage(l, "abcdefghij", 10, -1), 0);  /* stopped: the general path */
	CHECK_EQ(pm_start(task), 0);
	m = message_into(&queued, sizeof queued);
	CHECK_EQ(gtest_receive(&m), (int)sizeof queued);
	CHECK_EQ(fast.result, E_TRUNC);
	CHECK_EQ(fast.len, 10);
	CHECK_EQ(fast.code, 0xc41d);
	CHECK_EQ(fast.passed, -1);
	CHECK_EQ(fast.reply, -1);
	CHECK(!memcmp(fast.bytes, "abc\xee", 4));
	CHECK(!memcmp(&fast, &queued, sizeof fast));
	m = message_into(&called, sizeof called);
	CHECK_EQ(call(l, "abcdefghij", 10, -1, &m), (int)sizeof called);
	CHECK_EQ(m.from, task);
	CHECK_EQ(called.result, E_TRUNC);
	CHECK_EQ(called.len, 10);
	CHECK_EQ(called.from, fast.from);
	CHECK_EQ(called.passed, -1);
	CHECK(called.reply >= LINK_FIRST_FREE);
	CHECK(!memcmp(called.bytes, "abc\xee", 4));
	uint8_t small[2] = { 0, 0x77 };
	m = message_into(small, 1);
	CHECK_EQ(call(l, "x", 1, -1, &m), E_TRUNC);
	CHECK_EQ(m.len, sizeof called);
	CHECK_EQ(small[0], 1);   /* the first byte of the report's result: 1 byte received */
	CHECK_EQ(small[1], 0x77);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	destroylink(l);
}

/* A CALL's server runs on its caller's turn; the others still have
 * theirs: a process that only counts must count while two others call
 * each other (the first direct switch tried starved such a process).
 * The server (t_child `mode`, `n` requests) is called in batches of
 * `batch` until the counter has moved, at most `most` times. */
static void others_keep_turns(const char *mode, const char *n, uint32_t batch, uint32_t most)
{
	const char *srv[] = { "t_child", mode, n, NULL }, *cnt[] = { "t_child", "counter", NULL };
	uint32_t stask, ctask, c0 = 0, c1 = 0;
	int l, cl, area;
	CHECK_EQ(spawn_child(srv, &stask, &l), 0);
	CHECK_EQ(spawn_child(cnt, &ctask, &cl), 0);
	struct message m = message_into(&area, sizeof area);
	CHECK_EQ(gtest_receive(&m), 4);
	area = m.passed;
	CHECK(area >= 0);
	int mine = createlink(1, &c0, sizeof c0, LINK_WRITE);
	CHECK_EQ(movedata(area, 0, mine, 0, 4), 4);
	destroylink(mine);
	mine = createlink(1, &c1, sizeof c1, LINK_WRITE);
	uint32_t calls = 0, bad = 0;
	for (c1 = c0; c1 == c0 && calls < most; ) {
		for (uint32_t k = 0; k < batch; k++, calls++) {
			uint32_t w = 0;
			m = message_into(&w, sizeof w);
			bad += call(l, &calls, 4, -1, &m) != 4 || w != calls;
		}
		CHECK_EQ(movedata(area, 0, mine, 0, 4), 4);
	}
	destroylink(mine);
	CHECK_EQ(bad, 0);
	CHECK(c1 != c0);
	struct kr_exit_notice ex;
	CHECK_EQ(pm_kill(ctask), 0);
	CHECK_EQ(pm_kill(stask), 0);
	CHECK_EQ(wait_child(ctask, &ex), 0);
	CHECK_EQ(wait_child(stask, &ex), 0);
	destroylink(l);
	destroylink(cl);
	destroylink(area);
}

/* 20 calls to a server answering with SENDMESSAGE and RECEIVEMESSAGE,
 * whose receive waits and gives the CPU to the scheduler's next pick
 * (kernel/fastpath.c switches to it straight, the same pick). */
static void calls_leave_others_their_turns(void)
{
	others_keep_turns("echo", "0", 20, 20);
}

/* A server answering with REPLYRECEIVE: its answer and the caller's next
 * CALL both go straight to the other (kernel/fastpath.c), so the pair
 * runs on the caller's turn, not through the scheduler, until a tick
 * ends it; the counter must still count within a bounded number of calls
 * (at 100 Hz a tick is some thousands of round trips). */
static void replyreceive_calls_leave_others_their_turns(void)
{
	others_keep_turns("rrecho", "100000000", 1000, 2000000);
}

/* ---- REPLYRECEIVE ---- */

/* Exactly one message waits for us, the word `v` over `code`: taken. */
static int only_queued(uint32_t v, uint32_t code)
{
	uint32_t got = 0;
	struct message m = message_into(&got, sizeof got);
	if (areceivemessage(&m) != 4 || got != v || m.code != code)
		return 0;
	m = message_into(&got, sizeof got);
	return areceivemessage(&m) == E_WOULDBLOCK;
}

/* The test as the server of a caller (t_child caller: 64-byte CALLs over
 * link 5, each echo checked): each answer and the next request in one
 * call, the reply link used up by it. */
static void replyreceive_answers_and_takes_next(void)
{
	const char *argv[] = { "t_child", "caller", "4", NULL };
	int self = self_link(0x5e4e);
	uint32_t task, buf[16];
	CHECK_EQ(spawn_child_on(0, argv, self, &task, NULL), 0);
	struct message m = message_into(buf, sizeof buf);
	CHECK_EQ(gtest_receive(&m), (int)sizeof buf);
	for (int i = 0; i < 3; i++) {
		CHECK(m.reply >= LINK_FIRST_FREE);
		CHECK_EQ(m.from, task);
		CHECK_EQ(m.code, 0x5e4e);
		uint32_t first = buf[0];
		int reply = m.reply;
		m = message_into(buf, sizeof buf);
		CHECK_EQ(replyreceive(reply, buf, sizeof buf, -1, &m), (int)sizeof buf);
		CHECK_EQ(m.len, sizeof buf);
		CHECK_EQ(buf[0], first + 16);  /* the next request, not our answer */
		CHECK_EQ(m.passed, -1);
		/* the reply link used up: the first free slot, its own,
		 * holds the next request's */
		CHECK_EQ(m.reply, reply);
	}
	CHECK_EQ(sendmessage(m.reply, buf, sizeof buf, -1), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);   /* every answer was its request */
	destroylink(self);
}

/* A server answering with REPLYRECEIVE (t_child rrecho) is called as any
 * other, and found its reply links used up. */
static void replyreceive_server(void)
{
	echo_round_trips("rrecho");
}

/* Every bad argument of either half: its error, and nothing sent, nothing
 * received (a message waiting for us stays, none is added), the reply
 * link not used up. */
static void replyreceive_bad_arguments(void)
{
	int self = self_link(0x5e1f);
	uint32_t v = 0x44, word = 0;
	void *text = (void *)(uintptr_t)only_queued;   /* read-only */
	struct message good = message_into(&word, sizeof word), rom = message_into(text, 4),
		       badbuf = message_into((void *)0x100000, 4), nullbuf = message_into(NULL, 4);
	struct {
		int link, pass;
		const void *buf;
		uint32_t len;
		struct message *m;
		int err;
	} cases[] = {
		{ -3, -1, &v, 4, &good, E_BADLINK },
		{ NLINK - 1, -1, &v, 4, &good, E_BADLINK },
		{ self, NLINK - 1, &v, 4, &good, E_BADLINK },
		{ self, self, &v, 4, &good, E_INVAL },
		{ self, -1, &v, MSG_MAX + 1, &good, E_TOOBIG },
		{ self, -1, (void *)0x100000, 4, &good, E_BADADDR },
		{ self, -1, &v, 4, &nullbuf, E_BADADDR },
		{ self, -1, &v, 4, &badbuf, E_BADADDR },
		{ self, -1, &v, 4, &rom, E_BADADDR },
		{ LINK_CONSOLE, -1, &v, 4, &badbuf, E_BADADDR },   /* a kernel link: not served */
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t mark = 0x700 + i;
		CHECK_EQ(sendmessage(self, &mark, 4, -1), 0);
		CHECK_EQ(replyreceive(cases[i].link, cases[i].buf, cases[i].len, cases[i].pass, cases[i].m),
			 cases[i].err);
		CHECK(only_queued(mark, 0x5e1f));
	}
	/* a kernel request not made: no alarm comes */
	uint32_t alarm[3] = { KR_ALARM, 1, 0xa1a1 };
	CHECK_EQ(replyreceive(LINK_CONSOLE, alarm, sizeof alarm, -1, &badbuf), E_BADADDR);
	struct message m = message_into(&word, sizeof word);
	CHECK_EQ(gtest_receive_within(&m, 30), E_WOULDBLOCK);
	/* a reply link: not used up by a bad receive half, and its caller
	 * given nothing (t_child call-parent ends 0 only on our 0x33) */
	const char *argv[] = { "t_child", "call-parent", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	m = message_into(&word, sizeof word);
	CHECK_EQ(gtest_receive(&m), 4);
	CHECK(m.reply >= 0);
	CHECK_EQ(replyreceive(m.reply, &v, 4, -1, &badbuf), E_BADADDR);
	CHECK_EQ(replyreceive(m.reply, &v, 4, m.reply, &good), E_INVAL);
	uint32_t answer = 0x33;
	CHECK_EQ(sendmessage(m.reply, &answer, 4, -1), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	destroylink(l);
	destroylink(self);
}

/* A send that fails is the result and nothing is received: to a caller
 * that died (E_DEAD, the reply link used up as by SENDMESSAGE) and over a
 * link to an ended process. */
static void replyreceive_to_the_dead(void)
{
	int self = self_link(0x5e1f);
	const char *argv[] = { "t_child", "call-parent", NULL };
	uint32_t task, word = 0, v = 0x33;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	struct message m = message_into(&word, sizeof word);
	CHECK_EQ(gtest_receive(&m), 4);
	int reply = m.reply;
	CHECK(reply >= 0);
	struct kr_exit_notice ex;
	CHECK_EQ(pm_kill(task), 0);
	CHECK_EQ(wait_child(task, &ex), 0);
	uint32_t mark = 0x801;
	CHECK_EQ(sendmessage(self, &mark, 4, -1), 0);
	m = message_into(&word, sizeof word);
	CHECK_EQ(replyreceive(reply, &v, 4, -1, &m), E_DEAD);
	CHECK(only_queued(mark, 0x5e1f));
	CHECK_EQ(sendmessage(reply, &v, 4, -1), E_BADLINK);  /* used up */
	/* over an ordinary link to an ended process (l: the child's own) */
	mark = 0x802;
	CHECK_EQ(sendmessage(self, &mark, 4, -1), 0);
	m = message_into(&word, sizeof word);
	CHECK_EQ(replyreceive(l, &v, 4, -1, &m), E_DEAD);
	CHECK(only_queued(mark, 0x5e1f));
	destroylink(l);
	destroylink(self);
}

/* Over a kernel link: the request served as SENDMESSAGE would, then the
 * receive: here an alarm asked for, then received in the same call. */
static void replyreceive_kernel_link(void)
{
	uint32_t alarm[3] = { KR_ALARM, 1, 0xa1a2 }, got[2] = { 0, 0 };
	struct message m = message_into(got, sizeof got);
	CHECK_EQ(replyreceive(LINK_CONSOLE, alarm, sizeof alarm, -1, &m), (int)sizeof got);
	CHECK_EQ(m.code, 0xa1a2);
	CHECK_EQ(got[0], KR_ALARM);
	CHECK_EQ(got[1], 0xa1a2);
	uint32_t bad = 999;
	m = message_into(got, sizeof got);
	CHECK_EQ(replyreceive(LINK_CONSOLE, &bad, 4, -1, &m), E_BADREQ); /* the request's error: nothing received */
}

/* ---- the receives' registers (kernel/abi/calls.h) ---- */

/* Wait until a message is queued for us (KR_KSTATS), without taking it. */
static int one_waits(void)
{
	struct kr_kstats k;
	for (int i = 0; i < 100000; i++)
		if (kernel_stats(0, &k) == 0 && k.queue_len >= 1)
			return 1;
	return 0;
}

/* Each word a receive gives back in registers, raw (no struct message):
 * a CALL with a passed link and a reply link (the general path), the same
 * kept whole after buffers the kernel refuses, and one truncated into a
 * short buffer by REPLYRECEIVE's receive (the fast path); a CALL's reply
 * from the kernel link. */
static void received_in_registers(void)
{
	const char *argv[] = { "t_child", "call-pass", "3", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	uint8_t buf[16];
	memset(buf, 0xee, sizeof buf);
	struct kcall_received got;
	CHECK_EQ(kcall_receive(K_RECEIVEMESSAGE, (uint32_t)(uintptr_t)buf, sizeof buf, 0, 0, 0, 0, &got), 6);
	CHECK_EQ(got.len, 6);
	CHECK_EQ(got.code, 0xc0de);
	CHECK(got.passed >= LINK_FIRST_FREE && got.passed < NLINK);
	CHECK(got.reply >= LINK_FIRST_FREE && got.reply < NLINK && got.reply != got.passed);
	CHECK_EQ(got.from, task);
	CHECK(!memcmp(buf, "abcdef\xee", 7));
	CHECK_EQ(destroylink(got.passed), 0);
	uint32_t answer = 0x33;
	CHECK_EQ(sendmessage(got.reply, &answer, 4, -1), 0);

	/* the second: refused buffers take nothing */
	CHECK(one_waits());
	const uint32_t bad[][2] = {
		{ 0, 4 }, { 0x100000, 16 }, { (uint32_t)(uintptr_t)only_queued, 4 }, { USER_TOP - 8, 16 },
		{ 0x70000000, 4 },
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_EQ(kcall_receive(K_RECEIVEMESSAGE, bad[i][0], bad[i][1], 0, 0, 0, 0, &got), E_BADADDR);
		CHECK_EQ(kcall_receive(K_ARECEIVEMESSAGE, bad[i][0], bad[i][1], 0, 0, 0, 0, &got), E_BADADDR);
	}
	struct kr_kstats k;
	CHECK_EQ(kernel_stats(0, &k), 0);
	CHECK_EQ(k.queue_len, 1);
	memset(buf, 0xee, sizeof buf);
	CHECK_EQ(kcall_receive(K_ARECEIVEMESSAGE, (uint32_t)(uintptr_t)buf, sizeof buf, 0, 0, 0, 0, &got), 6);
	CHECK_EQ(got.len, 6);
	CHECK_EQ(got.code, 0xc0de);
	CHECK(got.passed >= LINK_FIRST_FREE && got.reply >= LINK_FIRST_FREE && got.reply != got.passed);
	CHECK_EQ(got.from, task);
	CHECK(!memcmp(buf, "abcdef\xee", 7));
	CHECK_EQ(destroylink(got.passed), 0);

	/* the third, no link passed, handed straight to our waiting receive
	 * by the answer's REPLYRECEIVE, into 3 bytes */
	answer = 0x34;
	uint8_t small[4] = { 0xee, 0xee, 0xee, 0xee };
	int32_t reply = got.reply;
	CHECK_EQ(kcall_receive(K_REPLYRECEIVE, (uint32_t)reply, (uint32_t)(uintptr_t)&answer, 4, (uint32_t)-1,
			       (uint32_t)(uintptr_t)small, 3, &got), E_TRUNC);
	CHECK_EQ(got.len, 6);
	CHECK_EQ(got.code, 0xc0de);
	CHECK_EQ(got.passed, -1);
	CHECK(got.reply >= LINK_FIRST_FREE && got.reply < NLINK);
	CHECK_EQ(got.from, task);
	CHECK(!memcmp(small, "abc\xee", 4));
	CHECK_EQ(destroylink(reply), E_BADLINK);   /* the answer used it up */
	answer = 0x35;
	CHECK_EQ(sendmessage(got.reply, &answer, 4, -1), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);   /* each answer came whole, words checked */
	destroylink(l);

	/* a CALL's reply from the kernel link: whole, then truncated */
	uint32_t req = KR_NODE, rep[2] = { 0, 0 };
	CHECK_EQ(kcall_receive(K_CALL, LINK_CONSOLE, (uint32_t)(uintptr_t)&req, 4, (uint32_t)-1,
			       (uint32_t)(uintptr_t)rep, sizeof rep, &got), 8);
	CHECK_EQ(got.len, 8);
	CHECK_EQ(got.passed, -1);
	CHECK_EQ(got.reply, -1);
	CHECK_EQ(got.from & 0xffff, 0);        /* pid 0: the kernel */
	CHECK_EQ(got.from >> 16, rep[0]);      /* of this node */
	CHECK_EQ(kcall_receive(K_CALL, LINK_CONSOLE, (uint32_t)(uintptr_t)&req, 4, (uint32_t)-1,
			       (uint32_t)(uintptr_t)rep, 4, &got), E_TRUNC);
	CHECK_EQ(got.len, 8);
	CHECK_EQ(got.from >> 16, rep[0]);
}

/* ---- the registers a kernel call leaves (kernel/abi/calls.h) ---- */

#if defined(__i386__)
/* Every register a process can set, going into a kernel call (eax the
 * call number) and as it came back. */
struct regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, fs, gs;
};

/* io[0] in, io[1] out.  fs and gs are the process's own (the kernel never
 * loads them): set to the null selector here, given back as found. */
static void kcall_regs(struct regs io[2])
{
	struct regs *p = io;
	__asm__ volatile("push %%ebp\n\t"
			 "push %%eax\n\t"
			 "mov %%fs, %%ecx\n\t"
			 "push %%ecx\n\t"
			 "mov %%gs, %%ecx\n\t"
			 "push %%ecx\n\t"
			 "mov 28(%%eax), %%ecx\n\t"
			 "mov %%ecx, %%fs\n\t"
			 "mov 32(%%eax), %%ecx\n\t"
			 "mov %%ecx, %%gs\n\t"
			 "mov 4(%%eax), %%ebx\n\t"
			 "mov 8(%%eax), %%ecx\n\t"
			 "mov 12(%%eax), %%edx\n\t"
			 "mov 16(%%eax), %%esi\n\t"
			 "mov 20(%%eax), %%edi\n\t"
			 "mov 24(%%eax), %%ebp\n\t"
			 "mov 0(%%eax), %%eax\n\t"
			 "int $0x80\n\t"
			 "xchg %%eax, 8(%%esp)\n\t" /* io, the result kept */
			 "mov %%ebx, 40(%%eax)\n\t"
			 "mov %%ecx, 44(%%eax)\n\t"
			 "mov %%edx, 48(%%eax)\n\t"
			 "mov %%esi, 52(%%eax)\n\t"
			 "mov %%edi, 56(%%eax)\n\t"
			 "mov %%ebp, 60(%%eax)\n\t"
			 "mov %%fs, %%ecx\n\t"
			 "mov %%ecx, 64(%%eax)\n\t"
			 "mov %%gs, %%ecx\n\t"
			 "mov %%ecx, 68(%%eax)\n\t"
			 "mov %%eax, %%edx\n\t"
			 "pop %%ecx\n\t"
			 "mov %%ecx, %%gs\n\t"
			 "pop %%ecx\n\t"
			 "mov %%ecx, %%fs\n\t"
			 "pop %%eax\n\t"
			 "mov %%eax, 36(%%edx)\n\t"
			 "pop %%ebp"
			 : "+a"(p)
			 :
			 : "ebx", "ecx", "edx", "esi", "edi", "memory", "cc");
}

/* The call nr with arguments a0..a5 (a5 also ebp's: nothing else takes it)
 * returns `result`; a receive's words come back in ebx..edi (got), every
 * other register as it went in, fs and gs (null) included. */
static void regs_kept(uint32_t nr, const uint32_t a[6], int32_t result, const uint32_t *got)
{
	struct regs io[2] = { { nr, a[0], a[1], a[2], a[3], a[4], a[5], 0, 0 } };
	memset(&io[1], 0xee, sizeof io[1]);
	kcall_regs(io);
	CHECK_EQ((int32_t)io[1].eax, result);
	const uint32_t *in = &io[0].ebx, *out = &io[1].ebx;
	for (int i = 0; i < 5; i++)
		CHECK_EQ(out[i], got ? got[i] : in[i]);
	CHECK_EQ(io[1].ebp, a[5]);
	CHECK_EQ(io[1].fs, 0);
	CHECK_EQ(io[1].gs, 0);
}

#elif defined(__arm__)
/* Every register a process can set but sp and pc, going into a kernel call
 * (r7 the call number) and as it came back. */
struct regs {
	uint32_t r[13], lr;
};

/* io[0] in, io[1] out. */
static void kcall_regs(struct regs io[2])
{
	register struct regs *p __asm__("r0") = io;
	__asm__ volatile("push {r4-r11, lr}\n\t"
			 "push {r0}\n\t"
			 "ldr lr, [r0, #52]\n\t"
			 "ldm r0, {r0-r12}\n\t"
			 "svc #0\n\t"
			 "push {r12}\n\t"
			 "ldr r12, [sp, #4]\n\t"
			 "add r12, r12, #56\n\t"
			 "stm r12, {r0-r11}\n\t"
			 "str lr, [r12, #52]\n\t"
			 "pop {r0}\n\t"
			 "str r0, [r12, #48]\n\t"
			 "pop {r0}\n\t"
			 "pop {r4-r11, lr}"
			 : "+r"(p)
			 :
			 : "r1", "r2", "r3", "r12", "memory", "cc");
}

/* The call nr with arguments a0..a5 returns `result`; a receive's words
 * come back in r1-r5 (got), every other register as it went in. */
static void regs_kept(uint32_t nr, const uint32_t a[6], int32_t result, const uint32_t *got)
{
	struct regs io[2] = { { { a[0], a[1], a[2], a[3], a[4], a[5], 0x6666, nr, 0x8888, 0x9999, 0xaaaa, 0xbbbb,
				  0xcccc }, 0xeeee } };
	memset(&io[1], 0xee, sizeof io[1]);
	kcall_regs(io);
	CHECK_EQ((int32_t)io[1].r[0], result);
	for (int i = 1; i < 13; i++)
		CHECK_EQ(io[1].r[i], got && i <= 5 ? got[i - 1] : io[0].r[i]);
	CHECK_EQ(io[1].lr, 0xeeee);
}
#endif

/* A call with one result (the null call, the general path's; a
 * SENDMESSAGE to oneself, the fast path's) and the receives (the fast
 * path's RECEIVEMESSAGE that finds the message; a CALL to a server that
 * waits, the CPU going to it and back, and one it refuses), the junk in
 * the unused argument registers kept. */
static void registers_kept(void)
{
	regs_kept(K_NULL, (const uint32_t[6]){ 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 }, 0, NULL);
	int self = self_link(0x5e1f);
	uint32_t v = 0x1234, r = 0;
	struct message m = message_into(&r, 4);
	CHECK_EQ(sendmessage(self, &v, 4, -1), 0);
	CHECK_EQ(receivemessage(&m), 4); /* who we are: m.from */
	regs_kept(K_SENDMESSAGE, (const uint32_t[6]){ (uint32_t)self, (uint32_t)(uintptr_t)&v, 4, (uint32_t)-1, 0x55, 0x66 },
		  0, NULL);
	r = 0;
	regs_kept(K_RECEIVEMESSAGE, (const uint32_t[6]){ (uint32_t)(uintptr_t)&r, 4, 0x33, 0x44, 0x55, 0x66 }, 4,
		  (const uint32_t[5]){ 4, 0x5e1f, (uint32_t)-1, (uint32_t)-1, m.from });
	CHECK_EQ(r, 0x1234);
	destroylink(self);

	const char *argv[] = { "t_child", "echo", "2", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child(argv, &task, &l), 0);
	m = message_into(&r, 4);
	CHECK_EQ(call(l, &v, 4, -1, &m), 4); /* the reply's code: m.code */
	v = 0x4321;
	r = 0;
	regs_kept(K_CALL, (const uint32_t[6]){ (uint32_t)l, (uint32_t)(uintptr_t)&v, 4, (uint32_t)-1, (uint32_t)(uintptr_t)&r, 4 },
		  4, (const uint32_t[5]){ 4, m.code, (uint32_t)-1, (uint32_t)-1, task });
	CHECK_EQ(r, 0x4321);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0);
	regs_kept(K_SENDMESSAGE, (const uint32_t[6]){ (uint32_t)l, (uint32_t)(uintptr_t)&v, 4, (uint32_t)-1, 0x55, 0x66 },
		  E_DEAD, NULL);
	destroylink(l);

#if defined(__i386__)
	/* each process its own fs and gs across switches: a child with
	 * them null waits in a CALL to us while we run with ours */
	uint32_t fs0, gs0, fs1, gs1;
	__asm__ volatile("mov %%fs, %0\n\tmov %%gs, %1" : "=r"(fs0), "=r"(gs0));
	const char *nullsegs[] = { "t_child", "nullsegs", NULL };
	CHECK_EQ(spawn_child(nullsegs, &task, &l), 0);
	m = message_into(&r, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(r, 0x5e65);
	__asm__ volatile("mov %%fs, %0\n\tmov %%gs, %1" : "=r"(fs1), "=r"(gs1));
	CHECK_EQ(fs1, fs0);
	CHECK_EQ(gs1, gs0);
	CHECK(fs0 != 0 && gs0 != 0);
	CHECK_EQ(sendmessage(m.reply, &r, 4, -1), 0);
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.status, 0); /* the child's stayed null */
	__asm__ volatile("mov %%fs, %0\n\tmov %%gs, %1" : "=r"(fs1), "=r"(gs1));
	CHECK_EQ(fs1, fs0);
	CHECK_EQ(gs1, gs0);
	destroylink(l);
#endif
}

GTESTS(
	{ "call round trips", call_round_trip },
	{ "calls at every alignment, every length kind", calls_at_every_alignment },
	{ "call leaves other messages queued", call_leaves_other_messages_queued },
	{ "reply link is one-time", reply_link_is_one_time },
	{ "server ends without replying", server_ends_without_reply },
	{ "server destroys the reply link", server_destroys_reply_link },
	{ "call with bad arguments", call_bad_arguments },
	{ "a request past a range found readable: E_BADADDR, nothing handed over", call_past_a_range_found_readable },
	{ "calls over the kernel link", kernel_link_call },
	{ "handed over at once as when queued", handed_over_as_queued },
	{ "calls leave the others their turns", calls_leave_others_their_turns },
	{ "calls to a replyreceive server leave the others their turns", replyreceive_calls_leave_others_their_turns },
	{ "replyreceive answers and takes the next request", replyreceive_answers_and_takes_next },
	{ "a server answering with replyreceive", replyreceive_server },
	{ "replyreceive with bad arguments: nothing sent or received", replyreceive_bad_arguments },
	{ "replyreceive to the dead: E_DEAD, nothing received", replyreceive_to_the_dead },
	{ "replyreceive over the kernel link", replyreceive_kernel_link },
	{ "a receive's registers, each word", received_in_registers },
	{ "a kernel call leaves every other register", registers_kept },
);
GTEST_MAIN("call")

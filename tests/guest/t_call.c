/*
 * tests/guest/t_call.c - CALL and reply links: round trips with a server
 * process, other messages left queued meanwhile, one-time reply links, and
 * every way a reply can fail to come (the server ends, drops the reply
 * link, the callee is dead).
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

static void call_round_trip(void)
{
	const char *argv[] = { "t_child", "echo", "3", NULL };
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
	CHECK_EQ(call(self, &v, 4, -1, NULL), E_BADADDR);
	CHECK_EQ(call(self, &v, 4, -1, (struct message *)0x100000), E_BADADDR);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(-3, &v, 4, -1, &m), E_BADLINK);
	CHECK_EQ(call(self, &v, MSG_MAX + 1, -1, &m), E_TOOBIG);
	CHECK_EQ(call(self, (void *)0x100000, 4, -1, &m), E_BADADDR);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK); /* none of them sent anything */
	destroylink(self);
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

GTESTS(
	{ "call round trips", call_round_trip },
	{ "call leaves other messages queued", call_leaves_other_messages_queued },
	{ "reply link is one-time", reply_link_is_one_time },
	{ "server ends without replying", server_ends_without_reply },
	{ "server destroys the reply link", server_destroys_reply_link },
	{ "call with bad arguments", call_bad_arguments },
	{ "calls over the kernel link", kernel_link_call },
);
GTEST_MAIN("call")

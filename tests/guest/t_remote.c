/*
 * tests/guest/t_remote.c - links across nodes.  Runs on node 1 of a
 * cluster of four (tests/cluster/cluster_test_remote.sh) and places its
 * helpers on the other nodes through the process manager, so every test
 * crosses the network: creation on another node, CALLs, a link passed
 * A -> B -> C and used by C, a server with four remote clients, MOVEDATA
 * of 1 MiB, FIFO order under load, the error codes of dead processes and,
 * last, a node that is killed mid-run (holding, among others, the reply
 * link of a CALL that a server on node 3 passed on to it).
 *
 * `t_remote 2` runs the same cases on a cluster of two
 * (tests/cluster/cluster_test_remote2.sh): what went to nodes 3 and 4 goes
 * to node 2, and a helper that must be on another node than its partner
 * on node 2 comes to node 1.  So C of A -> B -> C is on node 1 (the passed
 * link comes back to the node of the process it names), the four clients
 * and the FIFO sender are on node 1, and the process that survives the
 * node's death is the test's neighbour on node 1.
 *
 * `t_remote stress` (the second boot of
 * tests/cluster/cluster_test_remote2.sh, nodes 1 and 2) fills the send
 * buffers between the nodes: dozens of concurrent 4 KiB CALLs and MOVEDATAs that must all complete with the right bytes,
 * then MOVEDATA against node 2 once it is killed (E_NODEDOWN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

static int two_nodes; /* `t_remote 2`: a cluster of nodes 1 and 2 */
/* `t_remote async`: nodes 1 and 2 in virtual time, where a remote SEND
 * returns once its frame is out (docs/remote.md): one to an ended process
 * gives 0, and the receiving kernel discards it.  No node is killed (a
 * node's end is not yet seen in virtual time: docs/virtual-time.md §2.8). */
static int async_sends;

/* The node for a helper the 4-node layout puts on node n (2, 3 or 4). */
static uint32_t far(uint32_t n)
{
	return two_nodes ? 2 : n;
}

/* The node for a helper that must not share a node with its partner on
 * node 2: node n of four, this node of two. */
static uint32_t beside(uint32_t n)
{
	return two_nodes ? 1 : n;
}

static int ended(uint32_t task, int32_t want_status)
{
	struct kr_exit_notice n;
	if (wait_child(task, &n) < 0)
		return 0;
	return n.reason == EXIT_NORMAL && n.status == want_status;
}

static void create_on_another_node(void)
{
	const char *argv[] = { "t_child", "exit", "5", NULL };
	uint32_t task;
	CHECK_EQ(spawn_child_on(far(3), argv, -1, &task, NULL), 0);
	CHECK_EQ(TASK_NODE(task), far(3));
	CHECK(ended(task, 5));                       /* node 3's pm told us */
	const char *none[] = { "no-such-program", NULL };
	CHECK_EQ(pm_create_on(far(3), none, -1, &task), E_NOPROG);
	CHECK_EQ(pm_create_on(9, argv, -1, &task), E_NODEDOWN); /* not in the cluster */
}

static void call_across_nodes(void)
{
	const char *argv[] = { "t_child", "echo", "100", NULL };
	uint32_t task;
	int l;
	CHECK_EQ(spawn_child_on(2, argv, -1, &task, &l), 0);
	for (uint32_t i = 0; i < 100; i++) {
		uint8_t q[300], a[300];
		uint32_t n = 1 + i * 3;
		for (uint32_t k = 0; k < n; k++)
			q[k] = (uint8_t)(i + k);
		struct message m = message_into(a, sizeof a);
		CHECK_EQ(call(l, q, n, -1, &m), (int)n);
		CHECK(!memcmp(q, a, n));
		CHECK_EQ(m.from, task);
	}
	CHECK(ended(task, 0));                       /* its reply links were one-time */
	uint32_t v = 0;
	CHECK_EQ(sendmessage(l, &v, 4, -1), async_sends ? 0 : E_DEAD);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(l, &v, 4, -1, &m), E_DEAD);    /* async: the discarding kernel's error reply */
	destroylink(l);
}

static void link_passed_a_b_c(void)
{
	const char *c_argv[] = { "t_child", "bounce", NULL };
	const char *b_argv[] = { "t_child", "relay", NULL };
	uint32_t b, c;
	int bl, cl, mine = self_link(0xabc);
	CHECK_EQ(spawn_child_on(beside(3), c_argv, -1, &c, &cl), 0);
	CHECK_EQ(spawn_child_on(2, b_argv, cl, &b, &bl), 0);
	uint32_t v = 1;
	CHECK_EQ(sendmessage(bl, &v, 4, mine), 0);   /* A -> B, passing our link */
	struct message m = message_into(&v, 4);
	CHECK_EQ(gtest_receive(&m), 4);               /* C used it */
	CHECK_EQ(v, 0xb0b0);
	CHECK_EQ(m.code, 0xabc);
	CHECK_EQ(m.from, c);
	CHECK(ended(b, 0));
	CHECK(ended(c, 0));
	destroylink(bl); destroylink(cl); destroylink(mine);
}

static void server_with_four_remote_clients(void)
{
	const char *s_argv[] = { "t_child", "echo", "0", NULL };
	const char *c_argv[] = { "t_child", "caller", "50", NULL };
	uint32_t server, clients[4];
	int sl, cl[4];
	CHECK_EQ(spawn_child_on(2, s_argv, -1, &server, &sl), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(spawn_child_on(beside(3 + i % 2), c_argv, sl, &clients[i], &cl[i]), 0);
	for (int i = 0; i < 4; i++)
		CHECK(ended(clients[i], 0));              /* 200 CALLs, all answered right */
	CHECK_EQ(pm_kill(server), 0);                 /* forwarded to node 2 */
	struct kr_exit_notice n;
	CHECK_EQ(wait_child(server, &n), 0);
	CHECK_EQ(n.reason, EXIT_KILLED);
	for (int i = 0; i < 4; i++)
		destroylink(cl[i]);
	destroylink(sl);
}

static uint32_t checksum(const uint8_t *d, uint32_t n)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum = sum * 31 + d[i];
	return sum;
}

static void movedata_one_mebibyte(void)
{
	const uint32_t size = 1u << 20;
	const char *argv[] = { "t_child", "data", "1048576", NULL };
	uint32_t task, n, sum;
	int child, area;
	CHECK_EQ(spawn_child_on(far(4), argv, -1, &task, &child), 0);
	struct message m = message_into(&n, sizeof n);
	CHECK_EQ(gtest_receive(&m), 4);
	area = m.passed;
	CHECK(area >= 0);
	uint8_t *buf = malloc(size);
	CHECK(buf != NULL);
	int me = createlink(1, buf, size, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(area, 0, me, 0, size), (int)size);
	uint32_t q = 1;
	m = message_into(&sum, sizeof sum);
	CHECK_EQ(call(child, &q, 4, -1, &m), 4);
	CHECK_EQ(checksum(buf, size), sum);
	for (uint32_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(i * 5 >> 2);
	CHECK_EQ(movedata(me, 0, area, 0, size), (int)size);
	CHECK_EQ(movedata(area, size - 10, me, 0, 11), E_BOUNDS);
	q = 0;
	CHECK_EQ(call(child, &q, 4, -1, &m), 4);
	CHECK_EQ(sum, checksum(buf, size));
	CHECK(ended(task, 0));
	CHECK_EQ(movedata(area, 0, me, 0, 16), E_DEAD);
	destroylink(me); destroylink(area); destroylink(child);
	free(buf);
}

static void fifo_under_load(void)
{
	const char *pong_argv[] = { "t_child", "pong", "2000", NULL };
	const char *ping_argv[] = { "t_child", "ping", "2000", NULL };
	uint32_t ping, pong;
	int pl, gl;
	CHECK_EQ(spawn_child_on(far(3), pong_argv, -1, &pong, &gl), 0);
	CHECK_EQ(spawn_child_on(beside(2), ping_argv, gl, &ping, &pl), 0);
	CHECK(ended(ping, 0));
	CHECK(ended(pong, 0));                       /* 2000 messages, in order */
	destroylink(pl); destroylink(gl);
}

static void remote_server_ends_without_reply(void)
{
	const char *argv[] = { "t_child", "noreply", NULL };
	uint32_t task, v = 1;
	int l;
	CHECK_EQ(spawn_child_on(far(4), argv, -1, &task, &l), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(l, &v, 4, -1, &m), E_DEAD);
	CHECK(ended(task, 0));
	destroylink(l);
}

static void node_killed_mid_run(void)
{
	const char *argv[] = { "t_child", "echo", "0", NULL };
	uint32_t doomed, alive;
	int dl, al;
	CHECK_EQ(spawn_child_on(far(4), argv, -1, &doomed, &dl), 0);
	CHECK_EQ(spawn_child_on(beside(2), argv, -1, &alive, &al), 0);
	/* A CALL whose server (node 3) passes the reply link on to node 4: the
	 * CALLer must be woken with E_NODEDOWN when node 4 dies, as the kernel
	 * follows the reply link (it once waited until killed). */
	uint32_t holder, forwarder, caller = 0;
	int hl = -1, fl = -1, cl = -1;
	if (!two_nodes) {
		const char *hold_argv[] = { "t_child", "hold", NULL };
		const char *forward_argv[] = { "t_child", "forward", NULL };
		const char *call_argv[] = { "t_child", "callonce", NULL };
		CHECK_EQ(spawn_child_on(4, hold_argv, -1, &holder, &hl), 0);
		CHECK_EQ(spawn_child_on(3, forward_argv, hl, &forwarder, &fl), 0);
		CHECK_EQ(spawn_child_on(0, call_argv, fl, &caller, &cl), 0);
		CHECK(ended(forwarder, 0));   /* the reply link is on node 4 now */
	}
	uint32_t v = 7;
	struct message m = message_into(&v, 4);
	CHECK_EQ(call(dl, &v, 4, -1, &m), 4);
	printf("KILL-NODE %u\n", (unsigned)far(4));   /* the host harness kills it */
	fflush(stdout);
	uint64_t start, now;
	node_time(&start, NULL);
	int r;
	do {
		m = message_into(&v, 4);
		r = call(dl, &v, 4, -1, &m);
		node_time(&now, NULL);
	} while (r == 4 && now - start < 30000000000ull);
	CHECK_EQ(r, E_NODEDOWN);
	CHECK_EQ(sendmessage(dl, &v, 4, -1), E_NODEDOWN);
	CHECK_EQ(pm_create_on(far(4), argv, -1, &doomed), E_NODEDOWN);
	m = message_into(&v, 4);
	CHECK_EQ(call(al, &v, 4, -1, &m), 4);           /* the others run on */
	CHECK_EQ(pm_kill(alive), 0);
	if (!two_nodes) {
		CHECK(ended(caller, -E_NODEDOWN));   /* its CALL failed, E_NODEDOWN */
		destroylink(hl); destroylink(fl); destroylink(cl);
	}
	destroylink(dl); destroylink(al);
}

/* ---- `t_remote stress`: a full send buffer (nodes 1 and 2).  STRESS
 * helpers here send 4 KiB frames to node 2 all at once, more than the
 * 64 KiB send buffer to a peer (PEER_SNDBUF) and lwIP's TCP buffer hold
 * (cluster_test_remote2 boots both nodes with peerbuf=16384 so that they
 * surely do), so senders must wait for room without wedging the node, and node 2's
 * answers (acks, 4 KiB MOVEDATA reads) must wait for room without being
 * lost.  Before the kernel blocked such senders, node 1 hung here. ---- */

#define STRESS 24       /* helpers started together                     */
#define STRESS_ROUNDS 8 /* 4 KiB operations each                         */

/* Start STRESS helpers here running argv (with link 5 = `extra`), then
 * give them all the go and check they all ended with status 0. */
static void stress_helpers(const char *const argv[], int extra)
{
	uint32_t task[STRESS];
	int l[STRESS];
	for (uint32_t i = 0; i < STRESS; i++)
		CHECK_EQ(spawn_child_on(0, argv, extra, &task[i], &l[i]), 0);
	for (uint32_t i = 0; i < STRESS; i++)
		CHECK_EQ(sendmessage(l[i], &i, 4, -1), 0);
	for (uint32_t i = 0; i < STRESS; i++) {
		struct kr_exit_notice n;
		CHECK_EQ(wait_child(task[i], &n), 0);
		CHECK_EQ(n.reason, EXIT_NORMAL);
		CHECK_EQ(n.status, 0);
		destroylink(l[i]);
	}
}

static void concurrent_big_calls(void)
{
	const char *s_argv[] = { "t_child", "echo", "0", NULL };
	const char *c_argv[] = { "t_child", "bigcaller", "8", NULL };
	uint32_t server;
	int sl;
	CHECK_EQ(spawn_child_on(2, s_argv, -1, &server, &sl), 0);
	stress_helpers(c_argv, sl);                  /* 24 x 8 CALLs of 4 KiB, echoes checked */
	if (gtest_failed_now)
		return;
	CHECK_EQ(pm_kill(server), 0);
	struct kr_exit_notice n;
	CHECK_EQ(wait_child(server, &n), 0);
	destroylink(sl);
}

static int stress_area = -1;    /* node 2's area, kept for the last case */
static uint32_t stress_owner;

static void concurrent_movedata(void)
{
	char size[16];
	snprintf(size, sizeof size, "%u", STRESS * 4096);
	const char *d_argv[] = { "t_child", "data", size, NULL };
	const char *m_argv[] = { "t_child", "mover", "8", NULL };
	uint32_t n;
	int owner;
	CHECK_EQ(spawn_child_on(2, d_argv, -1, &stress_owner, &owner), 0);
	struct message m = message_into(&n, sizeof n);
	CHECK_EQ(gtest_receive(&m), 4);
	CHECK_EQ(n, STRESS * 4096);
	stress_area = m.passed;
	CHECK(stress_area >= 0);
	destroylink(owner);
	stress_helpers(m_argv, stress_area);         /* 24 x 8 pages written, read back, checked */
}

/* MOVEDATA against an area whose node dies: E_NODEDOWN both ways. */
static void movedata_node_down(void)
{
	CHECK(stress_area >= 0);
	static uint8_t buf[64];
	int me = createlink(3, buf, sizeof buf, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(stress_area, 0, me, 0, 16), 16);
	printf("KILL-NODE 2\n");                     /* the host harness kills it */
	fflush(stdout);
	uint64_t start, now;
	node_time(&start, NULL);
	int r;
	do {
		r = movedata(stress_area, 0, me, 0, 16);
		node_time(&now, NULL);
	} while (r == 16 && now - start < 30000000000ull);
	CHECK_EQ(r, E_NODEDOWN);
	CHECK_EQ(movedata(me, 0, stress_area, 0, 16), E_NODEDOWN);
	destroylink(me);
}

static const struct gtest stress_tests[] = {
	{ "24 concurrent 4 KiB CALLs to another node, 8 each", concurrent_big_calls },
	{ "24 concurrent 4 KiB MOVEDATA writes and reads across nodes, 8 each", concurrent_movedata },
	{ "MOVEDATA with an area on a killed node", movedata_node_down },
};

GTESTS(
	{ "create a process on another node", create_on_another_node },
	{ "CALL across nodes", call_across_nodes },
	{ "link passed A -> B -> C and used by C", link_passed_a_b_c },
	{ "server with four clients on other nodes", server_with_four_remote_clients },
	{ "MOVEDATA of 1 MiB across nodes", movedata_one_mebibyte },
	{ "FIFO order across nodes under load", fifo_under_load },
	{ "remote server ends without reply", remote_server_ends_without_reply },
	{ "node killed mid-run", node_killed_mid_run },
);
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "stress"))
		return gtest_run("stress", stress_tests, sizeof stress_tests / sizeof stress_tests[0]);
	async_sends = argc == 2 && !strcmp(argv[1], "async");
	two_nodes = async_sends || (argc == 2 && !strcmp(argv[1], "2"));
	if (argc > 2 || (argc == 2 && !two_nodes)) {
		printf("usage: t_remote [2|stress|async]   (2: the cases on nodes 1 and 2; default: nodes 1-4;\n"
		       "                                   stress: a full send buffer, nodes 1 and 2;\n"
		       "                                   async: nodes 1 and 2 in virtual time, none killed)\n");
		return 2;
	}
	int n = (int)(sizeof gtests / sizeof gtests[0]);
	if (async_sends)   /* the last case kills a node */
		return gtest_run("remote-async", gtests, n - 1);
	return gtest_run(two_nodes ? "remote2" : "remote", gtests, n);
}

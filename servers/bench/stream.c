/*
 * servers/bench/stream.c - many SENDs one way to a slow receiver: the
 * flow control of asynchronous remote SENDs in virtual time (docs/remote.md:
 * a sender with no credit waits; no message is lost).  The receiver spends
 * SLOW_US of its own CPU time on each message, so the sender, whose SENDs
 * return at once, soon has more in flight than the receiving kernel
 * granted it.
 *
 *     stream NODE COUNT SIZE SLOW_US   the receiver on NODE (0: this node)
 *     stream --call NODE COUNT SIZE    COUNT CALLs instead, each answered at
 *                                      once: a strictly sequential program
 *     stream --peer SLOW_US            the receiver itself (started by the above)
 *
 * Message i carries i in its first 4 bytes.  The receiver checks that it
 * gets 0, 1, ..., COUNT-1 in that order and, at the empty message that
 * ends the stream, answers with how many it got and the first out of
 * place.  One line:
 *
 *     stream node=1 peer_node=2 count=500 size=100 received=500 in_order=1 send_ns=N cpu_ns=N
 *
 * send_ns is the node time the sender took for its COUNT SENDs (CALLs),
 * cpu_ns its own CPU time over them.  A CALL's answer is its request sent
 * back.  Exit 0, 1 when a message is lost or out of
 * order (or a call fails), 2 for bad arguments.
 */
#include <stdio.h>
#include <string.h>

#include "bench_pair.h"
#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define PROG "stream"
#define COUNT_MAX 1000000

static uint8_t buf[MSG_MAX];

static int usage(void)
{
	printf("usage: " PROG " [--call] NODE COUNT SIZE [SLOW_US]\n"
	       "  COUNT (1 to %d) SENDs of SIZE bytes (4 to %d) to a receiver on node NODE\n"
	       "  (0: this node) that computes SLOW_US (0 to 100000) us per message;\n"
	       "  --call: CALLs answered at once\n",
	       COUNT_MAX, MSG_MAX);
	return 2;
}

/* Spend `ns` of this process's own CPU time. */
static void compute(uint64_t ns)
{
	uint64_t start, now;
	node_time(NULL, &start);
	do
		node_time(NULL, &now);
	while (now - start < ns);
}

static int peer(uint64_t slow_ns)
{
	if (bench_peer_greet() < 0)
		return 1;
	uint32_t got = 0, bad = 0xffffffffu;
	struct message m = message_into(buf, sizeof buf);
	int n = receivemessage(&m);
	for (;;) {
		if (n < 0)
			return 1;
		if (n == 0)
			break;
		uint32_t seq;
		memcpy(&seq, buf, sizeof seq);
		if (n < 4 || (seq != got && bad == 0xffffffffu))
			bad = got;
		got++;
		int reply = m.reply;
		m = message_into(buf, sizeof buf);
		if (reply >= 0 && !slow_ns) {
			/* a CALL: answered with its request and the next one
			 * awaited, in one kernel call (a failed answer is the
			 * result: the end, as before) */
			n = replyreceive(reply, buf, (uint32_t)n, -1, &m);
			continue;
		}
		if (reply >= 0 && sendmessage(reply, buf, (uint32_t)n, -1) < 0)
			return 1;
		if (slow_ns)
			compute(slow_ns);
		n = receivemessage(&m);
	}
	uint32_t answer[2] = { got, bad };
	return sendmessage(BENCH_PEER_PARENT, answer, sizeof answer, -1) < 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--peer")) {
		long slow = bench_number(PROG, "SLOW_US", argv[2], 0, 100000);
		return slow < 0 ? 2 : peer((uint64_t)slow * 1000);
	}
	int calls = argc == 5 && !strcmp(argv[1], "--call");
	if ((argc != 5 && !calls) || !strcmp(argv[1], "--help"))
		return usage();
	argv += calls;
	long node = bench_number(PROG, "NODE", argv[1], 0, 254);
	long count = bench_number(PROG, "COUNT", argv[2], 1, COUNT_MAX);
	long size = bench_number(PROG, "SIZE", argv[3], 4, MSG_MAX);
	long slow = calls ? 0 : bench_number(PROG, "SLOW_US", argv[4], 0, 100000);
	if (node < 0 || count < 0 || size < 0 || slow < 0)
		return 2;

	const char *peer_argv[] = { PROG, "--peer", calls ? "0" : argv[4], NULL };
	uint32_t here = 0, task;
	int link, r;
	node_info(&here, NULL);
	if ((r = bench_peer_start((uint32_t)node, peer_argv, -1, &task, &link)) < 0) {
		printf(PROG ": cannot start the receiver on node %ld: %s\n", node, kerror_name(r));
		return 1;
	}
	memset(buf, 0x5a, sizeof buf);
	uint64_t t0, c0, t1, c1;
	node_time(&t0, &c0);
	for (uint32_t i = 0; i < (uint32_t)count; i++) {
		memcpy(buf, &i, sizeof i);
		struct message a = message_into(buf, sizeof buf);
		if (calls)
			r = call(link, buf, (uint32_t)size, -1, &a);
		else
			r = sendmessage(link, buf, (uint32_t)size, -1);
		if (r < 0 || (calls && r != (int)size)) {
			printf(PROG ": SEND %u failed: %s\n", (unsigned)i, kerror_name(r));
			pm_kill(task);
			return 1;
		}
	}
	node_time(&t1, &c1);
	uint32_t answer[2] = { 0, 0 };
	struct message m = message_into(answer, sizeof answer);
	if (sendmessage(link, buf, 0, -1) < 0 || receivemessage(&m) != (int)sizeof answer) {
		printf(PROG ": no answer from the receiver\n");
		pm_kill(task);
		return 1;
	}
	int ok = answer[0] == (uint32_t)count && answer[1] == 0xffffffffu;
	printf(PROG " node=%u peer_node=%u count=%ld size=%ld received=%u in_order=%d send_ns=%llu cpu_ns=%llu\n",
	       (unsigned)here, (unsigned)TASK_NODE(task), count, size, (unsigned)answer[0],
	       answer[1] == 0xffffffffu, (unsigned long long)(t1 - t0), (unsigned long long)(c1 - c0));
	return ok ? 0 : 1;
}

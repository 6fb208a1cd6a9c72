/*
 * servers/bench/pingpong.c - message delivery time, measured as the thesis
 * did (Miller's thesis §5.3.1, Fig. 5.11): two otherwise idle processes exchange
 * a message of SIZE bytes back and forth, send-receive-send-receive,
 * COUNT times; one delivery is half a round trip.  The peer answers with
 * SENDMESSAGE and then waits with RECEIVEMESSAGE, two kernel calls, as
 * the thesis's processes did (not REPLYRECEIVE, docs/kernel-calls.md): the
 * delivery-time tables (docs/mtime.md) and the 1984 preset's fit
 * (docs/virtual-time.md §2.4) are measured so.
 *
 *     pingpong NODE COUNT SIZE...     the peer on NODE (0: this node)
 *     pingpong --peer                 the peer itself (started by the above)
 *
 * For each SIZE (1 to MSG_MAX bytes) it prints one line of key=value
 * fields, times in nanoseconds of the node clock (node_time):
 *
 *     pingpong node=1 peer_node=2 size=100 count=10000 round_trip_ns=301234 delivery_ns=150617
 *
 * Before each timed run a few round trips whose contents are checked warm
 * the path up (first-use costs, the peer connection), so the figure is the
 * steady state.  A zero-length message ends the peer.  Exit status 0, 1
 * when a message goes wrong, 2 for bad arguments.
 */
#include <stdio.h>
#include <string.h>

#include "bench_pair.h"
#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define PROG "pingpong"
#define COUNT_MAX 10000000
#define WARMUP 100

static uint8_t out[MSG_MAX], in[MSG_MAX];

static int usage(void)
{
	printf("usage: " PROG " NODE COUNT SIZE...\n"
	       "  the peer runs on node NODE (0: this node); COUNT round trips (1 to %d)\n"
	       "  of SIZE-byte messages (1 to %d) for each SIZE; one line per SIZE:\n"
	       "  " PROG " node=N peer_node=N size=N count=N round_trip_ns=N delivery_ns=N\n",
	       COUNT_MAX, MSG_MAX);
	return 2;
}

/* The peer: send every message back until an empty one comes. */
static int peer(void)
{
	if (bench_peer_greet() < 0)
		return 1;
	for (;;) {
		struct message m = message_into(in, sizeof in);
		int n = receivemessage(&m);
		if (n <= 0)
			return n < 0;
		if (sendmessage(BENCH_PEER_PARENT, in, (uint32_t)n, -1) < 0)
			return 1;
	}
}

/* One round trip of `size` bytes; 0, or -1 when the answer is wrong. */
static int round_trip(int link, uint32_t size)
{
	struct message m = message_into(in, sizeof in);
	if (sendmessage(link, out, size, -1) < 0 || receivemessage(&m) != (int)size)
		return -1;
	return 0;
}

/* Warm up with checked contents, then time `count` round trips. */
static int measure(int link, uint32_t size, uint32_t count, uint64_t *elapsed)
{
	for (uint32_t i = 0; i < WARMUP; i++) {
		for (uint32_t k = 0; k < size; k++)
			out[k] = (uint8_t)(i + k * 7);
		if (round_trip(link, size) < 0 || memcmp(in, out, size))
			return -1;
	}
	uint64_t start = bench_now();
	for (uint32_t i = 0; i < count; i++)
		if (round_trip(link, size) < 0)
			return -1;
	*elapsed = bench_now() - start;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--peer"))
		return peer();
	if (argc < 4 || !strcmp(argv[1], "--help"))
		return usage();
	long node = bench_number(PROG, "NODE", argv[1], 0, 254);
	long count = bench_number(PROG, "COUNT", argv[2], 1, COUNT_MAX);
	if (node < 0 || count < 0)
		return 2;
	for (int i = 3; i < argc; i++)
		if (bench_number(PROG, "SIZE", argv[i], 1, MSG_MAX) < 0)
			return 2;

	const char *peer_argv[] = { PROG, "--peer", NULL };
	uint32_t here = 0, task;
	int link, r;
	node_info(&here, NULL);
	if ((r = bench_peer_start((uint32_t)node, peer_argv, -1, &task, &link)) < 0) {
		printf(PROG ": cannot start the peer on node %ld: %s\n", node, kerror_name(r));
		return 1;
	}
	for (int i = 3; i < argc; i++) {
		uint32_t size = (uint32_t)bench_number(PROG, "SIZE", argv[i], 1, MSG_MAX);
		uint64_t ns;
		if (measure(link, size, (uint32_t)count, &ns) < 0) {
			printf(PROG ": a %u-byte round trip to node %u went wrong\n", (unsigned)size,
			       (unsigned)TASK_NODE(task));
			pm_kill(task);
			return 1;
		}
		uint64_t n = (uint64_t)count;
		printf(PROG " node=%u peer_node=%u size=%u count=%ld round_trip_ns=%llu delivery_ns=%llu\n",
		       (unsigned)here, (unsigned)TASK_NODE(task), (unsigned)size, count,
		       (unsigned long long)((ns + n / 2) / n), (unsigned long long)((ns + n) / (2 * n)));
		fflush(stdout);
	}
	sendmessage(link, out, 0, -1); /* ends the peer */
	return 0;
}

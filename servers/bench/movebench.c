/*
 * servers/bench/movebench.c - MOVEDATA throughput: a process moves SIZE
 * bytes between its own memory and a data area of its peer (on the same
 * or another node) COUNT times each way, and reports the node-clock time
 * per move and the rate.
 *
 *     movebench NODE COUNT SIZE      the peer on NODE (0: this node)
 *     movebench --peer SIZE          the peer: offers its area, answers checksums
 *
 * One line of key=value fields (times in ns of the node clock, rates in
 * KiB per second of it):
 *
 *     movebench node=1 peer_node=2 size=1048576 count=10 read_ns=N write_ns=N read_kib_s=N write_kib_s=N
 *
 * "read" moves the peer's area into ours, "write" ours into the peer's.
 * The bytes are checked (a known pattern read, a checksum from the peer
 * after writing), outside the timed loops.  Exit status 0, 1 when a move
 * or check fails, 2 for bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_pair.h"
#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define PROG "movebench"
#define SIZE_MAX_BYTES (16u << 20)
#define COUNT_MAX 10000

static int usage(void)
{
	printf("usage: " PROG " NODE COUNT SIZE\n"
	       "  MOVEDATA of SIZE bytes (1 to %u) from and to a data area of a peer on\n"
	       "  node NODE (0: this node), COUNT times (1 to %d) each way; one line:\n"
	       "  " PROG " node=N peer_node=N size=N count=N read_ns=N write_ns=N read_kib_s=N write_kib_s=N\n",
	       SIZE_MAX_BYTES, COUNT_MAX);
	return 2;
}

static uint8_t pattern(uint32_t i, uint32_t seed)
{
	return (uint8_t)(i * 7 + seed);
}

static uint32_t checksum(const uint8_t *d, uint32_t n)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum = sum * 31 + d[i];
	return sum;
}

/* The peer: offer an area of `size` bytes, answer checksum CALLs; a
 * request of 0 is the last. */
static int peer(const char *size_arg)
{
	uint32_t size = (uint32_t)strtoul(size_arg, NULL, 10);
	uint8_t *area = malloc(size);
	if (!area || bench_peer_greet() < 0)
		return 1;
	for (uint32_t i = 0; i < size; i++)
		area[i] = pattern(i, 3);
	int l = createlink(0xda7a, area, size, LINK_READ | LINK_WRITE);
	if (l < 0 || sendmessage(BENCH_PEER_PARENT, &size, sizeof size, l) < 0)
		return 1;
	for (;;) {
		uint32_t q;
		struct message m = message_into(&q, sizeof q);
		if (receivemessage(&m) < 0 || m.reply < 0)
			return 1;
		uint32_t sum = checksum(area, size);
		sendmessage(m.reply, &sum, sizeof sum, -1);
		if (q == 0)
			return 0;
	}
}

/* Node-clock ns of `count` moves; 0 on error. */
static uint64_t timed_moves(int from, int to, uint32_t size, uint32_t count)
{
	uint64_t start = bench_now();
	for (uint32_t i = 0; i < count; i++)
		if (movedata(from, 0, to, 0, size) != (int)size)
			return 0;
	return bench_now() - start;
}

static int peer_checksum(int link, uint32_t last, uint32_t *sum)
{
	struct message m = message_into(sum, sizeof *sum);
	return call(link, &last, sizeof last, -1, &m) == (int)sizeof *sum ? 0 : -1;
}

static unsigned long long kib_per_s(uint32_t size, uint64_t ns_per_move)
{
	return ns_per_move ? (unsigned long long)((double)size / 1024 * 1e9 / (double)ns_per_move) : 0;
}

/* Read and write `count` times; the results go to *read_ns, *write_ns. */
static int measure(int peer_link, int area, uint32_t size, uint32_t count,
		   uint64_t *read_ns, uint64_t *write_ns)
{
	uint8_t *buf = malloc(size);
	if (buf)
		memset(buf, 0, size); /* its pages exist before the clock runs */
	int mine = buf ? createlink(1, buf, size, LINK_READ | LINK_WRITE) : -1;
	int ok = mine >= 0 && (*read_ns = timed_moves(area, mine, size, count)) > 0;
	for (uint32_t i = 0; ok && i < size; i++)
		ok = buf[i] == pattern(i, 3);
	for (uint32_t i = 0; ok && i < size; i++)
		buf[i] = pattern(i, 5);
	ok = ok && (*write_ns = timed_moves(mine, area, size, count)) > 0;
	uint32_t sum = 0;
	ok = ok && peer_checksum(peer_link, 0, &sum) == 0 && sum == checksum(buf, size);
	if (mine >= 0)
		destroylink(mine);
	free(buf);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--peer"))
		return peer(argv[2]);
	if (argc != 4 || !strcmp(argv[1], "--help"))
		return usage();
	long node = bench_number(PROG, "NODE", argv[1], 0, 254);
	long count = bench_number(PROG, "COUNT", argv[2], 1, COUNT_MAX);
	long size = bench_number(PROG, "SIZE", argv[3], 1, SIZE_MAX_BYTES);
	if (node < 0 || count < 0 || size < 0)
		return 2;

	const char *peer_argv[] = { PROG, "--peer", argv[3], NULL };
	uint32_t here = 0, task, area_size;
	int link, r;
	node_info(&here, NULL);
	if ((r = bench_peer_start((uint32_t)node, peer_argv, -1, &task, &link)) < 0) {
		printf(PROG ": cannot start the peer on node %ld: %s\n", node, kerror_name(r));
		return 1;
	}
	struct message m = message_into(&area_size, sizeof area_size);
	if (receivemessage(&m) != (int)sizeof area_size || m.passed < 0) {
		printf(PROG ": the peer offered no data area\n");
		pm_kill(task);
		return 1;
	}
	uint64_t rd = 0, wr = 0;
	if (measure(link, m.passed, (uint32_t)size, (uint32_t)count, &rd, &wr) < 0) {
		printf(PROG ": moving %ld bytes to or from node %u went wrong\n", size,
		       (unsigned)TASK_NODE(task));
		pm_kill(task);
		return 1;
	}
	uint64_t n = (uint64_t)count;
	printf(PROG " node=%u peer_node=%u size=%ld count=%ld read_ns=%llu write_ns=%llu"
	       " read_kib_s=%llu write_kib_s=%llu\n",
	       (unsigned)here, (unsigned)TASK_NODE(task), size, count,
	       (unsigned long long)(rd / n), (unsigned long long)(wr / n),
	       kib_per_s((uint32_t)size, rd / n), kib_per_s((uint32_t)size, wr / n));
	return 0;
}

/*
 * servers/bench/kbench.c - what the kernel calls cost.  Run under QEMU with
 * `-icount shift=0,sleep=off`, the node clock advances one nanosecond per
 * guest instruction, so elapsed node time over N repetitions is the
 * instruction count (the node is otherwise idle; the 100 Hz timer adds a
 * few hundred instructions per 10 million).  Prints one line per figure:
 *   kbench OP SIZE INSTRUCTIONS_PER_OP
 * `kbench serve` is the CALL server it starts for itself (`serve-rr` the
 * same answering with REPLYRECEIVE: the figure `call-rr`); `kbench sink`
 * takes trace batches, `kbench loop SIZE N` is a process whose own CPU
 * time is measured metered and unmetered (the cost of metering).
 *
 * `kbench profile N` does the same with N repetitions (the pair loops one
 * round of 400), and brackets the loops of the 0-byte and 4 KiB
 * SEND+RECEIVE and CALL (to the SENDMESSAGE server), the 0-byte CALL to
 * the REPLYRECEIVE server and the unmetered and metered pairs
 * between two markers that analysis/bench/kprof.c finds in QEMU's exec
 * log; after each it prints
 *   kbench profile REGION ITERATIONS clock|cpu NS
 * what its own measure saw over the bracket (`make bench-kernel` writes the
 * profile; docs/kernel-calls.md "Cost").  Without `profile` a bracket is
 * one untaken branch at each end of a timed loop.
 *
 * `kbench remote NODE N` (`make bench-remote`, servers/bench/bench-remote.sh)
 * is a remote ping-pong profiled on both nodes: it starts `kbench
 * remote-peer N` on node NODE, exchanges WARMUP 1-byte messages with it
 * unbracketed, then N bracketed (SENDMESSAGE, RECEIVEMESSAGE of the
 * answer: pingpong's round trip, docs/mtime.md), region remote_client; the
 * peer brackets its N (RECEIVEMESSAGE, SENDMESSAGE back) as region
 * remote_peer and reports it on its own node's console.  Each prints
 *   kbench profile REGION N clock NS
 * and the client also
 *   kbench remote 1 NS_PER_ROUND_TRIP
 * `kbench remote-send NODE N` is the same one way, so that each side is
 * alone on its node: after the warm-up N SENDs of 1 byte (asynchronous in
 * virtual time, docs/remote.md), region remote_send, to `kbench
 * remote-sink N`, which brackets its N RECEIVEs (region remote_receive)
 * and answers the last; it prints `kbench remote-send 1 NS_PER_MESSAGE`.
 * A 0-byte message ends the peer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "kernel/abi/trace.h"
#include "bench_pair.h"

#define ROUNDS 20000

static uint8_t buf[MSG_MAX], in[MSG_MAX];
static const uint32_t sizes[] = { 0, 64, 1024, 4096 };

/* The profile's markers: each one instruction, a return, kept in data and
 * called through a pointer.  No program executes its data, so on a node
 * where every program is linked at one address an executed PC here can
 * only be kbench's bracket (user pages are executable on both machines;
 * the profile runs under QEMU, which needs no cache maintenance for it). */
#if defined(__i386__)
#define KPROF_RET 0xc3u /* ret */
#elif defined(__arm__)
#define KPROF_RET 0xe12fff1eu /* bx lr */
#endif
#define KPROF_REGION(name) \
	uint32_t kprof_begin_##name __attribute__((aligned(4))) = KPROF_RET; \
	uint32_t kprof_end_##name __attribute__((aligned(4))) = KPROF_RET;
KPROF_REGION(send_receive)
KPROF_REGION(send_receive_4k)
KPROF_REGION(call)
KPROF_REGION(call_4k)
KPROF_REGION(call_rr)
KPROF_REGION(pair_unmetered)
KPROF_REGION(pair_plain)
KPROF_REGION(pair_metered)
KPROF_REGION(remote_client)
KPROF_REGION(remote_peer)
KPROF_REGION(remote_send)
KPROF_REGION(remote_receive)

struct region {
	const char *name;
	uint32_t *begin, *end;
};
static const struct region regions[] = {
	{ "send_receive", &kprof_begin_send_receive, &kprof_end_send_receive },
	{ "send_receive_4k", &kprof_begin_send_receive_4k, &kprof_end_send_receive_4k },
	{ "call", &kprof_begin_call, &kprof_end_call },
	{ "call_4k", &kprof_begin_call_4k, &kprof_end_call_4k },
	{ "call_rr", &kprof_begin_call_rr, &kprof_end_call_rr },
	{ "pair_unmetered", &kprof_begin_pair_unmetered, &kprof_end_pair_unmetered },
	{ "pair_plain", &kprof_begin_pair_plain, &kprof_end_pair_plain },
	{ "pair_metered", &kprof_begin_pair_metered, &kprof_end_pair_metered },
	{ "remote_client", &kprof_begin_remote_client, &kprof_end_remote_client },
	{ "remote_peer", &kprof_begin_remote_peer, &kprof_end_remote_peer },
	{ "remote_send", &kprof_begin_remote_send, &kprof_end_remote_send },
	{ "remote_receive", &kprof_begin_remote_receive, &kprof_end_remote_receive },
};
static int profiling; /* `kbench profile N` */
/* The bracket of the loop being timed, or NULL: a global, so that no
 * register is held for it across the timed loop. */
static const struct region *active;

/* The region to bracket, or NULL (not profiling, or not this loop). */
static const struct region *region_named(const char *name)
{
	for (unsigned i = 0; name && i < sizeof regions / sizeof regions[0]; i++)
		if (!strcmp(regions[i].name, name))
			return &regions[i];
	return NULL;
}

/* The region of loop `name` at `size` bytes: the 0-byte loop is `name`,
 * the 4 KiB one `name`_4k (where there is one), the others none. */
static const char *sized_region(const char *name, uint32_t size)
{
	static char sized[32];
	if (!size)
		return name;
	if (size != MSG_MAX)
		return NULL;
	snprintf(sized, sizeof sized, "%s_4k", name);
	return sized;
}

static void bracket(uint32_t *marker)
{
	((void (*)(void))(uintptr_t)marker)();
}

static void profile_report(const struct region *r, uint32_t iterations, const char *measure, uint64_t ns)
{
	printf("kbench profile %s %u %s %llu\n", r->name, (unsigned)iterations, measure, (unsigned long long)ns);
}

static uint64_t now(void)
{
	uint64_t t = 0;
	node_time(&t, NULL);
	return t;
}

/* Per-op cost of `body`, less the cost of the timing calls themselves;
 * bracketed as region `name` when profiling.  The loop counts down: with
 * `rounds` a variable, that keeps the two-instruction loop of a constant. */
#define MEASURE(result, rounds, name, body) do { \
	active = profiling ? region_named(name) : NULL; \
	uint64_t t0_ = now(); \
	if (active) bracket(active->begin); \
	for (uint32_t i_ = (rounds); i_ > 0; i_--) { body; } \
	if (active) bracket(active->end); \
	uint64_t t1_ = now(); \
	if (active) profile_report(active, (rounds), "clock", t1_ - t0_); \
	result = (double)(t1_ - t0_) / (rounds); \
} while (0)

/* The CALL servers: their link to kbench (link 4), then each request's
 * bytes sent back and the next one received, with SENDMESSAGE and
 * RECEIVEMESSAGE (`serve`, the same loop as before REPLYRECEIVE came, so
 * that its figure stays comparable) or in one REPLYRECEIVE (`serve-rr`). */
static void greet(void)
{
	uint32_t hello = 0;
	int self = createlink(0, NULL, 0, 0);
	sendmessage(4, &hello, sizeof hello, self);
}

static int serve(void)
{
	greet();
	for (;;) {
		struct message m = message_into(in, sizeof in);
		int n = receivemessage(&m);
		if (n < 0 || m.reply < 0)
			return 1;
		sendmessage(m.reply, in, (uint32_t)n, -1);
	}
}

static int serve_rr(void)
{
	greet();
	struct message m = message_into(in, sizeof in);
	int n = receivemessage(&m);
	while (n >= 0 && m.reply >= 0) {
		int reply = m.reply;
		m = message_into(in, sizeof in);
		n = replyreceive(reply, in, (uint32_t)n, -1, &m);
	}
	return 1;
}

/* N send+receive pairs to itself, in rounds of 400 (1600 traces, fewer
 * batches than a queue holds); between rounds it CALLs the parent, which
 * lets the trace sink run and drain.  Reports its own CPU time spent in
 * the rounds to link 4.  Each round is a bracket of `region` (or none). */
static int loop(uint32_t size, uint32_t n, const struct region *r)
{
	active = r;
	int self = createlink(1, NULL, 0, 0);
	uint64_t used = 0, c0, c1;
	uint32_t done;
	for (done = 0; done < n; done += 400) {
		node_time(NULL, &c0);
		if (active)
			bracket(active->begin);
		for (uint32_t i = 0; i < 400; i++) {
			struct message m = message_into(in, sizeof in);
			sendmessage(self, buf, size, -1);
			receivemessage(&m);
		}
		if (active)
			bracket(active->end);
		node_time(NULL, &c1);
		used += c1 - c0;
		uint32_t sync = 0;
		struct message m = message_into(&sync, sizeof sync);
		call(4, &sync, sizeof sync, -1, &m);
	}
	if (r)
		profile_report(r, done, "cpu", used);
	return sendmessage(4, &used, sizeof used, -1) < 0;
}

static int sink(void)
{
	uint32_t hello = 0;
	int self = createlink(0x5111, NULL, 0, 0);
	sendmessage(4, &hello, sizeof hello, self);
	for (;;) {
		struct message m = message_into(in, sizeof in);
		if (receivemessage(&m) == E_BADADDR)
			return 1;
	}
}

/* Start `kbench MODE ARGS` with link 4 back to us; with `first`, its first
 * message (a hello) is received there. */
static int start_child(const char *const argv[], uint32_t flags, int meter, uint32_t *task,
		       void *first, uint32_t first_len, int *passed)
{
	int back = createlink(0, NULL, 0, 0), r;
	if ((r = pm_create(argv, -1, task)) < 0 || (r = pm_givelink(*task, 4, back)) < 0)
		return r;
	destroylink(back);
	if (meter >= 0 && (r = pm_setmeter(*task, flags, meter, 0)) < 0)
		return r;
	if ((r = pm_start(*task)) < 0 || !first)
		return r;
	struct message m = message_into(first, first_len);
	r = receivemessage(&m);
	if (passed)
		*passed = m.passed;
	return r < 0 ? r : 0;
}

/* CPU of a process doing `rounds` pairs (a multiple of 400), metered to
 * `meter` for the events `flags` (or not, meter -1); bracketed as `region`
 * when profiling. */
static double loop_cost(uint32_t size, int meter, uint32_t flags, uint32_t rounds, const char *region)
{
	char sz[12], n[12];
	snprintf(sz, sizeof sz, "%u", (unsigned)size);
	snprintf(n, sizeof n, "%u", (unsigned)rounds);
	const char *argv[] = { "kbench", "loop", sz, n, profiling ? region : NULL, NULL };
	uint32_t task;
	uint64_t used = 0;
	if (start_child(argv, flags, meter, &task, NULL, 0, NULL) < 0)
		return -1;
	for (;;) { /* answer the loop's CALLs between rounds until its result */
		struct message m = message_into(&used, sizeof used);
		int r = receivemessage(&m);
		if (r < 0)
			return -1;
		if (m.reply >= 0)
			sendmessage(m.reply, &used, 4, -1);
		else if (r == (int)sizeof used)
			return (double)used / rounds;
	}
}

static int start_server(const char *mode, uint32_t *task)
{
	const char *argv[] = { "kbench", mode, NULL };
	int back = createlink(0, NULL, 0, 0), r;
	if ((r = pm_create(argv, -1, task)) < 0 || (r = pm_givelink(*task, 4, back)) < 0 ||
	    (r = pm_start(*task)) < 0)
		return r;
	uint32_t hello;
	struct message m = message_into(&hello, sizeof hello);
	r = receivemessage(&m);
	return r < 0 ? r : m.passed;
}

/* The remote ping-pong and stream (above): an unbracketed warm-up of
 * round trips, then N 1-byte messages bracketed on each side. */
#define REMOTE_WARMUP 50

/* The peer: answer the WARMUP first messages with their bytes, then the
 * next N bracketed, answering each (the ping-pong, region remote_peer)
 * or only the last (`oneway`, region remote_receive); a 0-byte message
 * ends it. */
static int remote_peer(uint32_t n, int oneway)
{
	if (bench_peer_greet() < 0)
		return 1;
	const struct region *r = region_named(oneway ? "remote_receive" : "remote_peer");
	uint64_t t0 = 0;
	for (uint32_t i = 0;; i++) {
		if (i == REMOTE_WARMUP) {
			t0 = now();
			bracket(r->begin);
		}
		struct message m = message_into(in, sizeof in);
		int len = receivemessage(&m);
		if (len <= 0)
			return len < 0;
		int last = i == REMOTE_WARMUP + n - 1;
		if (last && oneway) {
			bracket(r->end);
			profile_report(r, n, "clock", now() - t0);
		}
		if ((i < REMOTE_WARMUP || !oneway || last) && sendmessage(BENCH_PEER_PARENT, in, (uint32_t)len, -1) < 0)
			return 1;
		if (last && !oneway) {
			bracket(r->end);
			profile_report(r, n, "clock", now() - t0);
		}
	}
}

/* `kbench remote NODE N` (the ping-pong, region remote_client) or
 * `kbench remote-send NODE N` (`oneway`: N SENDs, region remote_send,
 * then the peer's one answer, unbracketed). */
static int remote(uint32_t node, uint32_t n, int oneway)
{
	char nb[12];
	snprintf(nb, sizeof nb, "%u", (unsigned)n);
	const char *argv[] = { "kbench", oneway ? "remote-sink" : "remote-peer", nb, NULL };
	uint32_t task;
	int link, r;
	if ((r = bench_peer_start(node, argv, -1, &task, &link)) < 0) {
		printf("kbench: cannot start the peer on node %u: %s\n", (unsigned)node, kerror_name(r));
		return 1;
	}
	buf[0] = 0x5a;
	struct message m;
	for (uint32_t i = 0; i < REMOTE_WARMUP; i++) {
		m = message_into(in, sizeof in);
		if (sendmessage(link, buf, 1, -1) < 0 || receivemessage(&m) != 1 || in[0] != 0x5a) {
			printf("kbench: a remote round trip went wrong\n");
			return 1;
		}
	}
	active = region_named(oneway ? "remote_send" : "remote_client");
	uint64_t t0 = now();
	bracket(active->begin);
	if (oneway)
		for (uint32_t i = n; i > 0; i--)
			sendmessage(link, buf, 1, -1);
	else
		for (uint32_t i = n; i > 0; i--) {
			m = message_into(in, sizeof in);
			sendmessage(link, buf, 1, -1);
			receivemessage(&m);
		}
	bracket(active->end);
	uint64_t t1 = now();
	profile_report(active, n, "clock", t1 - t0);
	printf("kbench %s 1 %.1f\n", oneway ? "remote-send" : "remote", (double)(t1 - t0) / n);
	m = message_into(in, sizeof in);
	if (oneway && receivemessage(&m) != 1) {
		printf("kbench: the stream's answer went wrong\n");
		return 1;
	}
	sendmessage(link, buf, 0, -1); /* ends the peer */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 3 && (!strcmp(argv[1], "remote") || !strcmp(argv[1], "remote-send"))) {
		uint32_t n = (uint32_t)atoi(argv[3]);
		return remote((uint32_t)atoi(argv[2]), n ? n : 1, !strcmp(argv[1], "remote-send"));
	}
	if (argc > 2 && (!strcmp(argv[1], "remote-peer") || !strcmp(argv[1], "remote-sink"))) {
		uint32_t n = (uint32_t)atoi(argv[2]);
		return remote_peer(n ? n : 1, !strcmp(argv[1], "remote-sink"));
	}
	if (argc > 1 && !strcmp(argv[1], "serve"))
		return serve();
	if (argc > 1 && !strcmp(argv[1], "serve-rr"))
		return serve_rr();
	if (argc > 1 && !strcmp(argv[1], "sink"))
		return sink();
	if (argc > 3 && !strcmp(argv[1], "loop"))
		return loop((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), region_named(argv[4]));
	uint32_t rounds = ROUNDS, pair_rounds = ROUNDS;
	if (argc > 2 && !strcmp(argv[1], "profile")) {
		profiling = 1;
		rounds = (uint32_t)atoi(argv[2]);
		pair_rounds = (rounds + 399) / 400 * 400;
		if (!rounds) {
			printf("kbench: profile N, N > 0\n");
			return 1;
		}
	}
	double cost, base;
	MEASURE(base, rounds, NULL, (void)0);
	MEASURE(cost, 5 * rounds, NULL, nullcall());
	printf("kbench null 0 %.1f\n", cost - base / 5);

	int self = createlink(1, NULL, 0, 0);
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct message m;
		MEASURE(cost, rounds, sized_region("send_receive", sizes[s]), {
			sendmessage(self, buf, sizes[s], -1);
			m = message_into(in, sizeof in);
			receivemessage(&m);
		});
		printf("kbench send+receive %u %.1f\n", (unsigned)sizes[s], cost - base);
	}

	/* CALL round trips to a server answering with SENDMESSAGE and
	 * RECEIVEMESSAGE (call), then to one answering with REPLYRECEIVE
	 * (call-rr) */
	static const char *const modes[][3] = { { "serve", "call", "call" }, { "serve-rr", "call-rr", "call_rr" } };
	for (unsigned k = 0; k < 2; k++) {
		uint32_t task;
		int server = start_server(modes[k][0], &task);
		if (server < 0) {
			printf("kbench: cannot start the server: %s\n", kerror_name(server));
			return 1;
		}
		for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			struct message m;
			MEASURE(cost, rounds, sized_region(modes[k][2], sizes[s]), {
				m = message_into(in, sizeof in);
				call(server, buf, sizes[s], -1, &m);
			});
			printf("kbench %s %u %.1f\n", modes[k][1], (unsigned)sizes[s], cost - base);
		}
		pm_kill(task);
		destroylink(server);
	}

	/* metering: the same process metered (4 events a pair: SEND, QUEUED,
	 * RECEIVECALL, RECEIVE, batched 32 a message to a sink) and not */
	const char *sink_argv[] = { "kbench", "sink", NULL };
	uint32_t sink_task, hello;
	int sink_link = -1;
	if (start_child(sink_argv, 0, -1, &sink_task, &hello, sizeof hello, &sink_link) < 0 || sink_link < 0) {
		printf("kbench: cannot start the sink\n");
		return 1;
	}
	/* the baseline is the same process metered for an event the pair
	 * never makes (MOVEDATA): a metered process takes the general path
	 * (kernel/fastpath.c takes none), so the difference is the events'
	 * cost, not the fast path's saving; the unmetered pair beside it */
	double unmetered = loop_cost(64, -1, 0, pair_rounds, "pair_unmetered");
	double plain = loop_cost(64, sink_link, METER_FLAG(TRACE_MOVEDATA), pair_rounds, "pair_plain");
	double metered = loop_cost(64, sink_link, METER_FLAGS_ALL & ~METER_FLAG(TRACE_DROPPED), pair_rounds,
				   "pair_metered");
	/* the general path's copies of a whole message (the same baseline) */
	double plain_max = loop_cost(MSG_MAX, sink_link, METER_FLAG(TRACE_MOVEDATA), pair_rounds, NULL);
	printf("kbench pair-unmetered 64 %.1f\n", unmetered);
	printf("kbench pair-metered-none 64 %.1f\n", plain);
	printf("kbench pair-metered-none %u %.1f\n", (unsigned)MSG_MAX, plain_max);
	printf("kbench pair-metered 64 %.1f\n", metered);
	printf("kbench per-metered-event 64 %.1f\n", (metered - plain) / 4);
	pm_kill(sink_task);
	return 0;
}

/*
 * servers/bench/kbench.c - what the kernel calls cost.  Run under QEMU with
 * `-icount shift=0,sleep=off`, the node clock advances one nanosecond per
 * guest instruction, so elapsed node time over N repetitions is the
 * instruction count (the node is otherwise idle; the 100 Hz timer adds a
 * few hundred instructions per 10 million).  Prints one line per figure:
 *   kbench OP SIZE INSTRUCTIONS_PER_OP
 * `kbench serve` is the CALL server it starts for itself; `kbench sink`
 * takes trace batches, `kbench loop SIZE N` is a process whose own CPU
 * time is measured metered and unmetered (the cost of metering).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "kernel/abi/trace.h"

#define ROUNDS 20000

static uint8_t buf[MSG_MAX], in[MSG_MAX];
static const uint32_t sizes[] = { 0, 64, 1024, 4096 };

static uint64_t now(void)
{
	uint64_t t = 0;
	node_time(&t, NULL);
	return t;
}

/* Per-op cost of `body`, less the cost of the timing calls themselves. */
#define MEASURE(result, rounds, body) do { \
	uint64_t t0_ = now(); \
	for (uint32_t i_ = 0; i_ < (rounds); i_++) { body; } \
	uint64_t t1_ = now(); \
	result = (double)(t1_ - t0_) / (rounds); \
} while (0)

static int serve(void)
{
	uint32_t hello = 0;
	int self = createlink(0, NULL, 0, 0);
	sendmessage(4, &hello, sizeof hello, self);
	for (;;) {
		struct message m = message_into(in, sizeof in);
		int n = receivemessage(&m);
		if (n < 0 || m.reply < 0)
			return 1;
		sendmessage(m.reply, in, (uint32_t)n, -1);
	}
}

/* N send+receive pairs to itself, in rounds of 400 (1600 traces, fewer
 * batches than a queue holds); between rounds it CALLs the parent, which
 * lets the trace sink run and drain.  Reports its own CPU time spent in
 * the rounds to link 4. */
static int loop(uint32_t size, uint32_t n)
{
	int self = createlink(1, NULL, 0, 0);
	uint64_t used = 0, c0, c1;
	for (uint32_t done = 0; done < n; done += 400) {
		node_time(NULL, &c0);
		for (uint32_t i = 0; i < 400; i++) {
			struct message m = message_into(in, sizeof in);
			sendmessage(self, buf, size, -1);
			receivemessage(&m);
		}
		node_time(NULL, &c1);
		used += c1 - c0;
		uint32_t sync = 0;
		struct message m = message_into(&sync, sizeof sync);
		call(4, &sync, sizeof sync, -1, &m);
	}
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

/* CPU of a process doing N pairs, metered (all events) or not. */
static double loop_cost(uint32_t size, int meter)
{
	char sz[12], n[12];
	snprintf(sz, sizeof sz, "%u", (unsigned)size);
	snprintf(n, sizeof n, "%u", ROUNDS);
	const char *argv[] = { "kbench", "loop", sz, n, NULL };
	uint32_t task;
	uint64_t used = 0;
	if (start_child(argv, METER_FLAGS_ALL & ~METER_FLAG(TRACE_DROPPED), meter, &task, NULL, 0, NULL) < 0)
		return -1;
	for (;;) { /* answer the loop's CALLs between rounds until its result */
		struct message m = message_into(&used, sizeof used);
		int r = receivemessage(&m);
		if (r < 0)
			return -1;
		if (m.reply >= 0)
			sendmessage(m.reply, &used, 4, -1);
		else if (r == (int)sizeof used)
			return (double)used / ROUNDS;
	}
}

static int start_server(uint32_t *task)
{
	const char *argv[] = { "kbench", "serve", NULL };
	int back = createlink(0, NULL, 0, 0), r;
	if ((r = pm_create(argv, -1, task)) < 0 || (r = pm_givelink(*task, 4, back)) < 0 ||
	    (r = pm_start(*task)) < 0)
		return r;
	uint32_t hello;
	struct message m = message_into(&hello, sizeof hello);
	r = receivemessage(&m);
	return r < 0 ? r : m.passed;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "serve"))
		return serve();
	if (argc > 1 && !strcmp(argv[1], "sink"))
		return sink();
	if (argc > 3 && !strcmp(argv[1], "loop"))
		return loop((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]));
	double cost, base;
	MEASURE(base, ROUNDS, (void)0);
	MEASURE(cost, 5 * ROUNDS, nullcall());
	printf("kbench null 0 %.1f\n", cost - base / 5);

	int self = createlink(1, NULL, 0, 0);
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct message m;
		MEASURE(cost, ROUNDS, {
			sendmessage(self, buf, sizes[s], -1);
			m = message_into(in, sizeof in);
			receivemessage(&m);
		});
		printf("kbench send+receive %u %.1f\n", (unsigned)sizes[s], cost - base);
	}

	uint32_t task;
	int server = start_server(&task);
	if (server < 0) {
		printf("kbench: cannot start the server: %s\n", kerror_name(server));
		return 1;
	}
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct message m;
		MEASURE(cost, ROUNDS, {
			m = message_into(in, sizeof in);
			call(server, buf, sizes[s], -1, &m);
		});
		printf("kbench call %u %.1f\n", (unsigned)sizes[s], cost - base);
	}
	pm_kill(task);

	/* metering: the same process metered (4 events a pair: SEND, QUEUED,
	 * RECEIVECALL, RECEIVE, batched 32 a message to a sink) and not */
	const char *sink_argv[] = { "kbench", "sink", NULL };
	uint32_t sink_task, hello;
	int sink_link = -1;
	if (start_child(sink_argv, 0, -1, &sink_task, &hello, sizeof hello, &sink_link) < 0 || sink_link < 0) {
		printf("kbench: cannot start the sink\n");
		return 1;
	}
	double plain = loop_cost(64, -1), metered = loop_cost(64, sink_link);
	printf("kbench pair-unmetered 64 %.1f\n", plain);
	printf("kbench pair-metered 64 %.1f\n", metered);
	printf("kbench per-metered-event 64 %.1f\n", (metered - plain) / 4);
	pm_kill(sink_task);
	return 0;
}

/*
 * servers/bench/kbench.c - what the kernel calls cost.  Run under QEMU with
 * `-icount shift=0,sleep=off`, the node clock advances one nanosecond per
 * guest instruction, so elapsed node time over N repetitions is the
 * instruction count (the node is otherwise idle; the 100 Hz timer adds a
 * few hundred instructions per 10 million).  Prints one line per figure:
 *   kbench OP SIZE INSTRUCTIONS_PER_OP
 * `kbench serve` is the CALL server it starts for itself.
 */
#include <stdio.h>
#include <string.h>

#include "demos.h"
#include "pm.h"

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
	return 0;
}

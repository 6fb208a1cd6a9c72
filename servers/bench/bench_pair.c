/*
 * servers/bench/bench_pair.c - starting and greeting a benchmark's other
 * half, and the arguments and clock both halves use (bench_pair.h).
 */
#include "bench_pair.h"

#include <stdio.h>
#include <stdlib.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define GREETING 0x9ee7

int bench_peer_start(uint32_t node, const char *const argv[], int notify_link,
		     uint32_t *task, int *peer_link)
{
	int r = pm_create_on(node, argv, notify_link, task);
	if (r < 0)
		return r;
	int back = createlink(GREETING, NULL, 0, 0);
	r = back < 0 ? back : pm_givelink(*task, BENCH_PEER_PARENT, back);
	if (back >= 0)
		destroylink(back);
	if (r >= 0)
		r = pm_start(*task);
	if (r < 0) {
		pm_kill(*task);
		return r;
	}
	uint32_t hello;
	struct message m = message_into(&hello, sizeof hello);
	r = receivemessage(&m);
	if (r < 0)
		return r;
	if (m.code != GREETING || m.passed < 0)
		return E_DEAD; /* its end notice came first */
	*peer_link = m.passed;
	return 0;
}

int bench_peer_greet(void)
{
	uint32_t hello = GREETING;
	int self = createlink(GREETING, NULL, 0, 0);
	if (self < 0)
		return self;
	int r = sendmessage(BENCH_PEER_PARENT, &hello, sizeof hello, self);
	destroylink(self);
	return r;
}

long bench_number(const char *prog, const char *what, const char *text, long min, long max)
{
	char *end;
	long v = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || v < min || v > max) {
		printf("%s: %s must be a whole number from %ld to %ld, not '%s'\n", prog, what,
		       min, max, text);
		return -1;
	}
	return v;
}

uint64_t bench_now(void)
{
	uint64_t t = 0;
	node_time(&t, NULL);
	return t;
}

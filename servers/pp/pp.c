/*
 * servers/pp/pp.c - a small distributed program to meter from the
 * controller (docs/control.md): two processes that find each other by
 * name and play ping-pong, placed on any nodes, plus the odd jobs a
 * controller session needs to show (a filter of standard input, a process
 * that runs until stopped, one that faults).
 *
 *     pp serve NAME COUNT        register NAME, answer COUNT calls (echo)
 *     pp call NAME COUNT [SIZE]  find NAME, make COUNT calls of SIZE bytes
 *     pp cat                     copy standard input to standard output
 *     pp spin MS                 run (compute) for MS ms of its own CPU time
 *     pp fault                   divide by zero
 *
 * Each prints one summary line and exits 0, or 1 when something went
 * wrong, 2 for bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/ns.h"

#define LOOKUP_TRIES 500   /* 10 ms apart: a server started at the same time */
#define WAIT_CODE 0x50505750u

static int usage(void)
{
	printf("usage: pp serve NAME COUNT | pp call NAME COUNT [SIZE] | pp cat | pp spin MS | pp fault\n");
	return 2;
}

static long number(const char *s, long lo, long hi)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : -1;
	return s && *s && !*end && v >= lo && v <= hi ? v : -1;
}

static void sleep_ms(uint32_t ms)
{
	struct kr_alarm a;
	if (alarm_after(ms, WAIT_CODE) < 0)
		return;
	for (;;) {
		struct message m = message_into(&a, sizeof a);
		if (receivemessage(&m) >= 0 && m.code == WAIT_CODE)
			return;
	}
}

static int serve(const char *name, long count)
{
	static uint8_t buf[MSG_MAX];
	int self = createlink(1, NULL, 0, 0);
	int r = self < 0 ? self : ns_register(name, self);
	if (r < 0) {
		printf("pp: cannot register '%s': %s\n", name, kerror_name(r));
		return 1;
	}
	long served = 0;
	while (served < count) {
		struct message m = message_into(buf, sizeof buf);
		int n = receivemessage(&m);
		if (n < 0 || m.reply < 0)
			continue;
		if (sendmessage(m.reply, buf, (uint32_t)n, -1) == 0)
			served++;
	}
	ns_unregister(name);
	printf("pp: served %ld calls as '%s'\n", served, name);
	return 0;
}

static int call_server(const char *name, long count, long size)
{
	static uint8_t out[MSG_MAX], in[MSG_MAX];
	int server = E_NONAME;
	for (int i = 0; i < LOOKUP_TRIES && (server = ns_lookup(name)) == E_NONAME; i++)
		sleep_ms(10);
	if (server < 0) {
		printf("pp: no server '%s': %s\n", name, kerror_name(server));
		return 1;
	}
	for (long i = 0; i < count; i++) {
		for (long k = 0; k < size; k++)
			out[k] = (uint8_t)(i + k);
		struct message m = message_into(in, sizeof in);
		int n = call(server, out, (uint32_t)size, -1, &m);
		if (n != size || memcmp(in, out, (size_t)size)) {
			printf("pp: call %ld to '%s' went wrong: %s\n", i, name, n < 0 ? kerror_name(n) : "bad echo");
			return 1;
		}
	}
	printf("pp: %ld calls of %ld bytes to '%s'\n", count, size, name);
	return 0;
}

static int cat(void)
{
	char buf[512];
	size_t n, total = 0;
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
		fwrite(buf, 1, n, stdout);
		total += n;
	}
	printf("pp: %zu bytes\n", total);
	return 0;
}

static int spin(long ms)
{
	uint64_t now, cpu, start;
	if (node_time(&now, &start) < 0)
		return 1;
	do {
		for (volatile int i = 0; i < 100000; i++)
			;
		node_time(&now, &cpu);
	} while (cpu - start < (uint64_t)ms * 1000000u);
	printf("pp: spun %ld ms\n", ms);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "serve") && argc == 4 && number(argv[3], 1, 10000000) > 0)
		return serve(argv[2], number(argv[3], 1, 10000000));
	if (!strcmp(mode, "call") && (argc == 4 || argc == 5) && number(argv[3], 1, 10000000) > 0) {
		long size = argc == 5 ? number(argv[4], 1, MSG_MAX) : 64;
		return size < 0 ? usage() : call_server(argv[2], number(argv[3], 1, 10000000), size);
	}
	if (!strcmp(mode, "cat") && argc == 2)
		return cat();
	if (!strcmp(mode, "spin") && argc == 3 && number(argv[2], 1, 3600000) > 0)
		return spin(number(argv[2], 1, 3600000));
	if (!strcmp(mode, "fault") && argc == 2) {
		volatile int zero = 0, quotient;
		printf("pp: dividing by zero\n");
		fflush(stdout);
		quotient = 1000 / zero; /* (1 / x is computed without a division) */
		return quotient;
	}
	return usage();
}

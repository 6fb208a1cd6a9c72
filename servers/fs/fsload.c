/*
 * servers/fs/fsload.c - the file system and its test users as one program,
 * so that a node's init can run a whole file-system workload (metered
 * under mrun) without the host controller, whose inputs are not yet in
 * virtual time (docs/virtual-time.md §2.6):
 *   fsload [--ri N] [--dm N] [--bm N] [--di N] --users N,N,... [--size B] [--ops K]
 * runs fsstart with the placement options given, then creates one fsuser
 * per node listed (user i: file /load-ui, seed 100+i; odd users
 * sequential, SIZE bytes; even ones random, SIZE bytes and OPS operations,
 * as the studies' users, qemu/scripts/study_lib.sh), starts them all at
 * once and waits for every one.  The servers are left running.
 * Exit 0 when the file system came up and every user verified its data,
 * 1 otherwise, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define MAX_USERS 16

static int usage(void)
{
	printf("usage: fsload [--ri N] [--dm N] [--bm N] [--di N] --users N,N,... [--size BYTES] [--ops K]\n"
	       "  start the file system (fsstart) and one test user per node listed, wait for them\n");
	return 2;
}

static int number(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *start_argv[10] = { "fsstart" };
	int nstart = 1, nusers = 0;
	long nodes[MAX_USERS], size = 8000, ops = 10;
	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			return usage();
		const char *opt = argv[i], *val = argv[++i];
		if (!strcmp(opt, "--ri") || !strcmp(opt, "--dm") || !strcmp(opt, "--bm") || !strcmp(opt, "--di")) {
			if (nstart + 2 >= (int)(sizeof start_argv / sizeof start_argv[0]))
				return usage();
			start_argv[nstart++] = opt;
			start_argv[nstart++] = val;
		} else if (!strcmp(opt, "--users")) {
			char copy[128];
			snprintf(copy, sizeof copy, "%s", val);
			for (char *w = strtok(copy, ","); w; w = strtok(NULL, ","))
				if (nusers == MAX_USERS || number(w, 0, 255, &nodes[nusers++]) < 0)
					return usage();
		} else if (!strcmp(opt, "--size")) {
			if (number(val, 1, 512 * 1024, &size) < 0)
				return usage();
		} else if (!strcmp(opt, "--ops")) {
			if (number(val, 1, 100000, &ops) < 0)
				return usage();
		} else {
			return usage();
		}
	}
	if (nusers == 0)
		return usage();

	int notify = createlink(1, NULL, 0, 0);
	if (notify < 0)
		return 1;
	uint32_t task;
	struct kr_exit_notice n;
	int r = pm_spawn(start_argv, notify, &task);
	if (r == 0)
		r = pm_wait(task, &n);
	if (r < 0 || n.reason != EXIT_NORMAL || n.status != 0) {
		printf("fsload: the file system did not start: %s\n", r < 0 ? kerror_name(r) : "fsstart failed");
		return 1;
	}

	uint32_t tasks[MAX_USERS];
	char files[MAX_USERS][16], sizes[16], opss[16], seeds[MAX_USERS][16];
	snprintf(sizes, sizeof sizes, "%ld", size);
	snprintf(opss, sizeof opss, "%ld", ops);
	for (int u = 0; u < nusers; u++) {
		snprintf(files[u], sizeof files[u], "/load-u%d", u + 1);
		snprintf(seeds[u], sizeof seeds[u], "%d", 101 + u);
		const char *seq[] = { "fsuser", "seq", files[u], sizes, seeds[u], NULL };
		const char *rnd[] = { "fsuser", "rand", files[u], sizes, opss, seeds[u], NULL };
		r = pm_create_on((uint32_t)nodes[u], u % 2 == 0 ? seq : rnd, notify, &tasks[u]);
		if (r < 0) {
			printf("fsload: user %d on node %ld: %s\n", u + 1, nodes[u], kerror_name(r));
			return 1;
		}
	}
	for (int u = 0; u < nusers; u++)
		if ((r = pm_start(tasks[u])) < 0) {
			printf("fsload: starting user %d: %s\n", u + 1, kerror_name(r));
			return 1;
		}
	int left = nusers, failed = 0;
	while (left > 0) {
		struct message m = message_into(&n, sizeof n);
		r = receivemessage(&m);
		if (r < 0)
			return 1;
		if (r != (int)sizeof n || n.kind != KR_NOTIFY)
			continue;
		for (int u = 0; u < nusers; u++)
			if (tasks[u] == n.task) {
				tasks[u] = 0;
				left--;
				failed += n.reason != EXIT_NORMAL || n.status != 0;
			}
	}
	printf("fsload: %d users, %d verified their data\n", nusers, nusers - failed);
	return failed ? 1 : 0;
}

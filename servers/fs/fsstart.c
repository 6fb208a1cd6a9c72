/*
 * servers/fs/fsstart.c - start the file system: `fsstart [--ri N] [--dm N]
 * [--bm N] [--di N]` creates the four servers on the nodes given (0 or
 * absent: this node) through the process managers, in the order the links
 * need: the Disk Interface first (on the node whose disk it uses), then the
 * Buffer Manager (given the DI), the Directory Manager (given the BM), the
 * Request Interpreter (given the DM and the BM).  Each server reports over
 * a link we gave it and sends a link to itself; the RI's is registered as
 * "fs" in the name service.  The servers run until killed; fsstart ends.
 * Exit 0 when the file system is up, 1 when a server failed, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsproto.h"
#include "servers/lib/ns.h"
#include "servers/lib/pm.h"

#define STARTER_CODE 0x46535354u /* "FSST" */
#define NOTIFY_CODE 0x46534e54u  /* "FSNT" */

enum { DI, BM, DM, RI, NSERVERS };
static const char *const programs[NSERVERS] = { "fs_di", "fs_bm", "fs_dm", "fs_ri" };
static const char *const options[NSERVERS] = { "--di", "--bm", "--dm", "--ri" };

struct server {
	uint32_t node;
	uint32_t task;
	int link;      /* to the server, for requests */
};

static struct server servers[NSERVERS];
static int starter, notify;

static int usage(void)
{
	printf("usage: fsstart [--ri NODE] [--dm NODE] [--bm NODE] [--di NODE]\n"
	       "  start the file system servers on the nodes given (default: this one);\n"
	       "  the Disk Interface uses the disk of its node\n");
	return 2;
}

/* Wait for server s to announce itself (or to end), 30 s at most: a node
 * that is down never answers. */
#define TIMEOUT_CODE 0x54494d00u
static int await(int s)
{
	if (alarm_after(30000, TIMEOUT_CODE + (uint32_t)s) < 0)
		return E_NOSPACE;
	for (;;) {
		int32_t status[8];
		struct message m = message_into(status, sizeof status);
		int r = receivemessage(&m);
		if (r < 0)
			return r;
		if (m.code == TIMEOUT_CODE + (uint32_t)s && (m.from & 0xffff) == 0) {
			printf("fsstart: %s on node %u did not announce itself in 30 s\n", programs[s],
			       (unsigned)servers[s].node);
			return E_NODEDOWN;
		}
		if (m.code == NOTIFY_CODE && r == (int)sizeof(struct kr_exit_notice) &&
		    ((struct kr_exit_notice *)status)->task == servers[s].task)
			return E_DEAD;
		if (m.code != STARTER_CODE || r != (int)sizeof(int32_t)) {
			if (m.passed >= 0)
				destroylink(m.passed);
			continue;
		}
		if (status[0] == 0 && m.passed < 0)
			return FS_EINVAL;
		servers[s].link = m.passed;
		return status[0];
	}
}

static int start(int s)
{
	const char *argv[] = { programs[s], NULL };
	int r = pm_create_on(servers[s].node, argv, notify, &servers[s].task);
	if (r < 0)
		return r;
	if ((r = pm_givelink(servers[s].task, FS_SLOT_STARTER, starter)) < 0)
		return r;
	if (s == BM || s == DM || s == RI) {
		int peer1 = s == BM ? DI : s == DM ? BM : DM;
		if ((r = pm_givelink(servers[s].task, FS_SLOT_PEER1, servers[peer1].link)) < 0)
			return r;
	}
	if (s == RI && (r = pm_givelink(servers[s].task, FS_SLOT_PEER2, servers[BM].link)) < 0)
		return r;
	if ((r = pm_start(servers[s].task)) < 0)
		return r;
	return await(s);
}

static int parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int s = 0;
		while (s < NSERVERS && strcmp(argv[i], options[s]))
			s++;
		char *end;
		if (s == NSERVERS || i + 1 == argc)
			return -1;
		long node = strtol(argv[++i], &end, 10);
		if (*end || end == argv[i] || node < 0 || node > 255)
			return -1;
		servers[s].node = (uint32_t)node;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (parse(argc, argv) < 0)
		return usage();
	starter = createlink(STARTER_CODE, NULL, 0, 0);
	notify = createlink(NOTIFY_CODE, NULL, 0, 0);
	int r = starter < 0 ? starter : notify;
	int s = 0;
	for (; r >= 0 && s < NSERVERS; s++)
		r = start(s);
	if (r >= 0)
		r = ns_register(FS_SERVICE_NAME, servers[RI].link);
	if (r < 0) {
		printf("fsstart: %s%s: %s\n", s ? programs[s - 1] : "setup", s == NSERVERS ? " registration" : "",
		       fs_strerror(r));
		for (int i = 0; i < s; i++)
			if (servers[i].task)
				pm_kill(servers[i].task);
		return 1;
	}
	printf("fsstart: file system up: ri %u.%u dm %u.%u bm %u.%u di %u.%u\n",
	       (unsigned)(servers[RI].task >> 16), (unsigned)(servers[RI].task & 0xffff),
	       (unsigned)(servers[DM].task >> 16), (unsigned)(servers[DM].task & 0xffff),
	       (unsigned)(servers[BM].task >> 16), (unsigned)(servers[BM].task & 0xffff),
	       (unsigned)(servers[DI].task >> 16), (unsigned)(servers[DI].task & 0xffff));
	return 0;
}

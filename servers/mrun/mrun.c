/*
 * servers/mrun/mrun.c - run a program metered:
 *     mrun SERVICE FLAGS PROGRAM ARGS...
 * creates PROGRAM stopped, points its meter link at the host service
 * SERVICE (a `dpm filter` named in the cluster file) with the selection
 * flags FLAGS, starts it, waits for it and exits with its status.  The
 * program's meter link and flags are in place before its first
 * instruction, and every process it creates, on any node, is metered the
 * same way (thesis §4.3.2).  FLAGS: `all`, `none`, or event names joined
 * by commas (SEND,RECEIVE,...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "kernel/abi/trace.h"

static const char *const event_names[] = {
	[TRACE_SEND] = "SEND", [TRACE_RECEIVECALL] = "RECEIVECALL", [TRACE_RECEIVE] = "RECEIVE",
	[TRACE_QUEUED] = "QUEUED", [TRACE_CREATELINK] = "CREATELINK", [TRACE_DESTROYLINK] = "DESTROYLINK",
	[TRACE_MOVEDATA] = "MOVEDATA", [TRACE_CREATEPROCESS] = "CREATEPROCESS",
	[TRACE_TERMPROCESS] = "TERMPROCESS", [TRACE_STARTPROCESS] = "STARTPROCESS",
	[TRACE_STOPPROCESS] = "STOPPROCESS",
};

/* FLAGS as a mask, or -1 with a message. */
static long parse_flags(const char *text)
{
	if (!strcmp(text, "all"))
		return METER_FLAGS_ALL & ~METER_FLAG(TRACE_DROPPED);
	if (!strcmp(text, "none"))
		return 0;
	long mask = 0;
	char copy[256];
	snprintf(copy, sizeof copy, "%s", text);
	for (char *word = strtok(copy, ","); word; word = strtok(NULL, ",")) {
		int found = 0;
		for (int t = 1; t < (int)(sizeof event_names / sizeof event_names[0]); t++) {
			if (event_names[t] && !strcasecmp(word, event_names[t])) {
				mask |= METER_FLAG(t);
				found = 1;
			}
		}
		if (!found) {
			printf("mrun: unknown event '%s'\n", word);
			return -1;
		}
	}
	return mask;
}

static int host_meter_link(const char *service)
{
	uint8_t req[16] = { 0 };
	uint32_t kind = KR_HOSTMETER;
	memcpy(req, &kind, 4);
	size_t n = strlen(service);
	memcpy(req + 4, service, n < 12 ? n : 12);
	struct message m = message_into(NULL, 0);
	int r = call(LINK_CONSOLE, req, sizeof req, -1, &m);
	return r < 0 ? r : m.passed;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		printf("usage: mrun SERVICE FLAGS PROGRAM ARGS...\n");
		return 2;
	}
	long flags = parse_flags(argv[2]);
	if (flags < 0)
		return 2;
	int meter = host_meter_link(argv[1]);
	if (meter < 0) {
		printf("mrun: no host service '%s': %s\n", argv[1], kerror_name(meter));
		return 1;
	}
	int notify = createlink(1, NULL, 0, 0);
	uint32_t task;
	int r = pm_create((const char *const *)argv + 3, notify, &task);
	if (r == 0)
		r = pm_setmeter(task, (uint32_t)flags, meter, 0);
	if (r == 0)
		r = pm_start(task);
	if (r < 0) {
		printf("mrun: cannot run %s: %s\n", argv[3], kerror_name(r));
		return 1;
	}
	struct kr_exit_notice n;
	if (pm_wait(task, &n) < 0)
		return 1;
	if (n.reason != EXIT_NORMAL)
		printf("mrun: %s ended: %s\n", argv[3], exit_reason_name(n.reason));
	return n.reason == EXIT_NORMAL ? (int)n.status : 1;
}

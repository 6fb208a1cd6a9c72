/*
 * qemu/control/control_flags.c - setflags' words: the event names of the Metering
 * issue (kernel/abi/trace.h: SEND, RECEIVE, ...), the DPM paper's names where they
 * mean the same event here (fork, termproc), `all`, and '-' to clear.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "control.h"
#include "kernel/abi/trace.h"

static const struct { const char *name; int type; } events[] = {
	{ "SEND", TRACE_SEND }, { "RECEIVECALL", TRACE_RECEIVECALL },
	{ "RECEIVE", TRACE_RECEIVE }, { "QUEUED", TRACE_QUEUED },
	{ "CREATELINK", TRACE_CREATELINK }, { "DESTROYLINK", TRACE_DESTROYLINK },
	{ "MOVEDATA", TRACE_MOVEDATA }, { "CREATEPROCESS", TRACE_CREATEPROCESS },
	{ "TERMPROCESS", TRACE_TERMPROCESS }, { "STARTPROCESS", TRACE_STARTPROCESS },
	{ "STOPPROCESS", TRACE_STOPPROCESS },
	/* the DPM paper's names for the same events */
	{ "fork", TRACE_CREATEPROCESS }, { "termproc", TRACE_TERMPROCESS },
	{ "socket", TRACE_CREATELINK }, { "destsocket", TRACE_DESTROYLINK },
};

#define ALL_EVENTS (METER_FLAGS_ALL & ~METER_FLAG(TRACE_DROPPED))

int control_flag_apply(const char *word, uint32_t *mask)
{
	int clear = word[0] == '-';
	const char *name = word + clear;
	uint32_t bits = 0;
	if (!strcasecmp(name, "all"))
		bits = ALL_EVENTS;
	for (size_t i = 0; !bits && i < sizeof events / sizeof events[0]; i++)
		if (!strcasecmp(name, events[i].name))
			bits = METER_FLAG(events[i].type);
	if (!bits)
		return -1;
	*mask = clear ? *mask & ~bits : *mask | bits;
	return 0;
}

void control_flags_format(uint32_t mask, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int t = 1; t <= TRACE_STOPPROCESS; t++) {
		if (!(mask & METER_FLAG(t)))
			continue;
		const char *name = events[t - 1].name; /* the first rows are in type order */
		int n = snprintf(out + used, size - used, "%s%s", used ? " " : "", name);
		if (n < 0 || (size_t)n >= size - used)
			return;
		used += (size_t)n;
	}
	if (!used)
		snprintf(out, size, "none");
}

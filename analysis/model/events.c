/*
 * analysis/model/events.c - the event and process tables shared by the analyses
 * (see events.h), and the format-independent parts of loading.
 */
#include "events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const type_names[TRACE_TYPE_MAX + 1] = {
	[TRACE_SEND] = "SEND",
	[TRACE_RECEIVECALL] = "RECEIVECALL",
	[TRACE_RECEIVE] = "RECEIVE",
	[TRACE_QUEUED] = "QUEUED",
	[TRACE_CREATELINK] = "CREATELINK",
	[TRACE_DESTROYLINK] = "DESTROYLINK",
	[TRACE_MOVEDATA] = "MOVEDATA",
	[TRACE_CREATEPROCESS] = "CREATEPROCESS",
	[TRACE_TERMPROCESS] = "TERMPROCESS",
	[TRACE_STARTPROCESS] = "STARTPROCESS",
	[TRACE_STOPPROCESS] = "STOPPROCESS",
	[TRACE_DROPPED] = "DROPPED",
	[TRACE_MARK] = "MARK",
};

unsigned event_type_by_name(const char *name)
{
	for (unsigned i = 1; i <= TRACE_TYPE_MAX; i++)
		if (!strcasecmp(name, type_names[i]))
			return i;
	return 0;
}

const char *event_type_name(unsigned type)
{
	return type >= 1 && type <= TRACE_TYPE_MAX ? type_names[type] : "?";
}

int event_is_process_step(unsigned type)
{
	return type != TRACE_QUEUED && type != TRACE_DROPPED;
}

void trace_init(struct trace *t, const char *path)
{
	memset(t, 0, sizeof *t);
	t->path = path;
	hashmap_init(&t->proc_by_id, 64);
}

void trace_free(struct trace *t)
{
	for (size_t p = 0; p < t->nproc; p++)
		free(t->proc[p].name);
	free(t->ev);
	free(t->proc);
	hashmap_free(&t->proc_by_id);
	memset(t, 0, sizeof *t);
}

static int grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 1024;
	while (ncap < need)
		ncap *= 2;
	void *n = realloc(*arr, ncap * elem);
	if (!n)
		return -1;
	*arr = n;
	*cap = ncap;
	return 0;
}

uint32_t trace_process(struct trace *t, uint32_t id)
{
	/* A small direct-mapped cache in front of the hash: a trace names
	 * few processes, each on millions of rows. */
	struct proc_cache *c = &t->cache[(id ^ (id >> 16)) % TRACE_PROC_CACHE];
	if (c->valid && c->id == id)
		return c->proc;
	uint32_t p = hashmap_get(&t->proc_by_id, id);
	if (p != HASHMAP_NONE) {
		*c = (struct proc_cache){ id, p, 1 };
		return p;
	}
	if (grow_array((void **)&t->proc, &t->proccap, t->nproc + 1, sizeof *t->proc) < 0)
		return NO_PROC;
	p = (uint32_t)t->nproc;
	if (hashmap_put(&t->proc_by_id, id, p) < 0)
		return NO_PROC;
	t->proc[p] = (struct process){ .id = id, .machine = TASK_NODE(id), .traced = 0 };
	t->nproc++;
	return p;
}

struct event *trace_add(struct trace *t, const struct event *e)
{
	if (grow_array((void **)&t->ev, &t->evcap, t->nev + 1, sizeof *t->ev) < 0)
		return NULL;
	struct process *p = &t->proc[e->task];
	if (!p->traced) {
		p->traced = 1;
		p->machine = e->machine;
	}
	t->ev[t->nev] = *e;
	return &t->ev[t->nev++];
}

struct machine_span {
	uint32_t machine;
	uint64_t first, last;
};

/* The longest span of one machine's events, each on its own clock. */
static double longest_machine_span(const struct trace *t)
{
	struct machine_span m[64];
	size_t nm = 0;
	uint64_t span = 0;
	for (size_t i = 0; i < t->nev; i++) {
		const struct event *e = &t->ev[i];
		size_t k = 0;
		while (k < nm && m[k].machine != e->machine)
			k++;
		if (k == nm) {
			if (nm == sizeof m / sizeof m[0])
				continue;
			m[nm++] = (struct machine_span){ e->machine, e->time, e->time };
		}
		if (e->time < m[k].first)
			m[k].first = e->time;
		if (e->time > m[k].last)
			m[k].last = e->time;
		if (m[k].last - m[k].first > span)
			span = m[k].last - m[k].first;
	}
	return (double)span;
}

double trace_elapsed(const struct trace *t, int one_clock)
{
	if (!one_clock)
		return longest_machine_span(t);
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t i = 0; i < t->nev; i++) {
		first = t->ev[i].time < first ? t->ev[i].time : first;
		last = t->ev[i].time > last ? t->ev[i].time : last;
	}
	return t->nev ? (double)(last - first) : 0;
}

const char *process_name(const struct trace *t, uint32_t p, char *buf, size_t len)
{
	if (p == NO_PROC || p >= t->nproc)
		snprintf(buf, len, "-");
	else if (t->proc[p].name)
		snprintf(buf, len, "%s", t->proc[p].name);
	else
		snprintf(buf, len, "%u.%u", TASK_NODE(t->proc[p].id), TASK_PID(t->proc[p].id));
	return buf;
}

int parse_task(const char *s, uint32_t *id)
{
	while (*s == ' ')
		s++;
	if (*s == '\0')
		return 0;
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long node = strtoul(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -1;
	unsigned long pid = strtoul(end + 1, &end, 10);
	while (*end == ' ')
		end++;
	if (*end != '\0' || node > 0xffff || pid > 0xffff)
		return -1;
	*id = TASK_MAKE(node, pid);
	return 1;
}

uint32_t trace_named_process(const struct trace *t, const char *who, const char *ctx,
			     char *err, size_t errlen)
{
	uint32_t id;
	if (parse_task(who, &id) <= 0) {
		snprintf(err, errlen, "%s: '%s' is not a process (want node.pid)", ctx, who);
		return NO_PROC;
	}
	uint32_t p = hashmap_get(&t->proc_by_id, id);
	if (p == HASHMAP_NONE) {
		snprintf(err, errlen, "%s: process %s is not in the trace", ctx, who);
		return NO_PROC;
	}
	return p;
}

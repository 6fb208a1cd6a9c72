/*
 * analysis/model/graph.c - building the computation graph (see graph.h):
 * grouping events by process, ordering each process, matching messages by
 * msg_id and adding external-wait arcs.
 */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct event *sort_events;

static int by_process_order(const void *a, const void *b)
{
	const struct event *x = &sort_events[*(const uint32_t *)a];
	const struct event *y = &sort_events[*(const uint32_t *)b];
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int in_order(const uint32_t *idx, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_process_order(&idx[i - 1], &idx[i]) > 0)
			return 0;
	return 1;
}

static int alloc_arrays(struct cgraph *g, size_t nproc, size_t n)
{
	g->node_ev = malloc(n * sizeof *g->node_ev + 1);
	g->node_proc = malloc(n * sizeof *g->node_proc + 1);
	g->first = calloc(nproc + 1, sizeof *g->first);
	g->cross = malloc(n * sizeof *g->cross + 1);
	g->succ = malloc(n * sizeof *g->succ + 1);
	g->kind = calloc(n + 1, 1);
	if (!g->node_ev || !g->node_proc || !g->first || !g->cross || !g->succ || !g->kind)
		return -1;
	memset(g->cross, 0xff, n * sizeof *g->cross);
	memset(g->succ, 0xff, n * sizeof *g->succ);
	return 0;
}

/* Counting sort of the process steps by task, then each process in order.
 * The fill pointers are one per process: a trace may name more processes
 * than it has steps (one seen only as a destination). */
static int group_by_process(struct cgraph *g)
{
	const struct trace *t = g->tr;
	for (size_t i = 0; i < t->nev; i++)
		if (event_is_process_step(t->ev[i].type))
			g->first[t->ev[i].task + 1]++;
	for (size_t p = 0; p < t->nproc; p++)
		g->first[p + 1] += g->first[p];
	uint32_t *fill = malloc(t->nproc * sizeof *fill + 1);
	if (!fill)
		return -1;
	memcpy(fill, g->first, t->nproc * sizeof *fill);
	for (size_t i = 0; i < t->nev; i++)
		if (event_is_process_step(t->ev[i].type)) {
			uint32_t p = t->ev[i].task;
			g->node_ev[fill[p]] = (uint32_t)i;
			g->node_proc[fill[p]++] = p;
		}
	free(fill);
	sort_events = t->ev;
	for (size_t p = 0; p < t->nproc; p++) {
		uint32_t *idx = g->node_ev + g->first[p];
		size_t n = g->first[p + 1] - g->first[p];
		if (!in_order(idx, n))
			qsort(idx, n, sizeof *idx, by_process_order);
	}
	return 0;
}

static int check_cpu_monotonic(const struct cgraph *g, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < g->nnodes; k++) {
		if (cgraph_is_first(g, k) || cgraph_event(g, k)->cpu >= cgraph_event(g, k - 1)->cpu)
			continue;
		char name[32];
		snprintf(err, errlen, "%s:%u: cpu_ns of process %s goes back from %llu (line %u) to %llu",
			 g->tr->path, cgraph_event(g, k)->line,
			 process_name(g->tr, g->node_proc[k], name, sizeof name),
			 (unsigned long long)cgraph_event(g, k - 1)->cpu, cgraph_event(g, k - 1)->line,
			 (unsigned long long)cgraph_event(g, k)->cpu);
		return -1;
	}
	return 0;
}

/* Each message's SEND by msg_id.  The trace has passed trace_check (one
 * SEND and one RECEIVE per message, received by its addressee), so the
 * matching below needs no checks of its own. */
static int index_sends(const struct cgraph *g, struct hashmap *sends, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < g->nnodes; k++) {
		const struct event *e = cgraph_event(g, k);
		if (e->type == TRACE_SEND && (e->flags & EV_MSG_ID) && hashmap_put(sends, e->msg_id, k) < 0) {
			snprintf(err, errlen, "%s: out of memory", g->tr->path);
			return -1;
		}
	}
	return 0;
}

static int link_message(struct cgraph *g, uint32_t s, uint32_t r)
{
	if (g->succ[s] != NO_NODE) /* unreachable after trace_check: no second arc */
		return 0;
	g->succ[s] = r;
	g->cross[r] = s;
	g->kind[r] = CROSS_MESSAGE;
	g->nmessages++;
	return 0;
}

static int match_messages(struct cgraph *g, char *err, size_t errlen)
{
	struct hashmap sends;
	if (hashmap_init(&sends, g->nnodes / 2 + 16) < 0) {
		snprintf(err, errlen, "%s: out of memory", g->tr->path);
		return -1;
	}
	int rc = index_sends(g, &sends, err, errlen);
	for (uint32_t k = 0; rc == 0 && k < g->nnodes; k++) {
		const struct event *e = cgraph_event(g, k);
		if (e->type != TRACE_RECEIVE || !(e->flags & EV_MSG_ID))
			continue;
		uint32_t s = hashmap_get(&sends, e->msg_id);
		if (s != HASHMAP_NONE)
			rc = link_message(g, s, k);
	}
	hashmap_free(&sends);
	return rc;
}

static int untraced(const struct trace *t, uint32_t p)
{
	return p != NO_PROC && !t->proc[p].traced;
}

/* Walk each process in order pairing a SEND to an untraced process with
 * the next RECEIVE from it (TR 574 Fig. 3.3). */
static int add_external_arcs(struct cgraph *g, char *err, size_t errlen)
{
	const struct trace *t = g->tr;
	struct hashmap pending;
	if (hashmap_init(&pending, 64) < 0)
		goto nomem;
	for (uint32_t k = 0; k < g->nnodes; k++) {
		const struct event *e = cgraph_event(g, k);
		uint64_t key;
		if (e->type == TRACE_SEND && untraced(t, e->dst)) {
			key = (uint64_t)e->task << 32 | e->dst;
			if (hashmap_put(&pending, key, k) < 0)
				goto nomem;
		} else if (e->type == TRACE_RECEIVE && g->kind[k] == CROSS_NONE) {
			if (!untraced(t, e->src)) {
				g->unmatched_receives++;
				continue;
			}
			key = (uint64_t)e->task << 32 | e->src;
			uint32_t s = hashmap_get(&pending, key);
			if (s == HASHMAP_NONE)
				continue;
			hashmap_remove(&pending, key);
			g->cross[k] = s;
			g->kind[k] = CROSS_EXTERNAL;
			g->nexternal++;
		}
	}
	hashmap_free(&pending);
	return 0;
nomem:
	hashmap_free(&pending);
	snprintf(err, errlen, "%s: out of memory", t->path);
	return -1;
}

int cgraph_build(struct cgraph *g, const struct trace *t, char *err, size_t errlen)
{
	memset(g, 0, sizeof *g);
	g->tr = t;
	for (size_t i = 0; i < t->nev; i++)
		g->nnodes += event_is_process_step(t->ev[i].type);
	for (size_t p = 0; p < t->nproc; p++)
		g->untraced += !t->proc[p].traced;
	if (alloc_arrays(g, t->nproc, g->nnodes) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -1;
	}
	if (group_by_process(g) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -1;
	}
	if (check_cpu_monotonic(g, err, errlen) < 0 || match_messages(g, err, errlen) < 0 ||
	    add_external_arcs(g, err, errlen) < 0)
		return -1;
	return 0;
}

void cgraph_free(struct cgraph *g)
{
	free(g->node_ev);
	free(g->node_proc);
	free(g->first);
	free(g->cross);
	free(g->succ);
	free(g->kind);
	memset(g, 0, sizeof *g);
}

uint64_t cgraph_tproc(const struct cgraph *g, uint32_t p)
{
	uint32_t a = g->first[p], b = g->first[p + 1];
	if (a == b)
		return 0;
	return cgraph_event(g, b - 1)->cpu - cgraph_event(g, a)->cpu;
}

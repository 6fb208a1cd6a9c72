/*
 * analysis/model/trace_check.c - the checks of trace_check.h: one pass over
 * the events for their references into the process table, then the
 * messages: each SEND mapped by msg_id, each RECEIVE matched to it.
 */
#include "trace_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "hashmap.h"

static int bad_ref(const struct trace *t, uint32_t p)
{
	return p != NO_PROC && p >= t->nproc;
}

static int check_refs(const struct trace *t, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->nev; i++) {
		const struct event *e = &t->ev[i];
		if (e->type == 0 || e->type > TRACE_TYPE_MAX) {
			snprintf(err, errlen, "%s:%u: event type %u is not a trace type", t->path, e->line,
				 (unsigned)e->type);
			return -1;
		}
		if (e->task >= t->nproc || bad_ref(t, e->src) || bad_ref(t, e->dst)) {
			snprintf(err, errlen, "%s:%u: the event names a process outside the trace's %zu",
				 t->path, e->line, t->nproc);
			return -1;
		}
	}
	return 0;
}

/* Map each message's SEND by msg_id; a second SEND is an error. */
static int index_sends(const struct trace *t, struct hashmap *sends, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->nev; i++) {
		const struct event *e = &t->ev[i];
		if (e->type != TRACE_SEND || !(e->flags & EV_MSG_ID))
			continue;
		uint32_t old = hashmap_get(sends, e->msg_id);
		if (old != HASHMAP_NONE) {
			snprintf(err, errlen, "%s:%u: msg_id 0x%llx was already sent at line %u", t->path,
				 e->line, (unsigned long long)e->msg_id, t->ev[old].line);
			return -1;
		}
		if (hashmap_put(sends, e->msg_id, (uint32_t)i) < 0) {
			snprintf(err, errlen, "%s: out of memory", t->path);
			return -1;
		}
	}
	return 0;
}

/* Each RECEIVE of a message whose SEND is in the trace: by its addressee,
 * and once (receiver[s]: the RECEIVE that took SEND s, + 1).  A RECEIVE
 * whose SEND lies outside the trace (a window cut by dpm record) links to
 * nothing and is left alone. */
static int check_receives(const struct trace *t, const struct hashmap *sends, uint32_t *receiver,
			  char *err, size_t errlen)
{
	for (size_t i = 0; i < t->nev; i++) {
		const struct event *re = &t->ev[i];
		if (re->type != TRACE_RECEIVE || !(re->flags & EV_MSG_ID))
			continue;
		uint32_t s = hashmap_get(sends, re->msg_id);
		if (s == HASHMAP_NONE)
			continue;
		if (receiver[s]) {
			snprintf(err, errlen, "%s:%u: msg_id 0x%llx was already received at line %u", t->path,
				 re->line, (unsigned long long)re->msg_id, t->ev[receiver[s] - 1].line);
			return -1;
		}
		receiver[s] = (uint32_t)i + 1;
		if (t->ev[s].dst == NO_PROC || t->ev[s].dst == re->task)
			continue;
		char a[32], b[32];
		snprintf(err, errlen, "%s:%u: msg_id 0x%llx was sent to %s (line %u) but received by %s",
			 t->path, re->line, (unsigned long long)re->msg_id,
			 process_name(t, t->ev[s].dst, a, sizeof a), t->ev[s].line,
			 process_name(t, re->task, b, sizeof b));
		return -1;
	}
	return 0;
}

int trace_check(const struct trace *t, char *err, size_t errlen)
{
	if (t->nev >= HASHMAP_NONE - 1) {
		snprintf(err, errlen, "%s: %zu events, more than an analysis can index", t->path, t->nev);
		return -1;
	}
	if (check_refs(t, err, errlen) < 0)
		return -1;
	struct hashmap sends = { 0 };
	uint32_t *receiver = calloc(t->nev + 1, sizeof *receiver);
	int rc = 0;
	if (!receiver || hashmap_init(&sends, t->nev / 4 + 16) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		rc = -1;
	}
	if (rc == 0)
		rc = index_sends(t, &sends, err, errlen);
	if (rc == 0)
		rc = check_receives(t, &sends, receiver, err, errlen);
	hashmap_free(&sends);
	free(receiver);
	return rc;
}

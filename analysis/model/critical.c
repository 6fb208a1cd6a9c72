/*
 * analysis/model/critical.c - the interaction network, INMON's backward walk
 * and the states of each step (see critical.h and docs/critical.md).
 *
 * The walk (thesis 004 Fig. 5-2): from the last vertex, step to the
 * predecessor joined by a non-B-edge.  The only joins in a DPM trace are
 * RECEIVEs of a traced message: the process's edge into it (the process
 * asked to receive at r) and the message's edge (it was queued at a).  The
 * later of the two is the non-B-edge: a > r, the process waited and the
 * message is followed; a <= r, the message waited in the queue (a B-edge)
 * and the process is followed.  A naive walk that always jumps to the
 * sender goes wrong exactly in the second case (tests/unit/test_critical.c).
 */
#include "critical.h"
#include "ptiming.h"
#include "kernel/abi/calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cstate_name[CS_COUNT] = {
	"running", "ready", "in_flight", "queued", "blocked_receive", "blocked_call",
	"external", "kernel",
};

uint64_t cstates_total(const struct cstates *s)
{
	uint64_t t = 0;
	for (int i = 0; i < CS_COUNT; i++)
		t += s->ns[i];
	return t;
}

void cstates_add(struct cstates *into, const struct cstates *s)
{
	for (int i = 0; i < CS_COUNT; i++)
		into->ns[i] += s->ns[i];
}

/* ---- the network ----------------------------------------------------------- */

static const struct event *ev(const struct cnet *n, uint32_t k)
{
	return cgraph_event(&n->g, k);
}

static int fail(char *err, size_t errlen, const char *fmt_path, const char *msg)
{
	snprintf(err, errlen, "%s: %s", fmt_path, msg);
	return -1;
}

/* The QUEUED of each received message, by msg_id; checked against its
 * SEND and RECEIVE on the one clock. */
static int find_queued(struct cnet *n, char *err, size_t errlen)
{
	const struct trace *t = n->g.tr;
	struct hashmap recv;
	if (hashmap_init(&recv, n->g.nnodes / 3 + 16) < 0)
		return fail(err, errlen, t->path, "out of memory");
	int rc = 0;
	for (uint32_t k = 0; k < n->g.nnodes && rc == 0; k++) {
		const struct event *e = ev(n, k);
		if (e->type == TRACE_RECEIVE && (e->flags & EV_MSG_ID))
			rc = hashmap_put(&recv, e->msg_id, k);
	}
	for (size_t i = 0; i < t->nev && rc == 0; i++) {
		const struct event *q = &t->ev[i];
		if (q->type != TRACE_QUEUED || !(q->flags & EV_MSG_ID))
			continue;
		uint32_t k = hashmap_get(&recv, q->msg_id);
		if (k == HASHMAP_NONE || n->queued[k] != NO_NODE)
			continue;
		const struct event *r = ev(n, k);
		if (q->time > r->time) {
			snprintf(err, errlen,
				 "%s:%u: msg_id 0x%llx queued at %llu ns, after its RECEIVE at %llu ns "
				 "(line %u)", t->path, q->line, (unsigned long long)q->msg_id,
				 (unsigned long long)q->time, (unsigned long long)r->time, r->line);
			rc = 1;
			break;
		}
		uint32_t s = n->g.kind[k] == CROSS_MESSAGE ? n->g.cross[k] : NO_NODE;
		if (s != NO_NODE && q->time < ev(n, s)->time) {
			snprintf(err, errlen,
				 "%s:%u: msg_id 0x%llx queued at %llu ns, before its SEND at %llu ns "
				 "(line %u): dpm critical compares times across nodes and needs one "
				 "clock (a run in virtual time)", t->path, q->line,
				 (unsigned long long)q->msg_id, (unsigned long long)q->time,
				 (unsigned long long)ev(n, s)->time, ev(n, s)->line);
			rc = 1;
			break;
		}
		n->queued[k] = (uint32_t)i;
	}
	hashmap_free(&recv);
	if (rc < 0)
		return fail(err, errlen, t->path, "out of memory");
	return rc ? -1 : 0;
}

static int check_messages(const struct cnet *n, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < n->g.nnodes; k++) {
		if (n->g.kind[k] != CROSS_MESSAGE)
			continue;
		const struct event *r = ev(n, k), *s = ev(n, n->g.cross[k]);
		if (r->time >= s->time)
			continue;
		snprintf(err, errlen,
			 "%s:%u: msg_id 0x%llx received at %llu ns, before its SEND at %llu ns "
			 "(line %u): dpm critical compares times across nodes and needs one clock "
			 "(a run in virtual time)", n->g.tr->path, r->line,
			 (unsigned long long)r->msg_id, (unsigned long long)r->time,
			 (unsigned long long)s->time, s->line);
		return -1;
	}
	return 0;
}

static void find_forks(struct cnet *n)
{
	const struct cgraph *g = &n->g;
	for (uint32_t k = 0; k < g->nnodes; k++) {
		const struct event *e = ev(n, k);
		if (e->type != TRACE_CREATEPROCESS || e->dst == NO_PROC || e->dst == e->task)
			continue;
		uint32_t c = e->dst;
		if (g->first[c] == g->first[c + 1] || n->fork[c] != NO_NODE)
			continue;
		if (e->time <= ev(n, g->first[c])->time)
			n->fork[c] = k;
	}
}

uint32_t cnet_call_of(const struct cnet *n, uint32_t k);
uint64_t cnet_arrived_at(const struct cnet *n, uint32_t k);

/* A child's end and its parent, for the exit notices. */
struct ending {
	uint32_t parent, term;
	uint64_t time;
};

static int by_parent_time(const void *a, const void *b)
{
	const struct ending *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->term < y->term ? -1 : x->term > y->term;
}

/* Exit notices (INMON: "a parent process waiting for one of its children
 * to terminate"): the children's ends reach a DPM parent as messages from
 * the untraced manager of the child's node; not a child killed (below).
 * In each parent's order, a
 * RECEIVE from an untraced process on a child's node that is not the reply
 * to the parent's own request, arriving after the earliest unannounced
 * end of a child there, is that end's notice. */
static int find_exits(struct cnet *n)
{
	const struct cgraph *g = &n->g;
	const struct trace *t = g->tr;
	struct ending *e = malloc((t->nproc + 1) * sizeof *e);
	if (!e)
		return -1;
	size_t ne = 0;
	for (size_t c = 0; c < t->nproc; c++) {
		uint32_t f = n->fork[c], last = g->first[c + 1] - 1;
		/* a child killed ended when its killer (through the untraced
		 * manager) chose, not when its own work did: no edge from it,
		 * the parent's wait is external (tsp's watchers, blocked in a
		 * CALL until the controller ends them, were its critical path) */
		if (f == NO_NODE || ev(n, last)->type != TRACE_TERMPROCESS ||
		    ev(n, last)->reason == EXIT_KILLED)
			continue;
		e[ne++] = (struct ending){ g->node_proc[f], last, cnet_time(n, last) };
	}
	qsort(e, ne, sizeof *e, by_parent_time);
	for (size_t i = 0; i < ne;) {
		size_t j = i;
		while (j < ne && e[j].parent == e[i].parent)
			j++;
		uint32_t p = e[i].parent;
		for (uint32_t k = g->first[p]; k < g->first[p + 1]; k++) {
			const struct event *r = ev(n, k);
			if (r->type != TRACE_RECEIVE || r->src == NO_PROC || t->proc[r->src].traced ||
			    g->kind[k] == CROSS_MESSAGE || cnet_call_of(n, k) != NO_NODE)
				continue;
			uint64_t a = cnet_arrived_at(n, k);
			for (size_t x = i; x < j; x++)
				if (e[x].term != NO_NODE && e[x].time <= a &&
				    ev(n, e[x].term)->machine == TASK_NODE(t->proc[r->src].id)) {
					n->exit_of[k] = e[x].term;
					e[x].term = NO_NODE;
					break;
				}
		}
		i = j;
	}
	free(e);
	return 0;
}

/* The SENDs that are requests: in each process's order, a RECEIVE from X
 * that is not the reply to a request makes a reply to X owed, and the next
 * SEND to X pays it; any other SEND is a request. */
static int find_requests(struct cnet *n)
{
	struct hashmap owed;
	if (hashmap_init(&owed, 256) < 0)
		return -1;
	for (uint32_t k = 0; k < n->g.nnodes; k++) {
		const struct event *e = ev(n, k);
		uint64_t key;
		if (e->type == TRACE_SEND && e->dst != NO_PROC) {
			key = (uint64_t)e->task << 32 | e->dst;
			uint32_t c = hashmap_get(&owed, key);
			if (c == HASHMAP_NONE) {
				n->request[k] = 1;
			} else if (c > 1) {
				if (hashmap_put(&owed, key, c - 1) < 0)
					goto nomem;
			} else {
				hashmap_remove(&owed, key);
			}
		} else if (e->type == TRACE_RECEIVE && e->src != NO_PROC &&
			   cnet_call_of(n, k) == NO_NODE) {
			key = (uint64_t)e->task << 32 | e->src;
			uint32_t c = hashmap_get(&owed, key);
			if (hashmap_put(&owed, key, c == HASHMAP_NONE ? 1 : c + 1) < 0)
				goto nomem;
		}
	}
	hashmap_free(&owed);
	return 0;
nomem:
	hashmap_free(&owed);
	return -1;
}

/* The successors a vertex has besides its process's next and its
 * message's RECEIVE, by its node: a CREATEPROCESS's child's first vertex
 * (key node), a child's TERMPROCESS's exit notice (key node | 1 << 32). */
static int other_successors(const struct cnet *n, struct hashmap *next)
{
	if (hashmap_init(next, 64) < 0)
		return -1;
	for (size_t p = 0; p < n->g.tr->nproc; p++)
		if (n->fork[p] != NO_NODE && hashmap_put(next, n->fork[p], n->g.first[p]) < 0)
			return -1;
	for (uint32_t k = 0; k < n->g.nnodes; k++)
		if (n->exit_of[k] != NO_NODE &&
		    hashmap_put(next, (uint64_t)n->exit_of[k] | 1ull << 32, k) < 0)
			return -1;
	return 0;
}

/* The vertices in a topological order into order; how many could be
 * ordered (fewer than all: a cycle), or -1 out of memory. */
static long topo_order(const struct cnet *n, uint32_t *order)
{
	const struct cgraph *g = &n->g;
	size_t nn = g->nnodes, head = 0, tail = 0;
	uint8_t *indeg = calloc(nn + 1, 1);
	struct hashmap kids;
	memset(&kids, 0, sizeof kids);
	if (!indeg || other_successors(n, &kids) < 0) {
		free(indeg);
		hashmap_free(&kids);
		return -1;
	}
	for (uint32_t k = 0; k < nn; k++) {
		uint32_t p = g->node_proc[k];
		indeg[k] = (uint8_t)(!cgraph_is_first(g, k) + (g->kind[k] == CROSS_MESSAGE) +
				     (cgraph_is_first(g, k) && n->fork[p] != NO_NODE) +
				     (n->exit_of[k] != NO_NODE));
		if (!indeg[k])
			order[tail++] = k;
	}
	while (head < tail) {
		uint32_t k = order[head++];
		uint32_t next[4] = { NO_NODE, NO_NODE, NO_NODE, NO_NODE };
		if (k + 1 < nn && !cgraph_is_first(g, k + 1))
			next[0] = k + 1;
		if (g->succ[k] != NO_NODE && g->kind[g->succ[k]] == CROSS_MESSAGE)
			next[1] = g->succ[k];
		uint32_t kid = hashmap_get(&kids, k);
		if (kid != HASHMAP_NONE)
			next[2] = kid;
		uint32_t notice = hashmap_get(&kids, (uint64_t)k | 1ull << 32);
		if (notice != HASHMAP_NONE)
			next[3] = notice;
		for (int i = 0; i < 4; i++)
			if (next[i] != NO_NODE && --indeg[next[i]] == 0)
				order[tail++] = next[i];
	}
	free(indeg);
	hashmap_free(&kids);
	return (long)tail;
}

/* Every vertex in a topological order, or the place of a cycle: messages
 * at one instant that wait for each other, which no run can make. */
static int order_vertices(struct cnet *n, char *err, size_t errlen)
{
	size_t nn = n->g.nnodes;
	n->order = malloc((nn + 1) * sizeof *n->order);
	long got = n->order ? topo_order(n, n->order) : -1;
	if (got < 0)
		return fail(err, errlen, n->g.tr->path, "out of memory");
	if ((size_t)got == nn)
		return 0;
	uint8_t *seen = calloc(nn + 1, 1);
	if (!seen)
		return fail(err, errlen, n->g.tr->path, "out of memory");
	for (long i = 0; i < got; i++)
		seen[n->order[i]] = 1;
	uint32_t k = 0;
	while (seen[k])
		k++;
	free(seen);
	snprintf(err, errlen, "%s:%u: the messages of the trace make a cycle through this event "
		 "(events at one time waiting for each other)", n->g.tr->path, ev(n, k)->line);
	return -1;
}

int cnet_build(struct cnet *n, const struct trace *t, char *err, size_t errlen)
{
	memset(n, 0, sizeof *n);
	if (t->nev == 0)
		return fail(err, errlen, t->path, "the trace has no events");
	if (cgraph_build(&n->g, t, err, errlen) < 0)
		return -1;
	if (n->g.nnodes == 0)
		return fail(err, errlen, t->path, "the trace has no events of a process");
	n->queued = malloc(n->g.nnodes * sizeof *n->queued);
	n->fork = malloc((t->nproc + 1) * sizeof *n->fork);
	n->request = calloc(n->g.nnodes + 1, 1);
	n->exit_of = malloc((n->g.nnodes + 1) * sizeof *n->exit_of);
	if (!n->queued || !n->fork || !n->request || !n->exit_of)
		return fail(err, errlen, t->path, "out of memory");
	memset(n->queued, 0xff, n->g.nnodes * sizeof *n->queued);
	memset(n->fork, 0xff, (t->nproc + 1) * sizeof *n->fork);
	memset(n->exit_of, 0xff, (n->g.nnodes + 1) * sizeof *n->exit_of);
	if (check_messages(n, err, errlen) < 0 || find_queued(n, err, errlen) < 0)
		return -1;
	find_forks(n);
	if (find_requests(n) < 0 || find_exits(n) < 0)
		return fail(err, errlen, t->path, "out of memory");
	if (order_vertices(n, err, errlen) < 0)
		return -1;
	n->t0 = UINT64_MAX;
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].time < n->t0)
			n->t0 = t->ev[i].time;
	n->last = 0;
	for (uint32_t k = 1; k < n->g.nnodes; k++) {
		uint64_t a = cnet_time(n, k), b = cnet_time(n, n->last);
		if (a > b || (a == b && n->g.node_ev[k] > n->g.node_ev[n->last]))
			n->last = k;
	}
	return 0;
}

void cnet_free(struct cnet *n)
{
	cgraph_free(&n->g);
	free(n->queued);
	free(n->fork);
	free(n->request);
	free(n->exit_of);
	free(n->order);
	memset(n, 0, sizeof *n);
}

/* ---- times at a vertex --------------------------------------------------------- */

static int is_first(const struct cnet *n, uint32_t k)
{
	return cgraph_is_first(&n->g, k);
}

/* Elapsed and CPU time of stretch k-1 -> k (CPU at most the elapsed). */
static uint64_t stretch_elapsed(const struct cnet *n, uint32_t k)
{
	return is_first(n, k) ? 0 : cnet_time(n, k) - cnet_time(n, k - 1);
}

uint64_t cnet_stretch_cpu(const struct cnet *n, uint32_t k)
{
	uint64_t c = n->wc ? n->wc[k] : cgraph_proc_arc(&n->g, k), e = stretch_elapsed(n, k);
	return c < e ? c : e;
}

/* When the process at RECEIVE k asked for it: its RECEIVECALL, else (a
 * trace without RECEIVECALLs) the previous event plus the CPU used since. */
uint64_t cnet_asked_at(const struct cnet *n, uint32_t k)
{
	if (is_first(n, k))
		return cnet_time(n, k);
	if (ev(n, k - 1)->type == TRACE_RECEIVECALL)
		return cnet_time(n, k - 1);
	return cnet_time(n, k - 1) + cnet_stretch_cpu(n, k);
}

/* When the message of RECEIVE k reached its receiver: its QUEUED; without
 * one, its SEND if it was matched (for choosing the edge) else the RECEIVE. */
uint64_t cnet_arrived_at(const struct cnet *n, uint32_t k)
{
	if (n->wq)
		return n->wq[k];
	if (n->queued[k] != NO_NODE)
		return n->g.tr->ev[n->queued[k]].time;
	if (n->g.kind[k] == CROSS_MESSAGE)
		return cnet_time(n, n->g.cross[k]);
	return cnet_time(n, k);
}

static int untraced(const struct trace *t, uint32_t p)
{
	return p != NO_PROC && !t->proc[p].traced;
}

uint32_t cnet_call_of(const struct cnet *n, uint32_t k)
{
	const struct event *e = ev(n, k);
	if (e->type != TRACE_RECEIVE || e->src == NO_PROC || is_first(n, k))
		return NO_NODE;
	uint32_t j = k - 1;
	if (ev(n, j)->type == TRACE_RECEIVECALL) {
		if (is_first(n, j))
			return NO_NODE;
		j--;
	}
	const struct event *s = ev(n, j);
	return s->type == TRACE_SEND && s->dst == e->src && n->request[j] ? j : NO_NODE;
}

/* What a process waiting at RECEIVE k was waiting for. */
static enum cstate wait_kind(const struct cnet *n, uint32_t k)
{
	const struct trace *t = n->g.tr;
	uint32_t src = ev(n, k)->src;
	if (n->exit_of[k] != NO_NODE)
		return CS_BLOCKED_RECEIVE; /* for a child's end */
	if (untraced(t, src))
		return CS_EXTERNAL; /* node.0 too: a disk or host request, not kernel CPU */
	return cnet_call_of(n, k) != NO_NODE ? CS_BLOCKED_CALL : CS_BLOCKED_RECEIVE;
}

uint32_t cnet_movedata_trips(const struct cnet *n, uint32_t k)
{
	const struct event *e = ev(n, k);
	const struct trace *t = n->g.tr;
	if (e->type != TRACE_MOVEDATA || !(e->flags & EV_LENGTH))
		return 0;
	uint32_t sides = (e->src != NO_PROC && t->proc[e->src].machine != e->machine) +
			 (e->dst != NO_PROC && t->proc[e->dst].machine != e->machine);
	return sides * ((e->length + MOVEDATA_CHUNK_BYTES - 1) / MOVEDATA_CHUNK_BYTES);
}

void cstretch_states(const struct cnet *n, uint32_t k, struct cstates *out)
{
	memset(out, 0, sizeof *out);
	if (is_first(n, k))
		return;
	uint64_t e = stretch_elapsed(n, k), c = cnet_stretch_cpu(n, k), wait = 0;
	out->ns[CS_RUNNING] = c;
	if (ev(n, k)->type == TRACE_RECEIVE) {
		uint64_t r = cnet_asked_at(n, k), a = cnet_arrived_at(n, k);
		wait = a > r ? a - r : 0;
		if (wait > e - c)
			wait = e - c;
		out->ns[wait_kind(n, k)] += wait;
	} else if (cnet_movedata_trips(n, k)) {
		wait = e - c; /* its round trips to the other node */
		out->ns[CS_FLIGHT] += wait;
	} else if (ev(n, k)->type == TRACE_TERMPROCESS && ev(n, k - 1)->type == TRACE_RECEIVECALL) {
		/* ended while it waited at RECEIVE (killed): blocked, not ready */
		wait = e - c;
		uint32_t s = k - 1;
		int call = !is_first(n, s) && ev(n, s - 1)->type == TRACE_SEND && n->request[s - 1];
		out->ns[call ? CS_BLOCKED_CALL : CS_BLOCKED_RECEIVE] += wait;
	}
	out->ns[CS_READY] += e - c - wait;
}

uint64_t cnet_queued_wait(const struct cnet *n, uint32_t k)
{
	if (ev(n, k)->type != TRACE_RECEIVE || n->queued[k] == NO_NODE)
		return 0;
	uint64_t r = cnet_asked_at(n, k), a = cnet_arrived_at(n, k);
	return r > a ? r - a : 0;
}

/* ---- the walk ------------------------------------------------------------------ */

void cpath_free(struct cpath *p)
{
	free(p->steps);
	memset(p, 0, sizeof *p);
}

static int push(struct cpath *p, uint32_t head, uint32_t kind)
{
	if (p->nsteps == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct cstep *s = realloc(p->steps, cap * sizeof *s);
		if (!s)
			return -1;
		p->steps = s;
		p->cap = cap;
	}
	p->steps[p->nsteps++] = (struct cstep){ head, kind };
	return 0;
}

uint32_t cstep_tail(const struct cnet *n, const struct cstep *s)
{
	switch (s->kind) {
	case STEP_PROCESS: return s->head - 1;
	case STEP_FORK: return n->fork[n->g.node_proc[s->head]];
	case STEP_EXIT: return n->exit_of[s->head];
	default: return n->g.cross[s->head];
	}
}

/* One step back from k; NO_NODE when k has no predecessor.  begin/tmin:
 * a request walk's SEND and its time (NO_NODE for the job's walk). */
static uint32_t step_back(const struct cnet *n, uint32_t k, uint32_t begin, uint64_t tmin,
			  uint32_t *kind)
{
	const struct cgraph *g = &n->g;
	if (ev(n, k)->type == TRACE_RECEIVE && g->kind[k] == CROSS_MESSAGE) {
		uint32_t s = g->cross[k];
		if (is_first(n, k) || cnet_arrived_at(n, k) > cnet_asked_at(n, k)) {
			*kind = STEP_MESSAGE;
			return s;
		}
		if (begin != NO_NODE && cnet_time(n, s) >= tmin) {
			*kind = STEP_QUEUED;
			return s;
		}
	}
	if (n->exit_of[k] != NO_NODE && (is_first(n, k) || cnet_arrived_at(n, k) > cnet_asked_at(n, k))) {
		*kind = STEP_EXIT;
		return n->exit_of[k];
	}
	if (!is_first(n, k)) {
		*kind = STEP_PROCESS;
		return k - 1;
	}
	uint32_t f = n->fork[g->node_proc[k]];
	*kind = STEP_FORK;
	return f;
}

static int walk(const struct cnet *n, uint32_t end, uint32_t begin, struct cpath *p)
{
	memset(p, 0, sizeof *p);
	uint64_t tmin = begin != NO_NODE ? cnet_time(n, begin) : 0;
	uint32_t cur = end, kind;
	for (;;) {
		if (begin != NO_NODE && (cur == begin || cnet_time(n, cur) <= tmin))
			break;
		uint32_t prev = step_back(n, cur, begin, tmin, &kind);
		if (prev == NO_NODE)
			break;
		if (push(p, cur, kind) < 0)
			return -1;
		if (p->nsteps > n->g.nnodes)
			return -2; /* only a trace whose messages make a cycle */
		cur = prev;
	}
	for (size_t i = 0, j = p->nsteps; i + 1 < j; i++, j--) {
		struct cstep x = p->steps[i];
		p->steps[i] = p->steps[j - 1];
		p->steps[j - 1] = x;
	}
	p->start = cur;
	p->end = end;
	if (begin != NO_NODE && cnet_time(n, cur) < tmin)
		p->clip_ns = tmin - cnet_time(n, cur);
	return 0;
}

int critical_walk(const struct cnet *n, struct cpath *p, char *err, size_t errlen)
{
	int rc = walk(n, n->last, NO_NODE, p);
	if (rc == -1)
		snprintf(err, errlen, "%s: out of memory", n->g.tr->path);
	else if (rc == -2)
		snprintf(err, errlen, "%s:%u: the messages of the trace make a cycle through this "
			 "event", n->g.tr->path, ev(n, p->steps[p->nsteps - 1].head)->line);
	return rc < 0 ? -1 : 0;
}

int critical_walk_request(const struct cnet *n, uint32_t begin, uint32_t end, struct cpath *p)
{
	return walk(n, end, begin, p) < 0 ? -1 : 0;
}

/* ---- the states of a step -------------------------------------------------------- */

/* Remove ns from the front of a step whose states happen in `order`. */
static void cut_in_order(struct cstates *s, const int *order, int norder, uint64_t ns)
{
	for (int i = 0; i < norder && ns; i++) {
		uint64_t take = s->ns[order[i]] < ns ? s->ns[order[i]] : ns;
		s->ns[order[i]] -= take;
		ns -= take;
	}
}

/* Remove ns from a process stretch, whose states' order is not known:
 * in proportion, the rounding taken from the largest. */
static void cut_in_proportion(struct cstates *s, uint64_t ns)
{
	uint64_t total = cstates_total(s), left = total > ns ? total - ns : 0, kept = 0;
	int big = 0;
	for (int i = 0; i < CS_COUNT; i++) {
		s->ns[i] = total ? (uint64_t)((double)s->ns[i] * (double)left / (double)total) : 0;
		kept += s->ns[i];
		if (s->ns[i] > s->ns[big])
			big = i;
	}
	if (kept < left)
		s->ns[big] += left - kept;
	else if (kept > left)
		s->ns[big] -= kept - left;
}

/* The receiving side of a message step: from `from` to RECEIVE k, the
 * receiver running (its CPU in the stretch, at most that) then ready. */
static void delivery(const struct cnet *n, uint32_t k, uint64_t from, struct cstates *s)
{
	uint64_t d = cnet_time(n, k) - from, c = cnet_stretch_cpu(n, k);
	if (c > d)
		c = d;
	s->ns[CS_RUNNING] += c;
	s->ns[CS_READY] += d - c;
}

void cstep_states(const struct cnet *n, const struct cpath *p, size_t i, struct cstates *out)
{
	const struct cstep *st = &p->steps[i];
	uint32_t k = st->head, tail = cstep_tail(n, st);
	memset(out, 0, sizeof *out);
	if (st->kind == STEP_PROCESS) {
		cstretch_states(n, k, out);
		if (i == 0 && p->clip_ns)
			cut_in_proportion(out, p->clip_ns);
		return;
	}
	if (st->kind == STEP_FORK) {
		out->ns[CS_KERNEL] = cnet_time(n, k) - cnet_time(n, tail);
	} else if (st->kind == STEP_EXIT) {
		/* the end relayed by the untraced manager, then the delivery */
		uint64_t a = cnet_arrived_at(n, k);
		out->ns[CS_EXTERNAL] = a - cnet_time(n, tail);
		delivery(n, k, a, out);
	} else {
		/* SEND -> QUEUED: in the kernel on one machine, else in flight */
		int local = ev(n, tail)->machine == ev(n, k)->machine;
		uint64_t ts = cnet_time(n, tail);
		uint64_t a = n->queued[k] == NO_NODE ? cnet_time(n, k)
			   : n->wq ? n->wq[k] : n->g.tr->ev[n->queued[k]].time;
		out->ns[local ? CS_KERNEL : CS_FLIGHT] = a - ts;
		uint64_t from = a;
		if (st->kind == STEP_QUEUED) {
			uint64_t r = cnet_asked_at(n, k);
			r = r < a ? a : r > cnet_time(n, k) ? cnet_time(n, k) : r;
			out->ns[CS_QUEUED] = r - a;
			from = r;
		}
		delivery(n, k, from, out);
	}
	if (i == 0 && p->clip_ns) {
		static const int order[] = { CS_KERNEL, CS_EXTERNAL, CS_FLIGHT, CS_QUEUED, CS_RUNNING,
					     CS_READY };
		cut_in_order(out, order, 6, p->clip_ns);
	}
}

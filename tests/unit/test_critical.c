/*
 * tests/unit/test_critical.c - `dpm critical`: the critical path and its
 * states on hand-made traces with paths computed by hand (a CALL across two
 * nodes, a B-edge where the naive walk that always jumps to the sender goes
 * wrong, a fork, a wait on the kernel), random executions against an
 * independent longest path (INMON's Theorem 5: with B-edges weighted zero the
 * critical path is a longest path), and the command's errors and JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/model/critical_svg.h"
#include "kernel/abi/calls.h"
#include "test_analysis_trace.h"

int critical_main(int argc, char **argv);

struct walked {
	struct cnet n;
	struct cpath p;
	struct cstates s;
};

static void path_states(const struct cnet *n, const struct cpath *p, struct cstates *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < p->nsteps; i++) {
		struct cstates s;
		cstep_states(n, p, i, &s);
		cstates_add(out, &s);
	}
}

static void walk_trace(struct trace *t, struct walked *w)
{
	char err[256];
	memset(w, 0, sizeof *w);
	assert_int_equal(cnet_build(&w->n, t, err, sizeof err), 0);
	assert_int_equal(critical_walk(&w->n, &w->p, err, sizeof err), 0);
	path_states(&w->n, &w->p, &w->s);
}

static void walked_free(struct walked *w)
{
	cpath_free(&w->p);
	cnet_free(&w->n);
}

static void expect_states(const struct cstates *s, uint64_t running, uint64_t ready,
			  uint64_t flight, uint64_t kernel, uint64_t other)
{
	assert_int_equal(s->ns[CS_RUNNING], running);
	assert_int_equal(s->ns[CS_READY], ready);
	assert_int_equal(s->ns[CS_FLIGHT], flight);
	assert_int_equal(s->ns[CS_KERNEL], kernel);
	assert_int_equal(cstates_total(s), running + ready + flight + kernel + other);
}

/* The trace of call_across_nodes; returns B. */
static uint32_t call_trace(struct trace *tr, const char *name)
{
	trace_init(tr, name);
	uint32_t a = tp(tr, 1, 1), b = tp(tr, 2, 1);
	t_step(tr, b, TRACE_RECEIVECALL, 0, 0);
	t_send(tr, a, b, 100, 0, 1, 8);
	t_step(tr, a, TRACE_RECEIVECALL, 110, 10);
	t_queued(tr, b, a, 130, 1, 8, 1);
	t_recv(tr, b, a, 150, 5, 1, 8);
	t_send(tr, b, a, 350, 185, 2, 8);
	t_queued(tr, a, b, 380, 2, 8, 1);
	t_recv(tr, a, b, 400, 20, 2, 8);
	return b;
}

/* A (1.1) CALLs B (2.1), which was waiting: the path is A's SEND, the
 * request in flight, B's work, the reply in flight, A's delivery. */
static void call_across_nodes(void **state)
{
	(void)state;
	struct trace t;
	uint32_t b = call_trace(&t, "call.csv");
	struct walked w;
	walk_trace(&t, &w);
	/* A delivery 380-400 (cpu 10: 10 running, 10 ready), reply flight 30;
	 * B 150-350 (cpu 180, ready 20); B delivery 130-150 (cpu 5, ready 15),
	 * request flight 30. */
	expect_states(&w.s, 195, 45, 60, 0, 0);
	assert_int_equal(w.p.nsteps, 3);
	assert_int_equal(w.p.steps[0].kind, STEP_MESSAGE);
	assert_int_equal(w.p.steps[1].kind, STEP_PROCESS);
	assert_int_equal(w.p.steps[2].kind, STEP_MESSAGE);
	assert_int_equal(cnet_time(&w.n, w.p.start), 100);
	assert_int_equal(cnet_time(&w.n, w.p.start) - w.n.t0, 100); /* B waited before A began */
	/* the CALL is a request; its walk gives the same 300 ns */
	uint32_t reply = w.p.end, send = cnet_call_of(&w.n, reply);
	assert_int_equal(send, w.p.start);
	struct cpath q;
	assert_int_equal(critical_walk_request(&w.n, send, reply, &q), 0);
	struct cstates rs;
	path_states(&w.n, &q, &rs);
	expect_states(&rs, 195, 45, 60, 0, 0);
	/* B's whole life: waiting 0-130 for A's request (blocked in RECEIVE) */
	struct cstates life = { { 0 } };
	for (uint32_t k = w.n.g.first[b]; k < w.n.g.first[b + 1]; k++) {
		struct cstates s;
		cstretch_states(&w.n, k, &s);
		cstates_add(&life, &s);
	}
	assert_int_equal(life.ns[CS_BLOCKED_RECEIVE], 130);
	assert_int_equal(cstates_total(&life), 350);
	/* slack: B's RECEIVECALL could have been at 130, A's at 380; the rest
	 * is on the path */
	uint64_t slack[8];
	assert_int_equal(cnet_slack(&w.n, slack), 0);
	for (uint32_t k = 0; k < w.n.g.nnodes; k++) {
		const struct event *e = cgraph_event(&w.n.g, k);
		uint64_t want = e->type != TRACE_RECEIVECALL ? 0 : e->task == b ? 130 : 270;
		assert_int_equal(slack[k], want);
	}
	cpath_free(&q);
	walked_free(&w);
	trace_free(&t);
}

/* What if B ran 5 times faster, or messages took 100 ns: the same network
 * re-timed by hand.  B's delivery CPU 5 -> 1, its work 180 -> 36: B receives
 * at 130 + 15 + 1 = 146, replies at 146 + 20 + 36 = 202, A receives at
 * 202 + 30 + 20 = 252. */
static void what_if_call(void **state)
{
	(void)state;
	struct trace t;
	uint32_t b = call_trace(&t, "whatif.csv");
	struct walked m;
	walk_trace(&t, &m);
	double speed[2] = { 1, 1 };
	speed[b] = 5;
	char err[128];
	struct cnet w;
	assert_int_equal(cnet_whatif(&m.n, &(struct cwhatif){ speed, -1, 0, NULL }, &w, err, sizeof err), 0);
	assert_int_equal(cnet_time(&w, w.last), 252);
	struct cpath p;
	assert_int_equal(critical_walk(&w, &p, err, sizeof err), 0);
	struct cstates s;
	path_states(&w, &p, &s);
	expect_states(&s, 47, 45, 60, 0, 0);
	cpath_free(&p);
	cnet_whatif_free(&w);
	/* 100 ns per remote message: 300 + 2 * 70 */
	speed[b] = 1;
	assert_int_equal(cnet_whatif(&m.n, &(struct cwhatif){ speed, 100, 0, NULL }, &w, err, sizeof err), 0);
	assert_int_equal(cnet_time(&w, w.last), 540);
	cnet_whatif_free(&w);
	/* 70 ns more per remote message: the same */
	assert_int_equal(cnet_whatif(&m.n, &(struct cwhatif){ speed, -1, 70, NULL }, &w, err, sizeof err), 0);
	assert_int_equal(cnet_time(&w, w.last), 540);
	cnet_whatif_free(&w);
	/* 40 ns less: each flight 30 -> 0 */
	assert_int_equal(cnet_whatif(&m.n, &(struct cwhatif){ speed, -1, -40, NULL }, &w, err, sizeof err), 0);
	assert_int_equal(cnet_time(&w, w.last), 340);
	cnet_whatif_free(&w);
	walked_free(&m);
	trace_free(&t);
}

/* A MOVEDATA of 5000 bytes from an area on node 2: two page chunks, each a
 * round trip; its stretch is in flight, and 50 ns more latency makes it
 * 4 x 50 ns longer.  A wait on the disk (1.0) made 30 ns shorter. */
static void movedata_and_waits(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "move.csv");
	uint32_t a = tp(&t, 1, 1), far = tp(&t, 2, 1), disk = tp(&t, 1, 0);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	size_t m = t_step(&t, a, TRACE_MOVEDATA, 1000, 100);
	t.ev[m].src = far;
	t.ev[m].dst = a;
	t.ev[m].length = 5000;
	t.ev[m].flags = EV_LENGTH;
	t_send(&t, a, disk, 1010, 110, 0, 4);
	t_step(&t, a, TRACE_RECEIVECALL, 1020, 120);
	t_queued(&t, a, disk, 1100, 9, 4, 1);
	t_recv(&t, a, disk, 1110, 125, 9, 4);
	struct walked w;
	walk_trace(&t, &w);
	assert_int_equal(cnet_movedata_trips(&w.n, w.n.g.first[a] + 1), 2);
	/* 0-1000: running 100, in flight 900; 1000-1010 running 10; 1010-1020
	 * running 10; 1020-1110: running 5, external 80 (1020-1100), ready 5 */
	expect_states(&w.s, 125, 5, 900, 0, 80);
	assert_int_equal(w.s.ns[CS_EXTERNAL], 80);
	double speed[3] = { 1, 1, 1 };
	int64_t wait[3] = { 0, 0, 0 };
	wait[disk] = -30;
	struct cnet x;
	char err[128];
	assert_int_equal(cnet_whatif(&w.n, &(struct cwhatif){ speed, -1, 50, wait }, &x, err,
				     sizeof err), 0);
	assert_int_equal(cnet_time(&x, x.last), 1110 + 200 - 30);
	cnet_whatif_free(&x);
	walked_free(&w);
	trace_free(&t);
}

/* A parent P (1.1) that starts at 0 and creates a child C (2.1) at 10,
 * which starts at 50; node 2's manager is 2.9.  Into p, c, pm. */
static void parent_and_child(struct trace *t, const char *name, uint32_t *p, uint32_t *c,
			     uint32_t *pm)
{
	trace_init(t, name);
	*p = tp(t, 1, 1), *c = tp(t, 2, 1), *pm = tp(t, 2, 9);
	t_step(t, *p, TRACE_STARTPROCESS, 0, 0);
	size_t cr = t_step(t, *p, TRACE_CREATEPROCESS, 10, 10);
	t->ev[cr].src = *p;
	t->ev[cr].dst = *c;
}

/* P (1.1) creates C (2.1) and waits for its end, which the untraced
 * manager of node 2 (2.9) announces: the path runs through C's life. */
static void exit_notice(void **state)
{
	(void)state;
	struct trace t;
	uint32_t p, c, pm;
	parent_and_child(&t, "exit.csv", &p, &c, &pm);
	t_step(&t, p, TRACE_RECEIVECALL, 20, 12);
	t_step(&t, c, TRACE_STARTPROCESS, 50, 0);
	t_step(&t, c, TRACE_TERMPROCESS, 500, 400);
	t_queued(&t, p, pm, 520, 5, 8, 1);
	t_recv(&t, p, pm, 530, 15, 5, 8);
	struct walked w;
	walk_trace(&t, &w);
	assert_int_equal(w.p.steps[w.p.nsteps - 1].kind, STEP_EXIT);
	assert_int_equal(w.p.start, w.n.g.first[p]);
	/* P 0-10 running 10; created 10-50 kernel 40; C running 400 ready 50;
	 * relayed 500-520 external 20; delivered 520-530 running 3 ready 7 */
	expect_states(&w.s, 413, 57, 0, 40, 20);
	assert_int_equal(w.s.ns[CS_EXTERNAL], 20);
	/* the wait in P's own life was for a traced process's end */
	struct cstates life;
	cstretch_states(&w.n, w.n.g.first[p] + 3, &life);
	assert_int_equal(life.ns[CS_BLOCKED_RECEIVE], 500);
	/* 100 ns more latency: the relay crosses nodes */
	double speed[3] = { 1, 1, 1 };
	struct cnet x;
	char err[128];
	assert_int_equal(cnet_whatif(&w.n, &(struct cwhatif){ speed, -1, 100, NULL }, &x, err,
				     sizeof err), 0);
	assert_int_equal(cnet_time(&x, x.last), 630);
	cnet_whatif_free(&x);
	walked_free(&w);
	trace_free(&t);
}

/* A child killed while it waited for a reply (tsp's watchers, ended by
 * the controller): its end was the killer's doing, so the parent's notice
 * is an external wait and the path stays on the parent; the child's own
 * wait is blocked_call, not ready (it was the TSP study's whole path, 98 %
 * "ready", before). */
static void killed_child(void **state)
{
	(void)state;
	struct trace t;
	uint32_t p, c, pm;
	parent_and_child(&t, "killed.csv", &p, &c, &pm);
	uint32_t srv = tp(&t, 2, 2);
	t_step(&t, srv, TRACE_RECEIVECALL, 5, 0);
	t_step(&t, c, TRACE_STARTPROCESS, 50, 0);
	t_send(&t, c, srv, 60, 10, 1, 8);      /* a CALL the server never answers */
	t_step(&t, c, TRACE_RECEIVECALL, 60, 10);
	t_queued(&t, srv, c, 70, 1, 8, 1);
	t_recv(&t, srv, c, 80, 3, 1, 8);
	t_step(&t, p, TRACE_RECEIVECALL, 300, 250); /* the parent works, then waits */
	size_t end = t_step(&t, c, TRACE_TERMPROCESS, 500, 10);
	t.ev[end].reason = EXIT_KILLED;
	t_queued(&t, p, pm, 520, 5, 8, 1);
	t_recv(&t, p, pm, 530, 255, 5, 8);
	struct walked w;
	walk_trace(&t, &w);
	for (size_t i = 0; i < w.p.nsteps; i++)
		assert_int_not_equal(w.p.steps[i].kind, STEP_EXIT);
	assert_int_equal(w.p.start, w.n.g.first[p]);
	/* P 0-10 running 10; 10-300 running 240 ready 50; 300-520 waiting for
	 * the untraced manager (external 220), 520-530 running 5 ready 5 */
	expect_states(&w.s, 255, 55, 0, 0, 220);
	assert_int_equal(w.s.ns[CS_EXTERNAL], 220);
	struct cstates life;
	cstretch_states(&w.n, w.n.g.first[c] + 3, &life); /* RECEIVECALL at 60 to the kill */
	assert_int_equal(life.ns[CS_BLOCKED_CALL], 440);
	assert_int_equal(life.ns[CS_READY], 0);
	walked_free(&w);
	trace_free(&t);
	/* the same child ended on its own: its end is the notice's edge */
	parent_and_child(&t, "ended.csv", &p, &c, &pm);
	t_step(&t, c, TRACE_STARTPROCESS, 50, 0);
	t_step(&t, p, TRACE_RECEIVECALL, 300, 250);
	t_step(&t, c, TRACE_TERMPROCESS, 500, 10);
	t_queued(&t, p, pm, 520, 5, 8, 1);
	t_recv(&t, p, pm, 530, 255, 5, 8);
	walk_trace(&t, &w);
	assert_int_equal(w.p.steps[w.p.nsteps - 1].kind, STEP_EXIT);
	walked_free(&w);
	trace_free(&t);
}

/* The naive walk: at every RECEIVE of a matched message jump to the SEND;
 * its length with B-edges (the queued wait) weighted zero. */
static uint64_t naive_length(const struct cnet *n)
{
	uint64_t len = 0;
	uint32_t k = n->last;
	for (;;) {
		if (n->g.kind[k] == CROSS_MESSAGE) {
			uint32_t s = n->g.cross[k];
			uint64_t a = n->g.tr->ev[n->queued[k]].time;
			len += a - cnet_time(n, s); /* the queued wait is the B-edge */
			k = s;
		} else if (!cgraph_is_first(&n->g, k)) {
			len += cnet_time(n, k) - cnet_time(n, k - 1);
			k--;
		} else {
			return len;
		}
	}
}

/* A (1.1) sends to B (1.2) early; B computes 500 ns before it asks.  The
 * message waits in B's queue (a B-edge): the path is all of B. */
static void b_edge_queued_message(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "bedge.csv");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 1, 2);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, b, TRACE_STARTPROCESS, 0, 0);
	t_send(&t, a, b, 10, 10, 1, 4);
	t_queued(&t, b, a, 12, 1, 4, 1);
	t_step(&t, a, TRACE_TERMPROCESS, 20, 20);
	t_step(&t, b, TRACE_RECEIVECALL, 500, 450);
	t_recv(&t, b, a, 510, 455, 1, 4);
	t_step(&t, b, TRACE_TERMPROCESS, 600, 545);
	struct walked w;
	walk_trace(&t, &w);
	expect_states(&w.s, 545, 55, 0, 0, 0);
	for (size_t i = 0; i < w.p.nsteps; i++) {
		assert_int_equal(w.p.steps[i].kind, STEP_PROCESS);
		assert_int_equal(cstep_process(&w.n, &w.p.steps[i]), b);
	}
	assert_int_equal(cstates_total(&w.s), 600);
	/* the naive walk crosses to A and misses most of the response time */
	assert_int_equal(naive_length(&w.n), 102);
	/* the message waited 488 ns in B's queue: A's SEND could have been
	 * 488 ns later, its end 580 ns (the run's end) */
	assert_int_equal(cnet_queued_wait(&w.n, w.n.g.first[b] + 2), 488);
	uint64_t slack[8];
	assert_int_equal(cnet_slack(&w.n, slack), 0);
	assert_int_equal(slack[w.n.g.first[a]], 488);
	assert_int_equal(slack[w.n.g.first[a] + 1], 488);
	assert_int_equal(slack[w.n.g.first[a] + 2], 580);
	for (uint32_t k = w.n.g.first[b]; k < w.n.g.first[b + 1]; k++)
		assert_int_equal(slack[k], 0);
	walked_free(&w);
	trace_free(&t);
}

/* P (1.1) creates C (1.2) at 50; C starts at 60 and ends last. */
static void fork_edge(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "fork.csv");
	uint32_t p = tp(&t, 1, 1), c = tp(&t, 1, 2);
	t_step(&t, p, TRACE_STARTPROCESS, 0, 0);
	size_t cr = t_step(&t, p, TRACE_CREATEPROCESS, 50, 40);
	t.ev[cr].src = p;
	t.ev[cr].dst = c;
	t_step(&t, p, TRACE_TERMPROCESS, 70, 55);
	t_step(&t, c, TRACE_STARTPROCESS, 60, 0);
	t_step(&t, c, TRACE_TERMPROCESS, 200, 120);
	struct walked w;
	walk_trace(&t, &w);
	/* C 60-200: running 120 ready 20; created 50-60: kernel 10; P 0-50:
	 * running 40 ready 10 */
	expect_states(&w.s, 160, 30, 0, 10, 0);
	assert_int_equal(w.p.steps[1].kind, STEP_FORK);
	assert_int_equal(w.p.start, w.n.g.first[p]);
	walked_free(&w);
	trace_free(&t);
}

/* A request over a kernel link (to 1.0, untraced: a disk read) and one to
 * an untraced process on another node: both waits are external. */
static void kernel_and_external_waits(void **state)
{
	(void)state;
	for (unsigned pid = 0; pid < 2; pid++) {
		struct trace t;
		trace_init(&t, "ext.csv");
		uint32_t a = tp(&t, 1, 1), k = tp(&t, pid ? 3 : 1, pid ? 5 : 0);
		t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
		t_send(&t, a, k, 10, 10, 0, 4);
		t_step(&t, a, TRACE_RECEIVECALL, 12, 12);
		t_queued(&t, a, k, 95, 77, 4, 1);
		t_recv(&t, a, k, 100, 14, 77, 4);
		struct walked w;
		walk_trace(&t, &w);
		/* 0-10 running 10; 10-12 running 2; 12-100: running 2, waiting
		 * 12-95 (83), ready 3 */
		assert_int_equal(w.s.ns[CS_RUNNING], 14);
		assert_int_equal(w.s.ns[CS_READY], 3);
		assert_int_equal(w.s.ns[CS_EXTERNAL], 83);
		assert_int_equal(w.s.ns[CS_KERNEL], 0);
		assert_int_equal(cstates_total(&w.s), 100);
		walked_free(&w);
		trace_free(&t);
	}
}

/* ---- random executions against an independent longest path ---------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

struct pending {
	uint32_t from;
	uint64_t msg, at;
};

/* Processes with their own clocks: a SEND reaches its receiver's queue
 * some time later; a RECEIVE asks (RECEIVECALL) and gets the earliest
 * queued message when both it asked and the message is there. */
static void random_execution(struct trace *t, unsigned nproc, unsigned steps)
{
	uint64_t clock[8] = { 0 }, cpu[8] = { 0 }, msg = 1;
	uint32_t id[8];
	struct pending box[8][64];
	unsigned nbox[8] = { 0 };
	for (unsigned i = 0; i < nproc; i++) {
		id[i] = tp(t, 1 + rnd(2), i + 1);
		clock[i] = rnd(50);
		t_step(t, id[i], TRACE_STARTPROCESS, clock[i], 0);
	}
	for (unsigned s = 0; s < steps; s++) {
		unsigned p = rnd(nproc);
		unsigned d = 1 + rnd(100);
		clock[p] += d;
		cpu[p] += rnd(d + 1);
		if (nbox[p] == 0 || rnd(2)) {
			unsigned q = rnd(nproc);
			if (q == p || nbox[q] == 64)
				continue;
			t_send(t, id[p], id[q], clock[p], cpu[p], msg, 8);
			uint64_t at = clock[p] + rnd(60);
			t_queued(t, id[q], id[p], at, msg, 8, 1);
			box[q][nbox[q]++] = (struct pending){ id[p], msg++, at };
			continue;
		}
		unsigned m = 0;
		for (unsigned i = 1; i < nbox[p]; i++)
			if (box[p][i].at < box[p][m].at)
				m = i;
		t_step(t, id[p], TRACE_RECEIVECALL, clock[p], cpu[p]);
		uint64_t got = box[p][m].at > clock[p] ? box[p][m].at : clock[p];
		unsigned e = 1 + rnd(20);
		clock[p] = got + e;
		cpu[p] += rnd(e + 1);
		t_recv(t, id[p], box[p][m].from, clock[p], cpu[p], box[p][m].msg, 8);
		box[p][m] = box[p][--nbox[p]];
	}
}

/* The network with B-edges weighted zero (INMON's Theorem 5), built here
 * from the trace's events (QUEUED ones included) with an explicit edge
 * list, and the longest path to every event by relaxing edges in a
 * topological order (Kahn).  Sources are reached from v0 by their time
 * since t0. */
struct edge {
	size_t from, to;
	uint64_t w;
};

struct net0 {
	struct edge *e;
	size_t ne;
	uint64_t *dist;
};

static size_t find_event(const struct trace *t, unsigned type, uint64_t msg)
{
	for (size_t j = 0; j < t->nev; j++)
		if (t->ev[j].type == type && t->ev[j].msg_id == msg)
			return j;
	fail_msg("no event of type %u for msg %llu", type, (unsigned long long)msg);
	return 0;
}

static void longest_paths(const struct trace *t, uint64_t t0, struct net0 *z)
{
	size_t n = t->nev;
	z->e = calloc(3 * n + 1, sizeof *z->e);
	z->dist = calloc(n + 1, sizeof *z->dist);
	z->ne = 0;
	size_t *last = malloc(t->nproc * sizeof *last);
	for (size_t p = 0; p < t->nproc; p++)
		last[p] = SIZE_MAX;
	/* events of one process were added in its order, with rising times */
	for (size_t i = 0; i < n; i++) {
		const struct event *x = &t->ev[i];
		if (x->type == TRACE_QUEUED) {
			size_t j = find_event(t, TRACE_SEND, x->msg_id);
			z->e[z->ne++] = (struct edge){ j, i, x->time - t->ev[j].time };
			continue;
		}
		if (x->type == TRACE_RECEIVE) {
			/* the join: the edge that arrived first is the B-edge */
			size_t q = find_event(t, TRACE_QUEUED, x->msg_id);
			uint64_t asked = t->ev[last[x->task]].time, at = t->ev[q].time;
			z->e[z->ne++] = (struct edge){ q, i, at < asked ? 0 : x->time - at };
			z->e[z->ne++] = (struct edge){ last[x->task], i, asked < at ? 0 : x->time - asked };
		} else if (last[x->task] != SIZE_MAX) {
			z->e[z->ne++] = (struct edge){ last[x->task], i, x->time - t->ev[last[x->task]].time };
		}
		last[x->task] = i;
	}
	size_t *indeg = calloc(n + 1, sizeof *indeg), *order = malloc((n + 1) * sizeof *order);
	for (size_t i = 0; i < z->ne; i++)
		indeg[z->e[i].to]++;
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++)
		if (!indeg[i]) {
			z->dist[i] = t->ev[i].time - t0;
			order[tail++] = i;
		}
	while (head < tail) {
		size_t v = order[head++];
		for (size_t i = 0; i < z->ne; i++)
			if (z->e[i].from == v) {
				if (z->dist[v] + z->e[i].w > z->dist[z->e[i].to])
					z->dist[z->e[i].to] = z->dist[v] + z->e[i].w;
				if (--indeg[z->e[i].to] == 0)
					order[tail++] = z->e[i].to;
			}
	}
	assert_int_equal(tail, n);
	free(last);
	free(indeg);
	free(order);
}

static uint64_t weight0(const struct net0 *z, size_t from, size_t to)
{
	for (size_t i = 0; i < z->ne; i++)
		if (z->e[i].from == from && z->e[i].to == to)
			return z->e[i].w;
	fail_msg("no edge %zu -> %zu", from, to);
	return 0;
}

/* The walk's path measured with the test's own B-zero weights. */
static uint64_t path_length0(const struct walked *w, const struct net0 *z)
{
	const struct trace *t = w->n.g.tr;
	uint64_t len = 0;
	for (size_t i = 0; i < w->p.nsteps; i++) {
		size_t h = w->n.g.node_ev[w->p.steps[i].head];
		size_t tl = w->n.g.node_ev[cstep_tail(&w->n, &w->p.steps[i])];
		if (w->p.steps[i].kind == STEP_PROCESS) {
			len += weight0(z, tl, h);
		} else {
			size_t q = find_event(t, TRACE_QUEUED, t->ev[h].msg_id);
			len += weight0(z, tl, q) + weight0(z, q, h);
		}
	}
	return len;
}

static void random_against_longest_path(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct trace t;
		trace_init(&t, "random.csv");
		random_execution(&t, 2 + rnd(5), 10 + rnd(60));
		struct walked w;
		walk_trace(&t, &w);
		struct net0 z;
		longest_paths(&t, w.n.t0, &z);
		uint64_t elapsed = cnet_time(&w.n, w.n.last) - w.n.t0;
		uint64_t gap = cnet_time(&w.n, w.p.start) - w.n.t0;
		/* Theorem 5 on the test's network: the longest path is the elapsed time */
		assert_int_equal(z.dist[w.n.g.node_ev[w.n.last]], elapsed);
		/* the walk found one: no B-edge on it, so it keeps its full length */
		assert_int_equal(path_length0(&w, &z) + gap, elapsed);
		assert_int_equal(cstates_total(&w.s) + gap, elapsed);
		/* every vertex of the path has no slack */
		uint64_t *slack = malloc(w.n.g.nnodes * sizeof *slack);
		assert_int_equal(cnet_slack(&w.n, slack), 0);
		assert_int_equal(slack[w.p.start], 0);
		for (size_t i = 0; i < w.p.nsteps; i++)
			assert_int_equal(slack[w.p.steps[i].head], 0);
		free(slack);
		/* the what-if with nothing changed gives the run back */
		double *one = malloc(t.nproc * sizeof *one);
		for (size_t p = 0; p < t.nproc; p++)
			one[p] = 1.0;
		struct cnet same;
		char err[128];
		assert_int_equal(cnet_whatif(&w.n, &(struct cwhatif){ one, -1, 0, NULL }, &same, err, sizeof err), 0);
		for (uint32_t k = 0; k < w.n.g.nnodes; k++) {
			assert_int_equal(same.wt[k], cgraph_event(&w.n.g, k)->time);
			if (cgraph_event(&w.n.g, k)->type == TRACE_RECEIVE)
				assert_int_equal(same.wq[k], cnet_arrived_at(&w.n, k));
		}
		assert_int_equal(same.last, w.n.last);
		/* and everything faster never makes it later */
		for (size_t p = 0; p < t.nproc; p++)
			one[p] = 1 + rnd(4);
		cnet_whatif_free(&same);
		assert_int_equal(cnet_whatif(&w.n, &(struct cwhatif){ one, -1, 0, NULL }, &same, err, sizeof err), 0);
		for (uint32_t k = 0; k < w.n.g.nnodes; k++)
			assert_true(same.wt[k] <= cgraph_event(&w.n.g, k)->time);
		cnet_whatif_free(&same);
		free(one);
		/* each process's life splits into states exactly */
		for (uint32_t p = 0; p < t.nproc; p++) {
			struct cstates life = { { 0 } };
			for (uint32_t k = w.n.g.first[p]; k < w.n.g.first[p + 1]; k++) {
				struct cstates s;
				cstretch_states(&w.n, k, &s);
				cstates_add(&life, &s);
			}
			assert_int_equal(cstates_total(&life),
					 cnet_time(&w.n, w.n.g.first[p + 1] - 1) -
						 cnet_time(&w.n, w.n.g.first[p]));
		}
		free(z.e);
		free(z.dist);
		walked_free(&w);
		trace_free(&t);
	}
}

/* ---- the command --------------------------------------------------------------- */

static const char call_csv[] =
	"type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
	"RECEIVECALL,0,0,2.1,,2.1,,\n"
	"SEND,100,0,1.1,1.1,2.1,0x1,8\n"
	"RECEIVECALL,110,10,1.1,,1.1,,\n"
	"QUEUED,130,0,2.1,1.1,2.1,0x1,8\n"
	"RECEIVE,150,5,2.1,1.1,2.1,0x1,8\n"
	"SEND,350,185,2.1,2.1,1.1,0x2,8\n"
	"QUEUED,380,0,1.1,2.1,1.1,0x2,8\n"
	"RECEIVE,400,20,1.1,2.1,1.1,0x2,8\n";

static void command_json_and_csv(void **state)
{
	(void)state;
	int rc;
	const char *path = temp_file(0, call_csv);
	char *argv[] = { "critical", "--json", (char *)path, NULL };
	char *out = capture(critical_main, 3, argv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"elapsed_ns\":400,\"length_ns\":300,\"start_gap_ns\":100"));
	assert_non_null(strstr(out, "\"states\":{\"running\":195,\"ready\":45,\"in_flight\":60,"
				    "\"queued\":0,\"blocked_receive\":0,\"blocked_call\":0,"
				    "\"external\":0,\"kernel\":0}"));
	assert_non_null(strstr(out, "\"requests\":1,"));
	assert_non_null(strstr(out, "{\"process\":\"2.1\",\"machine\":2,\"cpu_ns\":185,\"queued_ns\":0,"
				    "\"events\":3,\"critical_events\":2,\"least_slack_ns\":130,"));
	free(out);
	char *csv[] = { "critical", "--csv", (char *)path, NULL };
	out = capture(critical_main, 3, csv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "job,path,300,195,45,60,0,0,0,0,0\n"));
	assert_non_null(strstr(out, "server,2.1,300,195,45,60,"));
	free(out);
	char *wi[] = { "critical", "--json", "--speedup", "2.1=5", (char *)path, NULL };
	out = capture(critical_main, 5, wi, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"whatif\":{\"speedup\":{\"2.1\":5},\"latency_ns\":null,\"latency_added_ns\":0,\"wait_added_ns\":{},"
				    "\"elapsed_ns\":252,\"length_ns\":152,"));
	free(out);
	char *nobody[] = { "critical", "--speedup", "9.9=2", (char *)path, NULL };
	out = capture_stderr(critical_main, 4, nobody, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "process 9.9 is not in the trace"));
	free(out);
	char *traced[] = { "critical", "--wait", "2.1=-5", (char *)path, NULL };
	out = capture_stderr(critical_main, 4, traced, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "2.1 left events of its own"));
	free(out);
	char *unsigned_wait[] = { "critical", "--wait", "2.1=5", (char *)path, NULL };
	free(capture_stderr(critical_main, 4, unsigned_wait, &rc));
	assert_int_equal(rc, 2);
	char *zero[] = { "critical", "--speedup", "2.1=0", (char *)path, NULL };
	free(capture_stderr(critical_main, 4, zero, &rc));
	assert_int_equal(rc, 2);
	char *text[] = { "critical", (char *)path, NULL };
	out = capture(critical_main, 2, text, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "the path's length plus its start equals the elapsed time"));
	free(out);
	unlink(path);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The call's path drawn: B's stretch a bar, the two messages thick lines
 * over the two thin grey ones, a lane per process; --svg writes it. */
static void svg_of_the_path(void **state)
{
	(void)state;
	struct trace t;
	call_trace(&t, "svg.csv");
	struct critical_result r;
	char err[128], *buf = NULL;
	size_t len = 0;
	assert_int_equal(critical_analyse(&t, 1, &r, err, sizeof err), 0);
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(critical_svg(f, &r, 100), 0);
	fclose(f);
	assert_non_null(strstr(buf, "<svg xmlns="));
	assert_non_null(strstr(buf, "</svg>\n"));
	assert_int_equal(count(buf, "height=\"8\""), 1);
	assert_int_equal(count(buf, "stroke-width=\"2.5\""), 2);
	assert_int_equal(count(buf, "stroke-width=\"0.6\""), 1); /* the group of messages */
	assert_int_equal(count(buf, "<line x1=") - count(buf, "stroke=\"#e0e0e0\"") -
				 count(buf, "stroke-width=\"2.5\""), 2);
	assert_non_null(strstr(buf, "running 180 ns ready 20 ns"));
	assert_non_null(strstr(buf, ">in_flight 20.0%<"));
	free(buf);
	critical_result_free(&r);
	trace_free(&t);
	int rc;
	const char *path = temp_file(0, call_csv);
	char *bad[] = { "critical", "--svg", "/nonexistent/dir/x.svg", (char *)path, NULL };
	char *out = capture_stderr(critical_main, 4, bad, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "/nonexistent/dir/x.svg: No such file"));
	free(out);
	unlink(path);
}

static void command_errors(void **state)
{
	(void)state;
	int rc;
	char *help[] = { "critical", "--help", NULL };
	char *out = capture(critical_main, 2, help, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "usage: dpm critical"));
	free(out);
	char *bad[] = { "critical", "--path-steps", "x", "t.csv", NULL };
	free(capture_stderr(critical_main, 4, bad, &rc));
	assert_int_equal(rc, 2);
	const char *empty = temp_file(1, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n");
	char *e[] = { "critical", (char *)empty, NULL };
	out = capture_stderr(critical_main, 2, e, &rc);
	assert_int_equal(rc, 1); /* the trace has no events: docs/cli.md */
	assert_non_null(strstr(out, "no events"));
	free(out);
	unlink(empty);
	/* received before it was sent: two clocks, or a broken trace */
	const char *back = temp_file(2, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
					"SEND,500,0,1.1,1.1,2.1,0x1,8\n"
					"RECEIVE,100,0,2.1,1.1,2.1,0x1,8\n");
	char *b[] = { "critical", (char *)back, NULL };
	out = capture_stderr(critical_main, 2, b, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, ":3: msg_id 0x1 received at 100 ns, before its SEND at 500 ns "
				    "(line 2)"));
	free(out);
	unlink(back);
	const char *late = temp_file(3, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
					"SEND,100,0,1.1,1.1,2.1,0x1,8\n"
					"QUEUED,300,0,2.1,1.1,2.1,0x1,8\n"
					"RECEIVE,200,0,2.1,1.1,2.1,0x1,8\n");
	char *l[] = { "critical", (char *)late, NULL };
	out = capture_stderr(critical_main, 2, l, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, ":3: msg_id 0x1 queued at 300 ns, after its RECEIVE"));
	free(out);
	unlink(late);
	/* two messages at one instant, each received before the other is sent */
	const char *cycle = temp_file(3, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
					 "RECEIVE,5,0,1.1,2.1,1.1,0x2,8\n"
					 "SEND,5,1,1.1,1.1,2.1,0x1,8\n"
					 "RECEIVE,5,0,2.1,1.1,2.1,0x1,8\n"
					 "SEND,5,1,2.1,2.1,1.1,0x2,8\n");
	char *c[] = { "critical", (char *)cycle, NULL };
	out = capture_stderr(critical_main, 2, c, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, ":4: the messages of the trace make a cycle through this event"));
	free(out);
	unlink(cycle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(call_across_nodes),
		cmocka_unit_test(b_edge_queued_message),
		cmocka_unit_test(fork_edge),
		cmocka_unit_test(kernel_and_external_waits),
		cmocka_unit_test(random_against_longest_path),
		cmocka_unit_test(what_if_call),
		cmocka_unit_test(movedata_and_waits),
		cmocka_unit_test(exit_notice),
		cmocka_unit_test(killed_child),
		cmocka_unit_test(command_json_and_csv),
		cmocka_unit_test(svg_of_the_path),
		cmocka_unit_test(command_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * analysis/model/reweight.c - t_max with CPU sharing: the reweighting of the
 * thesis's Appendix A as a processor-sharing simulation.
 *
 * Each process executes its process arcs in order; the k processes able
 * to run on one machine share its CPU equally (round robin with a
 * microscopic slice, TR 574 §4.2), so an arc of t CPU ns lasts k*t elapsed
 * ns while k stays the same.  A process is blocked, and does not count in
 * k, while it waits at a RECEIVE for a message that has not arrived (sent,
 * plus its MTIME).  The time each node happens is the relabelled graph's
 * longest path to it, so t_max is the time the last process finishes.
 *
 * Appendix A advances every process by the same CPU slice and multiplies
 * it by its machine's k; stepping by elapsed time instead gives the same
 * relabelling when the machines' sharing is alike, and keeps message
 * arrivals in step with a slowed-down sender when it is not (see
 * docs/parallel.md).  Each machine keeps a virtual time V that advances at
 * 1/k of elapsed time; a running arc ends when V reaches its finish mark,
 * so a change of k costs O(log n), not a pass over the machine.
 *
 * With a slice (pconfig.slice_ns > 0, the default: the DPM kernel's tick)
 * a machine runs one process at a time, as the kernel does: it keeps the
 * CPU through its arcs until it blocks or has had the slice, then goes to
 * the end of the line; one that becomes able to run joins the end.  The
 * run heap is then that line, keyed by turn.  Measured against processor
 * sharing (27 November 2026, virtual-time runs, predicted against
 * measured completion): TSP N = 16 with 12 servers +5.7 % -> +0.6 %, with
 * the controller alone on its node +6.4 % -> +2.9 %; the file system at
 * the 1984 preset A/B/C -8.3/-7.3/-16.3 % -> -8.2/-7.2/-16.2 %: under
 * processor sharing a server that would have finished its piece first
 * finishes with the others, and so does the work that waits for it.
 */
#include "reweight.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

enum pstate { P_RUNNING, P_BLOCKED, P_DONE };

struct machine {
	double link;     /* when its link is free of the frames sent before */
	/* with a slice: the process on the CPU (NO_PROC: idle), since when
	 * (this stretch of it), whose slice runs and since when, and the
	 * keys of the line's front and end */
	uint32_t head, owner;
	double started, since, front, back;
	uint32_t k;      /* processes running */
	double V;        /* CPU each running process has had, ns */
	double L;        /* elapsed time V was last brought up to date */
	struct heap run; /* running processes by the V at which their arc ends */
};

struct sim {
	const struct cgraph *g;
	const struct pconfig *c;
	struct pwork *w;
	uint32_t *pos;
	uint8_t *state;
	struct machine *mach;
	size_t nmach;
	struct iheap next;     /* machines by the time their next arc ends */
	struct heap arrivals;  /* awaited messages by arrival time (node ids) */
	size_t arrcap;         /* its room: it grows, since an entry a process
	                          has moved past stays until it comes up */
	int oom;               /* growing it failed: the result is void */
	double *left;          /* with a slice: CPU left of each process's arc */
	double stretch;        /* elapsed ns a process's CPU ns takes on its own:
	                          more than 1 when the kernel's tick takes a share
	                          (the table's tick_ns) */
	uint32_t going_on;     /* with a slice: the process whose arc just ended
	                          on its CPU (it may go on within its slice) */
	uint32_t *finished;    /* scratch: processes whose arcs end together */
	uint32_t *waited;      /* each process's last node whose wait_weight
	                          (a remote MOVEDATA's round trips) it has
	                          waited out, or NO_NODE */
	/* backing arrays */
	double *runkey, *nextkey, *arrkey;
	uint32_t *runid, *nextslot, *nextpos, *arrid;
};

static void machine_sync(struct machine *m, double t)
{
	if (m->k > 0)
		m->V += (t - m->L) / m->k;
	m->L = t;
}

static void machine_schedule(struct sim *s, uint32_t mi)
{
	struct machine *m = &s->mach[mi];
	if (m->run.n == 0) {
		iheap_remove(&s->next, mi);
		return;
	}
	double left = m->run.key[0] - m->V;
	iheap_set(&s->next, mi, m->L + (left > 0 ? left * m->k : 0));
}

/* An awaited message due at `when`.  Entries that turn out stale (their
 * process has moved on) are dropped when they come up (deliver), so there
 * can be more than one a process: the heap grows as needed. */
static void push_arrival(struct sim *s, double when, uint32_t node)
{
	if (s->arrivals.n == s->arrcap) {
		size_t cap = 2 * s->arrcap + 16;
		double *k = realloc(s->arrkey, cap * sizeof *k);
		if (k)
			s->arrkey = k;
		uint32_t *id = k ? realloc(s->arrid, cap * sizeof *id) : NULL;
		if (id)
			s->arrid = id;
		if (!k || !id) {
			s->oom = 1;
			return;
		}
		s->arrcap = cap;
		s->arrivals.key = s->arrkey;
		s->arrivals.id = s->arrid;
	}
	heap_push(&s->arrivals, when, node);
}

/* ---- with a slice: the kernel's scheduler ------------------------------ */

/* Give machine mi's CPU at t to the first in line, until its arc ends or
 * its slice does. */
static void slice_dispatch(struct sim *s, uint32_t mi, double t)
{
	struct machine *m = &s->mach[mi];
	if (m->run.n == 0) {
		m->head = NO_PROC;
		iheap_remove(&s->next, mi);
		return;
	}
	uint32_t h = m->run.id[0];
	if (h != m->owner) {
		m->owner = h;
		m->since = t;
	}
	m->head = h;
	m->started = t;
	double slice = s->c->slice_ns - (t - m->since);
	iheap_set(&s->next, mi, t + (s->left[h] < slice ? s->left[h] : slice));
}

/* Process p has an arc of `work` to run at t: at the front of the line if
 * it goes on within its slice, else at the end. */
static void slice_ready(struct sim *s, uint32_t p, double work, double t)
{
	uint32_t mi = s->c->machine_of[p];
	struct machine *m = &s->mach[mi];
	s->left[p] = work;
	if (p == s->going_on && p == m->owner && t - m->since < s->c->slice_ns)
		heap_push(&m->run, m->front -= 1, p);
	else
		heap_push(&m->run, m->back += 1, p);
	if (m->head == NO_PROC)
		slice_dispatch(s, mi, t);
}

static void try_advance(struct sim *s, uint32_t p, double t, int woken);

/* Machine mi's running arc ends, or its slice, at t. */
static void slice_event(struct sim *s, uint32_t mi, double t)
{
	struct machine *m = &s->mach[mi];
	uint32_t h = m->head;
	heap_pop(&m->run);
	m->head = NO_PROC;
	s->left[h] -= t - m->started;
	if (s->left[h] > 1e-9 * fmax(1.0, t)) { /* the slice is over: to the end */
		m->owner = NO_PROC;
		heap_push(&m->run, m->back += 1, h);
	} else {
		s->going_on = h;
		try_advance(s, h, t, 0);
		s->going_on = NO_PROC;
		if (m->owner == h && m->head != h)
			m->owner = NO_PROC; /* it blocked, ended, or went to the end */
	}
	if (m->head == NO_PROC)
		slice_dispatch(s, mi, t);
}

static int done(const struct sim *s, uint32_t node)
{
	return node < s->pos[s->g->node_proc[node]];
}

/* A remote message sent at t: its frame leaves after the sending
 * kernel's work (remote_tx_ns) or once the frames sent before it have
 * left, whichever is later, and holds the machine's link for its
 * remote_wire_ns (the kernel's network model, docs/virtual-time.md
 * §2.4).  Its wait goes to queued[r], on top of its MTIME. */
static void take_link(struct sim *s, uint32_t n, uint32_t r, double t)
{
	const struct cgraph *g = s->g;
	s->w->queued[r] = 0;
	if (g->kind[r] != CROSS_MESSAGE || same_machine(g, s->c, n, r))
		return;
	uint32_t len = message_len(g, n, r);
	struct machine *m = &s->mach[s->c->machine_of[g->node_proc[n]]];
	double ready = t + mtime_transport(s->c->mt, len, 0);
	if (m->link > ready)
		s->w->queued[r] = m->link - ready;
	m->link = (m->link > ready ? m->link : ready) + mtime_wire(s->c->mt, len);
}

static void complete_node(struct sim *s, uint32_t n, double t, int woken)
{
	const struct cgraph *g = s->g;
	s->w->when[n] = t;
	s->w->via[n] = (uint8_t)woken;
	s->pos[g->node_proc[n]]++;
	uint32_t r = g->succ[n];
	if (r == NO_NODE)
		return;
	take_link(s, n, r, t);
	uint32_t q = g->node_proc[r];
	if (s->state[q] == P_BLOCKED && s->pos[q] == r)
		push_arrival(s, t + arc_weight(g, s->c, s->w, r), r);
}

/* Take process p as far as it goes at time t: through nodes whose
 * messages are in, until it starts running an arc, blocks or ends. */
static void try_advance(struct sim *s, uint32_t p, double t, int woken)
{
	const struct cgraph *g = s->g;
	for (;;) {
		uint32_t n = s->pos[p];
		if (n == g->first[p + 1]) {
			s->state[p] = P_DONE;
			return;
		}
		if (s->waited[p] != n) {
			double wait = wait_weight(g, s->c, n);
			s->waited[p] = n;
			if (wait > 0) {  /* blocked, its machine free for others */
				s->state[p] = P_BLOCKED;
				push_arrival(s, t + wait, n);
				return;
			}
		}
		uint32_t c = g->cross[n];
		if (c != NO_NODE) {
			if (!done(s, c)) {
				s->state[p] = P_BLOCKED;
				return;
			}
			double arrival = s->w->when[c] + arc_weight(g, s->c, s->w, n);
			if (arrival > t) {
				s->state[p] = P_BLOCKED;
				push_arrival(s, arrival, n);
				return;
			}
		}
		complete_node(s, n, t, woken);
		n = s->pos[p];
		if (n == g->first[p + 1]) {
			s->state[p] = P_DONE;
			return;
		}
		double work = proc_weight(g, s->c, n, woken);
		woken = 0;
		if (work <= 0)
			continue;
		s->state[p] = P_RUNNING;
		work *= s->stretch;
		if (s->c->slice_ns > 0) {
			slice_ready(s, p, work, t);
			return;
		}
		struct machine *m = &s->mach[s->c->machine_of[p]];
		machine_sync(m, t);
		m->k++;
		heap_push(&m->run, m->V + work, p);
		machine_schedule(s, s->c->machine_of[p]);
		return;
	}
}

static void finish_arcs(struct sim *s, uint32_t mi, double t)
{
	struct machine *m = &s->mach[mi];
	machine_sync(m, t);
	double mark = m->run.key[0];
	if (m->V < mark)
		m->V = mark;
	double tolerance = 1e-9 * fmax(1.0, fabs(m->V));
	size_t nf = 0;
	while (m->run.n > 0 && m->run.key[0] <= m->V + tolerance) {
		s->finished[nf++] = m->run.id[0];
		heap_pop(&m->run);
		m->k--;
	}
	machine_schedule(s, mi);
	for (size_t i = 0; i < nf; i++)
		try_advance(s, s->finished[i], t, 0);
}

static void deliver(struct sim *s, uint32_t n, double t)
{
	uint32_t p = s->g->node_proc[n];
	if (s->state[p] == P_BLOCKED && s->pos[p] == n)
		try_advance(s, p, t, s->g->cross[n] != NO_NODE); /* else its own wait's end */
}

static void run(struct sim *s)
{
	for (;;) {
		double tm = s->next.n ? s->next.key[s->next.slot[0]] : INFINITY;
		double ta = s->arrivals.n ? s->arrivals.key[0] : INFINITY;
		if (isinf(tm) && isinf(ta))
			return;
		if (ta <= tm) {
			uint32_t n = s->arrivals.id[0];
			heap_pop(&s->arrivals);
			deliver(s, n, ta);
		} else if (s->c->slice_ns > 0) {
			slice_event(s, s->next.slot[0], tm);
		} else {
			finish_arcs(s, s->next.slot[0], tm);
		}
	}
}

static size_t count_machines(const struct cgraph *g, const uint32_t *machine_of)
{
	size_t n = 0;
	for (size_t p = 0; p < g->tr->nproc; p++)
		if (machine_of[p] + (size_t)1 > n)
			n = machine_of[p] + (size_t)1;
	return n;
}

static void sim_free(struct sim *s)
{
	free(s->pos);
	free(s->state);
	free(s->mach);
	free(s->finished);
	free(s->waited);
	free(s->runkey);
	free(s->runid);
	free(s->nextkey);
	free(s->nextslot);
	free(s->nextpos);
	free(s->arrkey);
	free(s->arrid);
	free(s->left);
}

static int sim_init(struct sim *s, const struct cgraph *g, const struct pconfig *c,
		    struct pwork *w)
{
	size_t np = g->tr->nproc;
	memset(s, 0, sizeof *s);
	s->g = g;
	s->c = c;
	s->w = w;
	s->nmach = count_machines(g, c->machine_of);
	s->pos = malloc((np + 1) * sizeof *s->pos);
	s->state = calloc(np + 1, 1);
	s->mach = calloc(s->nmach + 1, sizeof *s->mach);
	s->finished = malloc((np + 1) * sizeof *s->finished);
	s->waited = malloc((np + 1) * sizeof *s->waited);
	s->runkey = malloc((np + 1) * sizeof *s->runkey);
	s->runid = malloc((np + 1) * sizeof *s->runid);
	s->nextkey = malloc((s->nmach + 1) * sizeof *s->nextkey);
	s->nextslot = malloc((s->nmach + 1) * sizeof *s->nextslot);
	s->nextpos = malloc((s->nmach + 1) * sizeof *s->nextpos);
	s->arrkey = malloc((np + 1) * sizeof *s->arrkey);
	s->arrid = malloc((np + 1) * sizeof *s->arrid);
	s->left = calloc(np + 1, sizeof *s->left);
	if (!s->pos || !s->state || !s->mach || !s->finished || !s->runkey || !s->runid ||
	    !s->nextkey || !s->nextslot || !s->nextpos || !s->arrkey || !s->arrid || !s->left ||
	    !s->waited)
		return -1;
	for (size_t p = 0; p <= np; p++)
		s->waited[p] = NO_NODE;
	s->going_on = NO_PROC;
	/* the kernel's tick takes tick_ns of each 10 ms of a machine's CPU
	 * (never more than nine tenths: a table that says more is broken) */
	double share = c->mt ? c->mt->tick_ns / PCONFIG_KERNEL_TICK_NS : 0;
	s->stretch = 1 / (1 - (share < 0.9 ? share : 0.9));
	for (size_t m = 0; m < s->nmach; m++)
		s->mach[m].head = s->mach[m].owner = NO_PROC;
	/* Each machine's run heap is a slice as long as its process count. */
	size_t off = 0;
	for (size_t p = 0; p < np; p++)
		s->mach[c->machine_of[p]].k++;
	for (size_t m = 0; m < s->nmach; m++) {
		s->mach[m].run = (struct heap){ s->runkey + off, s->runid + off, 0 };
		off += s->mach[m].k;
		s->mach[m].k = 0;
	}
	s->next = (struct iheap){ s->nextkey, s->nextslot, s->nextpos, 0 };
	memset(s->nextpos, 0xff, (s->nmach + 1) * sizeof *s->nextpos);
	s->arrivals = (struct heap){ s->arrkey, s->arrid, 0 };
	s->arrcap = np + 1;
	for (size_t p = 0; p < np; p++)
		s->pos[p] = g->first[p];
	return 0;
}

int reweight_simulate(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		      char *err, size_t errlen)
{
	struct sim s;
	if (sim_init(&s, g, c, w) < 0) {
		sim_free(&s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(w->queued, 0, (g->nnodes + 1) * sizeof *w->queued);
	for (size_t p = 0; p < g->tr->nproc; p++)
		try_advance(&s, (uint32_t)p, 0, 0);
	run(&s);
	int rc = s.oom ? -1 : check_all_timed(g, s.pos, err, errlen);
	if (s.oom)
		snprintf(err, errlen, "out of memory");
	sim_free(&s);
	return rc;
}

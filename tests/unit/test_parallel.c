/*
 * tests/unit/test_parallel.c - the parallelism factor: hand-built graphs
 * with values computed by hand (the thesis's small examples, P = 1 for a
 * chain, P = N for N independent processes, P < 1 on one machine with
 * delivery costs), CPU sharing with exact answers, random computations
 * against an independent brute-force longest path, external waits, and
 * inconsistent traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/model/assign.h"
#include "analysis/model/parallelism.h"
#include "analysis/model/trace_check.h"
#include "test_analysis_trace.h"

enum where { MEASURED, EACH_OWN, ONE };

struct outcome {
	struct presult r;
	struct path_step *path;
	size_t npath;
};

/* P and the maximum path of t with processes placed by *a (freed here);
 * with contention, processor sharing unless slice_ns says otherwise.  The
 * time each process's last event happens goes to proc_end (the first
 * PROC_ENDS processes). */
static double slice_ns;
#define PROC_ENDS 16
static double proc_end[PROC_ENDS];

static struct outcome eval_on(struct trace *t, struct assignment *a, const struct mtime_table *mt,
			      int contention)
{
	struct cgraph g;
	struct pwork work;
	struct outcome o = { 0 };
	char err[256];
	assert_int_equal(cgraph_build(&g, t, err, sizeof err), 0);
	assert_int_equal(pwork_alloc(&work, g.nnodes), 0);
	struct pconfig c = { a->machine_of, mt, contention, slice_ns };
	assert_int_equal(parallel_eval(&g, &c, &work, &o.r, err, sizeof err), 0);
	o.path = max_path(&g, &c, &work, &o.r, &o.npath);
	for (size_t q = 0; q < t->nproc && q < PROC_ENDS; q++)
		proc_end[q] = work.when[g.first[q + 1] - 1];
	pwork_free(&work);
	assign_free(a);
	cgraph_free(&g);
	return o;
}

static struct outcome eval(struct trace *t, enum where w, const struct mtime_table *mt,
			   int contention)
{
	struct assignment a;
	assert_int_equal(w == MEASURED ? assign_measured(&a, t) : w == EACH_OWN ?
			 assign_each_own(&a, t) : assign_one(&a, t), 0);
	return eval_on(t, &a, mt, contention);
}

/* The same for an --assign SPEC. */
static struct outcome eval_assign(struct trace *t, const char *spec, const struct mtime_table *mt,
				  int contention)
{
	struct assignment a;
	char err[256];
	if (assign_parse(&a, t, spec, err, sizeof err) < 0)
		fail_msg("%s: %s", spec, err);
	return eval_on(t, &a, mt, contention);
}

static struct mtime_table zero_table(void)
{
	struct mtime_table m;
	mtime_zero(&m);
	return m;
}

/* A one-row table: every delivery takes `local` or `remote` ns. */
static struct mtime_table flat_table(double local, double remote)
{
	struct mtime_table m = { .n = 1, .size = { 1 }, .local = { local }, .remote = { remote } };
	return m;
}

/* A sends to B after 10 CPU, B answers after 20, A ends 5 later. */
static void build_chain(struct trace *t)
{
	uint32_t a = tp(t, 1, 1), b = tp(t, 2, 1);
	t_step(t, a, TRACE_STARTPROCESS, 0, 0);
	t_recv(t, b, a, 1, 0, 1, 8);
	t_send(t, a, b, 10, 10, 1, 8);
	t_send(t, b, a, 21, 20, 2, 8);
	t_recv(t, a, b, 30, 10, 2, 8);
	t_step(t, a, TRACE_TERMPROCESS, 40, 15);
}

/* The run's elapsed time: on one clock from the first event to the last
 * (5 to 40), else the longest span of one machine's events (A's 0 to 40
 * on node 1 against B's 1 to 21 on node 2). */
static void elapsed_on_one_clock_or_per_machine(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "chain");
	assert_float_equal(trace_elapsed(&t, 1), 0, 0);
	build_chain(&t);
	assert_float_equal(trace_elapsed(&t, 1), 40, 0);
	assert_float_equal(trace_elapsed(&t, 0), 40, 0);
	t_step(&t, tp(&t, 2, 1), TRACE_TERMPROCESS, 75, 30); /* B ends later: 1..75 */
	assert_float_equal(trace_elapsed(&t, 1), 75, 0);
	assert_float_equal(trace_elapsed(&t, 0), 74, 0);
	trace_free(&t);
}

static void chain_is_sequential(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "chain");
	build_chain(&t);
	struct mtime_table z = zero_table();
	struct outcome o = eval(&t, EACH_OWN, &z, 0);
	assert_float_equal(o.r.T, 35, 1e-9);
	assert_float_equal(o.r.t_max, 35, 1e-9);
	assert_float_equal(o.r.P, 1.0, 1e-12);
	assert_int_equal(o.r.M, 2);
	assert_float_equal(o.r.util, 0.5, 1e-12);
	/* The path runs A, message, B, message, A. */
	assert_int_equal(o.npath, 3);
	assert_int_equal(o.path[0].proc, tp(&t, 1, 1));
	assert_int_equal(o.path[0].out_kind, CROSS_MESSAGE);
	assert_int_equal(o.path[1].proc, tp(&t, 2, 1));
	assert_float_equal(o.path[1].cpu, 20, 1e-9);
	assert_int_equal(o.path[2].proc, tp(&t, 1, 1));
	assert_float_equal(o.path[2].cpu, 5, 1e-9);
	free(o.path);
	trace_free(&t);
}

static void independent_processes_give_n(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 6; n++) {
		struct trace t;
		trace_init(&t, "independent");
		for (unsigned i = 0; i < n; i++) {
			uint32_t p = tp(&t, i + 1, 1);
			t_step(&t, p, TRACE_STARTPROCESS, 0, 0);
			t_step(&t, p, TRACE_TERMPROCESS, 500, 100);
		}
		struct mtime_table m;
		mtime_default(&m);
		struct outcome o = eval(&t, MEASURED, &m, 0);
		assert_float_equal(o.r.P, (double)n, 1e-12);
		assert_int_equal(o.r.M, n);
		assert_float_equal(o.r.util, 1.0, 1e-12);
		free(o.path);
		/* Sharing one machine, the same processes give exactly 1. */
		o = eval(&t, ONE, &m, 1);
		assert_float_equal(o.r.t_max, 100.0 * n, 1e-6);
		assert_float_equal(o.r.P, 1.0, 1e-9);
		free(o.path);
		trace_free(&t);
	}
}

static void one_machine_with_delivery_is_below_one(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "chain");
	build_chain(&t);
	struct mtime_table m = flat_table(5, 50);
	/* Two local deliveries of 5 ns each: t_max = 35 + 10, P = 35/45. */
	struct outcome o = eval(&t, ONE, &m, 0);
	assert_float_equal(o.r.t_max, 45, 1e-9);
	assert_float_equal(o.r.P, 35.0 / 45.0, 1e-12);
	free(o.path);
	o = eval(&t, ONE, &m, 1);
	assert_float_equal(o.r.P, 35.0 / 45.0, 1e-12);
	free(o.path);
	/* On their own machines (1 and 2), remote deliveries: 35 + 100. */
	o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 135, 1e-9);
	free(o.path);
	trace_free(&t);
}

/*
 * The shape of thesis Fig. 5.2: three processes with asynchronous sends.
 *   A: start(0) --4--> send m1 to B (4) --6--> recv m2 (10) --3--> end (13)
 *   B: recv m1 (0) --5--> send m2 to A (5) --2--> send m3 to C (7) --8--> end (15)
 *   C: start(0) --1--> recv m3 (1) --4--> end (5)
 * Zero delivery: B's chain starts when m1 arrives at 4, so m2 leaves at 9,
 * m3 at 11 and B ends at 19; A waits for m2 until 9 < 10 on its own, ends
 * at 13; C receives m3 at 11 and ends at 15.  t_max = 19, T = 13+15+5 = 33.
 * With 2 ns per message: m1 arrives 6, m2 leaves 11, arrives 13 > 10, A
 * ends 16; m3 leaves 13, arrives 15, C ends 19; B ends 21.  t_max = 21.
 */
static void build_fig52(struct trace *t)
{
	uint32_t a = tp(t, 1, 1), b = tp(t, 2, 1), c = tp(t, 3, 1);
	t_step(t, a, TRACE_STARTPROCESS, 0, 0);
	t_step(t, c, TRACE_STARTPROCESS, 0, 0);
	t_send(t, a, b, 4, 4, 1, 10);
	t_recv(t, b, a, 5, 0, 1, 10);
	t_send(t, b, a, 10, 5, 2, 10);
	t_send(t, b, c, 12, 7, 3, 10);
	t_recv(t, c, b, 13, 1, 3, 10);
	t_recv(t, a, b, 14, 10, 2, 10);
	t_step(t, a, TRACE_TERMPROCESS, 17, 13);
	t_step(t, b, TRACE_TERMPROCESS, 20, 15);
	t_step(t, c, TRACE_TERMPROCESS, 17, 5);
}

static void thesis_three_process_example(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "fig52");
	build_fig52(&t);
	struct mtime_table z = zero_table(), two = flat_table(2, 2);
	struct outcome o = eval(&t, EACH_OWN, &z, 0);
	assert_float_equal(o.r.T, 33, 1e-9);
	assert_float_equal(o.r.t_max, 19, 1e-9);
	assert_float_equal(o.r.P, 33.0 / 19.0, 1e-12);
	assert_int_equal(o.npath, 2); /* A then B */
	free(o.path);
	o = eval(&t, EACH_OWN, &two, 0);
	assert_float_equal(o.r.t_max, 21, 1e-9);
	free(o.path);
	trace_free(&t);
}

/*
 * Predicting another placement (--assign 1.1=X,2.1=X) of the Fig. 5.2
 * graph above, with 1 ns a delivery on one machine and 5 ns between two.
 * As traced (each process on its own node) every message is remote: m1
 * arrives 9, B sends m2 at 14 and m3 at 16 and ends 24; m2 arrives 19, A
 * ends 22; m3 arrives 21, C ends 25: t_max = 25.
 * A and B on X, C left on its node 3: m1 is local and arrives 5, B sends
 * m2 at 10 and m3 at 12 and ends 20; m2 arrives 11, A ends 14; m3 is still
 * remote and arrives 17, C ends 21: t_max = 21 through A, m1, B, m3, C
 * (4 + 1 + 7 + 5 + 4), P = 33/21 on M = 2 machines.
 * With A and B sharing X's CPU: A alone sends m1 at 4 and has 5 left at
 * 5, when m1 arrives and B needs 5 to m2; at half speed each both finish
 * at 15: B sends m2 (arrives 16), A waits for it.  B alone does 1 of its 2
 * to m3 by 16; then shared again B sends m3 at 18 (arrives 23) and has 8
 * left, A has done 1 of its 3; A ends at 22, B alone ends at 28; C ends
 * 23 + 4 = 27.  t_max = 28.
 */
static void assign_predicts_a_moved_placement(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "fig52");
	build_fig52(&t);
	struct mtime_table m = flat_table(1, 5);
	struct outcome o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 25, 1e-9);
	assert_int_equal(o.r.M, 3);
	free(o.path);
	o = eval_assign(&t, "1.1=X,2.1=X", &m, 0);
	assert_float_equal(o.r.T, 33, 1e-9);
	assert_float_equal(o.r.t_max, 21, 1e-9);
	assert_float_equal(o.r.P, 33.0 / 21.0, 1e-12);
	assert_int_equal(o.r.M, 2);
	assert_float_equal(o.r.util, 33.0 / 21.0 / 2, 1e-12);
	assert_int_equal(o.npath, 3);
	assert_int_equal(o.path[0].proc, tp(&t, 1, 1));
	assert_float_equal(o.path[0].cpu, 4, 1e-9);
	assert_float_equal(o.path[0].out_weight, 1, 1e-9); /* m1, now local */
	assert_int_equal(o.path[1].proc, tp(&t, 2, 1));
	assert_float_equal(o.path[1].cpu, 7, 1e-9);
	assert_float_equal(o.path[1].out_weight, 5, 1e-9); /* m3, still remote */
	assert_int_equal(o.path[2].proc, tp(&t, 3, 1));
	assert_float_equal(o.path[2].cpu, 4, 1e-9);
	free(o.path);
	o = eval_assign(&t, "1.1=X,2.1=X", &m, 1);
	assert_float_equal(o.r.t_max, 28, 1e-9);
	assert_float_equal(o.r.P, 33.0 / 28.0, 1e-12);
	free(o.path);
	trace_free(&t);
}

/*
 * The kernels' transport work (the table's remote_tx_ns 3, remote_rx_ns 2)
 * lengthens the process arc after each remote SEND (tx) and after each
 * RECEIVE of a remote message that was there before its receiver (rx; a
 * receiver that waited for it has the taking-in in its MTIME already),
 * not T.  Fig. 5.2 with 1/5 ns: all remote, B waits for m1 until 9,
 * sends m2 at 9+5 = 14, m3 at 14+2+3 = 19, ends 19+8+3 = 30; A waits for
 * m2 until 19, ends 19+3 = 22; C waits for m3 until 24, ends 28.  A and B
 * on X: only m3 remote; B ends 5+5+2+8+3 = 23, C waits for m3 until 12+5
 * and ends 21.  Then a receiver that finds its message there: A reaches
 * its RECEIVE at 50, the message came at 1+5, so A ends 50+10+2 = 62;
 * sent at 100 instead, A waits until 105 and ends at 115.
 */
static void transport_work_charged_to_machines(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "fig52");
	build_fig52(&t);
	struct mtime_table m = flat_table(1, 5);
	m.tx[0] = 3;
	m.rx[0] = 2;
	assert_float_equal(mtime_transport(&m, 10, 0), 3, 1e-9);
	assert_float_equal(mtime_transport(&m, 10, 1), 2, 1e-9);
	struct outcome o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.T, 33, 1e-9);
	assert_float_equal(o.r.t_max, 30, 1e-9);
	assert_float_equal(proc_end[0], 22, 1e-9);
	assert_float_equal(proc_end[2], 28, 1e-9);
	free(o.path);
	o = eval(&t, MEASURED, &m, 1);   /* a process per machine: no sharing */
	assert_float_equal(o.r.t_max, 30, 1e-9);
	assert_float_equal(proc_end[0], 22, 1e-9);
	assert_float_equal(proc_end[2], 28, 1e-9);
	free(o.path);
	o = eval_assign(&t, "1.1=X,2.1=X", &m, 0);
	assert_float_equal(o.r.t_max, 23, 1e-9);
	assert_float_equal(proc_end[2], 21, 1e-9);
	free(o.path);
	o = eval(&t, ONE, &m, 0);        /* nothing remote: as without */
	struct mtime_table plain = flat_table(1, 5);
	struct outcome p = eval(&t, ONE, &plain, 0);
	assert_float_equal(o.r.t_max, p.r.t_max, 1e-9);
	free(o.path);
	free(p.path);
	trace_free(&t);

	for (int late = 0; late < 2; late++) {
		trace_init(&t, "early");
		uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1);
		uint64_t sent = late ? 100 : 1;
		t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
		t_step(&t, b, TRACE_STARTPROCESS, 0, 0);
		t_send(&t, b, a, sent, sent, 1, 10);
		t_recv(&t, a, b, sent + 50, 50, 1, 10);
		t_step(&t, a, TRACE_TERMPROCESS, sent + 60, 60);
		t_step(&t, b, TRACE_TERMPROCESS, sent + 1, sent + 1);
		for (int contention = 0; contention < 2; contention++) {
			o = eval(&t, MEASURED, &m, contention);
			assert_float_equal(proc_end[a], late ? 115 : 62, 1e-9);
			free(o.path);
		}
		trace_free(&t);
	}
}

/*
 * A's two remote messages back to back share its link (remote_wire_ns 10,
 * remote 5): m1 leaves at 1 and holds the link until 11, so m2, sent at 2,
 * waits 9 and arrives at 2 + 5 + 9 = 16; C ends at 17.  Only with
 * contention (the link is the machine's to share); without it C ends at
 * 2 + 5 + 1 = 8.  On one machine nothing is remote and nothing queues.
 */
static void remote_frames_queue_for_the_link(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "link");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1), c = tp(&t, 3, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_send(&t, a, b, 1, 1, 1, 10);
	t_send(&t, a, c, 2, 2, 2, 10);
	t_step(&t, a, TRACE_TERMPROCESS, 3, 3);
	t_recv(&t, b, a, 6, 0, 1, 10);
	t_step(&t, b, TRACE_TERMPROCESS, 7, 1);
	t_recv(&t, c, a, 7, 0, 2, 10);
	t_step(&t, c, TRACE_TERMPROCESS, 8, 1);
	struct mtime_table m = flat_table(0, 5);
	m.wire[0] = 10;
	assert_float_equal(mtime_wire(&m, 10), 10, 1e-9);
	struct outcome o = eval(&t, MEASURED, &m, 1);
	assert_float_equal(o.r.t_max, 17, 1e-9);
	assert_int_equal(o.npath, 2);   /* A, then m2 (5 + 9 queued), then C */
	assert_float_equal(o.path[0].out_weight, 14, 1e-9);
	free(o.path);
	o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 8, 1e-9);
	free(o.path);
	o = eval(&t, ONE, &m, 1);
	assert_float_equal(o.r.t_max, 5, 1e-9);   /* 3 + 1 + 1 CPU, shared */
	free(o.path);
	trace_free(&t);
}

/*
 * Sharing with blocking: A runs 10, sends to B, runs 20 more; B starts
 * blocked on that message and then runs 10.  One machine, zero delivery:
 * A alone until 10; then A and B share, B's 10 take 20 (ends 30), A has
 * 10 left and finishes alone at 40.  Without sharing t_max is 30.
 */
static void contention_with_blocking(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "block");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 1, 2);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_recv(&t, b, a, 0, 0, 7, 4);
	t_send(&t, a, b, 10, 10, 7, 4);
	t_step(&t, a, TRACE_TERMPROCESS, 40, 30);
	t_step(&t, b, TRACE_TERMPROCESS, 40, 10);
	struct mtime_table z = zero_table();
	struct outcome o = eval(&t, ONE, &z, 0);
	assert_float_equal(o.r.t_max, 30, 1e-9);
	free(o.path);
	o = eval(&t, ONE, &z, 1);
	assert_float_equal(o.r.t_max, 40, 1e-9);
	assert_float_equal(o.r.P, 1.0, 1e-12);
	free(o.path);
	trace_free(&t);
}

/*
 * Two machines.  Machine 1: A runs 20 then sends to B; X runs 30 alone.
 * Machine 2: B waits for A's message (5 ns remote) then runs 10.
 * A and X share machine 1: A's 20 take 40, the message arrives at 45,
 * B ends at 55; X has had 20 by 40 and ends at 50.  t_max = 55, T = 60,
 * and the maximum path is A, the message, B.
 */
static void contention_across_machines(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "two");
	uint32_t a = tp(&t, 1, 1), x = tp(&t, 1, 2), b = tp(&t, 2, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, x, TRACE_STARTPROCESS, 0, 0);
	t_recv(&t, b, a, 0, 0, 9, 1);
	t_send(&t, a, b, 10, 20, 9, 1);
	t_step(&t, x, TRACE_TERMPROCESS, 50, 30);
	t_step(&t, b, TRACE_TERMPROCESS, 50, 10);
	struct mtime_table m = flat_table(1, 5);
	struct outcome o = eval(&t, MEASURED, &m, 1);
	assert_float_equal(o.r.T, 60, 1e-9);
	assert_float_equal(o.r.t_max, 55, 1e-9);
	assert_float_equal(o.r.P, 60.0 / 55.0, 1e-12);
	assert_int_equal(o.r.M, 2);
	assert_int_equal(o.npath, 2);
	assert_int_equal(o.path[0].proc, a);
	assert_float_equal(o.path[0].out_weight, 5, 1e-9);
	assert_int_equal(o.path[1].proc, b);
	free(o.path);
	/* Without sharing: max(30, 20 + 5 + 10) = 35. */
	o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 35, 1e-9);
	free(o.path);
	trace_free(&t);
}

/*
 * The kernel's scheduler (a slice): on one machine A runs 100 and then
 * sends to C on another machine (delivery 5); B runs 100 alone.  Processor
 * sharing: A and B both end at 200, C gets the message at 205 and ends at
 * 215.  A slice of 1 ms (longer than either): A keeps the CPU until it
 * sends at 100, C ends at 115; B runs 100-200.  A slice of 30: A 0-30,
 * B 30-60, A 60-90, B 90-120, A 120-150, B 150-180, A 180-190 (its 100
 * done: the send), B 190-200; C ends at 205, t_max 205.
 */
static void contention_with_a_slice(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "slice");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 1, 2), c = tp(&t, 2, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, b, TRACE_STARTPROCESS, 0, 0);
	t_recv(&t, c, a, 0, 0, 3, 1);
	t_send(&t, a, c, 100, 100, 3, 1);
	t_step(&t, b, TRACE_TERMPROCESS, 100, 100);
	t_step(&t, c, TRACE_TERMPROCESS, 200, 10);
	struct mtime_table m = flat_table(5, 5);
	double want[][2] = { { 0, 215 }, { 1e6, 200 }, { 30, 205 } };
	double c_end[] = { 215, 115, 205 };
	for (size_t i = 0; i < 3; i++) {
		slice_ns = want[i][0];
		struct outcome o = eval(&t, MEASURED, &m, 1);
		assert_float_equal(o.r.t_max, want[i][1], 1e-9);
		free(o.path);
		assert_float_equal(proc_end[c], c_end[i], 1e-9);
	}
	slice_ns = 0;
	trace_free(&t);
}

/* The kernel's tick takes a share of each machine (the table's tick_ns):
 * with 1 ms of every 10 ms, 90 ns of CPU alone on a machine take 100 with
 * contention, whatever the slice; without contention, 90. */
static void contention_leaves_the_tick_its_share(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "tick");
	uint32_t a = tp(&t, 1, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, a, TRACE_TERMPROCESS, 90, 90);
	struct mtime_table m = flat_table(5, 5);
	m.tick_ns = 1e6;
	double slices[] = { 0, PCONFIG_KERNEL_SLICE_NS };
	for (size_t i = 0; i < 2; i++) {
		slice_ns = slices[i];
		struct outcome o = eval(&t, MEASURED, &m, 1);
		assert_float_equal(o.r.t_max, 100, 1e-9);
		assert_float_equal(o.r.T, 90, 1e-9);
		free(o.path);
	}
	slice_ns = 0;
	struct outcome o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 90, 1e-9);
	free(o.path);
	trace_free(&t);
}

/*
 * A remote MOVEDATA waits for its round trips, one per 4 KiB chunk, each a
 * request and an answer between the machines: A (node 1) moves 5000
 * bytes from B's area (node 2), two chunks at 7 + 7 ns with every remote
 * delivery 7 ns, so 28 ns end the stretch into it: A's 10 + 28 + 5 = 43.
 * With B on A's machine, no wait (15).  The mover is blocked, not running:
 * with contention C (20 CPU, on A's machine) shares the CPU with A until
 * A's arc ends at 20, then has it alone and ends at 30; A goes on at 48
 * and ends at 53.
 */
static void build_movedata(struct trace *t, uint32_t a, uint32_t b)
{
	t_step(t, a, TRACE_STARTPROCESS, 0, 0);
	size_t i = t_step(t, a, TRACE_MOVEDATA, 100, 10);
	t->ev[i].src = b;
	t->ev[i].length = 5000;
	t->ev[i].flags |= EV_LENGTH;
	t_step(t, a, TRACE_TERMPROCESS, 200, 15);
	t_step(t, b, TRACE_STARTPROCESS, 0, 0);
	t_step(t, b, TRACE_TERMPROCESS, 1, 1);
}

static void remote_movedata_waits_its_round_trips(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "movedata");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1);
	build_movedata(&t, a, b);
	struct mtime_table m = flat_table(1, 7);
	struct outcome o = eval(&t, MEASURED, &m, 0);
	assert_float_equal(o.r.t_max, 43, 1e-9);
	assert_float_equal(o.r.T, 16, 1e-9);
	assert_int_equal(o.npath, 1);
	assert_float_equal(o.path[0].cpu, 15, 1e-9);
	assert_float_equal(o.path[0].wait, 28, 1e-9);
	free(o.path);
	o = eval(&t, MEASURED, &m, 1); /* alone on its machine: the same */
	assert_float_equal(o.r.t_max, 43, 1e-9);
	free(o.path);
	o = eval_assign(&t, "1.1=X,2.1=X", &m, 0);
	assert_float_equal(o.r.t_max, 15, 1e-9);
	free(o.path);
	struct mtime_table z = zero_table(); /* the upper bound: no delays */
	o = eval(&t, MEASURED, &z, 0);
	assert_float_equal(o.r.t_max, 15, 1e-9);
	free(o.path);
	trace_free(&t);

	trace_init(&t, "movedata-shared");
	a = tp(&t, 1, 1);
	b = tp(&t, 2, 1);
	uint32_t c = tp(&t, 1, 2);
	build_movedata(&t, a, b);
	t_step(&t, c, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, c, TRACE_TERMPROCESS, 50, 20);
	slice_ns = 0;
	o = eval(&t, MEASURED, &m, 1);
	assert_float_equal(proc_end[c], 30, 1e-9);
	assert_float_equal(proc_end[a], 53, 1e-9);
	assert_float_equal(o.r.t_max, 53, 1e-9);
	free(o.path);
	trace_free(&t);
}

/* Processes of unequal length sharing one CPU: 10, 20, 30 CPU finish at
 * 30, 50 and 60 (processor sharing), so t_max = T = 60. */
static void contention_unequal_lengths(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "three");
	for (unsigned i = 1; i <= 3; i++) {
		uint32_t p = tp(&t, 1, i);
		t_step(&t, p, TRACE_STARTPROCESS, 0, 0);
		t_step(&t, p, TRACE_TERMPROCESS, 100, 10 * i);
	}
	struct mtime_table z = zero_table();
	struct outcome o = eval(&t, MEASURED, &z, 1);
	assert_float_equal(o.r.t_max, 60, 1e-9);
	assert_float_equal(o.r.P, 1.0, 1e-12);
	free(o.path);
	trace_free(&t);
}

/* A synchronous request to an untraced process X: sent at local time 100,
 * answered at 600; A used only 2 ns of CPU in between.  The external-wait
 * arc makes the path 5 + 500 + 3. */
static void external_wait_arc(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "ext");
	uint32_t a = tp(&t, 1, 1), x = tp(&t, 9, 9);
	t_step(&t, a, TRACE_STARTPROCESS, 95, 0);
	t_send(&t, a, x, 100, 5, 0, 4);
	t_recv(&t, a, x, 600, 7, 0, 4);
	t_step(&t, a, TRACE_TERMPROCESS, 700, 10);
	struct cgraph g;
	char err[256];
	assert_int_equal(cgraph_build(&g, &t, err, sizeof err), 0);
	assert_int_equal(g.nexternal, 1);
	assert_int_equal(g.untraced, 1);
	cgraph_free(&g);
	struct mtime_table z = zero_table();
	struct outcome o = eval(&t, MEASURED, &z, 0);
	assert_float_equal(o.r.T, 10, 1e-9);
	assert_float_equal(o.r.t_max, 508, 1e-9);
	assert_int_equal(o.r.M, 1);
	assert_int_equal(o.npath, 2);
	assert_int_equal(o.path[0].out_kind, CROSS_EXTERNAL);
	free(o.path);
	o = eval(&t, MEASURED, &z, 1);
	assert_float_equal(o.r.t_max, 508, 1e-9);
	free(o.path);
	trace_free(&t);
}

static void expect_build_error(struct trace *t, const char *fragment)
{
	struct cgraph g;
	char err[256] = "";
	assert_int_equal(cgraph_build(&g, t, err, sizeof err), -1);
	if (!strstr(err, fragment))
		fail_msg("error '%s' lacks '%s'", err, fragment);
	cgraph_free(&g);
}

/* A trace naming more processes than it has process steps (a process seen
 * only as a message's destination): the graph's per-process arrays must be
 * sized by processes, not steps.  Sized by steps it overflowed the heap and
 * glibc aborted (found by fuzzing `dpm parallel` with a two-line CSV). */
static void more_processes_than_steps(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "wide");
	uint32_t a = tp(&t, 1, 1);
	for (unsigned pid = 2; pid < 2000; pid++)
		t_queued(&t, tp(&t, 2, pid), a, pid, pid, 8, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 0, 0);
	assert_true(t.nproc > 1000);
	struct cgraph g;
	char err[256];
	assert_int_equal(cgraph_build(&g, &t, err, sizeof err), 0);
	assert_int_equal(g.nnodes, 1);
	cgraph_free(&g);
	trace_free(&t);
}

static void expect_check_error(struct trace *t, const char *fragment)
{
	char err[256] = "";
	assert_int_equal(trace_check(t, err, sizeof err), -1);
	if (!strstr(err, fragment))
		fail_msg("error '%s' lacks '%s'", err, fragment);
}

/* Messages that contradict each other are refused when the trace is
 * loaded (trace_check), before any analysis builds on them. */
static void inconsistent_traces_are_rejected(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "dup.csv");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1), c = tp(&t, 3, 1);
	t_send(&t, a, b, 1, 1, 5, 1);
	t_send(&t, a, b, 2, 2, 5, 1);
	expect_check_error(&t, "dup.csv:3: msg_id 0x5 was already sent at line 2");
	trace_free(&t);

	trace_init(&t, "twice.csv");
	a = tp(&t, 1, 1), b = tp(&t, 2, 1);
	t_send(&t, a, b, 1, 1, 5, 1);
	t_recv(&t, b, a, 2, 2, 5, 1);
	t_recv(&t, b, a, 3, 3, 5, 1);
	expect_check_error(&t, "twice.csv:4: msg_id 0x5 was already received at line 3");
	trace_free(&t);

	trace_init(&t, "wrong.csv");
	a = tp(&t, 1, 1), b = tp(&t, 2, 1), c = tp(&t, 3, 1);
	t_send(&t, a, b, 1, 1, 5, 1);
	t_recv(&t, c, a, 2, 2, 5, 1);
	expect_check_error(&t, "wrong.csv:3: msg_id 0x5 was sent to 2.1");
	trace_free(&t);

	trace_init(&t, "back.csv");
	a = tp(&t, 1, 1);
	t_step(&t, a, TRACE_STARTPROCESS, 1, 50);
	t_step(&t, a, TRACE_TERMPROCESS, 2, 40);
	expect_build_error(&t, "back.csv:3: cpu_ns of process 1.1 goes back");
	trace_free(&t);
}

/* A receives B's message before A's own message to B is sent, while B
 * receives A's message before sending: the trace contradicts itself. */
static void cycle_is_reported(void **state)
{
	(void)state;
	struct trace t;
	trace_init(&t, "cycle.csv");
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1);
	t_recv(&t, a, b, 1, 1, 2, 1);
	t_send(&t, a, b, 2, 2, 1, 1);
	t_recv(&t, b, a, 1, 1, 1, 1);
	t_send(&t, b, a, 2, 2, 2, 1);
	struct cgraph g;
	struct assignment as;
	struct pwork w;
	struct presult r;
	char err[256];
	struct mtime_table z = zero_table();
	assert_int_equal(cgraph_build(&g, &t, err, sizeof err), 0);
	assert_int_equal(assign_measured(&as, &t), 0);
	assert_int_equal(pwork_alloc(&w, g.nnodes), 0);
	for (int cont = 0; cont <= 1; cont++) {
		struct pconfig c = { as.machine_of, &z, cont, 0 };
		assert_int_equal(parallel_eval(&g, &c, &w, &r, err, sizeof err), -1);
		assert_non_null(strstr(err, "cycle.csv:"));
		assert_non_null(strstr(err, "contradicts itself"));
	}
	pwork_free(&w);
	assign_free(&as);
	cgraph_free(&g);
	trace_free(&t);
}

/* ---- random computations against a brute-force longest path ---------- */

struct arc { size_t from, to; double w; };

static unsigned long rng_state;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)((rng_state >> 33) % n);
}

/*
 * A random computation played in one global order, so it is consistent:
 * at each step a random process either computes and sends to another, or
 * receives one of the messages waiting for it.  Returns the explicit arc
 * list (events as vertices) for the brute-force check.
 */
static size_t random_computation(struct trace *t, unsigned nproc, unsigned steps,
				 const struct mtime_table *mt, struct arc *arcs,
				 const uint32_t *machine)
{
	uint64_t cpu[16] = { 0 }, clock = 0, nextmsg = 1;
	size_t last[16], narcs = 0;
	size_t pending_ev[256];
	unsigned pending_to[256], npending = 0;
	for (unsigned p = 0; p < nproc; p++) {
		tp(t, 1 + p % 3, p + 1);
		last[p] = t_step(t, p, TRACE_STARTPROCESS, clock++, 0);
	}
	for (unsigned s = 0; s < steps; s++) {
		unsigned p = rnd(nproc);
		size_t e;
		int received = 0;
		for (unsigned i = 0; i < npending; i++) {
			if (pending_to[i] != p || rnd(2))
				continue;
			struct event se = t->ev[pending_ev[i]]; /* a copy: t_recv may move t->ev */
			e = t_recv(t, p, se.task, clock++, cpu[p], se.msg_id, se.length);
			arcs[narcs++] = (struct arc){ pending_ev[i], e,
				mtime(mt, se.length, machine[se.task] == machine[p]) };
			pending_ev[i] = pending_ev[--npending];
			pending_to[i] = pending_to[npending];
			received = 1;
			break;
		}
		if (!received) {
			unsigned q = rnd(nproc);
			cpu[p] += rnd(50);
			e = t_send(t, p, q, clock++, cpu[p], nextmsg++, rnd(2000));
			if (npending < 256) {
				pending_ev[npending] = e;
				pending_to[npending++] = q;
			}
		}
		arcs[narcs++] = (struct arc){ last[p], e, (double)(t->ev[e].cpu - t->ev[last[p]].cpu) };
		last[p] = e;
	}
	for (unsigned p = 0; p < nproc; p++) {
		cpu[p] += rnd(30);
		size_t e = t_step(t, p, TRACE_TERMPROCESS, clock++, cpu[p]);
		arcs[narcs++] = (struct arc){ last[p], e, (double)(cpu[p] - t->ev[last[p]].cpu) };
	}
	return narcs;
}

/* Bellman-Ford style relaxation until nothing changes. */
static double brute_longest(size_t nvert, const struct arc *arcs, size_t narcs)
{
	double *d = calloc(nvert, sizeof *d), best = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t i = 0; i < narcs; i++)
			if (d[arcs[i].from] + arcs[i].w > d[arcs[i].to] + 1e-9) {
				d[arcs[i].to] = d[arcs[i].from] + arcs[i].w;
				changed = 1;
			}
	}
	for (size_t v = 0; v < nvert; v++)
		if (d[v] > best)
			best = d[v];
	free(d);
	return best;
}

static void random_computations_match_brute_force(void **state)
{
	(void)state;
	static struct arc arcs[4096];
	struct mtime_table m;
	mtime_default(&m);
	for (unsigned round = 0; round < 200; round++) {
		rng_state = round * 7919u + 1;
		unsigned nproc = 2 + rnd(8), steps = 10 + rnd(300);
		uint32_t machine[16];
		struct trace t;
		trace_init(&t, "random");
		for (unsigned p = 0; p < nproc; p++)
			machine[p] = 1 + p % 3;
		size_t narcs = random_computation(&t, nproc, steps, &m, arcs, machine);
		double expect = brute_longest(t.nev, arcs, narcs);
		struct outcome o = eval(&t, MEASURED, &m, 0);
		assert_float_equal(o.r.t_max, expect, 1e-6);
		/* The path's stretches and arcs add up to t_max. */
		double sum = 0;
		for (size_t i = 0; i < o.npath; i++)
			sum += o.path[i].cpu + o.path[i].out_weight;
		assert_float_equal(sum, o.r.t_max, 1e-6);
		free(o.path);
		/* One process per machine: sharing changes nothing. */
		struct outcome own = eval(&t, EACH_OWN, &m, 0), shared = eval(&t, EACH_OWN, &m, 1);
		assert_float_equal(own.r.t_max, shared.r.t_max, 1e-6);
		free(own.path);
		free(shared.path);
		/* One machine, zero delivery, sharing: the CPU is never idle. */
		struct mtime_table z = zero_table();
		struct outcome one = eval(&t, ONE, &z, 1);
		assert_float_equal(one.r.t_max, one.r.T, 1e-6);
		free(one.path);
		trace_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain_is_sequential),
		cmocka_unit_test(elapsed_on_one_clock_or_per_machine),
		cmocka_unit_test(more_processes_than_steps),
		cmocka_unit_test(independent_processes_give_n),
		cmocka_unit_test(one_machine_with_delivery_is_below_one),
		cmocka_unit_test(thesis_three_process_example),
		cmocka_unit_test(assign_predicts_a_moved_placement),
		cmocka_unit_test(transport_work_charged_to_machines),
		cmocka_unit_test(remote_frames_queue_for_the_link),
		cmocka_unit_test(contention_with_blocking),
		cmocka_unit_test(contention_across_machines),
		cmocka_unit_test(contention_unequal_lengths),
		cmocka_unit_test(contention_with_a_slice),
		cmocka_unit_test(contention_leaves_the_tick_its_share),
		cmocka_unit_test(external_wait_arc),
		cmocka_unit_test(remote_movedata_waits_its_round_trips),
		cmocka_unit_test(inconsistent_traces_are_rejected),
		cmocka_unit_test(cycle_is_reported),
		cmocka_unit_test(random_computations_match_brute_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * tests/guest/t_meter.c - the kernel's meter, with this test process as the
 * filter: the meter link of the processes it meters names itself, so the
 * kernel's trace batches arrive here as messages, are decoded with the
 * shared decoder (kernel/abi/tracewire.h) and checked record by record
 * (kernel/abi/trace.h).
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"
#include "kernel/abi/trace.h"
#include "kernel/abi/tracewire.h"

#define METER_CODE 0x3e7e
#define NOTICE_CODE 0x4e     /* gtest's notify link */
#define MAX_RECS 2048

struct rec {
	struct trace_header h;
	union {
		struct trace_send send;
		struct trace_queued queued;
		struct trace_receive receive;
		struct trace_receivecall receivecall;
		struct trace_process process;
		struct trace_dropped dropped;
		struct trace_link link;
		struct trace_movedata movedata;
		uint8_t raw[TRACE_MAX_SIZE];
	} b;
};

static struct rec recs[MAX_RECS];
/* nrecs: records kept in recs[]; nseen: every well-formed record that came,
 * kept or not (a long run sends more than MAX_RECS). */
static int nrecs, nseen, nbatches, bad_batches;
static uint32_t drops_told, dropped_recs; /* DROPPED traces seen, kept or not */
static uint8_t batch[MSG_MAX];
static int meter_link = -1;

static struct tw_decoder dec;

/* A batch from the kernel, decoded with the shared decoder
 * (kernel/abi/tracewire.c) into full records. */
static void collect(uint32_t len)
{
	nbatches++;
	if (tw_begin(&dec, batch, len) < 0 || dec.machine != 1) {
		bad_batches++;
		return;
	}
	union tw_full r;
	int got;
	while ((got = tw_next(&dec, &r)) == 1) {
		nseen++;
		if (r.h.traceType == TRACE_DROPPED) {
			struct trace_dropped dr;
			memcpy(&dr, r.bytes + TRACE_HEADER_SIZE, sizeof dr);
			drops_told += dr.count;
			dropped_recs++;
		}
		if (nrecs < MAX_RECS)
			memcpy(&recs[nrecs++], &r, r.h.size);
	}
	if (got < 0)
		bad_batches++;
}

/* The next message that is not a trace batch (batches are collected). */
static int next_message(struct message *m, void *buf, uint32_t size)
{
	for (;;) {
		*m = message_into(batch, sizeof batch);
		int r = receivemessage(m);
		if (r >= 0 && m->code == METER_CODE && (m->from & 0xffff) == 0) {
			collect((uint32_t)r);
			continue;
		}
		if (r >= 0)
			memcpy(buf, batch, (uint32_t)r < size ? (uint32_t)r : size);
		return r;
	}
}

/* Collect the batches still queued (call when nothing else is). */
static void drain_batches(void)
{
	struct message m = message_into(batch, sizeof batch);
	int r;
	while ((r = areceivemessage(&m)) >= 0) {
		if (m.code == METER_CODE)
			collect((uint32_t)r);
		m = message_into(batch, sizeof batch);
	}
}

static void reset(void)
{
	nrecs = nseen = nbatches = bad_batches = 0;
	drops_told = dropped_recs = 0;
	if (meter_link < 0)
		meter_link = createlink(METER_CODE, NULL, 0, 0);
}

/* Create argv metered with flags/batch, link 4 back to us, optionally link
 * 5 = extra; start it and return its task (and a link to it). */
static int start_metered(const char *const argv[], uint32_t flags, uint32_t batch_size, int extra,
			 uint32_t *task, int *child)
{
	int r = pm_create(argv, gtest_notify_link, task);
	int back = self_link(0xc0de);
	if (r == 0 && (r = pm_givelink(*task, 4, back)) >= 0)
		r = 0;
	destroylink(back);
	if (r == 0 && extra >= 0 && (r = pm_givelink(*task, 5, extra)) >= 0)
		r = 0;
	if (r == 0)
		r = pm_setmeter(*task, flags, meter_link, batch_size);
	if (r == 0)
		r = pm_start(*task);
	if (r < 0)
		return r;
	uint32_t hello;
	struct message m;
	r = next_message(&m, &hello, sizeof hello);
	*child = m.passed;
	return r < 0 ? r : 0;
}

static int wait_exits(int n)
{
	struct kr_exit_notice ex;
	struct message m;
	while (n > 0) {
		int r = next_message(&m, &ex, sizeof ex);
		if (r < 0)
			return r;
		if (m.code == NOTICE_CODE && r == (int)sizeof ex)
			n--;
	}
	drain_batches();
	return 0;
}

static int count(uint32_t type, uint32_t task)
{
	int n = 0;
	for (int i = 0; i < nrecs; i++)
		n += recs[i].h.traceType == type && (task == 0 || recs[i].h.task == task);
	return n;
}

static int has_msg(uint32_t type, uint64_t id)
{
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.traceType == type &&
		    ((type == TRACE_SEND && recs[i].b.send.msgId == id) ||
		     (type == TRACE_QUEUED && recs[i].b.queued.msgId == id) ||
		     (type == TRACE_RECEIVE && recs[i].b.receive.msgId == id)))
			return 1;
	return 0;
}

/* A metered process's CALLs (t_child caller): each SEND and the
 * RECEIVECALL of the wait behind it carry one time and one procTime, that
 * of when the caller has done its part (meter_send_waits): the message
 * leaves when its sender stops, so none of the sender's work after it runs
 * beside the receiver's in the analyses (before, the RECEIVECALL came
 * some hundred instructions later, its probe's and the hand-over's).  A
 * SENDMESSAGE (the hello) keeps its own time. */
static void a_waiting_call_leaves_when_its_sender_stops(void)
{
	const char *argv[] = { "t_child", "caller", "3", NULL };
	uint32_t task, q[16];
	int child, self = self_link(0xca11);
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, 0, self, &task, &child), 0);
	for (int i = 0; i < 3; i++) {
		struct message m;
		CHECK_EQ(next_message(&m, q, sizeof q), (int)sizeof q);
		CHECK(m.reply >= 0);
		CHECK_EQ(sendmessage(m.reply, q, sizeof q, -1), 0);
	}
	CHECK_EQ(wait_exits(1), 0);
	CHECK_EQ(bad_batches, 0);
	int pairs = 0, prev = -1;
	for (int i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		if (r->h.task != task)
			continue;
		if (prev >= 0 && recs[prev].h.traceType == TRACE_SEND && r->h.traceType == TRACE_RECEIVECALL) {
			CHECK_EQ(r->h.time, recs[prev].h.time);
			CHECK_EQ(r->h.procTime, recs[prev].h.procTime);
			CHECK_EQ(r->b.receivecall.blocking, 1);
			CHECK_EQ(recs[prev].b.send.length, sizeof q);
			pairs++;
		}
		prev = i;
	}
	CHECK_EQ(pairs, 3);
	destroylink(child);
	destroylink(self);
}

static void pingpong_traced_exactly(void)
{
	const uint32_t K = 40;
	const char *pong_argv[] = { "t_child", "pong", "40", NULL };
	const char *ping_argv[] = { "t_child", "ping", "40", NULL };
	uint32_t pong, ping;
	int pong_link, ping_link;
	reset();
	CHECK_EQ(start_metered(pong_argv, METER_FLAGS_ALL, 0, -1, &pong, &pong_link), 0);
	CHECK_EQ(start_metered(ping_argv, METER_FLAGS_ALL, 0, pong_link, &ping, &ping_link), 0);
	CHECK_EQ(wait_exits(2), 0);
	CHECK_EQ(bad_batches, 0);
	int sends = 0;
	for (int i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		CHECK_EQ(r->h.machine, 1);
		if (i > 0) {
			CHECK(r->h.seq > recs[i - 1].h.seq);     /* per-node sequence */
			CHECK(r->h.time >= recs[i - 1].h.time);
		}
		if (r->h.traceType == TRACE_SEND && r->b.send.toTask == pong) {
			sends++;
			CHECK_EQ(r->b.send.fromTask, ping);
			CHECK_EQ(r->b.send.length, 4);
			CHECK_EQ(r->b.send.sendLink, 5);
			CHECK(has_msg(TRACE_QUEUED, r->b.send.msgId));
			CHECK(has_msg(TRACE_RECEIVE, r->b.send.msgId));
		}
	}
	CHECK_EQ(sends, K);
	CHECK_EQ(count(TRACE_QUEUED, pong), K);
	CHECK_EQ(count(TRACE_RECEIVE, pong), K);
	CHECK_EQ(count(TRACE_RECEIVECALL, pong), K);
	CHECK_EQ(count(TRACE_TERMPROCESS, pong), 1);
	CHECK_EQ(count(TRACE_STARTPROCESS, ping), 1);
	/* PROCTIME never runs backwards for a process */
	uint64_t last = 0;
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.task == ping) {
			CHECK(recs[i].h.procTime >= last);
			last = recs[i].h.procTime;
		}
	CHECK(last > 0);
	destroylink(pong_link);
	destroylink(ping_link);
}

/* A metered server answering 3 CALLs with REPLYRECEIVE (t_child rrecho)
 * leaves the traces of one answering with SENDMESSAGE and RECEIVEMESSAGE
 * (echo): its SEND, RECEIVECALL and RECEIVE records in the same order
 * (QUEUED, stamped when a request comes, is left out: it may come before
 * or after the server's RECEIVECALL), every SEND to us. */
static void replyreceive_traced_as_send_then_receive(void)
{
	static const uint32_t want[] = { TRACE_SEND, /* the hello */
		TRACE_RECEIVECALL, TRACE_RECEIVE, TRACE_SEND, TRACE_RECEIVECALL, TRACE_RECEIVE,
		TRACE_SEND, TRACE_RECEIVECALL, TRACE_RECEIVE, TRACE_SEND };
	const char *modes[] = { "echo", "rrecho" };
	uint32_t seen[2][16];
	for (int k = 0; k < 2; k++) {
		const char *argv[] = { "t_child", modes[k], "3", NULL };
		uint32_t task, parent = 0;
		int child, n = 0;
		reset();
		CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, 0, -1, &task, &child), 0);
		for (uint32_t i = 0; i < 3; i++) {
			uint32_t q = 0x900 + i, a = 0;
			struct message m = message_into(&a, sizeof a);
			CHECK_EQ(call(child, &q, 4, -1, &m), 4);
			CHECK_EQ(a, q);
		}
		CHECK_EQ(wait_exits(1), 0);
		CHECK_EQ(bad_batches, 0);
		for (int i = 0; i < nrecs; i++) {
			const struct rec *r = &recs[i];
			uint32_t t = r->h.traceType;
			if (r->h.task != task || (t != TRACE_SEND && t != TRACE_RECEIVECALL && t != TRACE_RECEIVE))
				continue;
			CHECK(n < 16);
			seen[k][n++] = t;
			if (t == TRACE_SEND && !parent)
				parent = r->b.send.toTask;
			if (t == TRACE_SEND)
				CHECK_EQ(r->b.send.toTask, parent);
			if (t == TRACE_RECEIVECALL)
				CHECK_EQ(r->b.receivecall.blocking, 1);
		}
		CHECK_EQ(n, (int)(sizeof want / sizeof want[0]));
		CHECK(!memcmp(seen[k], want, sizeof want));
		destroylink(child);
	}
}

static void flags_off_no_traces(void)
{
	const char *pong_argv[] = { "t_child", "pong", "10", NULL };
	const char *ping_argv[] = { "t_child", "ping", "10", NULL };
	uint32_t pong, ping;
	int pong_link, ping_link;
	reset();
	CHECK_EQ(start_metered(pong_argv, 0, 0, -1, &pong, &pong_link), 0);
	CHECK_EQ(start_metered(ping_argv, 0, 0, pong_link, &ping, &ping_link), 0);
	CHECK_EQ(wait_exits(2), 0);
	CHECK_EQ(nbatches, 0);
	CHECK_EQ(nrecs, 0);
	destroylink(pong_link);
	destroylink(ping_link);
}

static void only_selected_events(void)
{
	const char *argv[] = { "t_child", "phased", "5", NULL };
	uint32_t task;
	int child;
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAG(TRACE_SEND), 0, -1, &task, &child), 0);
	uint32_t v;
	struct message m;
	CHECK_EQ(next_message(&m, &v, sizeof v), 4);          /* phase one done */
	CHECK_EQ(pm_setmeter(task, METER_FLAG(TRACE_SEND) | METER_FLAG(TRACE_RECEIVE), -1, 0), 0);
	CHECK_EQ(sendmessage(child, &v, 4, -1), 0);           /* go on */
	CHECK_EQ(wait_exits(1), 0);
	/* SENDs: hello, 5 in phase one, the report, 5 in phase two */
	CHECK_EQ(count(TRACE_SEND, task), 12);
	/* RECEIVEs only once changed: the "go" and 5 in phase two */
	CHECK_EQ(count(TRACE_RECEIVE, task), 6);
	CHECK_EQ(count(TRACE_RECEIVECALL, task), 0);
	CHECK_EQ(count(TRACE_TERMPROCESS, task), 0);
	destroylink(child);
}

static void children_inherit(void)
{
	const char *argv[] = { "t_child", "spawner", NULL };
	uint32_t task;
	int child;
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, 0, -1, &task, &child), 0);
	CHECK_EQ(wait_exits(1), 0);
	uint32_t grandchild = 0;
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.traceType == TRACE_CREATEPROCESS && recs[i].h.task == task)
			grandchild = recs[i].b.process.childTask;
	CHECK(grandchild != 0);
	CHECK_EQ(count(TRACE_TERMPROCESS, grandchild), 1);     /* metered too */
	CHECK_EQ(count(TRACE_STARTPROCESS, grandchild), 1);
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.traceType == TRACE_TERMPROCESS && recs[i].h.task == grandchild)
			CHECK_EQ(recs[i].b.process.status, 3);
	destroylink(child);
}

static void exit_flushes_partial_batch(void)
{
	const char *argv[] = { "t_child", "exit", "0", NULL };
	uint32_t task;
	int child;
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, METER_BATCH_MAX, -1, &task, &child), 0);
	struct kr_exit_notice ex;
	struct message m;
	CHECK_EQ(next_message(&m, &ex, sizeof ex), (int)sizeof ex);   /* the notice... */
	CHECK_EQ(m.code, NOTICE_CODE);
	CHECK_EQ(count(TRACE_TERMPROCESS, task), 1);      /* ...came after the flushed batch */
	CHECK(nrecs < METER_BATCH_MAX);
	destroylink(child);
}

static void meter_stats(uint32_t s[4])
{
	uint32_t kind = KR_METERSTATS;
	struct message m = message_into(s, 16);
	call(LINK_CONSOLE, &kind, 4, -1, &m);
}

static uint32_t pingpong_batches(uint32_t k, uint32_t batch_size, uint32_t *traces)
{
	char n[12];
	snprintf(n, sizeof n, "%u", (unsigned)k);
	const char *pong_argv[] = { "t_child", "pong", n, NULL };
	const char *ping_argv[] = { "t_child", "ping", n, NULL };
	uint32_t pong, ping, before[4], after[4];
	int pong_link, ping_link;
	reset();
	meter_stats(before);
	if (start_metered(pong_argv, METER_FLAGS_ALL, batch_size, -1, &pong, &pong_link) < 0 ||
	    start_metered(ping_argv, METER_FLAGS_ALL, batch_size, pong_link, &ping, &ping_link) < 0 ||
	    wait_exits(2) < 0)
		return 0;
	meter_stats(after);
	destroylink(pong_link);
	destroylink(ping_link);
	*traces = after[0] - before[0];
	return after[1] - before[1];
}

static void batch_of_one_is_immediate(void)
{
	/* 10 messages make about 45 batches: under QUEUE_MAX, so none wait */
	uint32_t traces = 0, batches = pingpong_batches(10, 1, &traces);
	CHECK(traces >= 40);
	CHECK_EQ(batches, traces);
	CHECK_EQ(nbatches, (int)batches);
	CHECK_EQ(nseen, (int)traces);
}

static void batching_reduces_messages(void)
{
	uint32_t traces = 0, batches = pingpong_batches(300, 0, &traces);
	CHECK(batches > 0);
	CHECK(traces >= 1200);
	printf("meter: %u traces in %u batches (%u:1)\n", (unsigned)traces, (unsigned)batches,
	       (unsigned)(traces / batches));
	CHECK(traces / batches >= 20);                   /* thesis: more than 20:1 */
	CHECK_EQ(nseen, (int)traces);                    /* and none lost */
}

static void setmeter_errors(void)
{
	const char *argv[] = { "t_child", "exit", "0", NULL };
	uint32_t task;
	reset();
	CHECK_EQ(pm_create(argv, gtest_notify_link, &task), 0);
	CHECK_EQ(pm_setmeter(task, 1u << 0, meter_link, 0), E_INVAL);     /* no type 0 */
	CHECK_EQ(pm_setmeter(task, 1u << 20, meter_link, 0), E_INVAL);
	CHECK_EQ(pm_setmeter(task, METER_FLAGS_ALL, meter_link, METER_BATCH_MAX + 1), E_INVAL);
	CHECK_EQ(pm_setmeter(task, METER_FLAGS_ALL, -1, 0), E_BADREQ);      /* nowhere to send */
	CHECK_EQ(pm_setmeter(0x10001, METER_FLAGS_ALL, meter_link, 0), E_DEAD); /* not ours */
	CHECK_EQ(pm_kill(task), 0);
	CHECK_EQ(wait_exits(1), 0);
}

static void dead_filter_drops_are_counted(void)
{
	const char *sink_argv[] = { "t_child", "exit", "0", NULL };
	const char *argv[] = { "t_child", "phased", "30", NULL };
	uint32_t sink, task, before[4], after[4];
	int sink_link, child;
	CHECK_EQ(spawn_child(sink_argv, &sink, &sink_link), 0);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(sink, &ex), 0);                 /* the "filter" is gone */
	meter_stats(before);
	int saved = meter_link;
	meter_link = sink_link;
	int r = start_metered(argv, METER_FLAGS_ALL, 0, -1, &task, &child);
	meter_link = saved;
	CHECK_EQ(r, 0);
	uint32_t v;
	struct message m;
	CHECK_EQ(next_message(&m, &v, sizeof v), 4);
	CHECK_EQ(sendmessage(child, &v, 4, -1), 0);
	CHECK_EQ(wait_exits(1), 0);
	meter_stats(after);
	CHECK(after[0] - before[0] > 100);
	CHECK_EQ(after[2] - before[2], after[0] - before[0]);  /* every trace counted as dropped */
	CHECK_EQ(after[3], 0);                                  /* nothing held */
	destroylink(sink_link);
	destroylink(child);
}

/* The record of `type` from `task` whose link (CREATELINK/DESTROYLINK) has
 * code `code`, or NULL. */
static const struct rec *link_rec(uint32_t type, uint32_t task, uint32_t code)
{
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.traceType == type && recs[i].h.task == task && recs[i].b.link.code == code)
			return &recs[i];
	return NULL;
}

static void link_data_and_stop_events(void)
{
	const char *argv[] = { "t_child", "linkwork", NULL };
	uint32_t task, v = 0;
	int child;
	struct message m;
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, 0, -1, &task, &child), 0);
	CHECK_EQ(next_message(&m, &v, sizeof v), 4);            /* its link work is done */
	CHECK_EQ(pm_stop(task), 0);
	CHECK_EQ(pm_start(task), 0);                             /* resume */
	CHECK_EQ(sendmessage(child, &v, 4, -1), 0);
	CHECK_EQ(wait_exits(1), 0);
	const struct rec *c = link_rec(TRACE_CREATELINK, task, 0x1111);
	const struct rec *d = link_rec(TRACE_DESTROYLINK, task, 0x1111);
	CHECK(c && d);
	CHECK_EQ(c->b.link.toTask, task);
	CHECK_EQ(c->b.link.dataLen, 64);
	CHECK_EQ(c->b.link.rights, LINK_READ | LINK_WRITE);
	CHECK_EQ(d->b.link.link, c->b.link.link);
	CHECK(d->h.seq > c->h.seq);
	/* the move is traced; the refused one (E_BOUNDS) had no effect and no trace */
	int moves = 0;
	for (int i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		if (r->h.traceType != TRACE_MOVEDATA)
			continue;
		moves++;
		CHECK_EQ(r->h.task, task);
		CHECK_EQ(r->b.movedata.fromTask, task);
		CHECK_EQ(r->b.movedata.toTask, task);
		CHECK_EQ(r->b.movedata.fromLink, c->b.link.link);
		CHECK_EQ(r->b.movedata.toLink, c->b.link.link);
		CHECK_EQ(r->b.movedata.length, 16);
		CHECK_EQ((int32_t)r->b.movedata.status, 0);
		CHECK(r->h.seq > c->h.seq && r->h.seq < d->h.seq);
	}
	CHECK_EQ(moves, 1);
	CHECK_EQ(count(TRACE_STOPPROCESS, task), 1);
	CHECK_EQ(count(TRACE_STARTPROCESS, task), 2);            /* the start and the resume */
	for (int i = 0; i < nrecs; i++)
		if (recs[i].h.traceType == TRACE_STOPPROCESS)
			CHECK_EQ(recs[i].b.process.childTask, task);
	destroylink(child);
}

/* A process that makes a few traces and then waits: the kernel's 100 ms
 * flush (METER_FLUSH_NS) must send its partial batch without its end. */
static void timer_flushes_a_waiting_process(void)
{
	const char *argv[] = { "t_child", "linkwork", NULL };
	uint32_t task, v = 0;
	int child;
	uint64_t t0, t;
	reset();
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, METER_BATCH_MAX, -1, &task, &child), 0);
	struct message m;
	CHECK_EQ(next_message(&m, &v, sizeof v), 4);            /* it waits for us now */
	node_time(&t0, NULL);
	do {                                                     /* up to 1 s for the flush */
		drain_batches();
		node_time(&t, NULL);
	} while (!link_rec(TRACE_DESTROYLINK, task, 0x1111) && t - t0 < 1000000000ull);
	CHECK(link_rec(TRACE_CREATELINK, task, 0x1111) != NULL);
	CHECK(link_rec(TRACE_DESTROYLINK, task, 0x1111) != NULL);
	CHECK(nrecs < METER_BATCH_MAX);                           /* a partial batch */
	CHECK_EQ(count(TRACE_TERMPROCESS, task), 0);              /* and it still runs */
	CHECK_EQ(sendmessage(child, &v, 4, -1), 0);
	CHECK_EQ(wait_exits(1), 0);
	destroylink(child);
}

/* Spin for `ms` of node time without receiving. */
static void spin_ms(uint32_t ms)
{
	uint64_t t0, t;
	node_time(&t0, NULL);
	do
		node_time(&t, NULL);
	while (t - t0 < (uint64_t)ms * 1000000u);
}

static void backed_up_drops_reach_the_filter(void)
{
	const char *argv[] = { "t_child", "selfloop", "3000", NULL };
	uint32_t task, before[4], after[4];
	int child;
	reset();
	meter_stats(before);
	CHECK_EQ(start_metered(argv, METER_FLAGS_ALL, 0, -1, &task, &child), 0);
	spin_ms(3000);           /* our queue fills with batches; the kernel must drop */
	meter_stats(after);
	uint32_t dropped = after[2] - before[2];
	CHECK(dropped > 0);
	CHECK_EQ(wait_exits(1), 0); /* now we drain: held batches come */
	spin_ms(300);               /* and whatever the 100 ms flush sends */
	drain_batches();
	meter_stats(after);
	CHECK_EQ(after[2] - before[2], dropped);    /* no more drops once drained */
	CHECK_EQ(drops_told, dropped);              /* the count reached the filter */
	CHECK_EQ((uint32_t)nseen - dropped_recs + dropped, after[0] - before[0]);
	destroylink(child);
}

GTESTS(
	{ "ping-pong traced exactly (SEND, QUEUED, RECEIVE by msgId)", pingpong_traced_exactly },
	{ "replyreceive traced as its SEND, then RECEIVECALL, RECEIVE", replyreceive_traced_as_send_then_receive },
	{ "a waiting call's SEND and RECEIVECALL stamped alike, when it stops", a_waiting_call_leaves_when_its_sender_stops },
	{ "flags off: no traces", flags_off_no_traces },
	{ "only selected events; flags changed while running", only_selected_events },
	{ "children inherit meter link and flags", children_inherit },
	{ "process end flushes its partial batch", exit_flushes_partial_batch },
	{ "batch of one is sent at once", batch_of_one_is_immediate },
	{ "batching: more than 20 traces a message", batching_reduces_messages },
	{ "setmeter errors", setmeter_errors },
	{ "dead filter: drops are counted", dead_filter_drops_are_counted },
	{ "link, data-area, stop and resume events traced", link_data_and_stop_events },
	{ "a waiting process's partial batch is flushed by the timer", timer_flushes_a_waiting_process },
	{ "backed-up path: drops reach the filter as a DROPPED trace", backed_up_drops_reach_the_filter },
);
GTEST_MAIN("meter")

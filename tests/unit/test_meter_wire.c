/*
 * tests/unit/test_meter_wire.c - the meter's compact records: what the
 * encoder (meter/encode.h, through meter/batch.c's pages) writes, the one
 * decoder (kernel/abi/tracewire.c) must give back as the full records of
 * kernel/abi/trace.h, byte for byte, for every trace type, with extreme
 * values (every field at 0 and at its largest, values the compact body
 * cannot hold, a fromTask or toTask that is not the traced task), time
 * and procTime deltas that overflow their field, sequence numbers taken
 * by another destination or wrapping, a record stamped again; and it must
 * refuse batches that are cut or make no sense.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "meter/encode.h"
#include "test_meter_dest.h"

#define MACHINE 0xfffe

/* What encode.h reads of the kernel: the running process (none here, so a
 * process's procTime is its cpu_ns) and the runnable count. */
struct proc *current;
static uint32_t load;
uint32_t proc_runnable_count(void)
{
	return load;
}
const uint32_t *const proc_runnable = &load;

/* The process a stamp describes, as the probes see it (its procTime is
 * its cpu_ns, its context the stamp's); ENC calls an encoder for it at the
 * stamp's time and keeps its context in the stamp's. */
static struct proc proc;
static struct proc *proc_of(const struct meter_stamp *s)
{
	proc.task = s->task;
	proc.cpu_ns = s->proc_time;
	proc.meter_ctx = *s->ctx;
	load = s->load;
	return &proc;
}
static uint8_t *kept(const struct meter_stamp *s, uint8_t *r)
{
	*s->ctx = proc.meter_ctx;
	return r;
}
#define ENC(fn, d, s, ...) kept(s, fn(proc_of(s), d, (s)->time, __VA_ARGS__))

static uint8_t *pages[METER_DESTS + 2]; /* each its own allocation (AddressSanitizer) */
static int pages_given;
static void *page(void)
{
	if (pages_given == METER_DESTS + 2)
		return NULL;
	pages[pages_given] = malloc(MSG_MAX);
	return pages[pages_given++];
}

/* Every batch shipped, decoded. */
#define MAX_GOT 256
static union tw_full got[MAX_GOT];
static uint32_t ngot, nbatches, batch_bytes;
static int32_t ship(const struct link *to, uint8_t **p, uint32_t len)
{
	(void)to;
	static struct tw_decoder dec;
	assert_int_equal(tw_begin(&dec, *p, len), 0);
	int r;
	while (ngot < MAX_GOT && (r = tw_next(&dec, &got[ngot])) == 1)
		ngot++;
	assert_int_equal(r, 0);
	nbatches++;
	batch_bytes += len;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	batch_init(MACHINE, ship, page);
	ngot = nbatches = batch_bytes = 0;
	return 0;
}

/* The full record the kernel's probe made before compact records. */
static union tw_full full(const struct meter_stamp *s, uint32_t type, uint32_t seq, const void *body,
			  uint32_t body_len)
{
	union tw_full f;
	memset(&f, 0, sizeof f);
	f.h = (struct trace_header){ .machine = MACHINE, .traceType = type, .time = s->time,
				     .procTime = s->proc_time, .seq = seq, .load = s->load, .task = s->task,
				     .size = TRACE_HEADER_SIZE + body_len };
	memcpy(f.bytes + TRACE_HEADER_SIZE, body, body_len);
	return f;
}

static void same(const union tw_full *want, const union tw_full *have)
{
	assert_int_equal(have->h.size, want->h.size);
	assert_int_equal(have->h.time, want->h.time);
	assert_int_equal(have->h.procTime, want->h.procTime);
	assert_int_equal(have->h.seq, want->h.seq);
	assert_memory_equal(have->bytes, want->bytes, want->h.size);
}

static const uint32_t values32[] = { 0, 1, 0xfe, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0xfffffffe, 0xffffffff };
#define NV (sizeof values32 / sizeof values32[0])
static const uint64_t values64[] = { 0, 1, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
				     0xffffffffffffffffull };
#define NV64 (sizeof values64 / sizeof values64[0])

/* Encode every type with field values from the tables (value i for
 * round i), ship and compare each decoded record with the full record. */
static void every_type_round_trips(void **state)
{
	(void)state;
	int d = dest_for(1, METER_BATCH_MAX);
	static struct meter_pctx ctx[NV];
	union tw_full want[MAX_GOT];
	uint32_t n = 0;
	meter_seq = 0xfffffff0u; /* the node's sequence wraps on the way */
	for (uint32_t i = 0; i < NV; i++) {
		uint32_t v = values32[i], w = values32[NV - 1 - i];
		uint64_t id = values64[i % NV64];
		struct meter_stamp s = { .time = values64[i % NV64], .proc_time = values64[(i + 3) % NV64],
					 .task = w, .load = v & 0xff, .ctx = &ctx[i] };
		/* the kernel's objects the probes are given: a message from the
		 * traced task to it, then from and to others with a link */
		for (int other = 0; other < 2; other++) {
			struct kmsg m = { .from = other ? v : s.task, .to = other ? v : s.task, .code = w,
					  .id = id, .len = v, .has_link = other, .link = { .task = w } };
			int32_t pass = (int32_t)w;
			proc.queue.len = other ? w : v;
			struct trace_send b = { .fromTask = m.from, .toTask = m.to, .code = w, .sendLink = v,
						.passLink = other ? w : NO_LINK, .msgId = id, .length = v,
						.passTask = other ? w : 0 };
			want[n] = full(&s, TRACE_SEND, meter_seq, &b, sizeof b);
			ENC(enc_send, d, &s, (int32_t)v, &m, pass);
			n++;
			struct trace_queued q = { .fromTask = m.from, .toTask = m.to, .msgId = id, .length = v,
						  .queueLen = proc.queue.len, .code = w };
			want[n] = full(&s, TRACE_QUEUED, meter_seq, &q, sizeof q);
			ENC(enc_queued, d, &s, &m);
			n++;
			struct trace_receivecall rc = { .toTask = s.task, .queueLen = proc.queue.len, .blocking = w };
			want[n] = full(&s, TRACE_RECEIVECALL, meter_seq, &rc, sizeof rc);
			ENC(enc_receivecall, d, &s, (int)w);
			n++;
			struct trace_receive r = { .fromTask = m.from, .toTask = m.to, .code = w, .msgId = id,
						   .length = v, .passLink = (int32_t)pass >= 0 ? w : NO_LINK,
						   .queueLen = proc.queue.len };
			want[n] = full(&s, TRACE_RECEIVE, meter_seq, &r, sizeof r);
			ENC(enc_receive, d, &s, &m, pass);
			n++;
		}
		struct link l = { .task = w, .code = v, .data_len = w, .rights = w };
		for (uint32_t t = TRACE_CREATELINK; t <= TRACE_DESTROYLINK; t++) {
			struct trace_link tl = { .link = v, .toTask = w, .code = v, .dataLen = w, .rights = w };
			want[n] = full(&s, t, meter_seq, &tl, sizeof tl);
			ENC(enc_link, d, &s, t, (int32_t)v, &l);
			n++;
		}
		struct link to = { .task = v };
		struct trace_movedata m = { .fromTask = i % 2 ? w : 0, .toTask = v, .fromLink = w, .toLink = v,
					    .length = w, .status = v };
		want[n] = full(&s, TRACE_MOVEDATA, meter_seq, &m, sizeof m);
		ENC(enc_movedata, d, &s, i % 2 ? &l : NULL, &to, w, v, w, (int32_t)v);
		n++;
		for (uint32_t t = TRACE_CREATEPROCESS; t <= TRACE_STOPPROCESS; t++) {
			struct trace_process p = { .parentTask = v, .childTask = w, .reason = w, .status = v };
			want[n] = full(&s, t, meter_seq, &p, sizeof p);
			ENC(enc_process, d, &s, t, v, w, w, (int32_t)v);
			n++;
		}
		struct trace_mark mk = { .token = v };
		want[n] = full(&s, TRACE_MARK, meter_seq, &mk, sizeof mk);
		assert_int_equal(batch_mark(d, &s, v), 0);
		n++;
	}
	batch_ship(d);
	assert_int_equal(ngot, n);
	for (uint32_t i = 0; i < n; i++)
		same(&want[i], &got[i]);
	assert_true(nbatches > 1);
	batch_unuse(d);
}

/* The usual stream (one process, time moving on by little) takes 32 bytes
 * at most a record, and one BASE and one CTX a batch. */
static void usual_records_are_compact(void **state)
{
	(void)state;
	int d = dest_for(2, 32);
	struct meter_pctx ctx = { 0 };
	struct meter_stamp s = { .time = 5000000000ull, .proc_time = 3000000000ull, .task = 0x10004, .load = 2,
				 .ctx = &ctx };
	struct kmsg msg = { .from = s.task, .to = 0x20001, .code = 5, .id = 0x1000000000022ull, .len = 64 };
	for (int i = 0; i < 32; i++) {
		s.time += 1000;
		s.proc_time += 700;
		ENC(enc_send, d, &s, 4, &msg, -1);
	}
	assert_int_equal(nbatches, 1);
	assert_int_equal(batch_bytes, sizeof(struct meter_batch_header) + sizeof(struct tw_base) +
					      sizeof(struct tw_ctx) + 32 * TW_RECORD_MAX);
	assert_int_equal(got[31].h.time, s.time);
	assert_int_equal(got[31].h.procTime, s.proc_time);
	batch_unuse(d);
}

/* Time and procTime deltas that do not fit (2^31 and more, 2^32 and more,
 * backwards), a batch held over them: every value comes out exact. */
static void deltas_that_overflow(void **state)
{
	(void)state;
	int d = dest_for(3, METER_BATCH_MAX);
	struct meter_pctx ctx = { 0 };
	static const uint64_t steps[] = { 0, 1, 0x7fffffff, 0x80000000ull, 0xffffffffull, 0x100000005ull, 7,
					  0x123456789abull };
	struct meter_stamp s = { .time = 10, .proc_time = 3, .task = 0x10009, .ctx = &ctx };
	uint64_t times[16], procs[16];
	uint32_t n = 0;
	for (uint32_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		s.time += steps[i];
		s.proc_time += steps[(i + 2) % (sizeof steps / sizeof steps[0])];
		times[n] = s.time;
		procs[n++] = s.proc_time;
		ENC(enc_receivecall, d, &s, 1);
	}
	s.time -= 0x200000000ull; /* a clock that went back */
	times[n] = s.time;
	procs[n++] = s.proc_time;
	ENC(enc_receivecall, d, &s, 1);
	batch_ship(d);
	assert_int_equal(ngot, n);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(got[i].h.time, times[i]);
		assert_int_equal(got[i].h.procTime, procs[i]);
		assert_int_equal(got[i].h.seq, got[0].h.seq + i);
	}
	batch_unuse(d);
}

/* Two destinations taking the node's sequence numbers in turn, two
 * processes sharing one: sequence numbers, tasks and procTimes exact. */
static void interleaved_destinations_and_processes(void **state)
{
	(void)state;
	int a = dest_for(4, METER_BATCH_MAX), b = dest_for(5, METER_BATCH_MAX);
	/* a task traced into two destinations has a context in each (one
	 * context is one destination's: batch.h, meter_fast_epoch) */
	struct meter_pctx c1[2] = { { 0 }, { 0 } }, c2[2] = { { 0 }, { 0 } };
	struct meter_stamp s1 = { .time = 100, .proc_time = 50, .task = 0x30001, .load = 1 };
	struct meter_stamp s2 = { .time = 100, .proc_time = 0x1000000000ull, .task = 0x30002, .load = 3 };
	uint32_t seq0 = meter_seq;
	for (int i = 0; i < 6; i++) {
		s1.time = s2.time = 100 + (uint64_t)i * 10;
		s1.proc_time += 5;
		s2.proc_time += 9;
		s1.ctx = &c1[0];
		ENC(enc_receivecall, a, &s1, 1);                    /* seq0 + 3i     */
		s2.ctx = &c2[i % 2];
		ENC(enc_receivecall, i % 2 ? a : b, &s2, 0);        /* seq0 + 3i + 1 */
		s1.ctx = &c1[1];
		ENC(enc_receivecall, b, &s1, 1);                    /* seq0 + 3i + 2 */
	}
	batch_ship(a);
	uint32_t na = ngot;
	batch_ship(b);
	assert_int_equal(ngot, 18);
	for (uint32_t i = 0; i < ngot; i++) {
		const struct trace_header *h = &got[i].h;
		uint32_t k = h->seq - seq0, round = k / 3;
		const struct meter_stamp *s = k % 3 == 1 ? &s2 : &s1;
		assert_int_equal(h->task, s->task);
		assert_int_equal(h->load, s->load);
		assert_int_equal(h->time, 100 + round * 10);
		uint64_t base = k % 3 == 1 ? 0x1000000000ull : 50;
		assert_int_equal(h->procTime, base + (round + 1) * (k % 3 == 1 ? 9 : 5));
		assert_true(i < na ? (k % 3 == 0 || (k % 3 == 1 && round % 2)) : (k % 3 == 2 || (k % 3 == 1 && !(round % 2))));
	}
	batch_unuse(a);
	batch_unuse(b);
}

/* One kernel call's records at its one clock reading (struct meter_call,
 * meter/batch.h): a process's second record reuses its first's deltas;
 * another process's record in between has its own procTime; a batch that
 * leaves during the call makes the next probe read the clock again and
 * forgets the deltas, and so does a record the slow path writes. */
static void one_call_shares_its_reading(void **state)
{
	(void)state;
	int d = dest_for(8, 5);
	struct proc a = { .task = 0x10021, .cpu_ns = 1000 }, b = { .task = 0x10022, .cpu_ns = 0x500000000ull };
	struct kmsg msg = { .from = a.task, .to = a.task, .code = 3, .id = 0x77, .len = 12 };
	enc_receivecall(&a, d, 4000, 1); /* a's CTX and the batch's BASE: the call's records take the fast path */
	meter_call = (struct meter_call){ .on = 2, .ns = 5000 };
	a.cpu_ns = 1400;
	enc_send(&a, d, 5000, 1, &msg, -1);
	assert_ptr_equal(meter_call.p, &a);
	enc_queued(&a, d, 5000, &msg);         /* a's deltas reused */
	enc_queued(&b, d, 5000, &msg);         /* b's CTX: the slow path forgets a's */
	assert_null(meter_call.p);
	assert_int_equal(meter_call.on, 2);
	assert_int_equal(nbatches, 0);
	enc_receive(&a, d, 5000, &msg, -1);    /* the fifth trace: the batch goes */
	assert_int_equal(nbatches, 1);
	assert_int_equal(meter_call.on, 1);    /* the clock to read again */
	assert_null(meter_call.p);
	meter_call = (struct meter_call){ 0 };
	assert_int_equal(ngot, 5);
	const uint64_t times[] = { 4000, 5000, 5000, 5000, 5000 },
		       procs[] = { 1000, 1400, 1400, 0x500000000ull, 1400 };
	const uint32_t tasks[] = { a.task, a.task, a.task, b.task, a.task },
		       types[] = { TRACE_RECEIVECALL, TRACE_SEND, TRACE_QUEUED, TRACE_QUEUED, TRACE_RECEIVE };
	for (uint32_t i = 0; i < ngot; i++) {
		assert_int_equal(got[i].h.traceType, types[i]);
		assert_int_equal(got[i].h.time, times[i]);
		assert_int_equal(got[i].h.procTime, procs[i]);
		assert_int_equal(got[i].h.task, tasks[i]);
		assert_int_equal(got[i].h.seq, got[0].h.seq + i);
	}
	struct trace_queued q;
	memcpy(&q, got[2].bytes + TRACE_HEADER_SIZE, sizeof q);
	assert_int_equal(q.msgId, 0x77);
	assert_int_equal(q.length, 12);
	batch_unuse(d);
}

/* batch_restamp: the record held decodes with its new time and procTime. */
static void restamped_record(void **state)
{
	(void)state;
	int d = dest_for(6, 8);
	struct meter_pctx ctx = { 0 };
	struct meter_stamp s = { .time = 0xfffffffffull, .proc_time = 77, .task = 0x10003, .ctx = &ctx };
	uint32_t ships = batch_ships(d);
	struct kmsg msg = { .from = s.task, .to = 0x10004, .code = 1, .id = 9 };
	uint8_t *r = ENC(enc_send, d, &s, 4, &msg, -1);
	uint8_t *w = ENC(enc_receivecall, d, &s, 1);
	assert_non_null(r);
	batch_restamp(d, r, ships, &ctx, s.time + 0x7fffffffull + 500, 77 + 400);
	batch_restamp(d, w, ships, &ctx, s.time + 0x7fffffffull + 500, 77 + 400);
	batch_ship(d);
	assert_int_equal(ngot, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(got[i].h.time, s.time + 0x7fffffffull + 500);
		assert_int_equal(got[i].h.procTime, 77 + 400);
	}
	batch_unuse(d);
}

/* A batch to decode by hand: header, BASE, CTX, one RECEIVECALL. */
static uint32_t handmade(uint8_t *b)
{
	struct tw_base base = { .type = TW_BASE, .seq = 5, .time_lo = 100 };
	struct tw_ctx c = { .type = TW_CTX, .pid = 2, .task = 0x10002, .base_lo = 7 };
	struct tw_head h = { .type = TRACE_RECEIVECALL, .pid = 2, .dt = 1, .dproc = 1 };
	struct tw_receivecall rc = { .queueLen = 1, .blocking = 1 };
	uint32_t at = sizeof(struct meter_batch_header);
	memcpy(b + at, &base, sizeof base), at += sizeof base;
	memcpy(b + at, &c, sizeof c), at += sizeof c;
	memcpy(b + at, &h, sizeof h), at += sizeof h;
	memcpy(b + at, &rc, sizeof rc), at += sizeof rc;
	struct meter_batch_header bh = { .magic = METER_BATCH_MAGIC, .version = METER_BATCH_COMPACT, .count = 1,
					 .machine = 1, .bytes = at - (uint32_t)sizeof bh };
	memcpy(b, &bh, sizeof bh);
	return at;
}

static int decode_all(const uint8_t *b, uint32_t len)
{
	static struct tw_decoder dec;
	union tw_full f;
	int r = tw_begin(&dec, b, len);
	while (r == 0 && (r = tw_next(&dec, &f)) == 1)
		r = 0;
	return r;
}

static void bad_batches_are_refused(void **state)
{
	(void)state;
	uint8_t b[256];
	uint32_t len = handmade(b);
	assert_int_equal(decode_all(b, len), 0);
	assert_int_equal(decode_all(b, len - 4), TW_ERR_HEADER);           /* cut */
	uint8_t c[256];
	memcpy(c, b, len);
	c[16 + 32] = 0x3f;                                                   /* unknown type */
	assert_int_equal(decode_all(c, len), TW_ERR_TYPE);
	memcpy(c, b, len);
	c[16 + 32 + 2] = 3;                                                  /* a pid with no CTX */
	assert_int_equal(decode_all(c, len), TW_ERR_CONTEXT);
	memcpy(c, b, len);
	c[16] = TW_EXT;                                                      /* an EXT first */
	assert_int_equal(decode_all(c, len), TW_ERR_CONTEXT);
	memcpy(c, b, len);
	c[6] = 2;                                                            /* count 2, one record */
	assert_int_equal(decode_all(c, len), TW_ERR_COUNT);
	memcpy(c, b, len);
	c[4] = 1;                                                            /* version 1 */
	assert_int_equal(decode_all(c, len), TW_ERR_HEADER);
	/* an EXT past the record's end */
	memcpy(c, b, len);
	struct tw_ext e = { .type = TW_EXT, .offset = TRACE_HEADER_SIZE + 16, .value = 1 };
	memcpy(c + len, &e, sizeof e);
	struct meter_batch_header bh;
	memcpy(&bh, c, sizeof bh);
	bh.bytes += sizeof e;
	memcpy(c, &bh, sizeof bh);
	assert_int_equal(decode_all(c, len + sizeof e), TW_ERR_CONTEXT);
	/* a record cut short */
	bh.bytes -= sizeof e + 4;
	memcpy(c, &bh, sizeof bh);
	assert_int_equal(decode_all(c, len - 4), TW_ERR_OVERRUN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(every_type_round_trips, setup),
		cmocka_unit_test_setup(usual_records_are_compact, setup),
		cmocka_unit_test_setup(deltas_that_overflow, setup),
		cmocka_unit_test_setup(interleaved_destinations_and_processes, setup),
		cmocka_unit_test_setup(one_call_shares_its_reading, setup),
		cmocka_unit_test_setup(restamped_record, setup),
		cmocka_unit_test_setup(bad_batches_are_refused, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

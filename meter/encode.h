/*
 * meter/encode.h - the probes' writing of the meter's compact records
 * (kernel/abi/tracewire.h): meter_reserve, the fast path that reserves a
 * record for process p in its destination's batch and writes its head,
 * and one inline function per trace type that takes the full record's
 * field values, stores the body in place and adds an EXT for any value the
 * compact body cannot hold or derive.  The kernel's probes (meter.c) call
 * these with the kernel's objects' values; the unit test
 * tests/unit/test_meter_wire.c calls the same functions with extreme
 * values (giving them a process, the runnable count and `current`) and
 * decodes the result with the one decoder (kernel/abi/tracewire.c), so
 * the kernel's own path and every escape decision are tested where they
 * are made.
 *
 * The fast path, shaped for i386's few registers: the deltas are stored
 * before they are checked (a record the slow path then writes again lies
 * at the same place or later: nothing of it is read; and a page always
 * has room for them, batch.c's room_for), and one compare of
 * the process's batch epoch with meter_fast_epoch covers a batch's first
 * record, a process's first record in it, another destination's record
 * in between, a backed-up batch and drops to tell (batch.h: d is the
 * process's one destination, whose context is cleared when it changes).
 *
 * Each enc_* returns the record while its batch holds it (batch_restamp),
 * else NULL (dropped, or gone with its batch).
 */
#ifndef DPM_METER_ENCODE_H
#define DPM_METER_ENCODE_H
#include "batch.h"

#define ENC static inline __attribute__((always_inline))

/* p's procTime at now (p's CPU so far, the running process's current run
 * included). */
ENC uint64_t meter_proc_time(const struct proc *p, uint64_t now)
{
	return p == current ? p->cpu_ns + (now - p->run_start) : p->cpu_ns;
}

/* meter_reserve's other cases, out of the probe's way. */
static __attribute__((noinline, cold)) uint8_t *meter_reserve_slow(struct proc *p, int dest, uint32_t type,
								    uint64_t now)
{
	struct meter_stamp s = { .time = now, .proc_time = meter_proc_time(p, now), .task = p->task,
				 .load = proc_runnable_count(), .ctx = &p->meter_ctx };
	return batch_reserve_slow(dest, &s, type);
}

typedef uint32_t tw_word32 __attribute__((may_alias));

/* A record of `type` for p at time now in batch d, its head written: its
 * address (the body at + TW_HEAD_SIZE), or NULL when the trace was
 * dropped (and counted).  The deltas fit when their high words are the
 * bases' and they are below 2^31 (else a BASE or CTX gives new bases:
 * once in 4.3 s at most). */
ENC uint8_t *meter_reserve(struct proc *p, struct meter_dest *d, uint32_t type, uint64_t now)
{
	uint32_t dt, dp;
	if (p == meter_call.p) { /* p's second record of this call (struct meter_call) */
		dt = meter_call.dt;
		dp = meter_call.dp;
		goto write;
	}
	uint32_t now_lo = (uint32_t)now, now_hi = (uint32_t)(now >> 32);
	dt = now_lo - (uint32_t)d->base_time;
	uint32_t off = (now_hi ^ (uint32_t)(d->base_time >> 32)) | (p->meter_ctx.epoch ^ meter_fast_epoch);
	uint32_t pt_lo = (uint32_t)p->cpu_ns, pt_hi = (uint32_t)(p->cpu_ns >> 32);
	if (p == current) {
		uint64_t pt = p->cpu_ns + (now - p->run_start);
		pt_lo = (uint32_t)pt;
		pt_hi = (uint32_t)(pt >> 32);
	}
	dp = pt_lo - (uint32_t)p->meter_ctx.base;
	off |= (pt_hi ^ (uint32_t)(p->meter_ctx.base >> 32)) | ((dt | dp) >> 31);
	if (__builtin_expect(off != 0, 0))
		return meter_reserve_slow(p, (int)(d - meter_dests), type, now);
	if (meter_call.on) { /* now is the call's reading (meter.c, meter_now) */
		meter_call.p = p;
		meter_call.dt = dt;
		meter_call.dp = dp;
	}
write:;
	uint32_t used = d->used;
	struct tw_head *h = (struct tw_head *)(void *)(d->page + BATCH_HDR_SIZE + used);
	h->dt = dt;
	h->dproc = dp;
	/* type, load and pid in one store (struct tw_head, little-endian) */
	*(tw_word32 *)(void *)h = type | (uint32_t)(uint8_t)*proc_runnable << 8 | p->task << 16;
	d->used = used + tw_record_size(type);
	d->count++;
	meter_seq++;
	return (uint8_t *)h;
}

/* Offsets of 32-bit fields in the full record, for EXTs. */
#define FULL_AT(type, field) ((uint32_t)(TRACE_HEADER_SIZE + offsetof(type, field)))

/* A link index (or NO_LINK) in a byte; an EXT when it does not fit. */
ENC uint8_t link8(struct meter_dest *d, uint32_t v, uint32_t offset)
{
	if (v == NO_LINK)
		return TW_NO_LINK8;
	if (__builtin_expect(v >= TW_NO_LINK8, 0))
		batch_ext(d, offset, v);
	return (uint8_t)v;
}

/* An 8-bit field (with no NO_LINK), with an EXT when v does not fit. */
ENC uint8_t small8(struct meter_dest *d, uint32_t v, uint32_t offset)
{
	if (__builtin_expect(v > 0xff, 0))
		batch_ext(d, offset, v);
	return (uint8_t)v;
}

/* A 16-bit field, with an EXT when v does not fit. */
ENC uint16_t small16(struct meter_dest *d, uint32_t v, uint32_t offset)
{
	if (__builtin_expect(v > 0xffff, 0))
		batch_ext(d, offset, v);
	return (uint16_t)v;
}

/* The encoders take what the probes are given (meter.h), and read the
 * kernel's objects only once the record is reserved: fewer values held
 * across it. */

ENC uint8_t *enc_send(struct proc *p, int dest, uint64_t now, int32_t link, const struct kmsg *m,
		      int32_t passlink)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, TRACE_SEND, now);
	if (!r)
		return NULL;
	struct tw_send *b = (struct tw_send *)(void *)(r + TW_HEAD_SIZE);
	b->toTask = m->to;
	b->code = m->code;
	b->id_lo = (uint32_t)m->id;
	b->id_hi = (uint32_t)(m->id >> 32);
	b->sendLink = small8(d, (uint32_t)link, FULL_AT(struct trace_send, sendLink));
	b->length = small16(d, m->len, FULL_AT(struct trace_send, length));
	if (__builtin_expect(m->from != p->task, 0))
		batch_ext(d, FULL_AT(struct trace_send, fromTask), m->from);
	b->passLink = TW_NO_LINK8;
	if (__builtin_expect(m->has_link, 0)) {
		b->passLink = link8(d, (uint32_t)passlink, FULL_AT(struct trace_send, passLink));
		if (m->link.task)
			batch_ext(d, FULL_AT(struct trace_send, passTask), m->link.task);
	}
	return batch_commit(d, r);
}

ENC uint8_t *enc_queued(struct proc *to, int dest, uint64_t now, const struct kmsg *m)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(to, d, TRACE_QUEUED, now);
	if (!r)
		return NULL;
	struct tw_queued *b = (struct tw_queued *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = m->from;
	b->code = m->code;
	b->id_lo = (uint32_t)m->id;
	b->id_hi = (uint32_t)(m->id >> 32);
	b->length = small16(d, m->len, FULL_AT(struct trace_queued, length));
	b->queueLen = small16(d, to->queue.len, FULL_AT(struct trace_queued, queueLen));
	if (__builtin_expect(m->to != to->task, 0))
		batch_ext(d, FULL_AT(struct trace_queued, toTask), m->to);
	return batch_commit(d, r);
}

ENC uint8_t *enc_receivecall(struct proc *p, int dest, uint64_t now, int blocking)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, TRACE_RECEIVECALL, now);
	if (!r)
		return NULL;
	struct tw_receivecall *b = (struct tw_receivecall *)(void *)(r + TW_HEAD_SIZE);
	b->queueLen = small16(d, p->queue.len, FULL_AT(struct trace_receivecall, queueLen));
	b->blocking = small8(d, (uint32_t)blocking, FULL_AT(struct trace_receivecall, blocking));
	b->pad = 0;
	return batch_commit(d, r);
}

ENC uint8_t *enc_receive(struct proc *p, int dest, uint64_t now, const struct kmsg *m, int32_t passed)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, TRACE_RECEIVE, now);
	if (!r)
		return NULL;
	struct tw_receive *b = (struct tw_receive *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = m->from;
	b->code = m->code;
	b->id_lo = (uint32_t)m->id;
	b->id_hi = (uint32_t)(m->id >> 32);
	b->length = small16(d, m->len, FULL_AT(struct trace_receive, length));
	b->passLink = link8(d, passed >= 0 ? (uint32_t)passed : NO_LINK, FULL_AT(struct trace_receive, passLink));
	b->queueLen = small8(d, p->queue.len, FULL_AT(struct trace_receive, queueLen));
	if (__builtin_expect(m->to != p->task, 0))
		batch_ext(d, FULL_AT(struct trace_receive, toTask), m->to);
	return batch_commit(d, r);
}

ENC uint8_t *enc_link(struct proc *p, int dest, uint64_t now, uint32_t type, int32_t index,
		      const struct link *l)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, type, now);
	if (!r)
		return NULL;
	struct tw_link *b = (struct tw_link *)(void *)(r + TW_HEAD_SIZE);
	b->link = small16(d, (uint32_t)index, FULL_AT(struct trace_link, link));
	b->rights = small16(d, l->rights, FULL_AT(struct trace_link, rights));
	b->toTask = l->task;
	b->code = l->code;
	b->dataLen = l->data_len;
	return batch_commit(d, r);
}

ENC uint8_t *enc_movedata(struct proc *p, int dest, uint64_t now, const struct link *from,
			  const struct link *to, uint32_t from_link, uint32_t to_link, uint32_t len,
			  int32_t status)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, TRACE_MOVEDATA, now);
	if (!r)
		return NULL;
	struct tw_movedata *b = (struct tw_movedata *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = from ? from->task : 0;
	b->toTask = to ? to->task : 0;
	b->fromLink = small16(d, from_link, FULL_AT(struct trace_movedata, fromLink));
	b->toLink = small16(d, to_link, FULL_AT(struct trace_movedata, toLink));
	b->length = len;
	b->status = (uint32_t)status;
	return batch_commit(d, r);
}

ENC uint8_t *enc_process(struct proc *p, int dest, uint64_t now, uint32_t type, uint32_t parent,
			 uint32_t child, uint32_t reason, int32_t status)
{
	struct meter_dest *d = &meter_dests[dest];
	uint8_t *r = meter_reserve(p, d, type, now);
	if (!r)
		return NULL;
	struct tw_process *b = (struct tw_process *)(void *)(r + TW_HEAD_SIZE);
	b->parentTask = parent;
	b->childTask = child;
	b->reason = reason;
	b->status = (uint32_t)status;
	return batch_commit(d, r);
}

#undef ENC
#endif

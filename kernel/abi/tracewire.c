/*
 * kernel/abi/tracewire.c - the one decoder of the meter's compact batches
 * (tracewire.h): compact records in, the full records of trace.h out, with
 * every field as the kernel's probe saw it.  Plain C with memcpy only, so
 * the host filter, guest programs and unit tests all link this same file.
 */
#include <string.h>

#include "tracewire.h"

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* A link index as the compact body holds it (one byte, TW_NO_LINK8 for
 * none) as the full record does. */
static uint32_t link32(uint8_t link)
{
	return link == TW_NO_LINK8 ? NO_LINK : link;
}

static uint64_t rd64(uint32_t lo, uint32_t hi)
{
	return (uint64_t)hi << 32 | lo;
}

int tw_begin(struct tw_decoder *d, const void *batch, size_t len)
{
	struct meter_batch_header h;
	d->error = TW_ERR_HEADER;
	if (len < sizeof h)
		return TW_ERR_HEADER;
	memcpy(&h, batch, sizeof h);
	if (h.magic != METER_BATCH_MAGIC || h.version != METER_BATCH_COMPACT ||
	    (size_t)h.bytes != len - sizeof h || h.bytes % 4)
		return TW_ERR_HEADER;
	d->p = (const uint8_t *)batch + sizeof h;
	d->end = d->p + h.bytes;
	d->machine = h.machine;
	d->count = h.count;
	d->seen = d->seq = d->has_base = d->nctx = 0;
	d->time_base = 0;
	d->error = 0;
	return 0;
}

static int fail(struct tw_decoder *d, int error)
{
	d->error = error;
	return error;
}

/* The latest CTX of pid in this batch, or -1. */
static int ctx_of(const struct tw_decoder *d, uint16_t pid)
{
	for (int i = (int)d->nctx - 1; i >= 0; i--)
		if (d->ctx[i].pid == pid)
			return i;
	return -1;
}

/* An escape record at d->p: taken in.  0, or an error. */
static int escape(struct tw_decoder *d, uint8_t type)
{
	if (type == TW_BASE) {
		struct tw_base b;
		if (d->end - d->p < (long)sizeof b)
			return TW_ERR_OVERRUN;
		memcpy(&b, d->p, sizeof b);
		d->time_base = rd64(b.time_lo, b.time_hi);
		d->seq = b.seq;
		d->has_base = 1;
		d->p += sizeof b;
		return 0;
	}
	if (type == TW_CTX) {
		struct tw_ctx c;
		if (d->end - d->p < (long)sizeof c)
			return TW_ERR_OVERRUN;
		memcpy(&c, d->p, sizeof c);
		int i = ctx_of(d, c.pid);
		if (i < 0) {
			if (d->nctx == TW_MAX_CTX)
				return TW_ERR_CONTEXT;
			i = (int)d->nctx++;
		}
		d->ctx[i].pid = c.pid;
		d->ctx[i].task = c.task;
		d->ctx[i].base = rd64(c.base_lo, c.base_hi);
		d->p += sizeof c;
		return 0;
	}
	return type == TW_EXT ? TW_ERR_CONTEXT : TW_ERR_TYPE; /* an EXT belongs after a record */
}

static void put32(union tw_full *out, size_t at, uint32_t v)
{
	memcpy(out->bytes + at, &v, sizeof v);
}

/* The body of compact record r (type t) into out, fields the wire leaves
 * out as the kernel sets them. */
static void body(union tw_full *out, uint32_t t, const uint8_t *r, uint32_t task)
{
	const uint8_t *b = r + TW_HEAD_SIZE;
	switch (t) {
	case TRACE_SEND: {
		struct tw_send s;
		memcpy(&s, b, sizeof s);
		struct trace_send f = {
			.fromTask = task, .toTask = s.toTask, .code = s.code, .sendLink = s.sendLink,
			.passLink = link32(s.passLink),
			.msgId = rd64(s.id_lo, s.id_hi), .length = s.length,
		};
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_QUEUED: {
		struct tw_queued s;
		memcpy(&s, b, sizeof s);
		struct trace_queued f = {
			.fromTask = s.fromTask, .toTask = task, .msgId = rd64(s.id_lo, s.id_hi),
			.length = s.length, .queueLen = s.queueLen, .code = s.code,
		};
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_RECEIVECALL: {
		struct tw_receivecall s;
		memcpy(&s, b, sizeof s);
		struct trace_receivecall f = { .toTask = task, .queueLen = s.queueLen, .blocking = s.blocking };
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_RECEIVE: {
		struct tw_receive s;
		memcpy(&s, b, sizeof s);
		struct trace_receive f = {
			.fromTask = s.fromTask, .toTask = task, .code = s.code, .msgId = rd64(s.id_lo, s.id_hi),
			.length = s.length, .passLink = link32(s.passLink),
			.queueLen = s.queueLen,
		};
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_CREATELINK:
	case TRACE_DESTROYLINK: {
		struct tw_link s;
		memcpy(&s, b, sizeof s);
		struct trace_link f = { .link = s.link, .toTask = s.toTask, .code = s.code,
					.dataLen = s.dataLen, .rights = s.rights };
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_MOVEDATA: {
		struct tw_movedata s;
		memcpy(&s, b, sizeof s);
		struct trace_movedata f = { .fromTask = s.fromTask, .toTask = s.toTask, .fromLink = s.fromLink,
					    .toLink = s.toLink, .length = s.length, .status = s.status };
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	case TRACE_DROPPED:
	case TRACE_MARK: /* count / token, then a pad */
		put32(out, TRACE_HEADER_SIZE, rd32(b));
		put32(out, TRACE_HEADER_SIZE + 4, 0);
		break;
	default: { /* the process traces */
		struct tw_process s;
		memcpy(&s, b, sizeof s);
		struct trace_process f = { .parentTask = s.parentTask, .childTask = s.childTask,
					   .reason = s.reason, .status = s.status };
		memcpy(out->bytes + TRACE_HEADER_SIZE, &f, sizeof f);
		break;
	}
	}
}

/* Full size of a record of type t (trace.h's structs). */
static uint32_t full_size(uint32_t t)
{
	static const uint8_t body_size[TRACE_TYPE_MAX + 1] = {
		[TRACE_SEND] = sizeof(struct trace_send), [TRACE_RECEIVECALL] = sizeof(struct trace_receivecall),
		[TRACE_RECEIVE] = sizeof(struct trace_receive), [TRACE_QUEUED] = sizeof(struct trace_queued),
		[TRACE_CREATELINK] = sizeof(struct trace_link), [TRACE_DESTROYLINK] = sizeof(struct trace_link),
		[TRACE_MOVEDATA] = sizeof(struct trace_movedata),
		[TRACE_CREATEPROCESS] = sizeof(struct trace_process),
		[TRACE_TERMPROCESS] = sizeof(struct trace_process),
		[TRACE_STARTPROCESS] = sizeof(struct trace_process),
		[TRACE_STOPPROCESS] = sizeof(struct trace_process),
		[TRACE_DROPPED] = sizeof(struct trace_dropped), [TRACE_MARK] = sizeof(struct trace_mark),
	};
	return TRACE_HEADER_SIZE + body_size[t];
}

int tw_next(struct tw_decoder *d, union tw_full *out)
{
	if (d->error)
		return d->error;
	for (;;) {
		if (d->p == d->end)
			return d->seen == d->count ? 0 : fail(d, TW_ERR_COUNT);
		if (d->end - d->p < 4)
			return fail(d, TW_ERR_OVERRUN);
		uint8_t t = d->p[0];
		if (t >= TW_EXT) {
			int r = escape(d, t);
			if (r)
				return fail(d, r);
			continue;
		}
		uint32_t size = tw_record_size(t);
		if (!size)
			return fail(d, TW_ERR_TYPE);
		if ((size_t)(d->end - d->p) < size)
			return fail(d, TW_ERR_OVERRUN);
		struct tw_head h;
		memcpy(&h, d->p, sizeof h);
		int c = ctx_of(d, h.pid);
		if (!d->has_base || c < 0)
			return fail(d, TW_ERR_CONTEXT);
		if (d->seen == d->count)
			return fail(d, TW_ERR_COUNT);
		memset(out, 0, sizeof *out);
		out->h = (struct trace_header){
			.machine = d->machine, .traceType = t, .time = d->time_base + h.dt,
			.procTime = d->ctx[c].base + h.dproc, .seq = d->seq++, .load = h.load,
			.task = d->ctx[c].task, .size = full_size(t),
		};
		body(out, t, d->p, d->ctx[c].task);
		d->p += size;
		/* the EXTs after it */
		while (d->end - d->p >= (long)sizeof(struct tw_ext) && d->p[0] == TW_EXT) {
			struct tw_ext e;
			memcpy(&e, d->p, sizeof e);
			if (e.offset < TRACE_HEADER_SIZE || e.offset % 4 || e.offset + 4u > out->h.size)
				return fail(d, TW_ERR_CONTEXT);
			put32(out, e.offset, e.value);
			d->p += sizeof e;
		}
		d->seen++;
		return 1;
	}
}

const char *tw_error_name(int error)
{
	switch (error) {
	case TW_ERR_HEADER: return "not a compact batch";
	case TW_ERR_OVERRUN: return "a record overruns the batch";
	case TW_ERR_TYPE: return "a record of unknown type";
	case TW_ERR_CONTEXT: return "a record without its base, context or record";
	case TW_ERR_COUNT: return "the records are not the batch's count";
	default: return "no error";
	}
}

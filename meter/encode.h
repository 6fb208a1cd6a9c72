/*
 * meter/encode.h - the encoder of the meter's compact records
 * (kernel/abi/tracewire.h): one inline function per trace type that takes
 * the full record's field values, reserves the record in the destination's
 * batch (batch.h), stores its body in place and adds an EXT for any value
 * the compact body cannot hold or derive.  The kernel's probes (meter.c)
 * call these with the kernel's objects' values; the unit test
 * tests/unit/test_tracewire.c calls them with extreme values and decodes
 * the result with the one decoder (kernel/abi/tracewire.c), so every
 * escape decision is tested where it is made.
 *
 * Each returns the record while its batch holds it (batch_restamp), else
 * NULL (dropped, or gone with its batch).
 */
#ifndef DPM_METER_ENCODE_H
#define DPM_METER_ENCODE_H
#include "batch.h"

#define ENC static inline __attribute__((always_inline))

/* Offsets of 32-bit fields in the full record, for EXTs. */
#define FULL_AT(type, field) ((uint32_t)(TRACE_HEADER_SIZE + offsetof(type, field)))

/* A link index (or NO_LINK) in a byte; an EXT when it does not fit. */
ENC uint8_t link8(int dest, uint32_t v, uint32_t offset)
{
	if (v == NO_LINK)
		return TW_NO_LINK8;
	if (__builtin_expect(v >= TW_NO_LINK8, 0))
		batch_ext(dest, offset, v);
	return (uint8_t)v;
}

/* An 8-bit field (with no NO_LINK), with an EXT when v does not fit. */
ENC uint8_t small8(int dest, uint32_t v, uint32_t offset)
{
	if (__builtin_expect(v > 0xff, 0))
		batch_ext(dest, offset, v);
	return (uint8_t)v;
}

/* A 16-bit field, with an EXT when v does not fit. */
ENC uint16_t small16(int dest, uint32_t v, uint32_t offset)
{
	if (__builtin_expect(v > 0xffff, 0))
		batch_ext(dest, offset, v);
	return (uint16_t)v;
}

ENC uint8_t *enc_send(int dest, const struct meter_stamp *s, uint32_t from, uint32_t to, uint32_t code,
		      uint32_t send_link, uint32_t pass_link, uint64_t id, uint32_t length, uint32_t pass_task)
{
	uint8_t *r = batch_reserve(dest, s, TRACE_SEND);
	if (!r)
		return NULL;
	struct tw_send *b = (struct tw_send *)(void *)(r + TW_HEAD_SIZE);
	b->toTask = to;
	b->code = code;
	b->id_lo = (uint32_t)id;
	b->id_hi = (uint32_t)(id >> 32);
	b->sendLink = small8(dest, send_link, FULL_AT(struct trace_send, sendLink));
	b->passLink = link8(dest, pass_link, FULL_AT(struct trace_send, passLink));
	b->length = small16(dest, length, FULL_AT(struct trace_send, length));
	if (__builtin_expect(from != s->task, 0))
		batch_ext(dest, FULL_AT(struct trace_send, fromTask), from);
	if (pass_task)
		batch_ext(dest, FULL_AT(struct trace_send, passTask), pass_task);
	return batch_commit(dest, r);
}

ENC uint8_t *enc_queued(int dest, const struct meter_stamp *s, uint32_t from, uint32_t to, uint64_t id,
			uint32_t length, uint32_t queue_len, uint32_t code)
{
	uint8_t *r = batch_reserve(dest, s, TRACE_QUEUED);
	if (!r)
		return NULL;
	struct tw_queued *b = (struct tw_queued *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = from;
	b->code = code;
	b->id_lo = (uint32_t)id;
	b->id_hi = (uint32_t)(id >> 32);
	b->length = small16(dest, length, FULL_AT(struct trace_queued, length));
	b->queueLen = small16(dest, queue_len, FULL_AT(struct trace_queued, queueLen));
	if (__builtin_expect(to != s->task, 0))
		batch_ext(dest, FULL_AT(struct trace_queued, toTask), to);
	return batch_commit(dest, r);
}

ENC uint8_t *enc_receivecall(int dest, const struct meter_stamp *s, uint32_t to, uint32_t queue_len,
			     uint32_t blocking)
{
	uint8_t *r = batch_reserve(dest, s, TRACE_RECEIVECALL);
	if (!r)
		return NULL;
	struct tw_receivecall *b = (struct tw_receivecall *)(void *)(r + TW_HEAD_SIZE);
	b->queueLen = small16(dest, queue_len, FULL_AT(struct trace_receivecall, queueLen));
	b->blocking = small8(dest, blocking, FULL_AT(struct trace_receivecall, blocking));
	b->pad = 0;
	if (__builtin_expect(to != s->task, 0))
		batch_ext(dest, FULL_AT(struct trace_receivecall, toTask), to);
	return batch_commit(dest, r);
}

ENC uint8_t *enc_receive(int dest, const struct meter_stamp *s, uint32_t from, uint32_t to, uint32_t code,
			 uint64_t id, uint32_t length, uint32_t pass_link, uint32_t queue_len)
{
	uint8_t *r = batch_reserve(dest, s, TRACE_RECEIVE);
	if (!r)
		return NULL;
	struct tw_receive *b = (struct tw_receive *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = from;
	b->code = code;
	b->id_lo = (uint32_t)id;
	b->id_hi = (uint32_t)(id >> 32);
	b->length = small16(dest, length, FULL_AT(struct trace_receive, length));
	b->passLink = link8(dest, pass_link, FULL_AT(struct trace_receive, passLink));
	b->queueLen = small8(dest, queue_len, FULL_AT(struct trace_receive, queueLen));
	if (__builtin_expect(to != s->task, 0))
		batch_ext(dest, FULL_AT(struct trace_receive, toTask), to);
	return batch_commit(dest, r);
}

ENC uint8_t *enc_link(int dest, const struct meter_stamp *s, uint32_t type, uint32_t link, uint32_t to,
		      uint32_t code, uint32_t data_len, uint32_t rights)
{
	uint8_t *r = batch_reserve(dest, s, type);
	if (!r)
		return NULL;
	struct tw_link *b = (struct tw_link *)(void *)(r + TW_HEAD_SIZE);
	b->link = small16(dest, link, FULL_AT(struct trace_link, link));
	b->rights = small16(dest, rights, FULL_AT(struct trace_link, rights));
	b->toTask = to;
	b->code = code;
	b->dataLen = data_len;
	return batch_commit(dest, r);
}

ENC uint8_t *enc_movedata(int dest, const struct meter_stamp *s, uint32_t from, uint32_t to,
			  uint32_t from_link, uint32_t to_link, uint32_t length, uint32_t status)
{
	uint8_t *r = batch_reserve(dest, s, TRACE_MOVEDATA);
	if (!r)
		return NULL;
	struct tw_movedata *b = (struct tw_movedata *)(void *)(r + TW_HEAD_SIZE);
	b->fromTask = from;
	b->toTask = to;
	b->fromLink = small16(dest, from_link, FULL_AT(struct trace_movedata, fromLink));
	b->toLink = small16(dest, to_link, FULL_AT(struct trace_movedata, toLink));
	b->length = length;
	b->status = status;
	return batch_commit(dest, r);
}

ENC uint8_t *enc_process(int dest, const struct meter_stamp *s, uint32_t type, uint32_t parent,
			 uint32_t child, uint32_t reason, uint32_t status)
{
	uint8_t *r = batch_reserve(dest, s, type);
	if (!r)
		return NULL;
	struct tw_process *b = (struct tw_process *)(void *)(r + TW_HEAD_SIZE);
	b->parentTask = parent;
	b->childTask = child;
	b->reason = reason;
	b->status = status;
	return batch_commit(dest, r);
}

#undef ENC
#endif

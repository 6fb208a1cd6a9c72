/*
 * kernel/abi/tracewire.h - the meter's compact wire format (batch version
 * 2): how the kernel's probes write trace records in place, at most 32
 * bytes each, and the one decoder that turns them back into the full
 * records of kernel/abi/trace.h (struct trace_header + body), field for
 * field, for every receiver of meter batches: the host filter
 * (hostfilter/filter/meterstream.c), guest filters and the guest tests.
 *
 * Why it is so shaped (docs/metering.md, "Batches"):
 *  - A record is a 12-byte head and a body of 4..20 bytes, 4-byte aligned,
 *    written by the probe with plain stores (no record built elsewhere and
 *    copied).  The head carries what changes with every event: type, load,
 *    the process's pid, time as a delta from the batch's base, procTime as
 *    a delta from the process's base in this batch.
 *  - What rarely changes travels in escape records, written only when
 *    needed: BASE (the time base and the next record's sequence number: at
 *    a batch's start, when another destination took sequence numbers in
 *    between, or when the time delta would not fit), CTX (a process's task
 *    and procTime base, once per process per batch), EXT (a 32-bit field of
 *    the record before it whose value the compact body cannot hold or
 *    derive: a fromTask that is not the traced process, a passed link's
 *    task, an index above 254...).  So every field decodes exactly.
 *  - Fields the full record has but the kernel always sets to one value
 *    (channel, pads) or that equal the traced task (SEND's fromTask,
 *    QUEUED's, RECEIVECALL's and RECEIVE's toTask) are not sent; when the
 *    kernel's value differs, an EXT gives it.
 *  - Deltas are kept below 2^31 when written so that a held record can be
 *    stamped again a little later (batch_restamp) and still fit 32 bits.
 *
 * Batch on the wire: struct meter_batch_header (trace.h) with version
 * METER_BATCH_COMPACT, count = trace records (escapes not counted), bytes =
 * bytes of records following; the first record is a BASE.
 */
#ifndef DPM_TRACEWIRE_H
#define DPM_TRACEWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define METER_BATCH_COMPACT 2u /* meter_batch_header.version of this format */

/* Escape record types (trace types are 1..TRACE_TYPE_MAX). */
enum tw_escape {
	TW_EXT = 0x40,  /* struct tw_ext: a field of the record before it   */
	TW_CTX = 0x41,  /* struct tw_ctx: a process's task and procTime base */
	TW_BASE = 0x42, /* struct tw_base: time base, next sequence number   */
};

#define TW_NO_LINK8 0xffu   /* a passLink of NO_LINK */
#define TW_DELTA_MAX 0x7fffffffu /* deltas are written only up to this */

struct tw_head {         /* 12 bytes, first in every trace record           */
	uint8_t type;    /* enum trace_type                                 */
	uint8_t load;    /* runnable processes (NPROC < 256)                */
	uint16_t pid;    /* TASK_PID(task); its CTX gives the whole task     */
	uint32_t dt;     /* time - the batch's time base                    */
	uint32_t dproc;  /* procTime - the process's base in this batch     */
};

/* Bodies (after the head).  64-bit values as two words: records are only
 * 4-byte aligned. */
struct tw_send {         /* 20; fromTask = task */
	uint32_t toTask, code, id_lo, id_hi;
	uint8_t sendLink, passLink; /* passLink TW_NO_LINK8: NO_LINK; passTask 0 */
	uint16_t length;
};
struct tw_queued {       /* 20; toTask = task */
	uint32_t fromTask, code, id_lo, id_hi;
	uint16_t length, queueLen;
};
struct tw_receivecall {  /* 4; toTask = task */
	uint16_t queueLen;
	uint8_t blocking, pad;
};
struct tw_receive {      /* 20; toTask = task */
	uint32_t fromTask, code, id_lo, id_hi;
	uint16_t length;
	uint8_t passLink, queueLen;
};
struct tw_link {         /* 16; channel 0 */
	uint16_t link, rights;
	uint32_t toTask, code, dataLen;
};
struct tw_movedata {     /* 20 */
	uint32_t fromTask, toTask;
	uint16_t fromLink, toLink;
	uint32_t length, status;
};
struct tw_process {      /* 16 */
	uint32_t parentTask, childTask, reason, status;
};
struct tw_word {         /* 4: DROPPED's count, MARK's token */
	uint32_t value;
};

struct tw_ext {          /* 8 */
	uint8_t type;    /* TW_EXT */
	uint8_t pad;
	uint16_t offset; /* of a 32-bit field in the full record (trace.h)  */
	uint32_t value;
};
struct tw_ctx {          /* 16 */
	uint8_t type;    /* TW_CTX */
	uint8_t pad;
	uint16_t pid;
	uint32_t task;
	uint32_t base_lo, base_hi; /* procTime base of task in this batch */
};
struct tw_base {         /* 16 */
	uint8_t type;    /* TW_BASE */
	uint8_t pad[3];
	uint32_t seq;    /* the next trace record's sequence number         */
	uint32_t time_lo, time_hi; /* time base                            */
};

#define TW_HEAD_SIZE 12u
#define TW_RECORD_MAX 32u
/* The most one trace can take with its escapes (BASE, CTX, the record, two
 * EXTs): room is kept per trace at this size. */
#define TW_TRACE_MAX (16u + 16u + TW_RECORD_MAX + 2u * 8u)

/* Wire size of a trace record of type t (head + body), 0 if none. */
static inline uint32_t tw_record_size(uint32_t t)
{
	static const uint8_t size[TRACE_TYPE_MAX + 1] = {
		[TRACE_SEND] = 32, [TRACE_RECEIVECALL] = 16, [TRACE_RECEIVE] = 32,
		[TRACE_QUEUED] = 32, [TRACE_CREATELINK] = 28, [TRACE_DESTROYLINK] = 28,
		[TRACE_MOVEDATA] = 32, [TRACE_CREATEPROCESS] = 28, [TRACE_TERMPROCESS] = 28,
		[TRACE_STARTPROCESS] = 28, [TRACE_STOPPROCESS] = 28, [TRACE_DROPPED] = 16,
		[TRACE_MARK] = 16,
	};
	return t <= TRACE_TYPE_MAX ? size[t] : 0;
}

/* ---- the decoder ---- */

/* One full record: header, then body (trace.h). */
union tw_full {
	struct trace_header h;
	uint8_t bytes[TRACE_MAX_SIZE];
};

/* Decoder errors. */
enum tw_error {
	TW_ERR_HEADER = -1,  /* not a compact batch (magic, version, bytes)    */
	TW_ERR_OVERRUN = -2, /* a record runs past the batch's bytes          */
	TW_ERR_TYPE = -3,    /* a record of an unknown type                    */
	TW_ERR_CONTEXT = -4, /* a record before its BASE or its process's CTX, or
	                        an EXT with nothing before it or a bad offset  */
	TW_ERR_COUNT = -5,   /* the records are not the header's count        */
};

#define TW_MAX_CTX 256 /* CTX records one batch can hold (4096 / 16) */

struct tw_decoder {
	const uint8_t *p, *end;
	uint32_t machine, count, seen, seq, has_base;
	uint64_t time_base;
	uint32_t nctx;
	struct {
		uint16_t pid;
		uint32_t task;
		uint64_t base;
	} ctx[TW_MAX_CTX];
	int error;
};

/* Start decoding the compact batch at batch (len bytes: its header and
 * records).  0, or TW_ERR_HEADER.  A version-1 batch (full records) is
 * not for this decoder. */
int tw_begin(struct tw_decoder *d, const void *batch, size_t len);
/* The next full record into *out: 1; 0 when the batch is done (all of its
 * count, nothing left over); < 0 an enum tw_error (the batch is bad from
 * there on; d->seen records came before). */
int tw_next(struct tw_decoder *d, union tw_full *out);
const char *tw_error_name(int error);

#endif

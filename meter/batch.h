/*
 * meter/batch.h - the meter's batches and drop accounting, as plain data
 * structure code: per meter destination, one page laid out as the wire
 * format (struct meter_batch_header, then compact records,
 * kernel/abi/tracewire.h) into which the probes reserve and write their
 * records in place, LTTng-style; a full batch is handed to a ship function,
 * which may take the page itself (the batch leaves without a copy) and
 * give a fresh one.  No process, clock or message code here (meter.c reads
 * the clock and the process, meter/encode.h writes the records, ship.c
 * sends the batches), so it compiles on the host and
 * tests/unit/test_meter_batch.c checks the drop accounting exactly.
 *
 * A probe is:  r = meter_reserve(p, dest, type, now);  (encode.h: the
 * head written; NULL: dropped)  then the body's stores at r +
 * TW_HEAD_SIZE, any batch_ext, then batch_commit(dest, r).  The reserve's
 * common case is inline: a few compares, the head's stores, two adds;
 * everything else (a batch's first record, a process's first record in
 * it, a time delta or sequence gap that needs a BASE, a backed-up batch,
 * drops to tell) is batch_reserve_slow.
 */
#ifndef DPM_METER_BATCH_H
#define DPM_METER_BATCH_H
#include <stdint.h>

#include "kernel/kernel.h"
#include "kernel/abi/trace.h"
#include "kernel/abi/tracewire.h"

/* Send one batch (*page, len bytes: a struct meter_batch_header then
 * records) over link `to`.  It may take the page (its owner is now the
 * message) and put a fresh page in *page; else the bytes were copied or
 * nothing was sent.  0: it went.  E_DEAD or E_NODEDOWN: its receiver is
 * gone, so the batch is lost (and counted).  Anything else: the path is
 * backed up; the batch is held (*page unchanged) and tried again later. */
typedef int32_t (*meter_ship_fn)(const struct link *to, uint8_t **page, uint32_t len);
/* A page (MSG_MAX bytes, word aligned) for a new destination; NULL: none. */
typedef void *(*meter_page_fn)(void);

/* The ship and page functions, and the node id put in each batch's
 * header.  Until this is called every batch is "backed up". */
void batch_init(uint32_t machine, meter_ship_fn ship, meter_page_fn page);

/* The destination for meter link l (a new one, `batch` traces per batch,
 * or the one it has, its batch size changed if `batch` != 0): its index,
 * E_NOSPACE when METER_DESTS destinations are in use, E_NOMEM when a new
 * one gets no page. */
int batch_dest(const struct link *l, uint32_t batch);
void batch_set_size(int dest, uint32_t batch);
/* A process starts or stops sending its traces to dest; a destination no
 * process uses, with nothing held, is free (its last user's stop ships). */
void batch_use(int dest);
void batch_unuse(int dest);
/* dest's batch size and link (meter settings of a process). */
uint32_t batch_size(int dest);
const struct link *batch_link(int dest);

/* What a probe saw: the head of its record.  ctx is the process's (its
 * procTime base in the batch). */
struct meter_stamp {
	uint64_t time, proc_time;
	uint32_t task, load;
	struct meter_pctx *ctx;
};

/* Below: the fast path's view of a destination (batch.c owns it). */
struct meter_dest {
	uint8_t *page;           /* the batch: header, then `used` bytes of records */
	uint32_t used;           /* bytes of records held */
	uint32_t count;          /* trace records held (escapes not counted) */
	uint32_t batch;          /* traces per batch */
	uint32_t epoch;          /* this batch's, unique on the node: a process
	                            whose ctx has it has its CTX in the batch */
	uint32_t fast_epoch;     /* epoch while the fast path may write here,
	                            else BATCH_SLOW (no ctx has it): a batch
	                            that could not go (backed up), drops to tell */
	uint32_t dropped;        /* drops in no held DROPPED trace (their batch
	                            was lost with its filter): told later */
	uint64_t base_time;      /* the batch's time base */
	int in_use;
	struct link link;        /* where batches go */
	uint32_t users;          /* processes metered to it */
	uint64_t first_ns;       /* time of the oldest held trace */
	uint32_t drop_at;        /* offset in the records of the held batch's
	                            DROPPED trace, 0: it has none */
	uint32_t ships;          /* batches gone: a held record's address is
	                            good while this stays (batch_restamp) */
};
extern struct meter_dest meter_dests[METER_DESTS];
extern uint32_t meter_seq;      /* the node's trace sequence number */
extern struct meter_dest *meter_last; /* the destination of the last record:
                                        a record for another needs a BASE
                                        (its sequence number is not the next) */
/* meter_last's fast_epoch, or BATCH_SLOW once any batch has gone or
 * backed up.  A process's records go to one destination at a time, and
 * its context's epoch is cleared when that changes (meter.c's meter_set;
 * a MARK put elsewhere ships at once, which makes this BATCH_SLOW), so a
 * process whose context has this epoch has its CTX in meter_last's
 * batch, open to the fast path, and meter_last is its destination: the
 * fast path's one compare stands for epoch, destination and fast_epoch.
 * Encoding one context into two destinations breaks this: a process
 * traced into two has a context for each. */
extern uint32_t meter_fast_epoch;

/* The kernel call being traced (docs/metering.md, "An event's time"):
 * the events one kernel call makes share its clock reading, so a call
 * whose probes run in one stretch of kernel code (a SENDMESSAGE to this
 * node: its SEND and the QUEUED; a receive: its RECEIVECALL and RECEIVE;
 * a queueing: its QUEUED and RECEIVE) opens it (meter.h, meter_call_open)
 * and reads the clock once, at its first probe.  A process's second
 * record of the call then has the first's deltas (the same time and, as
 * nothing in between changes its CPU accounting, the same procTime): `p`
 * and dt, dp, set by meter_reserve (encode.h).  A batch that leaves
 * meanwhile (its hand-over is charged to its receiver, which moves the
 * running process's run_start) makes the next probe read the clock
 * again (on back to 1), and any record written by the slow path (a BASE
 * or CTX: new bases) forgets p. */
struct meter_call {
	uint32_t on;          /* 0: no call open; 1: open, the clock to read;
	                         2: read, its reading in ns */
	uint64_t ns;
	const struct proc *p; /* whose deltas dt, dp stand for this reading, or NULL */
	uint32_t dt, dp;
};
extern struct meter_call meter_call;

#define BATCH_HDR_SIZE ((uint32_t)sizeof(struct meter_batch_header))
#define BATCH_SLOW 0xffffffffu

/* The record of `type` for s in dest's batch, its head written (and the
 * BASE and CTX it needs before it), room and drops seen to: what
 * meter_reserve (encode.h) does when its fast path does not apply.  Its
 * address (the body at + TW_HEAD_SIZE), or NULL when the trace was
 * dropped (and counted). */
uint8_t *batch_reserve_slow(int dest, const struct meter_stamp *s, uint32_t type);

/* Give the 32-bit field at `offset` of the full record (trace.h) of the
 * record just reserved in d the value v (an EXT record after it). */
static inline void batch_ext(struct meter_dest *d, uint32_t offset, uint32_t v)
{
	uint32_t *w = (uint32_t *)(void *)(d->page + BATCH_HDR_SIZE + d->used);
	w[0] = TW_EXT | offset << 16;
	w[1] = v;
	d->used += (uint32_t)sizeof(struct tw_ext);
}

int32_t batch_ship(int dest);

/* The record r (from meter_reserve, its body written) is done: the batch
 * goes when it holds its batch size.  r while d still holds it (for
 * batch_restamp), else NULL. */
static inline __attribute__((always_inline)) uint8_t *batch_commit(struct meter_dest *d, uint8_t *r)
{
	if (__builtin_expect(d->count >= d->batch, 0)) {
		batch_ship((int)(d - meter_dests));
		return NULL;
	}
	return r;
}

/* How many batches dest has sent so far (a held record's address stays
 * good while this does not change). */
uint32_t batch_ships(int dest);
/* Give a record batch_commit returned (with batch_ships as it was then),
 * of the process whose ctx is c, a later time and procTime, while its
 * batch still holds it; nothing when it was dropped or has gone.  The
 * caller keeps the node's traces in order: nothing may have been put
 * behind it with an earlier time, and it is stamped again soon (its
 * deltas, below 2^31 when written, must still fit 32 bits). */
void batch_restamp(int dest, void *record, uint32_t ships, const struct meter_pctx *c, uint64_t time,
		   uint64_t proc_time);
/* A MARK trace behind everything dest holds, then ship: 0 (sent, or held
 * in order while the path is backed up), E_DEAD, E_NODEDOWN or E_QUEUEFULL
 * (no room even for the mark). */
int32_t batch_mark(int dest, const struct meter_stamp *s, uint32_t token);
/* Ship every batch whose oldest trace is at least max_age_ns old at now. */
void batch_ship_older(uint64_t now, uint64_t max_age_ns);

/* Counters, for tests and the benchmark (KR_METERSTATS). */
struct meter_stats {
	uint32_t traces;    /* traces made */
	uint32_t batches;   /* batch messages sent */
	uint32_t dropped;   /* traces dropped because the path was backed up */
	uint32_t held;      /* traces waiting in batches now */
	uint32_t discarded; /* messages from other nodes this kernel discarded on
	                       arrival (virtual time's asynchronous SEND: the
	                       receiver gone; meter.c, remote.c) */
};
void batch_stats(struct meter_stats *s);
#endif

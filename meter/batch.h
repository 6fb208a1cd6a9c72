/*
 * meter/batch.h - the meter's batching and drop accounting, as plain data
 * structure code: per meter destination, a batch buffer laid out as the
 * wire format, filled with records and handed to a ship function.  No
 * process, clock or message code here (meter.c makes the records' headers,
 * ship.c sends the batches), so it compiles on the host and
 * tests/unit/test_meter_batch.c checks the drop accounting exactly.
 */
#ifndef DPM_METER_BATCH_H
#define DPM_METER_BATCH_H
#include <stdint.h>

#include "kernel/kernel.h"
#include "kernel/abi/trace.h"

/* Send one batch (bytes, len: a struct meter_batch_header then records)
 * over link `to`.  0: it went.  E_DEAD or E_NODEDOWN: its receiver is gone,
 * so the batch is lost (and counted).  Anything else: the path is backed
 * up; the batch is held and tried again later. */
typedef int32_t (*meter_ship_fn)(const struct link *to, const void *bytes, uint32_t len);

/* The ship function, and the node id put in each batch's header.  Until
 * this is called every batch is "backed up". */
void batch_init(uint32_t machine, meter_ship_fn ship);

/* The destination for meter link l (a new one, `batch` traces per batch,
 * or the one it has, its batch size changed if `batch` != 0): its index,
 * or E_NOSPACE when METER_DESTS destinations are in use. */
int batch_dest(const struct link *l, uint32_t batch);
void batch_set_size(int dest, uint32_t batch);
/* A process starts or stops sending its traces to dest; a destination no
 * process uses, with nothing held, is free (its last user's stop ships). */
void batch_use(int dest);
void batch_unuse(int dest);
/* dest's batch size and link (meter settings of a process). */
uint32_t batch_size(int dest);
const struct link *batch_link(int dest);

/* Add a trace of `type` with body to dest's batch.  h is its header with
 * machine, time, procTime, load and task set; the rest is filled in
 * (h is the caller's scratch: it is changed).  A
 * batch goes when it holds its batch size.  When the buffer is full and
 * cannot be shipped, the trace is dropped and counted in the batch's
 * DROPPED trace (made from h), so the count travels with the traces
 * around it.  The record's address while dest holds it, for
 * batch_restamp; NULL when it was dropped or has left with its batch. */
void *batch_put(int dest, struct trace_header *h, uint32_t type, const void *body, uint32_t body_len);
/* How many batches dest has sent so far (a held record's address stays
 * good while this does not change). */
uint32_t batch_ships(int dest);
/* Give a record batch_put returned (with batch_ships as it was then) a
 * later time and procTime, while its batch still holds it; nothing when
 * it was dropped or has gone.  The caller keeps the node's traces in
 * order: nothing may have been put behind it with an earlier time. */
void batch_restamp(int dest, void *record, uint32_t ships, uint64_t time, uint64_t proc_time);
/* A MARK trace behind everything dest holds, then ship: 0 (sent, or held
 * in order while the path is backed up), E_DEAD, E_NODEDOWN or E_QUEUEFULL
 * (no room even for the mark). */
int32_t batch_mark(int dest, struct trace_header *h, uint32_t token);
/* Ship dest's batch now (0 when it went or was empty, else as the ship
 * function said). */
int32_t batch_ship(int dest);
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

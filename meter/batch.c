/*
 * meter/batch.c - batching traces per meter destination, and counting the
 * ones that cannot be kept (batch.h has the interface).
 *
 * Each meter destination (a distinct meter link) has one batch buffer laid
 * out exactly as the wire format (struct meter_batch_header, then records),
 * so sending a batch is sending the buffer.  A batch goes when it holds its
 * batch size of traces, when a process ends, and when its oldest trace is
 * METER_FLUSH_NS old (meter.c's tick).  If the path backs up, traces stay
 * in the buffer; only when the buffer itself is full is a trace dropped,
 * and the count of drops travels as a DROPPED trace in the next batch that
 * gets through, so nothing is lost silently, with one exception: batches
 * already handed to a host link whose TCP connection then ends are
 * discarded there uncounted (docs/metering.md).
 *
 * The batches leave through the ship function given to batch_init (ship.c
 * in the kernel, a recorder in the unit test): this file calls no message
 * code, so the probes below ipc.c never call back into it.
 */
#include "batch.h"

struct meter_dest {
	int in_use;
	struct link link;        /* where batches go */
	uint32_t batch;          /* traces per batch */
	uint32_t users;          /* processes metered to it */
	uint64_t first_ns;       /* time of the oldest held trace */
	uint32_t dropped;        /* drops in no held DROPPED trace (their batch
	                            was lost with its filter): told later */
	uint32_t drop_at;        /* offset in buf of the held batch's DROPPED
	                            trace, 0: it has none */
	uint32_t used;           /* bytes of records held */
	uint32_t count;          /* records held */
	uint32_t ships;          /* batches gone: a held record's address is
	                            good while this stays (batch_restamp) */
	union {
		struct meter_batch_header hdr;
		uint8_t bytes[MSG_MAX];
	} buf;
};

static struct meter_dest dests[METER_DESTS];
static uint32_t node_seq;
static struct meter_stats stats;
static uint32_t machine;
static meter_ship_fn ship_fn;

void batch_init(uint32_t node, meter_ship_fn ship)
{
	machine = node;
	ship_fn = ship;
}

/* A destination no process uses any more, with nothing held, is free. */
static void free_if_unused(struct meter_dest *d)
{
	if (d->users == 0 && d->count == 0)
		d->in_use = 0;
}

/* The count of the held batch's DROPPED trace (0: it has none). */
static uint32_t held_drops(const struct meter_dest *d)
{
	struct trace_dropped dr = { 0 };
	if (d->drop_at)
		memcpy(&dr, d->buf.bytes + d->drop_at + TRACE_HEADER_SIZE, sizeof dr);
	return dr.count;
}

/* Send d's batch over its link; 0 when it went (or there was nothing). */
static int32_t ship(struct meter_dest *d)
{
	if (d->count == 0) {
		free_if_unused(d);
		return 0;
	}
	d->buf.hdr = (struct meter_batch_header){
		.magic = METER_BATCH_MAGIC, .version = METER_BATCH_VERSION,
		.count = (uint16_t)d->count, .machine = machine, .bytes = d->used,
	};
	uint32_t len = sizeof d->buf.hdr + d->used;
	int32_t r = ship_fn ? ship_fn(&d->link, d->buf.bytes, len) : E_QUEUEFULL;
	if (r == 0) {
		stats.batches++;
	} else if (r == E_DEAD || r == E_NODEDOWN) {
		/* The filter is gone: what it would have got is lost, and counted;
		 * the drops its DROPPED trace told are told again later. */
		uint32_t traces = d->count - (d->drop_at ? 1 : 0);
		d->dropped += traces + held_drops(d);
		stats.dropped += traces;
	} else {
		return r; /* backed up: keep holding */
	}
	d->drop_at = 0;
	stats.held -= d->count;
	d->count = d->used = 0;
	d->ships++;
	free_if_unused(d);
	return r;
}

/* h: the caller's header, completed here (type, seq, size) and copied in
 * once (no second copy of it on the probes' path). */
static inline __attribute__((always_inline)) uint8_t *put_record(struct meter_dest *d, struct trace_header *h,
								   uint32_t type, const void *body, uint32_t body_len)
{
	h->traceType = type;
	h->seq = node_seq++;
	h->size = TRACE_HEADER_SIZE + body_len;
	uint8_t *at = d->buf.bytes + sizeof d->buf.hdr + d->used;
	memcpy(at, h, sizeof *h);
	memcpy(at + sizeof *h, body, body_len);
	if (d->count++ == 0)
		d->first_ns = h->time;
	d->used += h->size;
	stats.held++;
	return at;
}

/* Room for n more records of the largest size.  A batch always keeps room
 * for one more, so a DROPPED trace fits when the path backs up. */
static int room_for(const struct meter_dest *d, uint32_t n)
{
	return sizeof d->buf.hdr + d->used + n * TRACE_MAX_SIZE <= MSG_MAX;
}

/* n more drops, told by the held batch's DROPPED trace (put there when it
 * has none), so the count travels with the traces around it. */
static void count_drops(struct meter_dest *d, struct trace_header *h, uint32_t n)
{
	struct trace_dropped dr = { .count = held_drops(d) + n };
	if (d->drop_at) {
		memcpy(d->buf.bytes + d->drop_at + TRACE_HEADER_SIZE, &dr, sizeof dr);
		return;
	}
	d->drop_at = (uint32_t)sizeof d->buf.hdr + d->used;
	put_record(d, h, TRACE_DROPPED, &dr, sizeof dr);
}

void *batch_put(int dest, struct trace_header *h, uint32_t type, const void *body, uint32_t body_len)
{
	struct meter_dest *d = &dests[dest];
	stats.traces++;
	/* this trace, room kept for a DROPPED trace, and one for drops to tell */
	uint32_t need = 2 + (d->dropped && !d->drop_at);
	if (!room_for(d, need) && ship(d) != 0 && !room_for(d, need)) {
		stats.dropped++;
		count_drops(d, h, 1 + d->dropped);
		d->dropped = 0;
		return NULL;
	}
	if (d->dropped) {
		count_drops(d, h, d->dropped);
		d->dropped = 0;
	}
	uint8_t *at = put_record(d, h, type, body, body_len);
	if (d->count >= d->batch) {
		ship(d);
		return NULL;
	}
	return at;
}

uint32_t batch_ships(int dest)
{
	return dests[dest].ships;
}

void batch_restamp(int dest, void *record, uint32_t ships, uint64_t time, uint64_t proc_time)
{
	if (!record || dests[dest].ships != ships)
		return; /* dropped, or gone with its batch */
	memcpy((uint8_t *)record + offsetof(struct trace_header, time), &time, sizeof time);
	memcpy((uint8_t *)record + offsetof(struct trace_header, procTime), &proc_time, sizeof proc_time);
}

static int same_link(const struct link *a, const struct link *b)
{
	return a->task == b->task && a->code == b->code && a->rights == b->rights;
}

int batch_dest(const struct link *l, uint32_t batch)
{
	int free_slot = -1;
	for (int i = 0; i < METER_DESTS; i++) {
		if (dests[i].in_use && same_link(&dests[i].link, l)) {
			if (batch)
				dests[i].batch = batch;
			return i;
		}
		if (!dests[i].in_use && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return E_NOSPACE;
	struct meter_dest *d = &dests[free_slot];
	memset(d, 0, sizeof *d - sizeof d->buf);
	d->in_use = 1;
	d->link = *l;
	d->batch = batch ? batch : METER_BATCH_DEFAULT;
	return free_slot;
}

void batch_set_size(int dest, uint32_t batch)
{
	dests[dest].batch = batch;
}

uint32_t batch_size(int dest)
{
	return dests[dest].batch;
}

const struct link *batch_link(int dest)
{
	return &dests[dest].link;
}

void batch_use(int dest)
{
	dests[dest].users++;
}

void batch_unuse(int dest)
{
	if (--dests[dest].users == 0)
		ship(&dests[dest]);
}

int32_t batch_ship(int dest)
{
	return ship(&dests[dest]);
}

int32_t batch_mark(int dest, struct trace_header *h, uint32_t token)
{
	struct meter_dest *d = &dests[dest];
	if (!room_for(d, 2) && ship(d) != 0 && !room_for(d, 2))
		return E_QUEUEFULL;
	d->in_use = 1; /* a ship above may have freed a destination nobody uses */
	struct trace_mark b = { .token = token };
	stats.traces++;
	put_record(d, h, TRACE_MARK, &b, sizeof b);
	int32_t r = ship(d);
	return r == E_DEAD || r == E_NODEDOWN ? r : 0; /* backed up: it goes later, in order */
}

void batch_ship_older(uint64_t now, uint64_t max_age_ns)
{
	for (int i = 0; i < METER_DESTS; i++)
		if (dests[i].in_use && dests[i].count && now - dests[i].first_ns >= max_age_ns)
			ship(&dests[i]);
}

void batch_stats(struct meter_stats *s)
{
	*s = stats;
}

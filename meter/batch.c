/*
 * meter/batch.c - batching traces per meter destination, and counting the
 * ones that cannot be kept (batch.h has the interface).
 *
 * Each meter destination (a distinct meter link) has one page laid out
 * exactly as the wire format (struct meter_batch_header, then the compact
 * records of kernel/abi/tracewire.h), into which the probes write their
 * records in place; sending a batch is handing the page on (ship.c gives
 * a local filter the page itself and takes a fresh one).  A batch goes
 * when it holds its batch size of traces, when a process ends, and when
 * its oldest trace is METER_FLUSH_NS old (meter.c's tick).  If the path
 * backs up, traces stay in the page; only when it is full is a trace
 * dropped, and the count of drops travels as a DROPPED trace in the next
 * batch that gets through, so nothing is lost silently, with one
 * exception: batches already handed to a host link whose TCP connection
 * then ends are discarded there uncounted (docs/metering.md).
 *
 * Room is kept per trace at its largest with escapes (TW_TRACE_MAX, the
 * old full record's 80 bytes), so a page holds at least as many traces
 * before a drop as the full records did.
 *
 * The batches leave through the ship function given to batch_init (ship.c
 * in the kernel, a recorder in the unit test): this file calls no message
 * code, so the probes below ipc.c never call back into it.
 */
#include "batch.h"

_Static_assert(NPROC < 256, "a compact record's load is one byte");
_Static_assert(NLINK < 255 && MSG_MAX <= 0xffff && NMSG <= 0xffff,
	       "compact fields: link indices in a byte, lengths and queues in 16 bits");

struct meter_dest meter_dests[METER_DESTS];
uint32_t meter_seq;
struct meter_dest *meter_last;
uint32_t meter_fast_epoch = BATCH_SLOW;
struct meter_call meter_call;
static uint32_t traces_gone; /* traces of batches sent or lost */
static uint32_t epochs;  /* the last batch epoch given */
static struct meter_stats stats;
static uint32_t machine;
static meter_ship_fn ship_fn;
static meter_page_fn page_fn;

void batch_init(uint32_t node, meter_ship_fn ship, meter_page_fn page)
{
	machine = node;
	ship_fn = ship;
	page_fn = page;
}

/* A destination no process uses any more, with nothing held, is free. */
static void free_if_unused(struct meter_dest *d)
{
	if (d->users == 0 && d->count == 0)
		d->in_use = 0;
}

static uint8_t *records(const struct meter_dest *d)
{
	return d->page + BATCH_HDR_SIZE;
}

/* The count of the held batch's DROPPED trace (0: it has none). */
static uint32_t held_drops(const struct meter_dest *d)
{
	uint32_t n = 0;
	if (d->drop_at)
		n = ((const struct tw_word *)(const void *)(records(d) + d->drop_at + TW_HEAD_SIZE))->value;
	return n;
}

/* d's batch is gone (sent or lost): start the next.  The fast path may
 * write in it unless it has drops to tell: a batch that goes at its size
 * (at most METER_BATCH_MAX) holds fewer traces than take room for two
 * more at their largest, the room batch_reserve_slow keeps. */
_Static_assert(BATCH_HDR_SIZE + (METER_BATCH_MAX + 1) * TW_TRACE_MAX <= MSG_MAX,
	       "a batch of the largest size leaves room for a DROPPED trace");
static void next_batch(struct meter_dest *d)
{
	traces_gone += d->count - (d->drop_at ? 1 : 0);
	d->drop_at = 0;
	d->count = d->used = 0;
	d->ships++;
	d->epoch = ++epochs;
	if (d->epoch == BATCH_SLOW)
		d->epoch = ++epochs; /* BATCH_SLOW is no batch's (epochs wrap after 2^32 batches) */
	d->fast_epoch = d->dropped ? BATCH_SLOW : d->epoch;
	meter_fast_epoch = BATCH_SLOW; /* the next record in any batch: slow path */
}

/* Send d's batch over its link; 0 when it went (or there was nothing). */
static int32_t ship(struct meter_dest *d)
{
	if (d->count == 0) {
		free_if_unused(d);
		return 0;
	}
	/* its hand-over is charged to its receiver: the call's next probe
	 * reads the clock again (struct meter_call) */
	meter_call.on = meter_call.on ? 1 : 0;
	meter_call.p = NULL;
	struct meter_batch_header h = {
		.magic = METER_BATCH_MAGIC, .version = METER_BATCH_COMPACT,
		.count = (uint16_t)d->count, .machine = machine, .bytes = d->used,
	};
	*(struct meter_batch_header *)(void *)d->page = h;
	int32_t r = ship_fn ? ship_fn(&d->link, &d->page, BATCH_HDR_SIZE + d->used) : E_QUEUEFULL;
	if (r == 0) {
		stats.batches++;
	} else if (r == E_DEAD || r == E_NODEDOWN) {
		/* The filter is gone: what it would have got is lost, and counted;
		 * the drops its DROPPED trace told are told again later. */
		uint32_t traces = d->count - (d->drop_at ? 1 : 0);
		d->dropped += traces + held_drops(d);
		stats.dropped += traces;
	} else {
		d->fast_epoch = BATCH_SLOW; /* backed up: hold, and see to room */
		meter_fast_epoch = BATCH_SLOW;
		return r;
	}
	next_batch(d);
	free_if_unused(d);
	return r;
}

/* The next record's place in d (records are 4-byte aligned: stores of
 * their own type, no memcpy call in the kernel's -fno-builtin build). */
static void *next_record(struct meter_dest *d, uint32_t len)
{
	void *at = records(d) + d->used;
	d->used += len;
	return at;
}

/* The record of s (its BASE and CTX first when it needs them), head
 * written: what batch_reserve's fast path does, for every case. */
static uint8_t *put_head(struct meter_dest *d, const struct meter_stamp *s, uint32_t type)
{
	uint32_t seq = meter_seq++;
	meter_call.p = NULL; /* its deltas may be from other bases now */
	if (d->count == 0)
		d->first_ns = s->time;
	uint64_t dt = s->time - d->base_time;
	if (d->used == 0 || meter_last != d || dt > TW_DELTA_MAX) {
		struct tw_base b = { .type = TW_BASE, .seq = seq, .time_lo = (uint32_t)s->time,
				     .time_hi = (uint32_t)(s->time >> 32) };
		*(struct tw_base *)next_record(d, sizeof b) = b;
		d->base_time = s->time;
		dt = 0;
	}
	meter_last = d;
	meter_fast_epoch = d->fast_epoch;
	struct meter_pctx *c = s->ctx;
	uint64_t dp = s->proc_time - c->base;
	if (c->epoch != d->epoch || dp > TW_DELTA_MAX) {
		struct tw_ctx x = { .type = TW_CTX, .pid = (uint16_t)TASK_PID(s->task), .task = s->task,
				    .base_lo = (uint32_t)s->proc_time, .base_hi = (uint32_t)(s->proc_time >> 32) };
		*(struct tw_ctx *)next_record(d, sizeof x) = x;
		c->epoch = d->epoch;
		c->base = s->proc_time;
		dp = 0;
	}
	uint8_t *at = records(d) + d->used;
	struct tw_head h = { .type = (uint8_t)type, .load = (uint8_t)s->load,
			     .pid = (uint16_t)TASK_PID(s->task), .dt = (uint32_t)dt, .dproc = (uint32_t)dp };
	*(struct tw_head *)(void *)at = h;
	d->used += tw_record_size(type);
	d->count++;
	return at;
}

/* Room for n more traces at their largest.  A batch always keeps room
 * for one more, so a DROPPED trace fits when the path backs up.  So the
 * records never come nearer the page's end than that room less a DROPPED
 * trace with its BASE and CTX: meter_reserve's stores of a head's deltas
 * before its checks (encode.h) stay in the page even then. */
_Static_assert(sizeof(struct tw_base) + sizeof(struct tw_ctx) + TW_HEAD_SIZE + sizeof(struct tw_word) +
		       TW_HEAD_SIZE <= TW_TRACE_MAX,
	       "a full page keeps room for a head's early stores");
static int room_for(const struct meter_dest *d, uint32_t n)
{
	return BATCH_HDR_SIZE + d->used + n * TW_TRACE_MAX <= MSG_MAX;
}

/* n more drops, told by the held batch's DROPPED trace (put there, made
 * from s, when it has none), so the count travels with the traces around
 * it. */
static void count_drops(struct meter_dest *d, const struct meter_stamp *s, uint32_t n)
{
	uint32_t count = held_drops(d) + n;
	if (!d->drop_at) {
		uint8_t *at = put_head(d, s, TRACE_DROPPED);
		d->drop_at = (uint32_t)(at - records(d));
	}
	((struct tw_word *)(void *)(records(d) + d->drop_at + TW_HEAD_SIZE))->value = count;
}

uint8_t *batch_reserve_slow(int dest, const struct meter_stamp *s, uint32_t type)
{
	struct meter_dest *d = &meter_dests[dest];
	/* this trace, room kept for a DROPPED trace, and one for drops to tell */
	uint32_t need = 2 + (d->dropped && !d->drop_at);
	if (!room_for(d, need) && ship(d) != 0 && !room_for(d, need)) {
		stats.traces++; /* made, never held */
		stats.dropped++;
		count_drops(d, s, 1 + d->dropped);
		d->dropped = 0;
		return NULL;
	}
	if (d->dropped) {
		count_drops(d, s, d->dropped);
		d->dropped = 0;
	}
	return put_head(d, s, type);
}

uint32_t batch_ships(int dest)
{
	return meter_dests[dest].ships;
}

void batch_restamp(int dest, void *record, uint32_t ships, const struct meter_pctx *c, uint64_t time,
		   uint64_t proc_time)
{
	const struct meter_dest *d = &meter_dests[dest];
	if (!record || d->ships != ships)
		return; /* dropped, or gone with its batch */
	uint32_t dt = (uint32_t)(time - d->base_time), dp = (uint32_t)(proc_time - c->base);
	((struct tw_head *)record)->dt = dt;
	((struct tw_head *)record)->dproc = dp;
}

static int same_link(const struct link *a, const struct link *b)
{
	return a->task == b->task && a->code == b->code && a->rights == b->rights;
}

int batch_dest(const struct link *l, uint32_t batch)
{
	int free_slot = -1;
	for (int i = 0; i < METER_DESTS; i++) {
		if (meter_dests[i].in_use && same_link(&meter_dests[i].link, l)) {
			if (batch)
				meter_dests[i].batch = batch;
			return i;
		}
		if (!meter_dests[i].in_use && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return E_NOSPACE;
	struct meter_dest *d = &meter_dests[free_slot];
	if (!d->page && !(page_fn && (d->page = page_fn())))
		return E_NOMEM; /* a page stays with its slot once it has one */
	uint8_t *page = d->page;
	uint32_t ships = d->ships;
	*d = (struct meter_dest){ .page = page, .ships = ships, .in_use = 1, .link = *l,
				  .batch = batch ? batch : METER_BATCH_DEFAULT };
	next_batch(d);
	return free_slot;
}

void batch_set_size(int dest, uint32_t batch)
{
	meter_dests[dest].batch = batch;
}

uint32_t batch_size(int dest)
{
	return meter_dests[dest].batch;
}

const struct link *batch_link(int dest)
{
	return &meter_dests[dest].link;
}

void batch_use(int dest)
{
	meter_dests[dest].users++;
}

void batch_unuse(int dest)
{
	if (--meter_dests[dest].users == 0)
		ship(&meter_dests[dest]);
}

int32_t batch_ship(int dest)
{
	return ship(&meter_dests[dest]);
}

int32_t batch_mark(int dest, const struct meter_stamp *s, uint32_t token)
{
	struct meter_dest *d = &meter_dests[dest];
	if (!room_for(d, 2) && ship(d) != 0 && !room_for(d, 2))
		return E_QUEUEFULL;
	d->in_use = 1; /* a ship above may have freed a destination nobody uses */
	uint8_t *at = put_head(d, s, TRACE_MARK);
	((struct tw_word *)(void *)(at + TW_HEAD_SIZE))->value = token;
	int32_t r = ship(d);
	return r == E_DEAD || r == E_NODEDOWN ? r : 0; /* backed up: it goes later, in order */
}

void batch_ship_older(uint64_t now, uint64_t max_age_ns)
{
	for (int i = 0; i < METER_DESTS; i++)
		if (meter_dests[i].in_use && meter_dests[i].count && now - meter_dests[i].first_ns >= max_age_ns)
			ship(&meter_dests[i]);
}

void batch_stats(struct meter_stats *s)
{
	*s = stats;
	s->traces += traces_gone;
	s->held = 0;
	for (int i = 0; i < METER_DESTS; i++)
		if (meter_dests[i].in_use) {
			s->held += meter_dests[i].count;
			s->traces += meter_dests[i].count - (meter_dests[i].drop_at ? 1 : 0);
		}
}

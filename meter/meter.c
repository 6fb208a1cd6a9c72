/*
 * meter/meter.c - making traces, batching them, and shipping the batches.
 *
 * Each meter destination (a distinct meter link) has one batch buffer laid
 * out exactly as the wire format (struct meter_batch_header, then records),
 * so sending a batch is sending the buffer.  A batch goes when it holds its
 * batch size of traces, when a process ends, and when its oldest trace is
 * METER_FLUSH_NS old.  If the path backs up, traces stay in the buffer; only
 * when the buffer itself is full is a trace dropped, and the count of drops
 * travels as a DROPPED trace in the next batch that gets through, so nothing
 * is lost silently, with one exception: batches already handed to a host
 * link whose TCP connection then ends are discarded there uncounted
 * (docs/metering.md).
 */
#include "meter.h"
#include "net/hostlink.h"
#include "net/net.h"
#include "kernel/vtime.h"

#define METER_DESTS 8

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
	union {
		struct meter_batch_header hdr;
		uint8_t bytes[MSG_MAX];
	} buf;
};

static struct meter_dest dests[METER_DESTS];
static int host_links[NET_MAX_HOST_SERVICES] = { -1, -1, -1, -1 };
static uint32_t node_seq;
static struct meter_stats stats;

static struct meter_dest *dest_of(const struct proc *p)
{
	return p->meter_dest >= 0 ? &dests[p->meter_dest] : NULL;
}

static void host_link_down(int link, void *arg)
{
	(void)link;
	host_links[(uintptr_t)arg] = -1; /* opened again by the next batch */
}

/* A batch to a filter on the host: bytes on the node's host link to the
 * service (the batch is already the wire format). */
static int32_t ship_to_host(uint32_t service, const void *bytes, uint32_t len)
{
	if (service >= net_config.nhost)
		return E_NODEDOWN;
	if (host_links[service] < 0) {
		struct hostlink_callbacks cb = { .down = host_link_down, .arg = (void *)(uintptr_t)service };
		int l = hostlink_open(net_config.host[service].name, &cb);
		if (l < 0)
			return E_NODEDOWN;
		host_links[service] = l;
	}
	return hostlink_send(host_links[service], bytes, len);
}

int32_t meter_host_link(const char *name, struct link *out)
{
	for (uint32_t i = 0; i < net_config.nhost; i++) {
		if (!strncmp(net_config.host[i].name, name, NET_NAME_MAX)) {
			*out = (struct link){ .in_use = 1, .task = TASK_OF(node_id, KERNEL_PID), .code = i };
			return 0;
		}
	}
	return E_NONAME;
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
static int32_t ship_now(struct meter_dest *d)
{
	if (d->count == 0) {
		free_if_unused(d);
		return 0;
	}
	d->buf.hdr = (struct meter_batch_header){
		.magic = METER_BATCH_MAGIC, .version = METER_BATCH_VERSION,
		.count = (uint16_t)d->count, .machine = node_id, .bytes = d->used,
	};
	uint32_t len = sizeof d->buf.hdr + d->used;
	int32_t r = TASK_PID(d->link.task) == KERNEL_PID ? ship_to_host(d->link.code, d->buf.bytes, len)
							  : ipc_kernel_send(&d->link, d->buf.bytes, len, 1);
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
	free_if_unused(d);
	return r;
}

/* Virtual time: shipping is the host's business, so it is excluded from the
 * node clock, and a backed-up batch is waited for rather than held: the
 * meter's state, and so every later trace, does not depend on the host
 * (docs/virtual-time.md §2.6). */
static int went(void *arg)
{
	int32_t r = ship_now(arg);
	return r == 0 || r == E_DEAD || r == E_NODEDOWN;
}

static int32_t ship(struct meter_dest *d)
{
	if (!vtime_on)
		return ship_now(d);
	vtime_exclude_begin();
	int32_t r = ship_now(d);
	if (r != 0 && r != E_DEAD && r != E_NODEDOWN && vtime_wait(went, d))
		r = 0;
	vtime_exclude_end();
	return r;
}

static void put_record(struct meter_dest *d, struct proc *p, uint32_t type, const void *body, uint32_t body_len)
{
	uint64_t now = arch_clock_ns();
	struct trace_header h = {
		.machine = node_id, .traceType = type, .time = now,
		.procTime = p == current ? p->cpu_ns + (now - p->run_start) : p->cpu_ns,
		.seq = node_seq++, .load = proc_runnable_count(), .task = p->task,
		.size = TRACE_HEADER_SIZE + body_len,
	};
	uint8_t *at = d->buf.bytes + sizeof d->buf.hdr + d->used;
	memcpy(at, &h, sizeof h);
	memcpy(at + sizeof h, body, body_len);
	if (d->count++ == 0)
		d->first_ns = h.time;
	d->used += h.size;
	stats.held++;
}

/* Room for n more records of the largest size.  A batch always keeps room
 * for one more, so a DROPPED trace fits when the path backs up. */
static int room_for(const struct meter_dest *d, uint32_t n)
{
	return sizeof d->buf.hdr + d->used + n * TRACE_MAX_SIZE <= MSG_MAX;
}

/* n more drops, told by the held batch's DROPPED trace (put there when it
 * has none), so the count travels with the traces around it. */
static void count_drops(struct meter_dest *d, struct proc *p, uint32_t n)
{
	struct trace_dropped dr = { .count = held_drops(d) + n };
	if (d->drop_at) {
		memcpy(d->buf.bytes + d->drop_at + TRACE_HEADER_SIZE, &dr, sizeof dr);
		return;
	}
	d->drop_at = (uint32_t)sizeof d->buf.hdr + d->used;
	put_record(d, p, TRACE_DROPPED, &dr, sizeof dr);
}

static void emit(struct proc *p, uint32_t type, const void *body, uint32_t body_len)
{
	struct meter_dest *d = dest_of(p);
	if (!d)
		return;
	stats.traces++;
	/* this trace, room kept for a DROPPED trace, and one for drops to tell */
	uint32_t need = 2 + (d->dropped && !d->drop_at);
	if (!room_for(d, need) && ship(d) != 0 && !room_for(d, need)) {
		stats.dropped++;
		count_drops(d, p, 1 + d->dropped);
		d->dropped = 0;
		return;
	}
	if (d->dropped) {
		count_drops(d, p, d->dropped);
		d->dropped = 0;
	}
	put_record(d, p, type, body, body_len);
	if (d->count >= d->batch)
		ship(d);
}

void meter_send(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink)
{
	struct trace_send b = {
		.fromTask = m->from, .toTask = m->to, .code = m->code, .sendLink = (uint32_t)link,
		.passLink = m->has_link ? (uint32_t)passlink : NO_LINK, .msgId = m->id, .length = m->len,
		.passTask = m->has_link ? m->link.task : 0,
	};
	emit(p, TRACE_SEND, &b, sizeof b);
}

void meter_queued(struct proc *to, const struct kmsg *m)
{
	struct trace_queued b = {
		.fromTask = m->from, .toTask = m->to, .msgId = m->id, .length = m->len,
		.queueLen = to->queue.len, .code = m->code,
	};
	emit(to, TRACE_QUEUED, &b, sizeof b);
}

void meter_receivecall(struct proc *p, int blocking)
{
	struct trace_receivecall b = { .toTask = p->task, .queueLen = p->queue.len, .blocking = (uint32_t)blocking };
	emit(p, TRACE_RECEIVECALL, &b, sizeof b);
}

void meter_receive(struct proc *p, const struct kmsg *m, int32_t passed)
{
	struct trace_receive b = {
		.fromTask = m->from, .toTask = m->to, .code = m->code, .msgId = m->id, .length = m->len,
		.passLink = passed >= 0 ? (uint32_t)passed : NO_LINK, .queueLen = p->queue.len,
	};
	emit(p, TRACE_RECEIVE, &b, sizeof b);
}

void meter_link(struct proc *p, uint32_t type, int32_t index, const struct link *l)
{
	struct trace_link b = {
		.link = (uint32_t)index, .toTask = l->task, .code = l->code,
		.dataLen = l->data_len, .rights = l->rights,
	};
	emit(p, type, &b, sizeof b);
}

void meter_movedata(struct proc *p, const struct link *from, const struct link *to,
		    uint32_t from_link, uint32_t to_link, uint32_t len, int32_t status)
{
	struct trace_movedata b = {
		.fromTask = from ? from->task : 0, .toTask = to ? to->task : 0,
		.fromLink = from_link, .toLink = to_link, .length = len, .status = (uint32_t)status,
	};
	emit(p, TRACE_MOVEDATA, &b, sizeof b);
}

void meter_process(struct proc *p, uint32_t type, uint32_t parent, uint32_t child,
		   uint32_t reason, int32_t status)
{
	struct trace_process b = { .parentTask = parent, .childTask = child, .reason = reason,
				   .status = (uint32_t)status };
	emit(p, type, &b, sizeof b);
}

static int same_link(const struct link *a, const struct link *b)
{
	return a->task == b->task && a->code == b->code && a->rights == b->rights;
}

static int dest_for(const struct link *l, uint32_t batch)
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

static void release(struct proc *p)
{
	struct meter_dest *d = dest_of(p);
	p->meter_dest = -1;
	if (d && --d->users == 0)
		ship(d);
}

int32_t meter_set(struct proc *p, uint32_t flags, const struct link *meter_link, uint32_t batch)
{
	if (batch > METER_BATCH_MAX || (flags & ~(uint32_t)METER_FLAGS_ALL))
		return E_INVAL;
	if (meter_link) {
		int i = dest_for(meter_link, batch);
		if (i < 0)
			return i;
		if (i != p->meter_dest) {
			dests[i].users++;
			release(p);
			p->meter_dest = i;
		}
	} else if (p->meter_dest < 0 && flags) {
		return E_BADREQ; /* flags need somewhere to send traces */
	} else if (p->meter_dest >= 0 && batch) {
		dests[p->meter_dest].batch = batch;
	}
	p->meter_flags = p->meter_dest >= 0 ? flags : 0;
	return 0;
}

void meter_inherit(struct proc *child, const struct proc *parent)
{
	child->meter_dest = -1;
	if (parent && parent->meter_dest >= 0) {
		child->meter_dest = parent->meter_dest;
		dests[child->meter_dest].users++;
		child->meter_flags = parent->meter_flags;
	}
}

void meter_flush_proc(struct proc *p)
{
	struct meter_dest *d = dest_of(p);
	if (d)
		ship(d);
	release(p);
	p->meter_flags = 0;
}

int32_t meter_mark(struct proc *p, const struct link *to, uint32_t token)
{
	int i = dest_for(to, 0);
	if (i < 0)
		return i;
	struct meter_dest *d = &dests[i];
	if (!room_for(d, 2) && ship(d) != 0 && !room_for(d, 2))
		return E_QUEUEFULL;
	d->in_use = 1; /* a ship above may have freed a destination nobody uses */
	struct trace_mark b = { .token = token };
	stats.traces++;
	put_record(d, p, TRACE_MARK, &b, sizeof b);
	int32_t r = ship(d);
	return r == E_DEAD || r == E_NODEDOWN ? r : 0; /* backed up: it goes later, in order */
}

void meter_tick(void)
{
	uint64_t now = arch_clock_ns();
	for (int i = 0; i < METER_DESTS; i++)
		if (dests[i].in_use && dests[i].count && now - dests[i].first_ns >= METER_FLUSH_NS)
			ship(&dests[i]);
}

int meter_settings(const struct proc *p, uint32_t *flags, uint32_t *batch, struct link *meter_link)
{
	struct meter_dest *d = dest_of(p);
	if (!d)
		return 0;
	*flags = p->meter_flags;
	*batch = d->batch;
	*meter_link = d->link;
	return 1;
}

void meter_get_stats(struct meter_stats *s)
{
	*s = stats;
}

/*
 * meter/meter.c - the kernel's probes and each process's meter settings:
 * the probe functions make a trace's body and header from the kernel's
 * objects (a process, a message, a link) and write it in place in the
 * process's destination's batch (encode.h, batch.h).  This is the narrow interface the kernel
 * calls downward into (ipc.c, lifecycle.c, kservice.c, timer.c); it never sends
 * a message itself.  Batches leave through ship.c, which sits above ipc.c
 * and hands them to ipc_kernel_send or a host link.
 */
#include "meter.h"
#include "encode.h"
#include "kernel/net/net.h"

/* What a probe of p sees now, for the slow paths (a mark). */
static struct meter_stamp stamp_of(struct proc *p)
{
	uint64_t now = arch_clock_ns();
	return (struct meter_stamp){ .time = now, .proc_time = meter_proc_time(p, now), .task = p->task,
				     .load = proc_runnable_count(), .ctx = &p->meter_ctx };
}

/* The time of a probe: the clock, read once a traced kernel call (struct
 * meter_call, batch.h) when one is open. */
static inline __attribute__((always_inline)) uint64_t meter_now(void)
{
	if (meter_call.on == 2)
		return meter_call.ns;
	uint64_t t = arch_clock_ns();
	if (meter_call.on) {
		meter_call.ns = t;
		meter_call.on = 2;
	}
	return t;
}

/* Each probe: p's destination (none: nothing) and the time; its record is
 * then written in place by the encoder (encode.h). */
#define PROBE(p, d, now)                                 \
	int d = (p)->meter_dest;                         \
	if (d < 0)                                       \
		return;                                  \
	uint64_t now = meter_now()

/* DPM_METER_CUT, for `make bench-kernel` alone (servers/bench): the four
 * probes of a message (SEND, QUEUED, RECEIVECALL, RECEIVE) stop part way,
 * so that what each part of a metered event costs is measured, not
 * guessed: 1, after the destination test and the time; 2, also with the
 * record reserved and its head written, then taken back (nothing is
 * committed, no batch fills or ships); 3, reserved and committed with its
 * body unwritten (batches fill and ship as ever, their bodies garbage).
 * Such a kernel's traces are not for reading. */
#if defined(DPM_METER_CUT) && DPM_METER_CUT == 1
#define CUT(p, d, now, type) return
#elif defined(DPM_METER_CUT) && DPM_METER_CUT == 2
#define CUT(p, d, now, type)                                                   \
	do {                                                                   \
		struct meter_dest *cd = &meter_dests[d];                       \
		if (meter_reserve(p, cd, type, now)) {                         \
			__asm__ volatile("" ::: "memory"); /* the head written */ \
			cd->used -= tw_record_size(type);                      \
			cd->count--;                                           \
			meter_seq--;                                           \
		}                                                              \
		return;                                                        \
	} while (0)
#elif defined(DPM_METER_CUT) && DPM_METER_CUT == 3
#define CUT(p, d, now, type)                                                   \
	do {                                                                   \
		struct meter_dest *cd = &meter_dests[d];                       \
		uint8_t *cr = meter_reserve(p, cd, type, now);                 \
		if (cr)                                                        \
			batch_commit(cd, cr);                                  \
		return;                                                        \
	} while (0)
#else
#define CUT(p, d, now, type) (void)0
#endif

METER_PROBE void meter_send(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink)
{
	PROBE(p, d, now);
	CUT(p, d, now, TRACE_SEND);
	enc_send(p, d, now, link, m, passlink);
}

METER_PROBE void meter_send_waits(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink)
{
	PROBE(p, d, at);
	uint32_t ships = batch_ships(d);
	void *send = NULL, *wait = NULL;
	if (METERED(p, TRACE_SEND))
		send = enc_send(p, d, at, link, m, passlink);
	if (METERED(p, TRACE_RECEIVECALL))
		wait = enc_receivecall(p, d, at, 1);
	/* both as of now, their writing done: no other trace was put since */
	uint64_t now = arch_clock_ns(), cpu = p->cpu_ns + (now - p->run_start);
	batch_restamp(d, send, ships, &p->meter_ctx, now, cpu);
	batch_restamp(d, wait, ships, &p->meter_ctx, now, cpu);
}

METER_PROBE void meter_queued(struct proc *to, const struct kmsg *m)
{
	if (m->is_meter)
		return; /* a batch of traces is never itself traced */
	PROBE(to, d, now);
	CUT(to, d, now, TRACE_QUEUED);
	enc_queued(to, d, now, m);
}

METER_PROBE void meter_receivecall(struct proc *p, int blocking)
{
	PROBE(p, d, now);
	CUT(p, d, now, TRACE_RECEIVECALL);
	enc_receivecall(p, d, now, blocking);
}

METER_PROBE void meter_receive(struct proc *p, const struct kmsg *m, int32_t passed)
{
	if (m->is_meter)
		return;
	PROBE(p, d, now);
	CUT(p, d, now, TRACE_RECEIVE);
	enc_receive(p, d, now, m, passed);
}

METER_PROBE void meter_link(struct proc *p, uint32_t type, int32_t index, const struct link *l)
{
	PROBE(p, d, now);
	enc_link(p, d, now, type, index, l);
}

METER_PROBE void meter_movedata(struct proc *p, const struct link *from, const struct link *to,
		    uint32_t from_link, uint32_t to_link, uint32_t len, int32_t status)
{
	PROBE(p, d, now);
	enc_movedata(p, d, now, from, to, from_link, to_link, len, status);
}

METER_PROBE void meter_process(struct proc *p, uint32_t type, uint32_t parent, uint32_t child,
		   uint32_t reason, int32_t status)
{
	PROBE(p, d, now);
	enc_process(p, d, now, type, parent, child, reason, status);
}

static void release(struct proc *p)
{
	int d = p->meter_dest;
	p->meter_dest = -1;
	if (d >= 0)
		batch_unuse(d);
}

int32_t meter_set(struct proc *p, uint32_t flags, const struct link *meter_link, uint32_t batch)
{
	if (batch > METER_BATCH_MAX || (flags & ~(uint32_t)METER_FLAGS_ALL))
		return E_INVAL;
	if (meter_link) {
		int i = batch_dest(meter_link, batch);
		if (i < 0)
			return i;
		if (i != p->meter_dest) {
			batch_use(i);
			release(p);
			p->meter_dest = i;
			p->meter_ctx.epoch = 0; /* its CTX is in none of i's batches (batch.h) */
		}
	} else if (p->meter_dest < 0 && flags) {
		return E_BADREQ; /* flags need somewhere to send traces */
	} else if (p->meter_dest >= 0 && batch) {
		batch_set_size(p->meter_dest, batch);
	}
	p->meter_flags = p->meter_dest >= 0 ? flags : 0;
	return 0;
}

void meter_inherit(struct proc *child, const struct proc *parent)
{
	child->meter_dest = -1;
	child->meter_ctx.epoch = 0;
	if (parent && parent->meter_dest >= 0) {
		child->meter_dest = parent->meter_dest;
		batch_use(child->meter_dest);
		child->meter_flags = parent->meter_flags;
	}
}

void meter_flush_proc(struct proc *p)
{
	if (p->meter_dest >= 0)
		batch_ship(p->meter_dest);
	release(p);
	p->meter_flags = 0;
}

int32_t meter_mark(struct proc *p, const struct link *to, uint32_t token)
{
	int i = batch_dest(to, 0);
	if (i < 0)
		return i;
	struct meter_stamp s = stamp_of(p);
	return batch_mark(i, &s, token);
}

void meter_tick(void)
{
	batch_ship_older(arch_clock_ns(), METER_FLUSH_NS);
}

int meter_settings(const struct proc *p, uint32_t *flags, uint32_t *batch, struct link *meter_link)
{
	if (p->meter_dest < 0)
		return 0;
	*flags = p->meter_flags;
	*batch = batch_size(p->meter_dest);
	*meter_link = *batch_link(p->meter_dest);
	return 1;
}

static uint32_t discarded;

void meter_discarded(void)
{
	discarded++;
}

void meter_get_stats(struct meter_stats *s)
{
	batch_stats(s);
	s->discarded = discarded;
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

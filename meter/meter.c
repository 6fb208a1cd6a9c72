/*
 * meter/meter.c - the kernel's probes and each process's meter settings:
 * the probe functions make a trace's body and header from the kernel's
 * objects (a process, a message, a link) and add it to the process's
 * destination's batch (batch.c).  This is the narrow interface the kernel
 * calls downward into (ipc.c, lifecycle.c, kservice.c, timer.c); it never sends
 * a message itself.  Batches leave through ship.c, which sits above ipc.c
 * and hands them to ipc_kernel_send or a host link.
 */
#include "meter.h"
#include "kernel/net/net.h"

/* A trace header for p now: machine, time, procTime, load, task.  Inline:
 * it is on every probe's path (make bench-kernel's per-metered-event). */
static inline __attribute__((always_inline)) struct trace_header header_of(const struct proc *p)
{
	struct trace_header h;  /* traceType, seq, size: batch.c's (no zeroing here) */
	h.machine = node_id;
	h.time = arch_clock_ns();
	h.procTime = p == current ? p->cpu_ns + (h.time - p->run_start) : p->cpu_ns;
	h.load = proc_runnable_count();
	h.task = p->task;
	return h;
}

/* Inline into each probe, as header_of: one call (batch_put) per trace. */
static inline __attribute__((always_inline)) void emit(struct proc *p, uint32_t type, const void *body,
						       uint32_t body_len)
{
	if (p->meter_dest < 0)
		return;
	struct trace_header h = header_of(p);
	batch_put(p->meter_dest, &h, type, body, body_len);
}

/* The bodies of a SEND and a RECEIVECALL, shared by their probes and
 * meter_send_waits. */
static inline __attribute__((always_inline)) struct trace_send send_body(int32_t link, const struct kmsg *m,
									 int32_t passlink)
{
	return (struct trace_send){
		.fromTask = m->from, .toTask = m->to, .code = m->code, .sendLink = (uint32_t)link,
		.passLink = m->has_link ? (uint32_t)passlink : NO_LINK, .msgId = m->id, .length = m->len,
		.passTask = m->has_link ? m->link.task : 0,
	};
}

static inline __attribute__((always_inline)) struct trace_receivecall receivecall_body(const struct proc *p,
										      int blocking)
{
	return (struct trace_receivecall){ .toTask = p->task, .queueLen = p->queue.len,
					   .blocking = (uint32_t)blocking };
}

void meter_send(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink)
{
	struct trace_send b = send_body(link, m, passlink);
	emit(p, TRACE_SEND, &b, sizeof b);
}

void meter_send_waits(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink)
{
	int d = p->meter_dest;
	if (d < 0)
		return;
	uint32_t ships = batch_ships(d);
	void *send = NULL, *wait = NULL;
	struct trace_header h = header_of(p);
	if (METERED(p, TRACE_SEND)) {
		struct trace_send b = send_body(link, m, passlink);
		send = batch_put(d, &h, TRACE_SEND, &b, sizeof b);
	}
	if (METERED(p, TRACE_RECEIVECALL)) {
		struct trace_receivecall b = receivecall_body(p, 1);
		wait = batch_put(d, &h, TRACE_RECEIVECALL, &b, sizeof b);
	}
	/* both as of now, their writing done: no other trace was put since */
	uint64_t now = arch_clock_ns(), cpu = p->cpu_ns + (now - p->run_start);
	batch_restamp(d, send, ships, now, cpu);
	batch_restamp(d, wait, ships, now, cpu);
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
	struct trace_receivecall b = receivecall_body(p, blocking);
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
	struct trace_header h = header_of(p);
	return batch_mark(i, &h, token);
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

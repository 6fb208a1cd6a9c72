/*
 * meter/meter.h - the kernel's meter as the kernel calls it: the probes'
 * entry points, each process's meter settings, and the per-process switch
 * that keeps an unmetered process's cost to one test.  Nothing here sends
 * a message: batches leave through ship.c (ship.h), above ipc.c.
 *
 * A probe site reads:   if (METERED(p, TRACE_SEND)) meter_send(...);
 * so a process whose flags are clear pays one AND and a branch, nothing more
 * (thesis §4.1: the in-kernel test must be fast and simple).  Traces are
 * batched per meter destination (the process's meter link) and sent as one
 * message over that link: to a filter process, to the host filter through
 * the kernel's host link, or to a remote node.  The subsystem's files:
 *   meter.c  probes and settings (this interface)
 *   batch.c  batching and drop accounting, host-testable (batch.h)
 *   ship.c   sending batches: ipc_kernel_send or a host link (ship.h)
 */
#ifndef DPM_METER_H
#define DPM_METER_H
#include "kernel/kernel.h"
#include "batch.h"
#include "kernel/abi/trace.h"

#ifdef DPM_NO_METER
#define METERED(p, type) 0
#define METERED_ANY(p) 0
#else
#define METERED(p, type) ((p)->meter_flags & METER_FLAG(type))
/* p traces anything: one test where a call has several probe sites, the
 * unmetered path then written without them (kernel/ipc.c) */
#define METERED_ANY(p) __builtin_expect((p)->meter_flags != 0, 0)
#endif

#define METER_FLUSH_NS 100000000ull /* a partial batch waits at most 100 ms */

/* The probes are cold: a probe site's call, its arguments and whatever it
 * needs kept are laid out of the unmetered path, which pays the flag test
 * alone (docs/kernel-calls.md, "Cost"); GCC compiles a cold function for
 * size, which on these two machines also runs fewer instructions a
 * metered event than -O2's code (measured: x86 147.2 against 148.6, ARM
 * 162.9 against 170.5).  meter_queued and meter_receive leave out a batch
 * of traces (m->is_meter) themselves. */
#ifdef __i386__
/* i386 passes arguments on the stack: in registers they cost a probe's
 * call site and its prologue fewer loads and stores */
#define METER_PROBE __attribute__((cold, regparm(3)))
#else
#define METER_PROBE __attribute__((cold))
#endif
METER_PROBE void meter_send(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink);
METER_PROBE void meter_queued(struct proc *to, const struct kmsg *m);
METER_PROBE void meter_receivecall(struct proc *p, int blocking);
/* A message sent by a call that then waits (CALL, REPLYRECEIVE; p runs):
 * its SEND and the blocking RECEIVECALL, as meter_send and
 * meter_receivecall would write them, but both stamped with the time and
 * procTime at which they are written, before the message is handed on.
 * The message leaves when its sender has done its part and waits, so no
 * CPU of the sender's probes lies beside its receiver's work
 * (docs/metering.md, "When a message leaves"). */
METER_PROBE void meter_send_waits(struct proc *p, int32_t link, const struct kmsg *m, int32_t passlink);
METER_PROBE void meter_receive(struct proc *p, const struct kmsg *m, int32_t passed);
METER_PROBE void meter_link(struct proc *p, uint32_t type, int32_t index, const struct link *l);
METER_PROBE void meter_movedata(struct proc *p, const struct link *from, const struct link *to,
		    uint32_t from_link, uint32_t to_link, uint32_t len, int32_t status);
METER_PROBE void meter_process(struct proc *p, uint32_t type, uint32_t parent, uint32_t child,
		   uint32_t reason, int32_t status);

/* A stretch of one kernel call whose probes share its clock reading
 * (struct meter_call, batch.h; docs/metering.md, "An event's time"):
 * was = meter_call_open(); ...probes...; meter_call_close(was).  Nothing
 * in it may block or let another process run (the reading would be
 * theirs); a stretch inside another is part of it. */
static inline uint32_t meter_call_open(void)
{
	uint32_t was = meter_call.on;
	if (!was)
		meter_call.on = 1;
	return was;
}

/* The same where no stretch can be open (a kernel call's own code, not
 * reached from another's probes); closed with meter_call_close(0). */
static inline void meter_call_open_top(void)
{
	meter_call.on = 1;
}

static inline void meter_call_close(uint32_t was)
{
	if (!was) {
		meter_call.on = 0;
		meter_call.p = NULL;
	}
}

/* Set p's flags and meter link (NULL: keep the link); batch 0: default. */
int32_t meter_set(struct proc *p, uint32_t flags, const struct link *meter_link, uint32_t batch);
/* A new process of a metered creator inherits its flags and meter link. */
void meter_inherit(struct proc *child, const struct proc *parent);
/* Send whatever p's destination holds (a process ends). */
void meter_flush_proc(struct proc *p);
/* Called on every clock tick: sends batches older than METER_FLUSH_NS. */
void meter_tick(void);

/* A meter link to host service `name` (a filter on the host, reached
 * through the node's host link): a kernel link whose code is the
 * service's index in host=.  0, or E_NONAME. */
int32_t meter_host_link(const char *name, struct link *out);
/* Put a MARK trace of p with `token` behind every trace held for the
 * destination `to` and send them: when the filter has the mark, it has
 * everything this node sent there before it (the controller's getlog).
 * 0 (sent, or held in order while the path is backed up), E_NODEDOWN,
 * E_DEAD, E_NOSPACE (no destination free), E_QUEUEFULL. */
int32_t meter_mark(struct proc *p, const struct link *to, uint32_t token);
/* p's meter settings, for a child created on another node. */
int meter_settings(const struct proc *p, uint32_t *flags, uint32_t *batch, struct link *meter_link);

/* A message from another node was discarded on arrival (remote.c: an
 * asynchronous SEND whose receiver is gone); counted in meter_stats. */
void meter_discarded(void);
/* Counters (struct meter_stats, batch.h), for tests and the benchmark
 * (KR_METERSTATS). */
void meter_get_stats(struct meter_stats *s);
#endif

/*
 * kernel/vtime.h - virtual time on this node (docs/virtual-time.md §2.2):
 * whether the node runs in it (`vclock=1` on the kernel command line, put
 * there by a cluster file's `clock=virtual`), the exclusion of work whose
 * amount depends on the host (the network stack's) from the node clock,
 * the one-shot deadline the port arms (the next tick, the next event of a
 * registered source, the synchronisation's next stop), and the hooks by
 * which the cluster's synchronisation (kernel/net/vlink.c, above) stalls
 * the node at its horizon and delivers frames at their times.  Outside
 * virtual time none of this runs.
 */
#ifndef DPM_VTIME_H
#define DPM_VTIME_H
#include <stdint.h>

#define VTIME_NEVER UINT64_MAX

extern int vtime_on;

/* A kernel command-line word of ours (`vclock=0|1`): 1 taken, 0 not ours. */
int vtime_cmdline_option(const char *w, uint32_t n);
/* After the command line: switch the tick to node-clock deadlines. */
void vtime_start(void);
/* Around host-dependent work: the node clock stands still in between.
 * Nested calls count; only the outermost pair moves the clock. */
void vtime_exclude_begin(void);
void vtime_exclude_end(void);
/* While excluding: the clock, still standing, moves on to `t` (if later):
 * a modelled stretch (an idle node jumping to its next event); it reads t
 * from then on. */
void vtime_advance_to(uint64_t t);
/* The node clock: where it stands still while excluding. */
uint64_t vtime_now(void);
/* What copying `bytes` of a process's data costs a node of the modelled
 * machine (vcopy=NS per 1000 bytes, vtime_config.h; the 1984 preset's
 * VAX): 0 outside virtual time or when the model has no such cost.  In
 * line, as vtime_spin's test: the message paths ask at every call, and
 * two calls that give 0 were 48 instructions of a LAN node's CALL. */
extern uint64_t vtime_copy_rate; /* ns per 1000 bytes, 0 without the model */
static inline uint64_t vtime_copy_ns(uint32_t bytes)
{
	return vtime_copy_rate ? (uint64_t)bytes * vtime_copy_rate / 1000 : 0;
}
/* Run the node clock on by `ns` (a loop reading it): a modelled cost paid
 * in instructions, so it is the running process's CPU time and meets the
 * node's deadlines as any other work does.  Nothing while excluding. */
void vtime_spin_for(uint64_t ns);
static inline void vtime_spin(uint64_t ns)
{
	if (ns)
		vtime_spin_for(ns);
}

/* A source of local events (the disk's completions, ...): next(now) is its
 * earliest pending event (at or before `now` when one is due), or
 * VTIME_NEVER; due(now) is called at the deadline interrupt for every
 * source with an event due, after the frames due then, in the order the
 * sources were added.  Up to VTIME_MAX_SOURCES. */
#define VTIME_MAX_SOURCES 4
int vtime_add_source(uint64_t (*next)(uint64_t now), void (*due)(uint64_t now));

/* What the cluster's synchronisation gives (kernel/net/vlink.c):
 *  quantum  its stops' spacing in node time (a busy node stops at every
 *           multiple of it and at its ticks; frames are taken there);
 *  wait     at a stop, clock standing still at `now`: wait until nothing
 *           can still arrive for a time <= now;
 *  idle     clock standing still, nothing runnable at `now`, the next
 *           local event at `next`: wait until the node may jump, jump
 *           (vtime_advance_to) and return the time jumped to (<= next);
 *  pending  clock standing still at `now`: whether deliver has anything
 *           to take;
 *  deliver  clock running again: take the frames due at `now` (the
 *           receiving kernel's work is the node's); how many. */
struct vtime_sync {
	uint64_t quantum;
	void (*wait)(uint64_t now);
	uint64_t (*idle)(uint64_t now, uint64_t next);
	int (*pending)(uint64_t now);
	int (*deliver)(uint64_t now);
};
void vtime_set_sync(const struct vtime_sync *s);
/* Whether a synchronisation is in place (the node has peers). */
int vtime_synced(void);

/* For the port: the next deadline to arm (node clock). */
uint64_t vtime_next_deadline(void);
/* For the port, at its deadline interrupt (from user mode when from_user):
 * the stop.  Its own work (the lateness check, the wait for the peers,
 * the re-arming of the deadline, which arch_clock_resume does) stands the
 * clock still; only what it does for the node counts: the frames it
 * delivers and the due sources' events.  A stop thus costs the node its
 * trap's entry and exit and a few clock reads, not the ~1,500 instructions
 * its bookkeeping took (which at the 1984 preset's 1 us an instruction
 * were 15 % of a busy node).  Returns with the deadline armed again; 1
 * when a tick (kernel_timer_tick, preemption) is due as well. */
int vtime_deadline(int from_user);
/* Noticing that QEMU took the deadline interrupt late (kernel/vlate.h):
 * it says so on the console ("vtime: the deadline interrupt due at ...").
 * The port tells, in node-clock time, when it armed its interrupt and when
 * that expires (where QEMU's device model puts it), every entry to the
 * kernel from user mode, as the first thing it does there (deadline: 1
 * when it may be the deadline interrupt, whose reading vtime_deadline
 * judges), and every return to user mode. */
void vtime_deadline_armed(uint64_t now, uint64_t expires);
void vtime_user_entry(int deadline);
void vtime_user_resumes(void);

/* For the scheduler with nothing runnable: 1 when the node jumped in time
 * and took frames (look again for something to run), 0 to wait for an
 * interrupt. */
int vtime_idle(void);
#endif

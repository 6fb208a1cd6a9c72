/*
 * kernel/vlate.h - noticing that the deadline interrupt came late
 * (docs/virtual-time.md §2.2).  Virtual time assumes that QEMU's icount
 * takes the port's deadline interrupt on the instruction where its timer
 * expires; under host load QEMU 7.2 has taken it thousands of instructions
 * later, and then where it lands, and so the node's times, depend on the
 * host.  The kernel cannot undo that; it can notice it and say so, so that
 * a run whose times differ is told from a kernel fault.  The rule, in node
 * time (no kernel state: the host's unit tests build it,
 * tests/unit/test_kernel_vlate.c; kernel/vtime.c feeds it).  The port reads
 * the clock first thing on every entry from user mode, so an interrupt's
 * and a kernel call's readings lie the same path after their start:
 *  - from user mode, where interrupts are enabled, the handler of an
 *    interrupt that came on time reads the clock a fixed number of
 *    instructions (the entry path's) after the first instruction boundary
 *    at or past the expiry: the least such delay seen is that number (give
 *    or take one instruction's time, 2^shift ns, which the rule learns as
 *    the greatest common divisor of the arm-to-handler times), and one
 *    longer by an instruction or more, for an expiry well inside a
 *    stretch of user mode (RESUME_MARGIN after the return to it), is late;
 *  - an interrupt that expired while the kernel ran (interrupts off) is
 *    taken on the way back to user mode: not late, unless it came more
 *    than RESUME_MARGIN (the longest way out) after that return;
 *  - any other entry from user mode (a kernel call, a fault) whose
 *    trapping instruction ran at or past the expiry (its reading more than
 *    the interrupt's learnt delay after it, one instruction more at a
 *    coarser grid; ENTRY_MARGIN until one is learnt) means the interrupt
 *    was not taken when it was due: late.  Before the readings were taken
 *    at the same point a slack of 100 instructions hid a late interrupt
 *    taken just after a kernel call instead of just before it, and with it
 *    a host-dependent difference in a 4-node record (cluster_test_vtime_fs).
 */
#ifndef DPM_VLATE_H
#define DPM_VLATE_H
#include <stdint.h>

/* In instructions: ns at shift=0, times the learnt grid at any shift (at
 * shift=10 a kernel call's entry path of ~100 instructions is ~100 us);
 * before the grid is learnt, no entry but the deadline interrupt's own is
 * judged. */
#define VLATE_RESUME_MARGIN_NS 1000 /* > the kernel's path out to user mode */
#define VLATE_ENTRY_MARGIN_NS 2000  /* > its path in, to the clock's reading */

struct vlate {
	uint64_t armed_at;    /* when it was armed                           */
	uint64_t expires;     /* the armed interrupt's expiry, or UINT64_MAX */
	uint64_t grid;        /* an instruction's time, as learnt (0: none)  */
	uint64_t user_since;  /* the last return to user mode                */
	uint64_t entry_delay; /* the least expiry-to-handler delay seen      */
};

void vlate_init(struct vlate *l);
/* The port armed its deadline interrupt at `now` to expire at `expires`. */
void vlate_armed(struct vlate *l, uint64_t now, uint64_t expires);
/* The kernel returns to user mode at `now`. */
void vlate_resumes(struct vlate *l, uint64_t now);
/* An entry to the kernel from user mode at `now`, the deadline interrupt's
 * when `deadline` is 1: the expiry it shows was missed, or 0.  A missed
 * expiry is reported once.  *by: for the deadline interrupt itself, late
 * with nothing but user-mode instructions in between, by how many ns
 * exactly, when that is known (an instruction's time learnt as 1 ns:
 * shift=0); else 0.  Those instructions are the interrupted process's
 * own, run before the stop instead of after it (what a correction would
 * use: docs/virtual-time.md, "the late deadline interrupt"). */
uint64_t vlate_entry(struct vlate *l, uint64_t now, int deadline, uint64_t *by);
#endif

/*
 * kernel/proc.c - processes: the table, the round-robin scheduler, blocking
 * and CPU-time accounting.  A process's creation and end, which reach up
 * into ipc.c and the meter, are lifecycle.c's, so this file is at the
 * bottom of the kernel: ipc.c, remote.c and the meter call it, it calls
 * none of them.
 *
 * Shaped after xv6: the scheduler runs on the boot stack and every process
 * switches back to it, so "pick the next process" lives in one loop.  The
 * kernel runs with interrupts off; a timer tick preempts only user code.
 * CPU time (PROCTIME) is charged between switching a process in and out, so
 * it counts only the time the process really ran (its own kernel calls
 * included), never idle time or other processes.
 *
 * Everything on a message's path is constant time.  The runnable
 * processes are a bit set over the table's slots (runq.h: a bit per slot,
 * set while the process is P_RUNNABLE and not stopped), kept by
 * proc_set_state and proc_set_stopped, the only writers of those two
 * fields once a process exists; the pick is the first set bit after the
 * cursor, round robin in slot order exactly as the scan of every slot it
 * replaces, so every schedule is unchanged.  The count of runnable
 * processes (the meter's load, KR_KSTATS) is kept beside it.  A process is
 * found by its pid through a table from pid to slot, filled while the slot
 * holds that pid (creation to P_FREE).  A process woken by a CALL on the
 * fast path (ipc.c) runs at once on its caller's turn (proc_block_handoff):
 * the cursor stays with the caller.
 */
#include "kernel.h"
#include "runq.h"
#include "vtime.h"


struct proc proctab[NPROC];
struct proc *current;
uint32_t node_id;
uint32_t proc_sched_cursor; /* the scheduler's round-robin cursor (fastpath.c's block_direct reads it too) */

struct runq proc_runq;              /* the slots that may be picked (runq.h) */
const uint32_t *const proc_runnable = &proc_runq.count;
/* pid -> its slot + 1 (0: no process has the pid); 64 KiB, pids are 16
 * bits.  Read by proc_by_task, inline (kernel.h). */
uint8_t proc_pid_slot[65536];
#define pid_slot proc_pid_slot
_Static_assert(NPROC < 256, "a slot index + 1 fits pid_slot's bytes");

void proc_init(void)
{
	memset(proctab, 0, sizeof proctab);
	memset(&proc_runq, 0, sizeof proc_runq);
	memset(pid_slot, 0, sizeof pid_slot);
	current = NULL;
}

int proc_pid_used(uint16_t pid)
{
	return pid_slot[pid] != 0;
}

void proc_take_slot(struct proc *p, uint16_t pid)
{
	p->slot = (uint32_t)(p - proctab);
	p->pid = pid;
	p->task = TASK_OF(node_id, pid);
	pid_slot[pid] = (uint8_t)(p - proctab + 1);
}

void proc_set_free(struct proc *p)
{
	proc_set_state(p, P_FREE);
	if (pid_slot[p->pid] == p - proctab + 1)
		pid_slot[p->pid] = 0;
}

void proc_make_runnable(struct proc *p)
{
	proc_set_state(p, P_RUNNABLE);
}

uint64_t proc_cpu_ns(const struct proc *p)
{
	if (p == current)
		return p->cpu_ns + (arch_clock_ns() - p->run_start);
	return p->cpu_ns;
}

/* vtime_now: the clock standing still while excluding (an interrupt taken
 * at a horizon, kernel/vtime.c) is not the process's time either.  Pairs
 * may nest (remote.c's transport work inside an interrupt's); only the
 * outermost moves the process's start, or the inner stretch would be
 * taken off twice. */
static uint32_t interrupt_depth;

uint64_t proc_interrupt_begin(void)
{
	interrupt_depth++;
	return vtime_now();
}

void proc_interrupt_end(uint64_t began)
{
	if (--interrupt_depth == 0 && current)
		current->run_start += vtime_now() - began; /* not its time */
}

void proc_interrupt_end_for(struct proc *p, uint64_t began)
{
	if (p)
		p->cpu_ns += vtime_now() - began;
	proc_interrupt_end(began);
}

uint32_t proc_runnable_count(void)
{
	return proc_runq.count;
}

void proc_kstack_free(struct proc *p)
{
	if (p->kstack)
		pfree(p->kstack);
	p->kstack = NULL;
}

void proc_yield(void)
{
	arch_switch_away(current);
}

void proc_block(void)
{
	arch_switch_away(current);
}

/* The process to run next instead of the pick, set just before its donor
 * gives the CPU back. */
struct proc *proc_handoff;

void proc_block_handoff(struct proc *to)
{
	proc_handoff = to;
	arch_switch_away(current);
}

void kernel_tick(void)
{
	if (current)
		proc_yield();
}

/* The first runnable slot after the cursor, going round (runq.h); the
 * cursor stays where it is when nothing is runnable.  A process handed
 * the CPU (proc_block_handoff) runs first, if it still may, without
 * moving the cursor: it has its donor's turn, and the pick after it goes
 * on from the donor's slot, so a pair of processes calling each other
 * cannot keep the others from their turns. */
static struct proc *pick_next(void)
{
	struct proc *to = proc_handoff;
	proc_handoff = NULL;
	if (to && to->on_runq)
		return to;
	int i = runq_next(&proc_runq, proc_sched_cursor);
	if (i < 0)
		return NULL;
	proc_sched_cursor = (uint32_t)i;
	return &proctab[i];
}

void scheduler(void)
{
	for (;;) {
		struct proc *p = pick_next();
		if (!p) {
			if (vtime_idle())
				continue; /* virtual time: jumped to a delivery */
			arch_wait_for_interrupt();
			continue;
		}
		current = p;
		p->run_start = arch_clock_ns();
		vtime_user_resumes();
		arch_switch_to(p);
		p = current; /* p, or one it gave the CPU to (fastpath.c) */
		p->cpu_ns += arch_clock_ns() - p->run_start;
		current = NULL;
		if (p->state == P_ZOMBIE) {
			proc_kstack_free(p);
			proc_set_free(p);
		}
	}
}

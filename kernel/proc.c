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
 */
#include "kernel.h"
#include "vtime.h"


struct proc proctab[NPROC];
struct proc *current;
uint32_t node_id;
static int sched_cursor;

void proc_init(void)
{
	memset(proctab, 0, sizeof proctab);
	current = NULL;
}

struct proc *proc_by_task(uint32_t task)
{
	if (TASK_NODE(task) != node_id || TASK_PID(task) == KERNEL_PID)
		return NULL;
	for (int i = 0; i < NPROC; i++)
		if (proctab[i].state != P_FREE && proctab[i].state != P_ZOMBIE && proctab[i].task == task)
			return &proctab[i];
	return NULL;
}

void proc_make_runnable(struct proc *p)
{
	p->state = P_RUNNABLE;
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
	uint32_t n = 0;
	for (int i = 0; i < NPROC; i++)
		n += proctab[i].state == P_RUNNABLE && !proctab[i].stopped;
	return n;
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

void kernel_tick(void)
{
	if (current)
		proc_yield();
}

static struct proc *pick_next(void)
{
	for (int n = 0; n < NPROC; n++) {
		sched_cursor = (sched_cursor + 1) % NPROC;
		struct proc *p = &proctab[sched_cursor];
		if (p->state == P_RUNNABLE && !p->stopped)
			return p;
	}
	return NULL;
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
		p->cpu_ns += arch_clock_ns() - p->run_start;
		current = NULL;
		if (p->state == P_ZOMBIE) {
			proc_kstack_free(p);
			p->state = P_FREE;
		}
	}
}

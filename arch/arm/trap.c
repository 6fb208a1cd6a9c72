/*
 * arch/arm/trap.c - where every exception lands (trapentry.S builds the
 * frame).  Kernel calls go to the portable dispatcher, which reads its
 * arguments from the frame's r0-r5 and writes its results there; the timer ticks the
 * kernel; a fault in user mode ends the process (the node runs on); a
 * fault in the kernel is a bug and panics.
 *
 * ARM has no divide trap: the run-time ABI's division routines call
 * __aeabi_idiv0 on a zero divisor, and the program library's version
 * (servers/lib/newlib_glue.c) executes UDF with DIV0_UDF_IMM, which is
 * reported as a divide fault, as x86's #DE is.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "trapframe.h"
#include "machine.h"
#include "kernel/vtime.h"

#define UDF_MASK 0xfff000f0u
#define UDF_A32 0xe7f000f0u
#define DIV0_UDF_IMM 0xd1u   /* keep in step with servers/lib/newlib_glue.c */

static int from_user(const struct trapframe *tf)
{
	return (tf->spsr & PSR_MODE_MASK) == PSR_MODE_USR;
}

static uint32_t udf_immediate(uint32_t insn)
{
	return ((insn >> 4) & 0xfff0u) | (insn & 0xfu);
}

/* What an undefined instruction in user mode means: the ABI's
 * divide-by-zero trap, or an illegal (or privileged) instruction. */
static uint32_t undef_reason(const struct trapframe *tf, uint32_t pc)
{
	if (tf->spsr & PSR_T)
		return EXIT_FAULT_ILLEGAL;
	const uint32_t *insn = arch_aspace_lookup(current->aspace, pc, 0);
	if (insn && !(pc & 3) && (*insn & UDF_MASK) == UDF_A32 && udf_immediate(*insn) == DIV0_UDF_IMM)
		return EXIT_FAULT_DIVIDE;
	return EXIT_FAULT_ILLEGAL;
}

/* A user access to the kernel's device window is the ARM form of an x86
 * process touching an I/O port. */
static uint32_t abort_reason(uint32_t addr)
{
	if (addr >= ARM_DEVICE_WINDOW && addr < ARM_DEVICE_WINDOW_END)
		return EXIT_FAULT_ILLEGAL;
	return EXIT_FAULT_MEMORY;
}

/* Not inlined: its registers would be saved on every kernel call's trap
 * too (measured: 2 instructions a call, make bench-kernel). */
__attribute__((noinline)) static void irq(struct trapframe *tf)
{
	int id = gic_ack();
	if (id < 0)
		return;
	uint64_t began = proc_interrupt_begin();
	if (id == IRQ_VTIMER) {
		/* Virtual time: ended before the deadline's work, which may wait
		 * for a card's interrupt (of the same priority) at a horizon. */
		if (vtime_on)
			gic_eoi(id);
		int tick = timer_rearm(from_user(tf));
		if (!vtime_on)
			gic_eoi(id);  /* before kernel_tick, which may switch away for long */
		if (tick)
			kernel_timer_tick();
		proc_interrupt_end(began);
		if (tick && from_user(tf))
			kernel_tick();
		return;
	}
	arm_irq_dispatch(id);
	gic_eoi(id);
	proc_interrupt_end(began);
}

static void trap(struct trapframe *tf);

/* A kernel call: its words are the frame's r0-r5, arguments in, results
 * (r0, a receive's r1-r5) written in place; the call number in r7.  From
 * the kernel, an SVC is a semihosting call QEMU did not take (started
 * without -semihosting): ignored. */
static inline void kcall(struct trapframe *tf)
{
	if (from_user(tf) && !fastpath_try(current, tf->r[7], tf->r))
		syscall_dispatch(current, tf->r[7], tf->r);
}

/* trapentry.S's kernel-call entry outside virtual time: kcall in two
 * steps, so that the fast path's is a tail call that keeps nothing for
 * after it: arm_kcall, 0 when syscall_dispatch must do the call, which
 * arm_kcall_general does. */
unsigned arm_kcall(struct trapframe *tf);
unsigned arm_kcall(struct trapframe *tf)
{
	if (!from_user(tf))
		return 1;
	return fastpath_try(current, tf->r[7], tf->r);
}

void arm_kcall_general(struct trapframe *tf);
void arm_kcall_general(struct trapframe *tf)
{
	syscall_dispatch(current, tf->r[7], tf->r);
}

/* Every exception but a kernel call's outside virtual time (arm_kcall).
 * Virtual time: whether QEMU took the deadline interrupt late (vtime.h);
 * the clock is read first thing, at the same point for every entry. */
void arm_trap(struct trapframe *tf);
void arm_trap(struct trapframe *tf)
{
	if (!vtime_on || !from_user(tf)) {
		trap(tf);
		return;
	}
	vtime_user_entry(tf->trapno == T_IRQ); /* the deadline's: judged in its stop */
	trap(tf);
	vtime_user_resumes();
}

static void trap(struct trapframe *tf)
{
	switch (tf->trapno) {
	case T_SVC:
		kcall(tf);
		return;
	case T_IRQ:
		irq(tf);
		return;
	}
	uint32_t pc = tf->pc, addr = 0, status = 0, reason = EXIT_FAULT_OTHER;
	switch (tf->trapno) {
	case T_UNDEF:
		pc -= (tf->spsr & PSR_T) ? 2 : 4;
		if (from_user(tf))
			reason = undef_reason(tf, pc);
		break;
	case T_PABORT:
		addr = read_ifar();
		status = read_ifsr();
		reason = abort_reason(addr);
		break;
	case T_DABORT:
		addr = read_dfar();
		status = read_dfsr();
		reason = abort_reason(addr);
		break;
	}
	if (from_user(tf)) {
		kernel_user_fault(reason, addr, pc);
		return;
	}
	panic("trap %u in kernel: pc 0x%x addr 0x%x status 0x%x lr 0x%x", tf->trapno, pc, addr, status,
	      tf->svc_lr);
}

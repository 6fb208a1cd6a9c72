/*
 * arch/x86/trap.c - where every interrupt, exception and kernel call lands.
 * Kernel calls go to the fast path or the portable dispatcher with their
 * words in the trap frame itself (trapentry.S pushes the argument
 * registers in order); a fault in user mode ends the process (the node
 * runs on); a fault in the kernel is a bug and panics.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "trapframe.h"
#include "machine.h"
#include "kernel/vtime.h"

static uint32_t fault_reason(uint32_t trapno)
{
	switch (trapno) {
	case 0: return EXIT_FAULT_DIVIDE;
	case 6: return EXIT_FAULT_ILLEGAL;
	case 13: return EXIT_FAULT_ILLEGAL;  /* privileged instruction, bad segment */
	case 14: return EXIT_FAULT_MEMORY;
	case 12: return EXIT_FAULT_STACK;
	default: return EXIT_FAULT_OTHER;
	}
}

_Static_assert(sizeof ((struct trapframe *)0)->w == KCALL_WORDS * sizeof(uint32_t) &&
		       __builtin_offsetof(struct trapframe, ebx) == 8 && __builtin_offsetof(struct trapframe, ebp) == 28 &&
		       __builtin_offsetof(struct trapframe, eax) == 32 && __builtin_offsetof(struct trapframe, trapno) == 36,
	       "trapentry.S pushes the frame in this order");

/* A kernel call: arguments ebx ecx edx esi edi ebp, the call number in eax;
 * the words are the frame's (tf->w), the results written over them: w[0]
 * the result, after a receive w[1..5] what it received.  Returns how many
 * result words trapentry.S loads, into eax, then ebx ecx edx esi edi
 * (kernel/abi/calls.h). */
static inline unsigned kcall(struct trapframe *tf)
{
	unsigned back = fastpath_try(current, tf->eax, tf->w);
	return back ? back : syscall_dispatch(current, tf->eax, tf->w);
}

/* trapentry.S's kernel-call entry outside virtual time does fastpath_try
 * itself (kcall_common: the number, the table, current's meter flags at
 * this offset, the call in registers), then x86_kcall_general when the
 * fast path declined. */
_Static_assert(__builtin_offsetof(struct proc, meter_flags) == 16 && FASTPATH_NR == 11,
	       "trapentry.S's PROC_METER_FLAGS_AT and FASTPATH_NR");

__attribute__((regparm(1))) unsigned x86_kcall_general(struct trapframe *tf);
__attribute__((regparm(1))) unsigned x86_kcall_general(struct trapframe *tf)
{
	return syscall_dispatch(current, tf->eax, tf->w);
}

/* A kernel call's result words (kcall), else 0. */
static unsigned trap(struct trapframe *tf, int from_user)
{
	if (tf->trapno == T_SYSCALL)
		return kcall(tf);
	if (tf->trapno >= T_IRQ0 && tf->trapno < T_IRQ0 + 16) {
		uint32_t irq = tf->trapno - T_IRQ0;
		uint64_t began = proc_interrupt_begin();
		pic_eoi(irq);
		int tick = 0;
		if (irq == 0) {
			tick = x86_tick_rearm(from_user);
			if (tick)
				kernel_timer_tick();
		} else
			x86_irq_dispatch(irq);
		proc_interrupt_end(began);
		if (tick && from_user)
			kernel_tick();
		return 0;
	}
	uint32_t addr = tf->trapno == 14 ? rcr2() : 0;
	if (from_user) {
		kernel_user_fault(fault_reason(tf->trapno), addr, tf->eip);
		return 0;
	}
	panic("trap %u in kernel: err 0x%x eip 0x%x cr2 0x%x", tf->trapno, tf->err, tf->eip, addr);
}

/* Every entry but a kernel call's outside virtual time (kcall_common), which
 * is not judged: virtual time: whether QEMU took the deadline interrupt
 * late (vtime.h).  Returns what trap returns (trapentry.S). */
__attribute__((regparm(1))) unsigned x86_trap(struct trapframe *tf);
__attribute__((regparm(1))) unsigned x86_trap(struct trapframe *tf)
{
	int from_user = (tf->cs & 3) == 3, judged = vtime_on && from_user;
	if (judged)
		vtime_user_entry(tf->trapno == T_IRQ0); /* the deadline's: judged in its stop */
	unsigned back = trap(tf, from_user); /* one call: inlined */
	if (judged)
		vtime_user_resumes();
	return back;
}

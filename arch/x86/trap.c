/*
 * arch/x86/trap.c - where every interrupt, exception and kernel call lands.
 * Kernel calls go to the portable dispatcher, their registers as an array
 * of words each way; a fault in user mode ends the
 * process (the node runs on); a fault in the kernel is a bug and panics.
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

static void trap(struct trapframe *tf, int from_user)
{
	if (tf->trapno == T_SYSCALL) {
		/* arguments ebx ecx edx esi edi ebp; results eax, then (a
		 * receive's) ebx ecx edx esi edi: kernel/abi/calls.h */
		uint32_t w[KCALL_WORDS] = { tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp };
		uint32_t nr = tf->eax;
		unsigned back = fastpath_try(current, nr, w);
		if (!back)
			back = syscall_dispatch(current, nr, w);
		if (back > 1) {
			tf->ebx = w[1];
			tf->ecx = w[2];
			tf->edx = w[3];
			tf->esi = w[4];
			tf->edi = w[5];
		}
		tf->eax = w[0];
		return;
	}
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
		return;
	}
	uint32_t addr = tf->trapno == 14 ? rcr2() : 0;
	if (from_user) {
		kernel_user_fault(fault_reason(tf->trapno), addr, tf->eip);
		return;
	}
	panic("trap %u in kernel: err 0x%x eip 0x%x cr2 0x%x", tf->trapno, tf->err, tf->eip, addr);
}

/* Virtual time: whether QEMU took the deadline interrupt late (vtime.h). */
void x86_trap(struct trapframe *tf);
void x86_trap(struct trapframe *tf)
{
	int from_user = (tf->cs & 3) == 3, judged = vtime_on && from_user;
	if (judged)
		vtime_user_entry(tf->trapno == T_IRQ0); /* the deadline's: judged in its stop */
	trap(tf, from_user); /* one call: inlined */
	if (judged)
		vtime_user_resumes();
}

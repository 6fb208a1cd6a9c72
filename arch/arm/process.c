/*
 * arch/arm/process.c - a process's machine context.  A new process gets a
 * kernel stack holding a trap frame that "returns" to user mode at its
 * entry point, and a saved context that resumes in arm_trapret, so
 * starting a process is the same switch as resuming one.  The SVC-mode sp
 * needs no per-switch setting (x86's TSS esp0): it is the process's kernel
 * stack from the switch in until the switch out, and back at its top
 * whenever the process runs in user mode.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "trapframe.h"
#include "machine.h"

void arm_swtch(struct arm_context **save, struct arm_context *load);
void arm_trapret(void);
static struct arm_context *scheduler_ctx;

void arch_proc_setup(struct proc *p, uint32_t entry, uint32_t user_sp)
{
	uint8_t *kstack = p->kstack;
	struct trapframe *tf = (struct trapframe *)(kstack + 4096) - 1;
	memset(tf, 0, sizeof *tf);
	tf->spsr = PSR_MODE_USR | PSR_F;   /* ARM state, IRQs on, FIQs (unused) off */
	tf->pc = entry;
	tf->usr_sp = user_sp;
	struct arm_context *ctx = (struct arm_context *)tf - 1;
	memset(ctx, 0, sizeof *ctx);
	ctx->lr = (uint32_t)(uintptr_t)arm_trapret;
	p->arch.ctx = ctx;
}

void arch_switch_to(struct proc *p)
{
	mmu_switch(p->aspace);
	arm_swtch(&scheduler_ctx, p->arch.ctx);
}

void arch_switch_away(struct proc *p)
{
	arm_swtch(&p->arch.ctx, scheduler_ctx);
}

void arch_switch_direct(struct proc *from, struct proc *to)
{
	mmu_switch(to->aspace);
	arm_swtch(&from->arch.ctx, to->arch.ctx);
}

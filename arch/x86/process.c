/*
 * arch/x86/process.c - a process's machine context.  A new process gets a
 * kernel stack holding a trap frame that "returns" to ring 3 at its entry
 * point, and a saved context that resumes in x86_trapret, so starting a
 * process is the same switch as resuming one.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "trapframe.h"
#include "machine.h"

void x86_swtch(struct x86_context **save, struct x86_context *load);
void x86_trapret(void);
static struct x86_context *scheduler_ctx;

void arch_proc_setup(struct proc *p, uint32_t entry, uint32_t user_sp)
{
	uint8_t *kstack = p->kstack;
	struct trapframe *tf = (struct trapframe *)(kstack + 4096) - 1;
	memset(tf, 0, sizeof *tf);
	tf->cs = SEG_UCODE;
	tf->ds = tf->es = tf->ss = SEG_UDATA;
	tf->eflags = 0x202; /* IF */
	tf->eip = entry;
	tf->esp = user_sp;
	struct x86_context *ctx = (struct x86_context *)tf - 1;
	memset(ctx, 0, sizeof *ctx);
	ctx->fs = ctx->gs = SEG_UDATA;
	ctx->eip = (uint32_t)(uintptr_t)x86_trapret;
	p->arch.ctx = ctx;
}

void arch_switch_to(struct proc *p)
{
	tss_set_kernel_stack((uint32_t)(uintptr_t)p->kstack + 4096);
	lcr3((uint32_t)p->aspace);
	x86_swtch(&scheduler_ctx, p->arch.ctx);
}

void arch_switch_away(struct proc *p)
{
	x86_swtch(&p->arch.ctx, scheduler_ctx);
}

void arch_switch_direct(struct proc *from, struct proc *to)
{
	tss_set_kernel_stack((uint32_t)(uintptr_t)to->kstack + 4096);
	lcr3((uint32_t)to->aspace);
	x86_swtch(&from->arch.ctx, to->arch.ctx);
}

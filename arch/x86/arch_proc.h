/* arch/x86/arch_proc.h - the per-process state only arch/x86 looks inside:
 * the saved kernel context of a switched-out process (its kernel stack is
 * struct proc's). */
#ifndef DPM_X86_ARCH_PROC_H
#define DPM_X86_ARCH_PROC_H

struct x86_context;

struct arch_proc {
	struct x86_context *ctx;    /* saved by x86_swtch when not running      */
};
#endif

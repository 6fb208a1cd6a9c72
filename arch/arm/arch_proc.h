/* arch/arm/arch_proc.h - the per-process state only arch/arm looks inside:
 * the kernel (SVC-mode) stack and the saved kernel context of a
 * switched-out process. */
#ifndef DPM_ARM_ARCH_PROC_H
#define DPM_ARM_ARCH_PROC_H

struct arm_context;

struct arch_proc {
	void *kstack;               /* one page; the trap frame sits at its top */
	struct arm_context *ctx;    /* saved by arm_swtch when not running      */
};
#endif

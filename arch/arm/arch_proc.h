/* arch/arm/arch_proc.h - the per-process state only arch/arm looks inside:
 * the saved kernel context of a switched-out process (its kernel, SVC-mode,
 * stack is struct proc's). */
#ifndef DPM_ARM_ARCH_PROC_H
#define DPM_ARM_ARCH_PROC_H

struct arm_context;

struct arch_proc {
	struct arm_context *ctx;    /* saved by arm_swtch when not running      */
};
#endif

/* arch/arm/trapframe.h - what trapentry.S saves on the SVC stack for every
 * exception, whichever mode took it: the same shape for kernel calls,
 * interrupts and faults, so arm_trap() sees one frame.  80 bytes, a
 * multiple of 8 so C code below it keeps the AAPCS stack alignment. */
#ifndef DPM_ARM_TRAPFRAME_H
#define DPM_ARM_TRAPFRAME_H
#include <stdint.h>

struct trapframe {
	uint32_t trapno;            /* T_* below                               */
	uint32_t pad;
	uint32_t usr_sp, usr_lr;    /* the user-mode banked registers          */
	uint32_t r[13];             /* r0-r12                                  */
	uint32_t svc_lr;            /* the kernel's lr, live when the kernel was interrupted */
	uint32_t pc, spsr;          /* where to return and in which state (srs/rfe) */
};

/* Callee-saved registers kept by arm_swtch; lr is where it resumes. */
struct arm_context {
	uint32_t r4, r5, r6, r7, r8, r9, r10, r11, r12, lr;
};

#define T_UNDEF  1
#define T_SVC    2
#define T_PABORT 3
#define T_DABORT 4
#define T_IRQ    6
#define T_FIQ    7

#define PSR_MODE_MASK 0x1fu
#define PSR_MODE_USR 0x10u
#define PSR_MODE_SVC 0x13u
#define PSR_T (1u << 5)
#define PSR_F (1u << 6)
#define PSR_I (1u << 7)
#endif

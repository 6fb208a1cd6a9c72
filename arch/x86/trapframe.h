/* arch/x86/trapframe.h - what trapentry.S pushes on the kernel stack.  The
 * general registers are pushed one by one in the order that puts a kernel
 * call's six argument registers (ebx ecx edx esi edi ebp,
 * kernel/abi/calls.h) in order: the call's words, read and
 * written in place (w). */
#ifndef DPM_X86_TRAPFRAME_H
#define DPM_X86_TRAPFRAME_H
#include <stdint.h>

struct trapframe {
	uint32_t es, ds;         /* fs and gs: struct x86_context */
	union {
		struct {
			uint32_t ebx, ecx, edx, esi, edi, ebp;
		};
		uint32_t w[6]; /* a kernel call's words (KCALL_WORDS) */
	};
	uint32_t eax;
	uint32_t trapno, err;
	uint32_t eip, cs, eflags;
	uint32_t esp, ss; /* only when coming from user mode */
};

/* Callee-saved registers kept by x86_swtch, and the process's fs and gs,
 * which the kernel never loads (so no trap saves them); eip is its return
 * address. */
struct x86_context {
	uint32_t gs, fs, edi, esi, ebx, ebp, eip;
};

#define SEG_KCODE 0x08
#define SEG_KDATA 0x10
#define SEG_UCODE (0x18 | 3)
#define SEG_UDATA (0x20 | 3)
#define SEG_TSS   0x28

#define T_SYSCALL 128
#define T_IRQ0    32
#endif

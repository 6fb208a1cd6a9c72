/*
 * arch/x86/trapentry.S - interrupt and trap entry stubs, the save and
 * restore paths, and the kernel context switch.  Every entry builds the same
 * struct trapframe (arch/x86/trapframe.h).  The general registers are pushed
 * one by one, not with pushal, so that a kernel call's six argument words
 * (ebx ecx edx esi edi ebp, kernel/abi/calls.h) lie in the frame in order:
 * the kernel reads them and writes its results there, with no copy.
 *
 * A kernel call (int $0x80) has its own entry, kcall_common, which calls
 * the fast path (fastpath_calls, tested here), else x86_kcall_general (syscall_dispatch),
 * and goes back to user mode loading only what the call changed.  Under virtual time it takes
 * the general way instead (x86_trap, which tells vtime of the entry from
 * user mode and of the return to it): both entries run the same number
 * of instructions up to that call, so that a kernel call's clock reading
 * lies the same path after its start as an interrupt's
 * (kernel/vlate.h: the late deadline interrupt is judged by it).
 *
 * x86_trap, the fast functions and x86_kcall_general return how many result words to load (kernel.h's
 * syscall_dispatch): 0 (not a kernel call) restores the whole frame; 1
 * loads eax with the result, and ecx and edx from their slots, which a call
 * with one result leaves as they came (ebx, esi, edi and ebp are the C
 * side's callee-saved registers, as the process left them, and its slots
 * in the frame may hold results); KCALL_WORDS loads eax ebx ecx edx esi
 * edi with the result and the received words (ebp, callee-saved, as it
 * came).
 */
#define SEG_KDATA 0x10
#define T_SYSCALL 128
/* kernel.h's, checked in trap.c: struct proc's meter_flags, the number
 * of fastpath_calls */
#define PROC_METER_FLAGS_AT 16
#define FASTPATH_NR 11

/* One stub per vector: push a 0 where the CPU pushes no error code, then
 * the vector number, and join the common path. */
.macro stub n, has_err, to=trap_common
vec\n:
.if \has_err == 0
	pushl $0
.endif
	pushl $\n
	jmp \to
.endm

/* The frame below the vector number: the general registers, ebx lowest,
 * then ds and es (struct trapframe); then the kernel's ds and es.  fs and
 * gs are the process's, which the kernel never loads: x86_swtch keeps
 * them with the rest of a process's context.  The direction flag is
 * cleared: the kernel's string instructions (memcpy's `rep movsl`,
 * arch_copy.h, and the compiler's own) count upwards, whatever the process
 * left in it (iret gives the process its own flags back). */
.macro save_frame
	cld
	pushl %eax
	pushl %ebp
	pushl %edi
	pushl %esi
	pushl %edx
	pushl %ecx
	pushl %ebx
	pushl %ds
	pushl %es
	movl $SEG_KDATA, %ecx
	movl %ecx, %ds
	movl %ecx, %es
.endm

	.text
.irp n, 0,1,2,3,4,5,6,7,9,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	stub \n, 0
.endr
.irp n, 8,10,11,12,13,14,17
	stub \n, 1
.endr
.irp n, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	stub \n, 0
.endr
	stub T_SYSCALL, 0, kcall_common

trap_common:
	save_frame
	/* kcall_common's test, here without effect: the same instructions
	 * on every entry before x86_trap reads the clock (see the top) */
	cmpl $0, vtime_on
	jne trap_general
trap_general:
	movl %esp, %eax
	call x86_trap            /* regparm(1): the frame in eax */
	cmpl $1, %eax
	ja kcall_received
	je kcall_result
	.global x86_trapret
x86_trapret:
	popl %es
	popl %ds
	popl %ebx
	popl %ecx
	popl %edx
	popl %esi
	popl %edi
	popl %ebp
	popl %eax
	addl $8, %esp            /* trap number and error code */
	iret

kcall_common:
	save_frame
	cmpl $0, vtime_on
	jne trap_general         /* virtual time: x86_trap tells it */
	/* fastpath_try (kernel.h) in line: a fast function for the call
	 * number (eax, as the process left it), current not metered; the
	 * function's arguments in registers (FASTPATH_CC): current, the
	 * frame's words */
	cmpl $FASTPATH_NR, %eax
	jae kcall_general
	movl fastpath_calls(,%eax,4), %ecx
	testl %ecx, %ecx
	jz kcall_general
	movl current, %eax
	cmpl $0, PROC_METER_FLAGS_AT(%eax)
	jne kcall_general
	leal 8(%esp), %edx       /* tf->w */
	call *%ecx               /* 0: not done */
	cmpl $1, %eax
	ja kcall_received
	jb kcall_general
kcall_result:
	popl %es
	popl %ds
	popl %eax                /* the result (ebx's slot) */
	popl %ecx
	popl %edx
	addl $24, %esp           /* esi edi ebp eax, trap number and error code:
	                            ebx esi edi ebp as they are */
	iret
kcall_received:
	popl %es
	popl %ds
	popl %eax                /* the result, then the received words */
	popl %ebx
	popl %ecx
	popl %edx
	popl %esi
	popl %edi
	addl $12, %esp           /* eax (the call number), trap number and
	                            error code; ebp as it is */
	iret

kcall_general:
	movl %esp, %eax
	call x86_kcall_general   /* syscall_dispatch */
	cmpl $1, %eax
	ja kcall_received
	jmp kcall_result

/* void x86_swtch(struct x86_context **save, struct x86_context *load):
 * the callee-saved registers, and fs and gs, the process's (save_frame) */
	.global x86_swtch
x86_swtch:
	movl 4(%esp), %eax
	movl 8(%esp), %edx
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %fs
	pushl %gs
	movl %esp, (%eax)
	movl %edx, %esp
	popl %gs
	popl %fs
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

	.data
	.global x86_vectors
x86_vectors:
	.long vec0,vec1,vec2,vec3,vec4,vec5,vec6,vec7,vec8,vec9,vec10,vec11,vec12,vec13,vec14,vec15
	.long vec16,vec17,vec18,vec19,vec20,vec21,vec22,vec23,vec24,vec25,vec26,vec27,vec28,vec29,vec30,vec31
	.long vec32,vec33,vec34,vec35,vec36,vec37,vec38,vec39,vec40,vec41,vec42,vec43,vec44,vec45,vec46,vec47
	.long vec128

/*
 * arch/arm/trapentry.S - the exception vectors, the common save and
 * restore path, and the kernel context switch.  Every exception, whatever
 * mode the CPU takes it in, stores its return address and saved CPSR on
 * the SVC stack (srs), switches to SVC mode and builds the same struct
 * trapframe (arch/arm/trapframe.h) there: coming from user mode that is
 * the top of the process's kernel stack, because SVC's banked sp is left
 * exactly there whenever a process runs in user mode.
 *
 * A kernel call (svc) goes straight to arm_kcall (the fast path), then
 * if that did not do it to arm_kcall_general (syscall_dispatch), its words
 * the frame's r0-r5, outside virtual time;
 * under it, to arm_trap, as every other exception, which tells vtime of
 * the entry from user mode and of the return to it.  Every entry makes the
 * same test first, so that each reads the clock the same number of
 * instructions after it starts (kernel/vlate.h: the late deadline
 * interrupt is judged by it).
 */
#define MODE_SVC 0x13

	.text
	.arm
	.balign 32
	.global arm_vectors
arm_vectors:
	b vec_reset
	b vec_undef
	b vec_svc
	b vec_pabort
	b vec_dabort
	b vec_reset          /* not used (hypervisor trap) */
	b vec_irq
	b vec_fiq

/* lr_adjust: what to take off lr to get the instruction to return to (or
 * the one that faulted); the undefined-instruction case is fixed up in C,
 * where ARM or Thumb state is known. */
.macro trap_entry name, lr_adjust, trapno, kcall=0
\name:
	.if \lr_adjust
	sub lr, lr, #\lr_adjust
	.endif
	srsdb sp!, #MODE_SVC
	cps #MODE_SVC
	push {r0-r12, lr}
	sub sp, sp, #8
	stmia sp, {sp, lr}^      /* the user-mode sp and lr */
	mov r0, #\trapno
	push {r0, r1}            /* trapno, pad */
	mov r0, sp
	movw r1, #:lower16:vtime_on
	movt r1, #:upper16:vtime_on
	ldr r1, [r1]
	cmp r1, #0
	bne 1f                   /* virtual time: arm_trap (see the top) */
	.if \kcall
	bl arm_kcall             /* the fast path: 0 when it did not do the call */
	cmp r0, #0
	bne arm_trapret
	mov r0, sp
	bl arm_kcall_general
	b arm_trapret
	.endif
1:	bl arm_trap
	b arm_trapret
.endm

	trap_entry vec_undef, 0, 1
	trap_entry vec_svc, 0, 2, 1
	trap_entry vec_pabort, 4, 3
	trap_entry vec_dabort, 8, 4
	trap_entry vec_irq, 4, 6
	trap_entry vec_fiq, 4, 7

vec_reset:
	b vec_reset

	.global arm_trapret
arm_trapret:
	add sp, sp, #8           /* trapno, pad */
	ldmia sp, {sp, lr}^
	nop
	add sp, sp, #8
	pop {r0-r12, lr}
	rfeia sp!

/* void arm_swtch(struct arm_context **save, struct arm_context *load) */
	.global arm_swtch
arm_swtch:
	push {r4-r12, lr}
	str sp, [r0]
	mov sp, r1
	pop {r4-r12, pc}

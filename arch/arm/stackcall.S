/*
 * arch/arm/stackcall.S - arch_call_on_stack(fn, arg, stack_top): run
 * fn(arg) on another stack and come back.  The network stack runs on its
 * own stack this way: a process's kernel stack is a single page, too small
 * for TCP input plus the kernel's delivery callbacks.
 */
	.text
	.arm
	.global arch_call_on_stack
arch_call_on_stack:
	push {r4, lr}
	mov r4, sp
	bic sp, r2, #7          /* the other stack, 8-byte aligned (AAPCS) */
	mov r3, r0
	mov r0, r1
	blx r3
	mov sp, r4
	pop {r4, pc}

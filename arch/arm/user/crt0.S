/*
 * arch/arm/user/crt0.S - a process's first instructions.  The kernel
 * leaves argc and argv on the stack (sp, sp + 4), where x86's cdecl main()
 * finds them; here they go into r0 and r1, and sp is aligned to 8 bytes as
 * the AAPCS wants.  What main returns goes to exit(), which flushes stdio.
 * ARM newlib's exit() runs _fini (which a hosted toolchain's crti.o would
 * bring); there are no global constructors or destructors, so _init and
 * _fini do nothing.
 */
	.section .text.start, "ax"
	.arm
	.global _start
_start:
	ldr r0, [sp]
	ldr r1, [sp, #4]
	bic sp, sp, #7
	mov fp, #0
	mov lr, #0
	bl main
	bl exit
1:	b 1b

	.global _init
	.global _fini
_init:
_fini:
	bx lr

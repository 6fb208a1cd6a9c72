/*
 * arch/x86/user/crt0.S - a process's first instructions.  The kernel leaves
 * argc and argv on the stack exactly where a cdecl main() finds them after a
 * call; what main returns goes to exit(), which flushes stdio.
 */
	.section .text.start, "ax"
	.global _start
_start:
	xor %ebp, %ebp
	call main
	push %eax
	call exit
1:	jmp 1b

/*
 * arch/x86/stackcall.S - arch_call_on_stack(fn, arg, stack_top): run
 * fn(arg) on another stack and come back.  The network stack runs on its
 * own stack this way: a process's kernel stack is a single page, too small
 * for TCP input plus the kernel's delivery callbacks.
 */
	.text
	.global arch_call_on_stack
arch_call_on_stack:
	pushl %ebp
	movl %esp, %ebp
	movl 8(%ebp), %eax      /* fn */
	movl 12(%ebp), %edx     /* arg */
	movl 16(%ebp), %esp     /* the other stack */
	andl $-16, %esp
	subl $12, %esp
	pushl %edx
	call *%eax
	movl %ebp, %esp
	popl %ebp
	ret

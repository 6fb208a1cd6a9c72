/*
 * arch/x86/trapentry.S - interrupt and trap entry stubs, the common save and
 * restore path, and the kernel context switch.  Every entry builds the same
 * struct trapframe (arch/x86/trapframe.h) so x86_trap() sees one shape.
 */
/* One stub per vector: push a 0 where the CPU pushes no error code, then
 * the vector number, and join the common path. */
.macro stub n, has_err
vec\n:
.if \has_err == 0
	pushl $0
.endif
	pushl $\n
	jmp trap_common
.endm

	.text
.irp n, 0,1,2,3,4,5,6,7,9,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	stub \n, 0
.endr
.irp n, 8,10,11,12,13,14,17
	stub \n, 1
.endr
.irp n, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,128
	stub \n, 0
.endr

trap_common:
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	pushl %esp
	call x86_trap
	addl $4, %esp
	.global x86_trapret
x86_trapret:
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $8, %esp        /* trap number and error code */
	iret

/* void x86_swtch(struct x86_context **save, struct x86_context *load) */
	.global x86_swtch
x86_swtch:
	movl 4(%esp), %eax
	movl 8(%esp), %edx
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)
	movl %edx, %esp
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

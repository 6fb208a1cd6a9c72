/*
 * arch/x86/boot.S - multiboot v1 entry.  QEMU's -kernel loads us at 1 MiB in
 * 32-bit protected mode with paging off; we set up a stack and call
 * x86_start(magic, info).  The header lives in .multiboot, which the linker
 * script KEEPs first so QEMU finds it in the first 8 KiB.
 */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00000003 /* align modules, give memory map */

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .bss
	.align 16
boot_stack:
	.space 16384
boot_stack_top:

	.section .text
	.global _start
_start:
	cli
	mov $boot_stack_top, %esp
	xor %ebp, %ebp
	push %ebx            /* multiboot info */
	push %eax            /* multiboot magic */
	call x86_start
1:	hlt
	jmp 1b

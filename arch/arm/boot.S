/*
 * arch/arm/boot.S - entry from QEMU's -kernel loader: the CPU arrives in
 * SVC mode, MMU off, interrupts masked.  Every mode that can take an
 * exception gets a stack, although the entry stubs (trapentry.S) move to
 * SVC mode at once and never use them: a small stack per mode keeps a
 * stray exception from writing through a garbage sp.  Then arm_start().
 * QEMU leaves its device tree at the start of RAM, below the kernel
 * (kernel.ld), and passes no registers to a bare ELF.
 */
#define MODE_IRQ 0x12
#define MODE_SVC 0x13
#define MODE_ABT 0x17
#define MODE_UND 0x1b
#define MODE_FIQ 0x11
#define NOINT 0xc0            /* I and F: interrupts masked */

	.section .bss
	.align 4
mode_stacks:
	.space 4 * 256
mode_stacks_top:
	.align 4
boot_stack:
	.space 16384
	.global boot_stack_top
boot_stack_top:

	.section .text.boot, "ax"
	.arm
	.global _start
_start:
	ldr r0, =mode_stacks_top
	cps #MODE_IRQ
	mov sp, r0
	sub r0, r0, #256
	cps #MODE_ABT
	mov sp, r0
	sub r0, r0, #256
	cps #MODE_UND
	mov sp, r0
	sub r0, r0, #256
	cps #MODE_FIQ
	mov sp, r0
	cps #MODE_SVC
	ldr sp, =boot_stack_top
	mov fp, #0
	bl arm_start
1:	wfi
	b 1b

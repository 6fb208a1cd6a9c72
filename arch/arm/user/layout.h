/* arch/arm/user/layout.h - where user space lies in an ARM process's
 * address space (kernel/abi/calls.h includes the one of the machine it is built
 * for).  The virt machine's RAM starts at 0x40000000, where x86 puts user
 * space, so on ARM the split is the other way round (docs/arm.md): user
 * space lives in the low gigabyte, translated through TTBR0 (one table per
 * process), and everything from 0x40000000 up belongs to the kernel
 * (TTBR1): RAM identity-mapped, devices in the window below. */
#ifndef DPM_ARM_USER_LAYOUT_H
#define DPM_ARM_USER_LAYOUT_H
#define USER_BASE 0x00400000u
#define USER_TOP  0x3f000000u
#define USER_STACK_TOP 0x3eff0000u
#define USER_STACK_PAGES 16
/* The kernel's mapping of the machine's device registers (physical
 * 0x08000000-0x0bffffff), supervisor-only: a process touching it is doing
 * what an x86 process does with an I/O port, and ends the same way. */
#define ARM_DEVICE_WINDOW     0xf8000000u
#define ARM_DEVICE_WINDOW_END 0xfc000000u
#endif

/* arch/x86/user/layout.h - where user space lies in an i386 process's
 * address space (kernel/abi/calls.h includes the one of the machine it is built
 * for).  The kernel identity-maps the first 256 MiB below USER_BASE. */
#ifndef DPM_X86_USER_LAYOUT_H
#define DPM_X86_USER_LAYOUT_H
#define USER_BASE 0x40000000u
#define USER_TOP  0xbf000000u
#define USER_STACK_TOP 0xbeff0000u
#define USER_STACK_PAGES 16
#endif

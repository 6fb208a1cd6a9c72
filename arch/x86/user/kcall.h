/* arch/x86/user/kcall.h - how a process enters the kernel on x86:
 * int $0x80, call number in eax, arguments in ebx ecx edx esi edi. */
#ifndef DPM_X86_USER_KCALL_H
#define DPM_X86_USER_KCALL_H
#include <stdint.h>

static inline int32_t kcall(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
	int32_t r;
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3), "D"(a4)
			 : "memory");
	return r;
}
#endif

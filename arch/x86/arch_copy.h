/* arch/x86/arch_copy.h - the kernel's copy of bytes (kernel/klib.c's
 * memcpy, and inline where a message's bytes are copied, kernel/uaccess.c):
 * every message's bytes go through it.  `rep movsl` moves a word an
 * iteration (one instruction each under -icount, against about five for a
 * C loop's word), at any alignment, and `rep movsb` the last bytes: a few
 * instructions besides, so it is inline (ARCH_COPY_INLINE).  The direction
 * flag is clear: every entry into the kernel clears it (trapentry.S), as
 * the C compiler's own string instructions also need.  The host's unit
 * test (tests/unit/test_kernel_klib.c, x86-64) runs this same code. */
#ifndef DPM_X86_ARCH_COPY_H
#define DPM_X86_ARCH_COPY_H
#include <stddef.h>

#define ARCH_COPY_INLINE 1

/* n bytes from s to d, not overlapping. */
static inline void arch_copy(void *d, const void *s, size_t n)
{
	size_t words = n / 4;
	__asm__ volatile("rep movsl\n\t"
			 "movl %3, %%ecx\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(s), "+c"(words)
			 : "r"((unsigned)(n % 4))
			 : "memory");
}
#endif

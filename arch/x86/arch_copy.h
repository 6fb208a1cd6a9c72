/* arch/x86/arch_copy.h - the word copy under the kernel's memcpy
 * (kernel/klib.c): every message's bytes go through it.  `rep movsl`
 * moves a word an iteration (one instruction each under -icount, against
 * about five for a C loop's word), at any alignment, so klib.c uses it for
 * every copy of a word or more (ARCH_COPY_ANY_ALIGNMENT).  The direction
 * flag is clear: every entry into the kernel clears it (trapentry.S), as
 * the C compiler's own string instructions also need.  The host's unit
 * test (tests/unit/test_kernel_klib.c, x86-64) runs this same code. */
#ifndef DPM_X86_ARCH_COPY_H
#define DPM_X86_ARCH_COPY_H
#include <stddef.h>

#define ARCH_COPY_ANY_ALIGNMENT 1

/* n words from s to d (not overlapping); d and s just past them after. */
static inline void arch_copy_words(void **d, const void **s, size_t n)
{
	__asm__ volatile("rep movsl" : "+D"(*d), "+S"(*s), "+c"(n) : : "memory");
}
#endif

/* arch/arm/arch_copy.h - the word copy under the kernel's memcpy
 * (kernel/klib.c, not inline: ARCH_COPY_INLINE 0): every message's bytes
 * go through it.  Eight words a
 * turn with one ldm and one stm (four instructions for 32 bytes, against
 * about twenty for C's loads and stores), then the last words one by one.
 * ldm and stm need word-aligned addresses, so klib.c calls it only when
 * source and destination are equally aligned (after the first bytes). */
#ifndef DPM_ARM_ARCH_COPY_H
#define DPM_ARM_ARCH_COPY_H
#include <stddef.h>
#include <stdint.h>

#define ARCH_COPY_INLINE 0

/* n words from s to d, both word-aligned (not overlapping); d and s just
 * past them after. */
static inline void arch_copy_words(void **d, const void **s, size_t n)
{
	typedef uint32_t __attribute__((may_alias)) word;
	word *dw = *d;
	const word *sw = *s;
	size_t blocks = n / 8;
	if (blocks)
		__asm__ volatile("1:\n\t"
				 "ldmia %1!, {r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
				 "stmia %0!, {r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
				 "subs %2, %2, #1\n\t"
				 "bne 1b"
				 : "+r"(dw), "+r"(sw), "+r"(blocks)
				 :
				 : "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "memory", "cc");
	for (n %= 8; n; n--)
		*dw++ = *sw++;
	*d = dw;
	*s = sw;
}
#endif

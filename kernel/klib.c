/*
 * kernel/klib.c - the handful of C library functions the kernel uses (it is
 * freestanding: newlib is for processes, not for the kernel), and kprintf.
 * kprintf knows only what the kernel prints: %s %c %d %u %x %p %lld %llu %llx.
 */
#include <stdarg.h>

#include "kernel.h"

/* Words that may alias anything (the copies below read and write bytes of
 * every type through them). */
typedef uint32_t __attribute__((may_alias)) kword;

/* Every message's bytes go through memcpy (user to kernel page to user,
 * or user to user), so it is the machine's own block copy (arch_copy.h):
 * x86's `rep movsl`, whole (arch_copy, also inline in uaccess.c); ARM's
 * ldm/stm for the words when source and destination are equally aligned
 * (after their first bytes), bytes one by one otherwise.  The compiler
 * must not turn these loops back into calls of themselves. */
#define KLIB_COPY __attribute__((optimize("no-tree-loop-distribute-patterns")))

KLIB_COPY void *memcpy(void *d, const void *s, size_t n)
{
#if ARCH_COPY_INLINE
	arch_copy(d, s, n);
#else
	uint8_t *dp = d;
	const uint8_t *sp = s;
	if (n >= 4 && !(((uintptr_t)dp ^ (uintptr_t)sp) & 3)) {
		for (; (uintptr_t)dp & 3; n--)
			*dp++ = *sp++;
		void *dv = dp;
		const void *sv = sp;
		arch_copy_words(&dv, &sv, n / 4);
		dp = dv;
		sp = sv;
		n %= 4;
	}
	while (n--)
		*dp++ = *sp++;
#endif
	return d;
}

KLIB_COPY void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;
	if (dp < sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

KLIB_COPY void *memset(void *d, int c, size_t n)
{
	uint8_t *dp = d;
	if (c == 0) {
		for (; n && ((uintptr_t)dp & 3); n--)
			*dp++ = 0;
		kword *dw = (kword *)dp;
		for (; n >= 32; n -= 32, dw += 8) {
			dw[0] = 0; dw[1] = 0; dw[2] = 0; dw[3] = 0;
			dw[4] = 0; dw[5] = 0; dw[6] = 0; dw[7] = 0;
		}
		for (; n >= 4; n -= 4)
			*dw++ = 0;
		dp = (uint8_t *)dw;
	}
	while (n--)
		*dp++ = (uint8_t)c;
	return d;
}

/* Word by word while both sides are alike aligned and equal, then byte by
 * byte from the first word that differs: vlink.c compares each 136-byte
 * time report with the last one sent on every look at the horizon, 5,000
 * instructions a remote round trip byte by byte (make bench-remote). */
int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	if (!(((uintptr_t)x ^ (uintptr_t)y) & 3)) {
		for (; n && ((uintptr_t)x & 3); n--, x++, y++)
			if (*x != *y)
				return *x - *y;
		for (; n >= 4 && *(const kword *)x == *(const kword *)y; n -= 4)
			x += 4, y += 4;
	}
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
size_t strnlen(const char *s, size_t max) { size_t n = 0; while (n < max && s[n]) n++; return n; }
int strcmp(const char *a, const char *b) { while (*a && *a == *b) a++, b++; return (uint8_t)*a - (uint8_t)*b; }
int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (uint8_t)*a - (uint8_t)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

static void put_number(unsigned long long v, unsigned base, int neg)
{
	char buf[24];
	int i = 0;
	do {
		buf[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		arch_console_putc('-');
	while (i)
		arch_console_putc(buf[--i]);
}

static void vkprintf(const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			arch_console_putc(*fmt);
			continue;
		}
		int longlong = 0;
		if (fmt[1] == 'l' && fmt[2] == 'l') {
			longlong = 1;
			fmt += 2;
		}
		switch (*++fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			for (s = s ? s : "(null)"; *s; s++)
				arch_console_putc(*s);
			break;
		}
		case 'c': arch_console_putc((char)va_arg(ap, int)); break;
		case 'd': {
			long long v = longlong ? va_arg(ap, long long) : va_arg(ap, int);
			put_number(v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, v < 0);
			break;
		}
		case 'u': put_number(longlong ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 10, 0); break;
		case 'x': put_number(longlong ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 16, 0); break;
		case 'p': arch_console_putc('0'); arch_console_putc('x'); put_number((uintptr_t)va_arg(ap, void *), 16, 0); break;
		case '%': arch_console_putc('%'); break;
		default: arch_console_putc('%'); arch_console_putc(*fmt); break;
		}
	}
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	kprintf("\nkernel panic: ");
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	arch_poweroff(0x7f);
}

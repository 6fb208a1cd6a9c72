/*
 * kernel/klib.c - the handful of C library functions the kernel uses (it is
 * freestanding: newlib is for processes, not for the kernel), and kprintf.
 * kprintf knows only what the kernel prints: %s %c %d %u %x %p %lld %llu %llx.
 */
#include <stdarg.h>

#include "kernel.h"

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;
	while (n >= 4 && !(((uintptr_t)dp | (uintptr_t)sp) & 3)) {
		*(uint32_t *)dp = *(const uint32_t *)sp;
		dp += 4; sp += 4; n -= 4;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;
	if (dp < sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	uint8_t *dp = d;
	if (c == 0)
		while (n >= 4 && !((uintptr_t)dp & 3)) { *(uint32_t *)dp = 0; dp += 4; n -= 4; }
	while (n--)
		*dp++ = (uint8_t)c;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
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

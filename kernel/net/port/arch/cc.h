/*
 * kernel/net/port/arch/cc.h - lwIP's compiler and platform port for the
 * freestanding kernel: no C library headers beyond the compiler's own, so
 * the format macros and character tests are lwIP's built-in ones;
 * diagnostics go to kprintf, a failed assertion is a kernel panic, and
 * LWIP_RAND (TCP initial sequence numbers and ports) is the kernel's.
 */
#ifndef DPM_LWIP_ARCH_CC_H
#define DPM_LWIP_ARCH_CC_H
#include <stdint.h>

#define LWIP_NO_INTTYPES_H 1
#define LWIP_NO_CTYPE_H 1
#define LWIP_NO_LIMITS_H 1          /* gcc's limits.h wants a C library's */
#define INT_MAX __INT_MAX__
#define X8_F "x"
#define U16_F "u"
#define S16_F "d"
#define X16_F "x"
#define U32_F "u"
#define S32_F "d"
#define X32_F "x"
#define SZT_F "u"

#define BYTE_ORDER LITTLE_ENDIAN

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
uint32_t net_random(void);

#define LWIP_PLATFORM_DIAG(x) do { kprintf x; } while (0)
#define LWIP_PLATFORM_ASSERT(x) panic("lwIP: %s at %s:%d", x, __FILE__, __LINE__)
#define LWIP_RAND() net_random()
#endif

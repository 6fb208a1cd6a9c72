/* arch/arm/user/kcall.h - how a process enters the kernel on ARM:
 * svc #0, call number in r7, arguments in r0-r5, result in r0.  kcall()
 * is every call but the receives, which preserve every other register;
 * kcall_words() the receives (RECEIVEMESSAGE, ARECEIVEMESSAGE, CALL,
 * REPLYRECEIVE), which give back what they received in r1-r5 (struct
 * kcall_received, kernel/abi/calls.h). */
#ifndef DPM_ARM_USER_KCALL_H
#define DPM_ARM_USER_KCALL_H
#include <stdint.h>
#include "kernel/abi/calls.h"

static inline int32_t kcall(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
	register uint32_t r0 __asm__("r0") = a0;
	register uint32_t r1 __asm__("r1") = a1;
	register uint32_t r2 __asm__("r2") = a2;
	register uint32_t r3 __asm__("r3") = a3;
	register uint32_t r4 __asm__("r4") = a4;
	register uint32_t r7 __asm__("r7") = nr;
	__asm__ volatile("svc #0"
			 : "+r"(r0)
			 : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r7)
			 : "memory");
	return (int32_t)r0;
}

/* The receives: arguments w[0..5], results (the result, then struct
 * kcall_received's words) back into w. */
static inline void kcall_words(uint32_t nr, uint32_t w[KCALL_WORDS])
{
	register uint32_t a0 __asm__("r0") = w[0], a1 __asm__("r1") = w[1], a2 __asm__("r2") = w[2],
			  a3 __asm__("r3") = w[3], a4 __asm__("r4") = w[4], a5 __asm__("r5") = w[5];
	register uint32_t n __asm__("r7") = nr;
	__asm__ volatile("svc #0"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5)
			 : "r"(n)
			 : "memory");
	w[0] = a0;
	w[1] = a1;
	w[2] = a2;
	w[3] = a3;
	w[4] = a4;
	w[5] = a5;
}
#endif

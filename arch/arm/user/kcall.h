/* arch/arm/user/kcall.h - how a process enters the kernel on ARM:
 * svc #0, call number in r7, arguments in r0-r5, result in r0.  kcall()
 * is every call but the receives, which preserve every other register;
 * kcall_recv() the receives (RECEIVEMESSAGE, ARECEIVEMESSAGE, CALL,
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

/* The receives: what they received goes from the registers into *got. */
static inline int32_t kcall_recv(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
				 uint32_t a5, struct kcall_received *got)
{
	register uint32_t r0 __asm__("r0") = a0, r1 __asm__("r1") = a1, r2 __asm__("r2") = a2,
			  r3 __asm__("r3") = a3, r4 __asm__("r4") = a4, r5 __asm__("r5") = a5;
	register uint32_t n __asm__("r7") = nr;
	__asm__ volatile("svc #0"
			 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3), "+r"(r4), "+r"(r5)
			 : "r"(n)
			 : "memory");
	*got = (struct kcall_received){ .len = r1, .code = r2, .passed = (int32_t)r3, .reply = (int32_t)r4,
					.from = r5 };
	return (int32_t)r0;
}
#endif

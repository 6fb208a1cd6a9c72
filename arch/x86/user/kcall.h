/* arch/x86/user/kcall.h - how a process enters the kernel on x86:
 * int $0x80, call number in eax, arguments in ebx ecx edx esi edi ebp,
 * result in eax.  kcall() is every call but the receives, which leave
 * every other register as it was; kcall_recv() the receives
 * (RECEIVEMESSAGE, ARECEIVEMESSAGE, CALL, REPLYRECEIVE), which give back
 * what they received in ebx ecx edx esi edi (struct kcall_received,
 * kernel/abi/calls.h).  ebp may be the frame pointer, so it is saved
 * around the trap and its argument comes from memory. */
#ifndef DPM_X86_USER_KCALL_H
#define DPM_X86_USER_KCALL_H
#include <stdint.h>
#include "kernel/abi/calls.h"

static inline int32_t kcall(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
	int32_t r;
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3), "D"(a4)
			 : "memory");
	return r;
}

/* The receives: what they received goes straight from the registers
 * into *got.  ebp (a5) is left alone for RECEIVEMESSAGE and
 * ARECEIVEMESSAGE, which have no sixth argument, when nr is known. */
static inline int32_t kcall_recv(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
				 uint32_t a5, struct kcall_received *got)
{
	int32_t r;
	if (__builtin_constant_p(nr) && (nr == K_RECEIVEMESSAGE || nr == K_ARECEIVEMESSAGE))
		__asm__ volatile("int $0x80"
				 : "=a"(r), "=b"(got->len), "=c"(got->code), "=d"(got->passed), "=S"(got->reply),
				   "=D"(got->from)
				 : "0"(nr), "1"(a0), "2"(a1), "3"(a2), "4"(a3), "5"(a4)
				 : "memory");
	else	/* a5 pushed first: its address may be esp-relative */
		__asm__ volatile("push %[a5]\n\t"
				 "push %%ebp\n\t"
				 "mov 4(%%esp), %%ebp\n\t"
				 "int $0x80\n\t"
				 "pop %%ebp\n\t"
				 "add $4, %%esp"
				 : "=a"(r), "=b"(got->len), "=c"(got->code), "=d"(got->passed), "=S"(got->reply),
				   "=D"(got->from)
				 : "0"(nr), "1"(a0), "2"(a1), "3"(a2), "4"(a3), "5"(a4), [a5] "m"(a5)
				 : "memory", "cc");
	return r;
}
#endif

/* arch/x86/user/kcall.h - how a process enters the kernel on x86:
 * int $0x80, call number in eax, arguments in ebx ecx edx esi edi ebp,
 * result in eax.  kcall() is every call but the receives, which leave
 * every other register as it was; kcall_words() the receives
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

/* The receives: arguments w[0..5], results (the result, then struct
 * kcall_received's words) back into w. */
static inline void kcall_words(uint32_t nr, uint32_t w[KCALL_WORDS])
{
	uint32_t r = nr, b = w[0], c = w[1], d = w[2], S = w[3], D = w[4];
	/* w[5] pushed first: its address may be esp-relative */
	__asm__ volatile("push %[a5]\n\t"
			 "push %%ebp\n\t"
			 "mov 4(%%esp), %%ebp\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp\n\t"
			 "add $4, %%esp"
			 : "+a"(r), "+b"(b), "+c"(c), "+d"(d), "+S"(S), "+D"(D)
			 : [a5] "m"(w[5])
			 : "memory", "cc");
	w[0] = r;
	w[1] = b;
	w[2] = c;
	w[3] = d;
	w[4] = S;
	w[5] = D;
}
#endif

/*
 * kernel/uaccess.c - moving bytes between the kernel and a process's memory.
 * Every user pointer goes through here: the range must lie in user space and
 * every page must be mapped for the user (writable for copies into it), or
 * the copy fails with E_BADADDR.  Nothing is assumed about what the process
 * has mapped, so a hostile pointer can never reach kernel memory.
 */
#include "kernel.h"

int user_range_ok(uint32_t uaddr, uint32_t len)
{
	return uaddr >= USER_BASE && uaddr < USER_TOP && len <= USER_TOP - uaddr;
}

static int copy_user(struct proc *p, uint32_t uaddr, void *kbuf, uint32_t len, int to_user)
{
	if (!user_range_ok(uaddr, len))
		return E_BADADDR;
	uint8_t *k = kbuf;
	while (len) {
		uint32_t n = 4096 - (uaddr & 4095);
		if (n > len)
			n = len;
		uint8_t *u = arch_aspace_lookup(p->aspace, uaddr, to_user);
		if (!u)
			return E_BADADDR;
		if (to_user)
			memcpy(u, k, n);
		else
			memcpy(k, u, n);
		uaddr += n; k += n; len -= n;
	}
	return 0;
}

int copy_from_user(struct proc *p, void *dst, uint32_t uaddr, uint32_t len)
{
	return copy_user(p, uaddr, dst, len, 0);
}

int copy_to_user(struct proc *p, uint32_t uaddr, const void *src, uint32_t len)
{
	return copy_user(p, uaddr, (void *)src, len, 1);
}

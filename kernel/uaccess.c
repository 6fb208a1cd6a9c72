/*
 * kernel/uaccess.c - a process's memory as the kernel reaches it: copies
 * between the kernel and a process, between two processes (MOVEDATA), and
 * the mapping and loading of a new address space (the stack, the heap,
 * a program's segments).  Every user pointer goes through here: the range
 * must lie in user space and every page must be mapped for the user
 * (writable for copies into it), or the copy fails with E_BADADDR.
 * Nothing is assumed about what the process has mapped, so a hostile
 * pointer can never reach kernel memory.  No other file walks a process's
 * page tables (arch_aspace_lookup) or maps pages into it.
 */
#include "kernel.h"

/* Bytes from uaddr to the end of its page. */
static uint32_t page_room(uint32_t uaddr)
{
	return PAGE - (uaddr & (PAGE - 1));
}

/* n bytes within one page each side, not overlapping: inline where the
 * machine's copy is a few instructions (x86's rep movs), else memcpy. */
static inline void copy_chunk(void *d, const void *s, uint32_t n)
{
#if ARCH_COPY_INLINE
	arch_copy(d, s, n);
#else
	memcpy(d, s, n);
#endif
}

/* to_user: 1 copies into the process, 0 out of it. */
static int copy_user(struct proc *p, uint32_t uaddr, void *kbuf, uint32_t len, int to_user)
{
	if (!user_range_ok(uaddr, len))
		return E_BADADDR;
	uint8_t *k = kbuf;
	while (len) {
		uint32_t n = page_room(uaddr);
		if (n > len)
			n = len;
		uint8_t *u = arch_aspace_lookup(p->aspace, uaddr, to_user);
		if (!u)
			return E_BADADDR;
		if (to_user)
			copy_chunk(u, k, n);
		else
			copy_chunk(k, u, n);
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

/* Each side's page is looked up once, when the copy reaches it: a
 * message's bytes in two pages each side are four lookups and three
 * copies. */
int copy_user_to_user(struct proc *src, uint32_t sa, struct proc *dst, uint32_t da, uint32_t len)
{
	if (!user_range_ok(sa, len) || !user_range_ok(da, len))
		return E_BADADDR;
	const uint8_t *s = NULL;
	uint8_t *d = NULL;
	uint32_t s_room = 0, d_room = 0;
	while (len) {
		if (!s_room) {
			if (!(s = arch_aspace_lookup(src->aspace, sa, 0)))
				return E_BADADDR;
			s_room = page_room(sa);
		}
		if (!d_room) {
			if (!(d = arch_aspace_lookup(dst->aspace, da, 1)))
				return E_BADADDR;
			d_room = page_room(da);
		}
		uint32_t n = len < s_room ? len : s_room;
		if (n > d_room)
			n = d_room;
		if (src == dst)
			memmove(d, s, n); /* the areas may overlap */
		else
			copy_chunk(d, s, n); /* no page is in two processes */
		s += n; d += n; sa += n; da += n;
		s_room -= n; d_room -= n; len -= n;
	}
	return 0;
}

/* Every page from the one holding `first` to the one holding `last`
 * mapped for the user (and writable, with `write`): 0 or E_BADADDR. */
static int walk_pages(struct proc *p, uint32_t first, uint32_t last, int write)
{
	for (uint32_t va = first & ~(PAGE - 1);; va += PAGE) {
		if (!arch_aspace_lookup(p->aspace, va, write))
			return E_BADADDR;
		if (va == (last & ~(PAGE - 1)))
			return 0;
	}
}

/* A process's mappings only grow while it lives (the heap grows, a failed
 * growth is taken back within its own call, nothing is ever unmapped or
 * made read-only), so a range once found writable stays so: the last two
 * are remembered (p->writable), and a receive into the same buffer as
 * before, the common case, costs a compare or two (user_writable, inline)
 * instead of a walk of the page tables per page. */
int user_writable_walk(struct proc *p, uint32_t uaddr, uint32_t len)
{
	if (!user_range_ok(uaddr, len))
		return E_BADADDR;
	if (len == 0)
		return 0;
	struct user_range *w = p->writable;
	if (uaddr >= w[1].lo && uaddr < w[1].hi && len <= w[1].hi - uaddr) {
		struct user_range t = w[0];
		w[0] = w[1];
		w[1] = t;
		return 0;
	}
	uint32_t first = uaddr & ~(PAGE - 1), last = (uaddr + len - 1) & ~(PAGE - 1);
	if (walk_pages(p, first, last, 1) < 0)
		return E_BADADDR;
	w[1] = w[0];
	w[0] = (struct user_range){ first, last + PAGE };
	return 0;
}

/* As user_writable_walk: a range found readable stays so (one is
 * remembered, p->readable), and a range found writable is readable. */
int user_readable_walk(struct proc *p, uint32_t uaddr, uint32_t len)
{
	if (!user_range_ok(uaddr, len))
		return E_BADADDR;
	if (len == 0)
		return 0;
	const struct user_range *w = p->writable;
	for (int i = 0; i < 2; i++)
		if (uaddr >= w[i].lo && uaddr < w[i].hi && len <= w[i].hi - uaddr)
			return 0;
	uint32_t first = uaddr & ~(PAGE - 1), last = (uaddr + len - 1) & ~(PAGE - 1);
	if (walk_pages(p, first, last, 0) < 0)
		return E_BADADDR;
	p->readable = (struct user_range){ first, last + PAGE };
	return 0;
}

/* The page quota and the kernel's reserve are checked here, where every
 * page a process gets is mapped: a compare each. */
int user_map_zeroed(struct proc *p, uint32_t va, int writable)
{
	if (p->use_pages >= PROC_PAGE_QUOTA || !palloc_room())
		return E_NOMEM;
	void *page = palloc();
	if (!page)
		return E_NOMEM;
	int r = arch_aspace_map(p->aspace, va, page, writable);
	if (r < 0) {
		pfree(page);
		return r;
	}
	p->use_pages++;
	return 0;
}

void user_unmap(struct proc *p, uint32_t va)
{
	void *page = arch_aspace_unmap(p->aspace, va);
	if (page) {
		pfree(page);
		p->use_pages--;
	}
}

int user_load(struct proc *p, uint32_t uaddr, const void *src, uint32_t filesz, uint32_t memsz, int writable)
{
	if (filesz > memsz || !user_range_ok(uaddr, memsz))
		return E_BADADDR;
	const uint8_t *bytes = src;
	uint32_t end = uaddr + memsz, file_end = uaddr + filesz;
	for (uint32_t va = uaddr & ~(PAGE - 1); va < end; va += PAGE) {
		uint8_t *page = arch_aspace_lookup(p->aspace, va, 0);
		if (!page) {
			int r = user_map_zeroed(p, va, writable);
			if (r < 0)
				return r;
			page = arch_aspace_lookup(p->aspace, va, 0);
		}
		/* the part of [va, va + PAGE) that holds file bytes */
		uint32_t lo = va > uaddr ? va : uaddr;
		uint32_t hi = va + PAGE < file_end ? va + PAGE : file_end;
		if (lo < hi)
			memcpy(page + (lo - va), bytes + (lo - uaddr), hi - lo);
	}
	return 0;
}

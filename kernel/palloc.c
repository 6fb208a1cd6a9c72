/*
 * kernel/palloc.c - the physical page allocator: a free list threaded
 * through the free pages themselves (xv6's design), so it needs no memory of
 * its own.  Pages are handed out zeroed so no process ever sees another's
 * old data; message buffers, whose bytes are only read up to what was
 * written, skip the zeroing (palloc_unzeroed).
 */
#include "kernel.h"


struct free_page {
	struct free_page *next;
};

static struct free_page *free_list;
static uint32_t free_pages;

void palloc_init(uintptr_t start, uintptr_t end)
{
	free_list = NULL;
	free_pages = 0;
	start = (start + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	end &= ~(uintptr_t)(PAGE - 1);
	for (uintptr_t a = end; a > start; a -= PAGE)
		pfree((void *)(a - PAGE));
}

/* A page with old contents: only for kernel buffers of which no byte is
 * ever shown to a process before the kernel writes it (message data). */
void *palloc_unzeroed(void)
{
	struct free_page *p = free_list;
	if (!p)
		return NULL;
	free_list = p->next;
	free_pages--;
	return p;
}

void *palloc(void)
{
	void *p = palloc_unzeroed();
	if (p)
		memset(p, 0, PAGE);
	return p;
}

void pfree(void *page)
{
	struct free_page *p = page;
	p->next = free_list;
	free_list = p;
	free_pages++;
}

uint32_t palloc_free_pages(void)
{
	return free_pages;
}

int palloc_room(void)
{
	return free_pages > PAGE_RESERVE;
}

/*
 * kernel/link.c - a process's link table.  Links are capabilities: a
 * process only ever names a link by its index here, and only the kernel
 * writes the entries, so a link cannot be forged.  Index checks live in one
 * place (link_get) so every kernel call validates indices the same way.
 *
 * Every write to a table is here, so the table's bit set of slots in use
 * (`used`) stays true: the first free slot and the number of free slots,
 * asked on every delivery of a message that carries links (a CALL's reply
 * link), are a bit search and a bit count, not a walk of the 64 slots.
 */
#include "kernel.h"

_Static_assert(NLINK <= 64, "a link table's slots in use are one 64-bit set");

/* The slots at or after `from` (clamped to 0 .. NLINK). */
static uint64_t slots_from(int from)
{
	uint64_t all = NLINK == 64 ? ~0ull : (1ull << NLINK) - 1;
	if (from <= 0)
		return all;
	if (from >= NLINK)
		return 0;
	return all & (~0ull << from);
}

static void set_slot(struct link_table *t, int i, const struct link *l)
{
	t->slot[i] = *l;
	t->slot[i].in_use = 1;
	t->used |= 1ull << i;
}

/* The first free slot at or after `from`, or E_NOSPACE (nothing written). */
int link_free_slot(const struct link_table *t, int from)
{
	uint64_t free = ~t->used & slots_from(from);
	return free ? __builtin_ctzll(free) : E_NOSPACE;
}

/* Put *l into the first free slot at or after `from`; the index or E_NOSPACE. */
int link_alloc(struct link_table *t, const struct link *l, int from)
{
	int i = link_free_slot(t, from);
	if (i >= 0)
		set_slot(t, i, l);
	return i;
}

/* Put *l into slot `index`, replacing what was there (copied to *old
 * first, when old is given, for the caller to answer). */
int link_put(struct link_table *t, int index, const struct link *l, struct link *old)
{
	if (index < 0 || index >= NLINK)
		return E_BADLINK;
	if (old)
		*old = t->slot[index];
	set_slot(t, index, l);
	return index;
}

struct link *link_get(struct link_table *t, int32_t index)
{
	if (index < 0 || index >= NLINK || !t->slot[index].in_use)
		return NULL;
	return &t->slot[index];
}

int link_free(struct link_table *t, int32_t index)
{
	if (!link_get(t, index))
		return E_BADLINK;
	link_free_used(t, index); /* stores in line: memset is a call (-fno-builtin), 47 instructions a CALL */
	return 0;
}

int link_count(const struct link_table *t)
{
	return __builtin_popcountll(t->used);
}

int link_free_count(const struct link_table *t, int from)
{
	return __builtin_popcountll(~t->used & slots_from(from));
}

void link_clear(struct link_table *t)
{
	memset(t, 0, sizeof *t);
}

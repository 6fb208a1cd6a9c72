/*
 * kernel/link.c - a process's link table.  Links are capabilities: a
 * process only ever names a link by its index here, and only the kernel
 * writes the entries, so a link cannot be forged.  Index checks live in one
 * place (link_get) so every kernel call validates indices the same way.
 */
#include "kernel.h"

/* Put *l into the first free slot at or after `from`; the index or E_NOSPACE. */
int link_alloc(struct link_table *t, const struct link *l, int from)
{
	for (int i = from < 0 ? 0 : from; i < NLINK; i++) {
		if (!t->slot[i].in_use) {
			t->slot[i] = *l;
			t->slot[i].in_use = 1;
			return i;
		}
	}
	return E_NOSPACE;
}

/* Put *l into slot `index`, replacing what was there (copied to *old
 * first, when old is given, for the caller to answer). */
int link_put(struct link_table *t, int index, const struct link *l, struct link *old)
{
	if (index < 0 || index >= NLINK)
		return E_BADLINK;
	if (old)
		*old = t->slot[index];
	t->slot[index] = *l;
	t->slot[index].in_use = 1;
	return index;
}

/* The first free slot at or after `from`, or E_NOSPACE (nothing written). */
int link_free_slot(const struct link_table *t, int from)
{
	for (int i = from < 0 ? 0 : from; i < NLINK; i++)
		if (!t->slot[i].in_use)
			return i;
	return E_NOSPACE;
}

struct link *link_get(struct link_table *t, int32_t index)
{
	if (index < 0 || index >= NLINK || !t->slot[index].in_use)
		return NULL;
	return &t->slot[index];
}

int link_free(struct link_table *t, int32_t index)
{
	struct link *l = link_get(t, index);
	if (!l)
		return E_BADLINK;
	memset(l, 0, sizeof *l);
	return 0;
}

int link_count(const struct link_table *t)
{
	int n = 0;
	for (int i = 0; i < NLINK; i++)
		n += t->slot[i].in_use != 0;
	return n;
}

void link_clear(struct link_table *t)
{
	memset(t, 0, sizeof *t);
}

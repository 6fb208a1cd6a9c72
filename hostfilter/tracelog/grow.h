/*
 * hostfilter/tracelog/grow.h - growing a heap array by doubling, the one way every
 * list in hostfilter/ (descriptions, layouts, compiled rules) gets room.
 */
#ifndef DPM_HOSTFILTER_GROW_H
#define DPM_HOSTFILTER_GROW_H

#include <stdlib.h>

/* Make *v (of *cap elements of elem_size bytes) hold at least n + 1
 * elements.  0, or -1 if out of memory (*v is left as it was). */
static inline int grow_for_one_more(void **v, size_t *cap, size_t n, size_t elem_size)
{
	if (n < *cap)
		return 0;
	size_t bigger_cap = *cap ? *cap * 2 : 16;
	void *bigger = realloc(*v, bigger_cap * elem_size);
	if (!bigger)
		return -1;
	*v = bigger;
	*cap = bigger_cap;
	return 0;
}

#endif

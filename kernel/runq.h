/*
 * kernel/runq.h - the scheduler's set of runnable process slots (runq.c).
 */
#ifndef DPM_RUNQ_H
#define DPM_RUNQ_H
#include <stdint.h>

#include "capacities.h"

#define RUNQ_WORDS ((NPROC + 31) / 32)

struct runq {
	uint32_t word[RUNQ_WORDS]; /* bit i % 32 of word i / 32: slot i runnable */
	uint32_t count;            /* how many bits are set                      */
};

/* Slot i (0 .. NPROC - 1) joins or leaves the set; it must not be in it,
 * or must be, already. */
static inline void runq_add(struct runq *q, uint32_t i)
{
	q->word[i / 32] |= 1u << (i % 32);
	q->count++;
}
static inline void runq_remove(struct runq *q, uint32_t i)
{
	q->word[i / 32] &= ~(1u << (i % 32));
	q->count--;
}
/* The first slot in the set after `cursor`, going round (cursor itself
 * last), or -1 when the set is empty: round robin in slot order. */
int runq_next(const struct runq *q, uint32_t cursor);

#endif

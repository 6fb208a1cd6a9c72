/*
 * kernel/runq.h - the scheduler's set of runnable process slots: a bit per
 * slot of the process table, and how many are set (the meter's load,
 * KR_KSTATS).  The pick is round robin in slot order, the first set bit
 * after the cursor, exactly what a scan of every slot from the cursor on
 * picks, but in a few word operations whatever the table holds.  All of
 * it inline (every message that blocks or wakes a process changes the set,
 * and a receive that waits picks from it).  Plain code, tested on the host
 * (tests/unit/test_kernel_runq.c) against that scan; proc.c keeps it true
 * (proc_set_state, proc_set_stopped).
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
/* runq_next when the start's word has no slot at or after the start:
 * the following words, then the start's word again, whose set bits are
 * then all below the start. */
static inline int runq_next_rest(const struct runq *q, uint32_t start)
{
	for (uint32_t k = 1; k <= RUNQ_WORDS; k++) {
		uint32_t w = (start / 32 + k) % RUNQ_WORDS, bits = q->word[w];
		if (bits)
			return (int)(w * 32 + (uint32_t)__builtin_ctz(bits));
	}
	return -1;
}
/* The first slot in the set after `cursor`, going round (cursor itself
 * last), or -1 when the set is empty: round robin in slot order. */
static inline int runq_next(const struct runq *q, uint32_t cursor)
{
	uint32_t start = cursor + 1 >= NPROC ? 0 : cursor + 1;
	uint32_t bits = q->word[start / 32] & (~0u << (start % 32));
	if (bits)
		return (int)(start / 32 * 32 + (uint32_t)__builtin_ctz(bits));
	return runq_next_rest(q, start);
}

#endif

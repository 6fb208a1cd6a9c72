/*
 * kernel/runq.c - the scheduler's set of runnable process slots: a bit per
 * slot of the process table, and how many are set (the meter's load,
 * KR_KSTATS).  The pick is round robin in slot order, the first set bit
 * after the cursor, exactly what a scan of every slot from the cursor on
 * picks, but in a few word operations whatever the table holds.  Plain
 * code, tested on the host (tests/unit/test_kernel_runq.c) against that
 * scan; proc.c keeps it true (proc_set_state, proc_set_stopped).
 */
#include "runq.h"

/* The words from the start's on, the start's own word again last for the
 * slots below the start: at most RUNQ_WORDS + 1 words. */
int runq_next(const struct runq *q, uint32_t cursor)
{
	uint32_t start = cursor + 1 >= NPROC ? 0 : cursor + 1;
	for (uint32_t k = 0; k <= RUNQ_WORDS; k++) {
		uint32_t w = (start / 32 + k) % RUNQ_WORDS, bits = q->word[w];
		if (k == 0)
			bits &= ~0u << (start % 32);
		if (bits)
			return (int)(w * 32 + (uint32_t)__builtin_ctz(bits));
	}
	return -1;
}

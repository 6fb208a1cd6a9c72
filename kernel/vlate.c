/*
 * kernel/vlate.c - the rule of vlate.h: pure arithmetic on node times.
 */
#include "vlate.h"

#define NONE UINT64_MAX

void vlate_init(struct vlate *l)
{
	l->armed_at = 0;
	l->grid = 0;
	l->expires = NONE;
	l->user_since = 0;
	l->entry_delay = NONE;
}

void vlate_armed(struct vlate *l, uint64_t now, uint64_t expires)
{
	l->armed_at = now;
	l->expires = expires;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

void vlate_resumes(struct vlate *l, uint64_t now)
{
	l->user_since = now;
}

uint64_t vlate_entry(struct vlate *l, uint64_t now, int deadline, uint64_t *by)
{
	uint64_t due = l->expires;
	*by = 0;
	if (due == NONE)
		return 0;
	/* the margins are instruction counts: 1 ns each at shift=0, one
	 * instruction's time (the grid: any two readings of a stretch of
	 * running clock differ by whole instructions) at any shift */
	if (deadline && now > l->armed_at)
		l->grid = gcd(l->grid, now - l->armed_at);
	uint64_t insn = l->grid ? l->grid : 1;
	if (!deadline) {
		if (!l->grid)
			return 0; /* an instruction's time not known yet: cannot judge */
		/* the trapping instruction ran at now less the entry path (the
		 * interrupt's, read at the same point) less itself; at or past
		 * the expiry it should have been interrupted first */
		uint64_t path = l->entry_delay == NONE ? VLATE_ENTRY_MARGIN_NS * insn
						       : l->entry_delay + (insn > 1 ? insn : 0);
		if (now <= due || now - due <= path)
			return 0;
		l->expires = NONE;
		return due;
	}
	l->expires = NONE;
	if (now < due)
		return 0;
	uint64_t delay = now - due, margin = VLATE_RESUME_MARGIN_NS * insn;
	if (due < l->user_since + margin) {
		/* expired while the kernel ran, or on its way out: taken at the
		 * first instruction back in user mode, within the margin of the
		 * return; later than that is late */
		if (l->entry_delay == NONE || delay <= l->user_since + margin - due + l->entry_delay)
			return 0;
		return due;
	}
	if (delay < l->entry_delay) {
		l->entry_delay = delay;
		return 0;
	}
	if (delay - l->entry_delay < l->grid)
		return 0;
	if (l->grid == 1)
		*by = delay - l->entry_delay;
	return due;
}

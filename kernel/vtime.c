/*
 * kernel/vtime.c - virtual time on this node (vtime.h).  The node clock is
 * the instruction counter under QEMU's -icount shift=S,sleep=off less the
 * stretches spent in host-dependent work: the port moves the clock's
 * origin by each stretch (arch_clock_pause/resume), so reading the clock
 * costs nothing more than in the other modes.  The port arms one deadline
 * at a time in node-clock time (vtime_next_deadline: the next tick, the
 * next event of a registered source, the synchronisation's next stop), so
 * preemption, alarms, the meter's flushes and the taking of frames from
 * other nodes happen at node-clock times the host cannot move.  Device
 * interrupt lines stay masked (the stops poll the cards), since a trap's
 * entry and exit would count at moments the host chooses.
 */
#include "kernel.h"
#include "vtime.h"
#include "vlate.h"
#include "vtime_config.h"

#define TICK_NS 10000000ull /* 100 Hz, as both ports' tick */

int vtime_on;
static int excluding;
static uint64_t paused_at;   /* the node clock when exclusion began */
static uint64_t frozen_at;   /* ... and while excluding (a jump moves it) */
static uint64_t next_tick;
static struct {
	uint64_t (*next)(uint64_t now);
	void (*due)(uint64_t now);
} sources[VTIME_MAX_SOURCES];
static uint32_t nsources;
static const struct vtime_sync *sync;

int vtime_cmdline_option(const char *w, uint32_t n)
{
	if (n != 8 || strncmp(w, "vclock=", 7) || (w[7] != '0' && w[7] != '1'))
		return 0;
	vtime_on = w[7] == '1';
	return 1;
}

void vtime_start(void)
{
	if (!vtime_on)
		return;
	next_tick = arch_clock_ns() + TICK_NS;
	vtime_copy_rate = vtime_config.copy_ns_per_kbyte;
	arch_tick_virtual();
	kprintf("vtime: node clock in virtual time (instructions, host work excluded)\n");
}

void vtime_exclude_begin(void)
{
	if (!vtime_on || excluding++)
		return;
	paused_at = frozen_at = arch_clock_ns();
	arch_clock_pause();
}

static uint64_t deadline_after(uint64_t now);

void vtime_exclude_end(void)
{
	if (!vtime_on)
		return;
	if (excluding > 1) {
		excluding--;
		return;
	}
	/* the next deadline as of the resumed clock, found while it stands */
	uint64_t at = frozen_at, next = deadline_after(at);
	excluding = 0;
	arch_clock_resume(at - paused_at, at, next);
}

void vtime_advance_to(uint64_t t)
{
	if (excluding && t > frozen_at)
		frozen_at = t;
}

uint64_t vtime_now(void)
{
	return excluding ? frozen_at : arch_clock_ns();
}

uint64_t vtime_copy_rate;

void vtime_spin_for(uint64_t ns)
{
	if (!vtime_on || excluding || !ns)
		return;
	uint64_t until = arch_clock_ns() + ns;
	while (arch_clock_ns() < until)
		__asm__ volatile("" ::: "memory");
}

int vtime_add_source(uint64_t (*next)(uint64_t now), void (*due)(uint64_t now))
{
	if (nsources == VTIME_MAX_SOURCES)
		return -1;
	sources[nsources].next = next;
	sources[nsources++].due = due;
	return 0;
}

void vtime_set_sync(const struct vtime_sync *s)
{
	sync = s;
}

int vtime_synced(void)
{
	return sync != NULL;
}

/* The next local event: the tick or a source's. */
static uint64_t local_next(uint64_t now)
{
	uint64_t d = next_tick;
	for (uint32_t i = 0; i < nsources; i++) {
		uint64_t t = sources[i].next(now);
		if (t < d)
			d = t;
	}
	return d;
}

static uint64_t deadline_after(uint64_t now)
{
	uint64_t d = local_next(now);
	if (sync && sync->quantum) {
		uint64_t stop = (now / sync->quantum + 1) * sync->quantum;
		if (stop < d)
			d = stop;
	}
	return d;
}

uint64_t vtime_next_deadline(void)
{
	return deadline_after(vtime_now());
}

static void user_entry_at(uint64_t now, int deadline_interrupt);

/* The clock as the last entry from user mode read it (vtime_user_entry). */
static uint64_t entered_at;

int vtime_deadline(int from_user)
{
	uint64_t now = arch_clock_ns();
	vtime_exclude_begin();
	if (from_user)
		user_entry_at(entered_at, 1);
	int tick = now >= next_tick;
	while (next_tick <= now)
		next_tick += TICK_NS;
	int work = 0;
	if (sync) {
		sync->wait(now);
		work = sync->pending(now);
	}
	for (uint32_t i = 0; i < nsources && !work; i++)
		work = sources[i].next(now) <= now;
	if (work) { /* the node's: counted */
		vtime_exclude_end();
		if (sync)
			sync->deliver(now);
		for (uint32_t i = 0; i < nsources; i++)
			if (sources[i].next(now) <= now)
				sources[i].due(now);
		vtime_exclude_begin();
	}
	vtime_exclude_end();
	return tick;
}

/* The deadline interrupt's lateness (vtime.h, the rule in vlate.h). */
static struct vlate late = { .expires = VTIME_NEVER, .entry_delay = VTIME_NEVER };

void vtime_deadline_armed(uint64_t now, uint64_t t)
{
	vlate_armed(&late, now, t);
}

void vtime_user_resumes(void)
{
	if (vtime_on)
		vlate_resumes(&late, arch_clock_ns());
}

void vtime_user_entry(int deadline)
{
	if (!vtime_on)
		return;
	uint64_t now = arch_clock_ns();
	if (deadline)
		entered_at = now; /* judged in the stop, if it is the deadline's */
	else
		user_entry_at(now, 0);
}

static void user_entry_at(uint64_t now, int deadline_interrupt)
{
	uint64_t by, due = vlate_entry(&late, now, deadline_interrupt, &by);
	if (!due)
		return;
	vtime_exclude_begin();
	if (by)
		kprintf("vtime: the deadline interrupt due at %llu ns came %llu ns late in user mode "
			"(QEMU's doing); from here this node's times depend on the host\n",
			(unsigned long long)due, (unsigned long long)by);
	else
		kprintf("vtime: the deadline interrupt due at %llu ns came late (at %llu ns it had not been "
			"taken in user mode): QEMU's doing; from here this node's times depend on the host\n",
			(unsigned long long)due, (unsigned long long)now);
	vtime_exclude_end();
}

int vtime_idle(void)
{
	if (!vtime_on || !sync)
		return 0;
	uint64_t now = arch_clock_ns();
	uint64_t next = local_next(now);
	if (next <= now)
		return 0; /* due now: its interrupt comes at once */
	vtime_exclude_begin();
	uint64_t t = sync->idle(now, next);
	vtime_exclude_end();
	return sync->deliver(t) > 0 || t < next;
}

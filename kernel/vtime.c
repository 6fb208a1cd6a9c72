/*
 * kernel/vtime.c - virtual time on this node (vtime.h).  The node clock is
 * the instruction counter under QEMU's -icount shift=S,sleep=off less the
 * stretches spent in host-dependent work: the port moves the clock's
 * origin by each stretch (arch_clock_pause/resume), so reading the clock
 * costs nothing more than in the other modes, and the tick becomes a
 * deadline in node-clock time (arch_tick_virtual), so preemption, alarms
 * and the meter's flushes happen at node-clock times the host cannot move.
 * Device interrupt lines stay masked (the tick polls the cards), since a
 * trap's entry and exit would count at moments the host chooses.
 */
#include "kernel.h"
#include "vtime.h"

int vtime_on;
static int excluding;

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
	arch_tick_virtual();
	kprintf("vtime: node clock in virtual time (instructions, host work excluded)\n");
}

void vtime_exclude_begin(void)
{
	if (!vtime_on || excluding++)
		return;
	arch_clock_pause();
}

void vtime_exclude_end(void)
{
	if (!vtime_on || --excluding)
		return;
	arch_clock_resume();
}

/*
 * kernel/timer.c - the portable half of the timer interrupt: work that
 * must happen every tick (100 Hz) whether a process or the idle loop was
 * interrupted: the network's timers, the meter's batch flushing, alarms,
 * host-gate bytes waiting for their owner, credits given back to
 * other nodes (virtual time).
 * Scheduling stays with kernel_tick(), which the port calls only for ticks
 * that interrupt a process.
 *
 * In virtual time the node clock stands still for this work: it is our
 * emulation's housekeeping (the host links' and peers' TCP timers, bytes
 * for the host gate, the meter's shipping, credits), in no process, and
 * it was ~1,000 instructions a tick (x86): nothing on a LAN node (0.01 %
 * of its time) but 10 % of a node at the 1984 preset's 1 MIPS, where no
 * analysis can see it (docs/virtual-time.md, "What a tick costs").
 */
#include "kernel.h"
#include "hostgate.h"
#include "meter/meter.h"
#include "kernel/net/net.h"
#include "remote.h"
#include "vtime.h"

void kernel_timer_tick(void)
{
	vtime_exclude_begin();
	net_tick();
	meter_tick();
	alarm_tick();
	hostgate_tick();
	remote_tick();
	vtime_exclude_end();
}

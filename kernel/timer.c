/*
 * kernel/timer.c - the portable half of the timer interrupt: work that
 * must happen every tick (100 Hz) whether a process or the idle loop was
 * interrupted: the network's timers, the meter's batch flushing, alarms,
 * host-gate bytes waiting for their owner, credits given back to
 * other nodes (virtual time).
 * Scheduling stays with kernel_tick(), which the port calls only for ticks
 * that interrupt a process.
 */
#include "kernel.h"
#include "hostgate.h"
#include "meter/meter.h"
#include "kernel/net/net.h"
#include "remote.h"

void kernel_timer_tick(void)
{
	net_tick();
	meter_tick();
	alarm_tick();
	hostgate_tick();
	remote_tick();
}

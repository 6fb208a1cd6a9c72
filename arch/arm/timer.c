/*
 * arch/arm/timer.c - the generic timer: its virtual counter is the node
 * clock (under QEMU's -icount shift=0 it advances with executed
 * instructions, as x86's TSC does), and its virtual timer, PPI 27 on the
 * virt machine, interrupts at 100 Hz.  Each deadline is the previous one
 * plus a period (CNTV_CVAL), so ticks do not drift with interrupt latency.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"

#define CNTV_CTL_ENABLE 1u
#define CLOCK_SHIFT 24

static uint64_t counter_hz = 62500000;
static uint64_t counter_boot, next_deadline, period;
/* ns = ticks * clock_mult >> CLOCK_SHIFT: no division when reading the
 * clock, which the scheduler and every trace do. */
static uint32_t clock_mult;

void timer_init(void)
{
	uint32_t f = read_cntfrq();
	if (f >= 4000000) /* below 4 MHz the multiplier would not fit */
		counter_hz = f;
	clock_mult = (uint32_t)((1000000000ull << CLOCK_SHIFT) / counter_hz);
	period = counter_hz / TIMER_HZ;
	counter_boot = read_cntvct();
	next_deadline = counter_boot + period;
	write_cntv_cval(next_deadline);
	write_cntv_ctl(CNTV_CTL_ENABLE);
	isb();
	gic_enable(IRQ_VTIMER);
}

/* The next deadline; ticks lost while interrupts were masked are skipped,
 * not delivered in a burst. */
void timer_rearm(void)
{
	uint64_t now = read_cntvct();
	do
		next_deadline += period;
	while (next_deadline <= now);
	write_cntv_cval(next_deadline);
	isb();
}

uint32_t timer_mhz(void)
{
	return (uint32_t)(counter_hz / 1000000);
}

uint64_t arch_clock_ns(void)
{
	uint64_t t = read_cntvct() - counter_boot;
	uint64_t hi = (t >> 32) * clock_mult, lo = (t & 0xffffffffu) * clock_mult;
	return (hi << (32 - CLOCK_SHIFT)) + (lo >> CLOCK_SHIFT);
}

/* Virtual time (kernel/vtime.c): the deadlines are already absolute
 * counter values a period apart from the origin, so moving the origin by
 * an excluded stretch moves the pending deadline with it.  The GIC keeps a
 * tick that fell due while the clock stood still pending after the
 * timer's level drops, so it is cleared before the clock goes on (whether
 * it fell due then is the host's doing); a deadline passed before the
 * pause raises the level again at once. */
static uint64_t pause_count;

void arch_tick_virtual(void)
{
}

void arch_clock_pause(void)
{
	pause_count = read_cntvct();
}

void arch_clock_resume(void)
{
	write_cntv_cval(UINT64_MAX);
	isb();
	gic_clear_pending(IRQ_VTIMER);
	uint64_t stretch = read_cntvct() - pause_count;
	counter_boot += stretch;
	next_deadline += stretch;
	write_cntv_cval(next_deadline);
	isb();
}

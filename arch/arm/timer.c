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
#include "kernel/vtime.h"

#define CNTV_CTL_ENABLE 1u
#define CLOCK_SHIFT 24

static uint64_t counter_hz = 62500000;
static uint64_t counter_boot, next_deadline, period;
/* ns = ticks * clock_mult >> CLOCK_SHIFT: no division when reading the
 * clock, which the scheduler and every trace do.  When a tick is a whole
 * number of ns (QEMU's 62.5 MHz counter: 16 ns), ns_per_tick is that
 * number and a reading is one multiply, with the same result as the
 * scale's (clock_mult is then ns_per_tick << CLOCK_SHIFT exactly); else 0. */
static uint32_t clock_mult, ns_per_tick;

void timer_init(void)
{
	uint32_t f = read_cntfrq();
	if (f >= 4000000) /* below 4 MHz the multiplier would not fit */
		counter_hz = f;
	clock_mult = (uint32_t)((1000000000ull << CLOCK_SHIFT) / counter_hz);
	ns_per_tick = 1000000000ull % counter_hz ? 0 : (uint32_t)(1000000000ull / counter_hz);
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
static void timer_rearm_period(void)
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

/* ns of t ticks by the scale: out of line, so that the whole-ns case
 * below saves no registers (every CALL and every metered event reads the
 * clock: 21 instructions a read with the scale, 9 without) */
static __attribute__((noinline)) uint64_t ticks_scaled(uint64_t t)
{
	uint64_t hi = (t >> 32) * clock_mult, lo = (t & 0xffffffffu) * clock_mult;
	return (hi << (32 - CLOCK_SHIFT)) + (lo >> CLOCK_SHIFT);
}

/* The node clock at counter value c. */
static inline uint64_t count_ns(uint64_t c)
{
	uint64_t t = c - counter_boot;
	return ns_per_tick ? t * ns_per_tick : ticks_scaled(t);
}

uint64_t arch_clock_ns(void)
{
	return count_ns(read_cntvct());
}

/* Virtual time (kernel/vtime.c): the deadline is vtime_next_deadline()
 * as an absolute counter value, so it lands on the same instruction
 * whatever the host did meanwhile.  The GIC keeps a deadline that fell due
 * while the clock stood still pending after the timer's level drops, so it
 * is cleared before the clock goes on (whether it fell due then is the
 * host's doing); a deadline passed before the pause raises the level again
 * at once.  While the node waits at a horizon the timer is disabled. */
static int tick_virtual;
static uint64_t pause_count;

static uint64_t ns_to_count(uint64_t ns)
{
	return ns / 1000000000ull * counter_hz + ns % 1000000000ull * counter_hz / 1000000000ull;
}

/* The deadline at counter value count: the timer's condition holds from
 * the instruction at which the counter reaches it (kernel/vlate.h is told
 * where, in node time, to notice a late landing). */
static void arm_at(uint64_t count)
{
	vtime_deadline_armed(arch_clock_ns(), count_ns(count));
	write_cntv_cval(count);
	write_cntv_ctl(CNTV_CTL_ENABLE);
	isb();
}

static void arm_deadline(void)
{
	arm_at(counter_boot + ns_to_count(vtime_next_deadline()));
}

/* No deadline at all: disabled, not one far away, which under sleep=off
 * QEMU would jump its clock to as soon as the node halts. */
static void disarm(void)
{
	write_cntv_ctl(0);
	isb();
	gic_clear_pending(IRQ_VTIMER);
}

/* The stalled node's host-time watchdog (docs/virtual-time.md §2.8): the
 * PL031 counts seconds of QEMU's host clock, and its alarm (match
 * register) comes 1 s of host time after it is set, while the node clock
 * stands still.  Its line is open only in arch_wait_for_device; the alarm
 * is set when a wait begins with none pending and stays set across the
 * waits that frames end, so a long stall is counted even if frames keep
 * waking it; one that fell due outside a wait is cleared, not counted. */
#define RTC_DR 0x00
#define RTC_MR 0x04
#define RTC_IMSC 0x10
#define RTC_RIS 0x14
#define RTC_MIS 0x18
#define RTC_ICR 0x1c
#define RTC_PERIOD_MS 1000
static int rtc_armed;
static uint32_t rtc_counted;

static void rtc_interrupt(void *unused)
{
	(void)unused;
	if (mmio_read32(RTC_BASE + RTC_MIS) & 1) {
		mmio_write32(RTC_BASE + RTC_ICR, 1);
		rtc_counted += RTC_PERIOD_MS;
		rtc_armed = 0;
	}
}

static void rtc_arm(void)
{
	mmio_write32(RTC_BASE + RTC_ICR, 1);
	gic_clear_pending(IRQ_RTC);
	mmio_write32(RTC_BASE + RTC_MR, mmio_read32(RTC_BASE + RTC_DR) + 1);
	rtc_armed = 1;
}

uint32_t arch_host_seconds(void)
{
	return mmio_read32(RTC_BASE + RTC_DR);
}

void arch_tick_virtual(void)
{
	tick_virtual = 1;
	mmio_write32(RTC_BASE + RTC_IMSC, 1);
	if (arch_irq_register(IRQ_RTC, rtc_interrupt, NULL) != 0) /* closed but in waits */
		panic("timer: no room for the PL031's interrupt");
	arm_deadline();
}

int timer_rearm(int from_user)
{
	if (!tick_virtual) {
		timer_rearm_period();
		return 1;
	}
	return vtime_deadline(from_user); /* arch_clock_resume arms the next deadline */
}

void arch_clock_pause(void)
{
	pause_count = read_cntvct();
}

void arch_clock_resume(uint64_t advance_ns, uint64_t at_ns, uint64_t deadline_ns)
{
	(void)at_ns;
	disarm();
	uint64_t deadline = ns_to_count(deadline_ns), advance = ns_to_count(advance_ns);
	counter_boot += read_cntvct() - pause_count - advance;
	arm_at(counter_boot + deadline); /* the clock runs: the only part that counts */
}

/* Stalled at a horizon: no deadline (resume arms it again), the cards'
 * lines and the PL031's open while waiting. */
uint32_t arch_wait_for_device(void)
{
	disarm();
	if (!rtc_armed || (mmio_read32(RTC_BASE + RTC_RIS) & 1))
		rtc_arm();
	rtc_counted = 0;
	gic_wait_for_devices();
	return rtc_counted;
}

/*
 * arch/x86/machine.c - the PC as a DPM node: COM1 console, 8259 PIC, 8254
 * PIT timer at 100 Hz, the TSC as the node clock (calibrated against the
 * PIT's channel 2 at boot; under QEMU's -icount shift=0 it counts one tick
 * an instruction), and power-off through QEMU's isa-debug-exit port.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "machine.h"
#include "kernel/vtime.h"

#define COM1 0x3f8
#define PIT_HZ 100
#define DEBUG_EXIT_PORT 0xf4

static uint64_t tsc_khz = 1000000;
static uint64_t tsc_boot;
/* ns = ticks * clock_mult >> CLOCK_SHIFT: no division on the hot path
 * (the scheduler and every trace read the clock). */
#define CLOCK_SHIFT 24
static uint32_t clock_mult = 1u << CLOCK_SHIFT;

void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* divisor latch */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7); /* FIFO */
}

void arch_console_putc(char c)
{
	if (c == '\n')
		arch_console_putc('\r');
	while (!(inb(COM1 + 5) & 0x20))
		;
	outb(COM1, (uint8_t)c);
}

void pic_init(void)
{
	outb(0x20, 0x11); outb(0xa0, 0x11);   /* ICW1: init, ICW4 follows */
	outb(0x21, 0x20); outb(0xa1, 0x28);   /* vectors 32..47 */
	outb(0x21, 0x04); outb(0xa1, 0x02);   /* cascade on IRQ2 */
	outb(0x21, 0x01); outb(0xa1, 0x01);   /* 8086 mode */
	outb(0x21, 0xfe); outb(0xa1, 0xff);   /* only the timer for now */
}

void pic_eoi(uint32_t irq)
{
	if (irq >= 8)
		outb(0xa0, 0x20);
	outb(0x20, 0x20);
}

void pit_init(void)
{
	uint32_t divisor = 1193182 / PIT_HZ;
	outb(0x43, 0x34); /* channel 0, lo/hi, rate generator */
	outb(0x40, divisor & 0xff);
	outb(0x40, divisor >> 8);
}

/* ---- calibrating the TSC ------------------------------------------------
 * Both the TSC and the PIT's counters follow the host's clock in QEMU (and
 * both count instructions under -icount), so the ratio of their advances
 * between two readings is the TSC's rate, however long the vCPU was
 * descheduled in between.  Counting timer interrupts instead (as this did
 * once) breaks under host load: QEMU delivers one interrupt for several
 * periods the vCPU missed, and a node measured 8611 MHz for a 2600 MHz
 * TSC, ran its clock 3.3 times slow and was declared silent by its peers.
 *
 * Channel 2 (gated by port 0x61 bit 0, its output in bit 5) counts down
 * once from 0xffff in mode 0; a reading is the TSC between two latched
 * counts taken back to back, kept only when they are close (the vCPU was
 * not descheduled between them). */
#define PIT_INPUT_HZ 1193182u
#define PORT_B 0x61
#define PIT2_SPAN 36000u          /* PIT ticks a measurement spans: 30 ms */
#define PIT2_TIGHT 8u             /* a reading's two counts at most this apart */
#define CALIBRATION_RUNS 3

struct pit_reading {
	uint64_t tsc;
	uint32_t count;               /* channel 2's count at that moment */
};

static uint32_t pit2_count(void)
{
	outb(0x43, 0x80);             /* latch channel 2 */
	uint32_t lo = inb(0x42);
	return lo | (uint32_t)inb(0x42) << 8;
}

static int pit2_read(struct pit_reading *r)
{
	for (int tries = 0; tries < 100; tries++) {
		uint32_t before = pit2_count();
		r->tsc = rdtsc();
		uint32_t after = pit2_count();
		if (before >= after && before - after <= PIT2_TIGHT) {
			r->count = (before + after) / 2;
			return 0;
		}
	}
	return -1;
}

/* Poll until channel 2 counts below `count`; -1 if it reached its end
 * first (the vCPU was away too long) or does not seem to count at all. */
static int pit2_wait_below(uint32_t count)
{
	for (uint32_t polls = 0; polls < 1000000u; polls++) {
		if (inb(PORT_B) & 0x20)
			return -1;
		if (pit2_count() < count)
			return 0;
		/* a few microseconds between polls: port reads are slow in
		 * QEMU, most of all under -icount */
		for (volatile uint32_t spin = 0; spin < 2000; spin++)
			;
	}
	return -1;
}

static void pit2_start(void)
{
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(0x43, 0xb0);             /* channel 2, lo/hi, mode 0, binary */
	outb(0x42, 0xff);
	outb(0x42, 0xff);
}

/* One measurement of TSC ticks per PIT tick, scaled to kHz; 0 if it failed
 * (a reading never tight, or the count ran out before the end). */
static uint64_t tsc_khz_measured(void)
{
	struct pit_reading a, b;
	pit2_start();
	if (pit2_wait_below(0xff00) < 0 || pit2_read(&a) < 0 || a.count <= PIT2_SPAN ||
	    pit2_wait_below(a.count - PIT2_SPAN) < 0 || pit2_read(&b) < 0 ||
	    (inb(PORT_B) & 0x20) || b.count >= a.count)
		return 0;
	return (b.tsc - a.tsc) * PIT_INPUT_HZ / (a.count - b.count) / 1000;
}

/* The median of three measurements, rounded to whole MHz so that an
 * icount clock (1 GHz) is exact. */
void clock_calibrate(void)
{
	uint64_t khz[CALIBRATION_RUNS];
	int n = 0;
	for (int tries = 0; n < CALIBRATION_RUNS && tries < 4 * CALIBRATION_RUNS; tries++) {
		uint64_t k = tsc_khz_measured();
		if (!k)
			continue;
		int i = n++;
		for (; i > 0 && khz[i - 1] > k; i--)
			khz[i] = khz[i - 1];
		khz[i] = k;
	}
	if (!n)
		panic("clock: the PIT's channel 2 gives no usable reading");
	tsc_khz = (khz[n / 2] + 500) / 1000 * 1000;
	if (tsc_khz < 4000)
		tsc_khz = 4000; /* below 4 MHz the multiplier would not fit */
	clock_mult = (uint32_t)((1000000ull << CLOCK_SHIFT) / tsc_khz);
	tsc_boot = rdtsc();
}

void clock_set_ghz(void)
{
	tsc_khz = 1000000;
	clock_mult = (uint32_t)((1000000ull << CLOCK_SHIFT) / tsc_khz);
	tsc_boot = rdtsc();
}

/* ns of t ticks at tsc_khz: out of line, so that the common 1 GHz case
 * below saves no registers */
static __attribute__((noinline)) uint64_t ticks_to_ns(uint64_t t)
{
	uint64_t hi = (t >> 32) * clock_mult, lo = (t & 0xffffffffu) * clock_mult;
	return (hi << (32 - CLOCK_SHIFT)) + (lo >> CLOCK_SHIFT);
}

uint64_t arch_clock_ns(void)
{
	uint64_t t = rdtsc() - tsc_boot;
	/* a 1 GHz counter (icount, virtual time): ticks are ns; the scale would
	 * give the same t for ~20 instructions a read, ~170 a CALL round trip */
	return clock_mult == 1u << CLOCK_SHIFT ? t : ticks_to_ns(t);
}

/* ---- virtual time (kernel/vtime.c) ---------------------------------------
 * The deadline is the PIT in mode 0 (one interrupt at terminal count),
 * armed for vtime_next_deadline() in node-clock time: the count depends
 * only on the node clock, so the interrupt should land on the same
 * instruction whatever the host did meanwhile (QEMU sometimes takes it
 * late: kernel/vlate.h notices).  While the clock stands still (pause to
 * resume) the host's time still runs the PIT, so an interrupt latched then
 * is dropped before the clock goes on, and the deadline armed again; one
 * that fell due before the pause is armed to come at once. */
static int tick_virtual;
static uint64_t pause_tsc;

/* The PIT's count for deadline_ns, loaded at node time now. */
static uint32_t pit_count(uint64_t now, uint64_t deadline_ns)
{
	uint64_t count = 1;
	if (deadline_ns > now)
		count = ((deadline_ns - now) * 1193182ull + 999999999ull) / 1000000000ull;
	if (count > 0xffff)
		count = 0xffff;
	/* where QEMU's PIT expires: the load plus whole ns of the count */
	vtime_deadline_armed(now, now + count * 1000000000ull / 1193182ull);
	return (uint32_t)count;
}

static void pit_load(uint32_t count)
{
	outb(0x43, 0x30); /* channel 0, lo/hi, interrupt on terminal count */
	outb(0x40, (uint8_t)count);
	outb(0x40, (uint8_t)(count >> 8));
}

/* Acknowledge a pending IRQ 0 without taking it (OCW3 poll, then EOI). */
static void pic_drop_tick(void)
{
	outb(0x20, 0x0a); /* OCW3: read the request register */
	if (inb(0x20) & 1) {
		outb(0x20, 0x0c); /* OCW3: poll; the read acknowledges */
		(void)inb(0x20);
		outb(0x20, 0x20);
	}
}

/* The stalled node's host-time watchdog (docs/virtual-time.md §2.8): the
 * mc146818 RTC runs on QEMU's host clock, so its periodic interrupt (2 Hz)
 * comes in host time while the node clock stands still.  Its line (IRQ 8)
 * is open only in arch_wait_for_device, which first clears the periodic
 * flag: a period that ended before the wait does not count. */
#define RTC_PERIOD_MS 500
#define RTC_RATE_2HZ 0x0f
#define RTC_PIE 0x40  /* register B: periodic interrupt enable */
#define RTC_PF 0x40   /* register C: a period ended (the read clears it) */
static uint32_t rtc_counted;

static uint8_t cmos_read(uint8_t reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static void cmos_write(uint8_t reg, uint8_t v)
{
	outb(0x70, reg);
	outb(0x71, v);
}

static void rtc_interrupt(void *unused)
{
	(void)unused;
	if (cmos_read(0x0c) & RTC_PF)
		rtc_counted += RTC_PERIOD_MS;
}

void arch_tick_virtual(void)
{
	tick_virtual = 1;
	cmos_write(0x0a, (uint8_t)((cmos_read(0x0a) & 0xf0) | RTC_RATE_2HZ));
	cmos_write(0x0b, (uint8_t)(cmos_read(0x0b) | RTC_PIE));
	(void)cmos_read(0x0c);
	if (arch_irq_register(8, rtc_interrupt, NULL) != 0) /* masked but in waits */
		panic("clock: no room for the RTC's interrupt");
	pit_load(pit_count(arch_clock_ns(), vtime_next_deadline()));
}

/* The deadline interrupt: its work (vtime_deadline, which stands the clock
 * still for its own part and arms the next deadline through
 * arch_clock_resume).  1: a tick is due as well. */
int x86_tick_rearm(int from_user)
{
	if (!tick_virtual)
		return 1;
	return vtime_deadline(from_user);
}

void arch_clock_pause(void)
{
	pause_tsc = rdtsc();
}

void arch_clock_resume(uint64_t advance_ns, uint64_t at_ns, uint64_t deadline_ns)
{
	uint32_t count = 0;
	if (tick_virtual) {
		/* still standing: whether a tick latched is the host's doing, so
		 * dropping it must not count (a full count first keeps the PIT
		 * from latching another meanwhile) */
		pit_load(0xffff);
		pic_drop_tick();
		count = pit_count(at_ns, deadline_ns);
	}
	uint64_t advance = (advance_ns * tsc_khz + 999999) / 1000000;
	tsc_boot += rdtsc() - pause_tsc - advance;
	if (tick_virtual)
		pit_load(count); /* the clock runs: the only part that counts */
}

/* Stalled at a horizon: no deadline can come (IRQ 0 masked; the PIT may
 * still latch one, which arch_clock_resume drops), the cards' lines and
 * the RTC's open until an interrupt is taken.  An RTC interrupt the 8259
 * latched before finds the periodic flag cleared here and counts nothing. */
uint32_t arch_wait_for_device(void)
{
	uint8_t m1 = inb(0x21), m2 = inb(0xa1);
	uint32_t open = x86_irq_lines();
	if (open >> 8)
		open |= 1u << 2; /* the cascade */
	outb(0x21, (uint8_t)(~open | 1u));
	outb(0xa1, (uint8_t)(~open >> 8));
	(void)cmos_read(0x0c);
	rtc_counted = 0;
	sti();
	hlt();
	cli();
	outb(0x21, m1);
	outb(0xa1, m2);
	return rtc_counted;
}

/* The RTC's seconds register, read until two reads agree (an update in
 * progress may show a torn value once). */
uint32_t arch_host_seconds(void)
{
	uint8_t s = cmos_read(0x00), again;
	while ((again = cmos_read(0x00)) != s)
		s = again;
	return s;
}

uint32_t clock_mhz(void)
{
	return (uint32_t)(tsc_khz / 1000);
}

void arch_poweroff(int code)
{
	outb(DEBUG_EXIT_PORT, (uint8_t)code); /* QEMU exits with (code << 1) | 1 */
	outw(0x604, 0x2000);                  /* ACPI off, in case there is no debug-exit */
	for (;;) { cli(); hlt(); }
}

void arch_cpu_relax(void)
{
	__asm__ volatile("pause");
}

void arch_wait_for_interrupt(void)
{
	sti();
	hlt();
	cli();
}

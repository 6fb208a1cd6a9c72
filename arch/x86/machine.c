/*
 * arch/x86/machine.c - the PC as a DPM node: COM1 console, 8259 PIC, 8254
 * PIT timer at 100 Hz, the TSC as the node clock (calibrated against the
 * PIT at boot; under QEMU's -icount shift=0 it counts one tick an
 * instruction), and power-off through QEMU's isa-debug-exit port.
 */
#include "kernel.h"
#include "x86.h"
#include "machine.h"

#define COM1 0x3f8
#define PIT_HZ 100
#define DEBUG_EXIT_PORT 0xf4

static uint64_t tsc_khz = 1000000;
static uint64_t tsc_boot;
/* ns = ticks * clock_mult >> CLOCK_SHIFT: no division on the hot path
 * (the scheduler and every trace read the clock). */
#define CLOCK_SHIFT 24
static uint32_t clock_mult = 1u << CLOCK_SHIFT;
volatile uint32_t x86_ticks;

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

/* Count TSC ticks over 5 timer periods (50 ms); rounded to whole MHz so
 * that an icount clock (1 GHz) is exact. */
void clock_calibrate(void)
{
	uint32_t t0 = x86_ticks;
	while (x86_ticks == t0) { sti(); hlt(); cli(); }
	uint64_t start = rdtsc();
	t0 = x86_ticks;
	while (x86_ticks - t0 < 5) { sti(); hlt(); cli(); }
	uint64_t khz = (rdtsc() - start) * PIT_HZ / 5 / 1000;
	tsc_khz = (khz + 500) / 1000 * 1000;
	if (tsc_khz < 4000)
		tsc_khz = 4000; /* below 4 MHz the multiplier would not fit */
	clock_mult = (uint32_t)((1000000ull << CLOCK_SHIFT) / tsc_khz);
	tsc_boot = rdtsc();
}

uint64_t arch_clock_ns(void)
{
	uint64_t t = rdtsc() - tsc_boot;
	uint64_t hi = (t >> 32) * clock_mult, lo = (t & 0xffffffffu) * clock_mult;
	return (hi << (32 - CLOCK_SHIFT)) + (lo >> CLOCK_SHIFT);
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

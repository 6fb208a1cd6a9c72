/*
 * arch/arm/gic.c - the GICv2 of the virt machine: distributor and CPU
 * interface set up for one CPU, and device interrupt lines for drivers.
 * A driver registers a handler for an interrupt ID (several may share one)
 * and the ID is enabled; arm_trap() sends every IRQ but the timer here.
 * Handlers run with interrupts masked, on the interrupted process's kernel
 * stack or the idle loop's, never inside other kernel code: no locks.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"
#include "kernel/vtime.h"

#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_ICPENDR 0x280
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0c
#define GICC_EOIR 0x10

#define GIC_SPURIOUS 1020          /* IDs 1020..1023: nothing to take */
#define FIRST_SPI 32
#define IRQ_LINES 128              /* SGIs, PPIs and the first 96 SPIs */
#define IRQ_HANDLERS_PER_LINE 4
#define PRIORITY 0xa0u

struct irq_handler {
	void (*fn)(void *);
	void *arg;
};

static struct irq_handler handlers[IRQ_LINES][IRQ_HANDLERS_PER_LINE];
static uint32_t gic_lines;

static void set_byte(uintptr_t reg_base, int irq, uint8_t v)
{
	uintptr_t a = reg_base + (uint32_t)irq;
	uint32_t w = mmio_read32(a & ~3u), shift = 8 * (a & 3u);
	mmio_write32(a & ~3u, (w & ~(0xffu << shift)) | ((uint32_t)v << shift));
}

void gic_init(void)
{
	mmio_write32(GICD_BASE + GICD_CTLR, 0);
	gic_lines = 32 * ((mmio_read32(GICD_BASE + GICD_TYPER) & 0x1f) + 1);
	if (gic_lines > IRQ_LINES)
		gic_lines = IRQ_LINES;
	for (uint32_t i = 0; i < gic_lines; i += 32)
		mmio_write32(GICD_BASE + GICD_ICENABLER + i / 8, 0xffffffffu);
	mmio_write32(GICD_BASE + GICD_CTLR, 1);
	mmio_write32(GICC_BASE + GICC_PMR, 0xf0);  /* let every priority above 0xf0 in */
	mmio_write32(GICC_BASE + GICC_BPR, 0);
	mmio_write32(GICC_BASE + GICC_CTLR, 1);
}

void gic_enable(int irq)
{
	set_byte(GICD_BASE + GICD_IPRIORITYR, irq, PRIORITY);
	if (irq >= FIRST_SPI)
		set_byte(GICD_BASE + GICD_ITARGETSR, irq, 0x01); /* CPU 0 */
	mmio_write32(GICD_BASE + GICD_ISENABLER + 4 * ((uint32_t)irq / 32), 1u << (irq % 32));
}

void gic_clear_pending(int irq)
{
	mmio_write32(GICD_BASE + GICD_ICPENDR + 4 * ((uint32_t)irq / 32), 1u << (irq % 32));
}

int gic_ack(void)
{
	uint32_t id = mmio_read32(GICC_BASE + GICC_IAR) & 0x3ff;
	return id >= GIC_SPURIOUS ? -1 : (int)id;
}

void gic_eoi(int irq)
{
	mmio_write32(GICC_BASE + GICC_EOIR, (uint32_t)irq);
}

int arch_irq_register(int irq, void (*fn)(void *), void *arg)
{
	if (irq < FIRST_SPI || (uint32_t)irq >= gic_lines)
		return E_INVAL;
	for (int i = 0; i < IRQ_HANDLERS_PER_LINE; i++) {
		if (!handlers[irq][i].fn) {
			handlers[irq][i] = (struct irq_handler){ fn, arg };
			if (!vtime_on) /* virtual time: the tick polls (kernel/vtime.c) */
				gic_enable(irq);
			return 0;
		}
	}
	return E_NOSPACE;
}

void arm_irq_dispatch(int irq)
{
	if (irq >= IRQ_LINES)
		return;
	for (int i = 0; i < IRQ_HANDLERS_PER_LINE && handlers[irq][i].fn; i++)
		handlers[irq][i].fn(handlers[irq][i].arg);
}

/* Virtual time, stalled (arch_wait_for_device): the registered lines are
 * enabled, wfi wakes on one (interrupts stay masked, so nothing nests), and
 * what is pending is handled here before the lines are closed again. */
void gic_wait_for_devices(void)
{
	for (uint32_t irq = FIRST_SPI; irq < gic_lines; irq++)
		if (handlers[irq][0].fn)
			gic_enable((int)irq);
	wfi();
	for (int id; (id = gic_ack()) >= 0;) {
		arm_irq_dispatch(id);
		gic_eoi(id);
	}
	for (uint32_t irq = FIRST_SPI; irq < gic_lines; irq++)
		if (handlers[irq][0].fn)
			mmio_write32(GICD_BASE + GICD_ICENABLER + 4 * (irq / 32), 1u << (irq % 32));
}

/*
 * arch/x86/irq.c - device interrupt lines of the 8259 pair: drivers
 * register a handler for a line (several may share one, as PCI devices do)
 * and the line is unmasked; x86_trap() sends every IRQ but the timer here.
 * Handlers run with interrupts off, either on the interrupted process's
 * kernel stack or the scheduler's idle loop, never inside other kernel
 * code, so they need no locks.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "machine.h"
#include "kernel/vtime.h"

#define IRQ_LINES 16
#define PIC1_DATA 0x21
#define PIC2_DATA 0xa1
#define IRQ_CASCADE 2

struct irq_handler {
	void (*fn)(void *);
	void *arg;
};

static struct irq_handler handlers[IRQ_LINES][IRQ_HANDLERS_PER_LINE];

static void pic_unmask(uint32_t irq)
{
	if (irq >= 8) {
		outb(PIC2_DATA, (uint8_t)(inb(PIC2_DATA) & ~(1u << (irq - 8))));
		irq = IRQ_CASCADE;
	}
	outb(PIC1_DATA, (uint8_t)(inb(PIC1_DATA) & ~(1u << irq)));
}

int arch_irq_register(int irq, void (*fn)(void *), void *arg)
{
	if (irq <= 0 || irq >= IRQ_LINES || irq == IRQ_CASCADE)
		return E_INVAL;
	for (int i = 0; i < IRQ_HANDLERS_PER_LINE; i++) {
		if (!handlers[irq][i].fn) {
			handlers[irq][i] = (struct irq_handler){ fn, arg };
			if (!vtime_on) /* virtual time: the tick polls (kernel/vtime.c) */
				pic_unmask((uint32_t)irq);
			return 0;
		}
	}
	return E_NOSPACE;
}

void x86_irq_dispatch(uint32_t irq)
{
	for (int i = 0; i < IRQ_HANDLERS_PER_LINE && handlers[irq][i].fn; i++)
		handlers[irq][i].fn(handlers[irq][i].arg);
}

uint32_t x86_irq_lines(void)
{
	uint32_t lines = 0;
	for (uint32_t irq = 0; irq < IRQ_LINES; irq++)
		if (handlers[irq][0].fn)
			lines |= 1u << irq;
	return lines;
}

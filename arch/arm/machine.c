/*
 * arch/arm/machine.c - QEMU's virt machine as a DPM node: the PL011 UART
 * as the console, idling with wfi, and power-off through semihosting's
 * SYS_EXIT_EXTENDED (QEMU started with -semihosting), which makes QEMU
 * exit with the status we give it: (code << 1) | 1, what x86's
 * isa-debug-exit produces, so the host reads one set of statuses.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_FR_TXFF (1u << 5)

#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

void arch_console_putc(char c)
{
	if (c == '\n')
		arch_console_putc('\r');
	while (mmio_read32(UART_BASE + UART_FR) & UART_FR_TXFF)
		;
	mmio_write32(UART_BASE + UART_DR, (uint8_t)c);
}

static void semihosting_exit(uint32_t status)
{
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, status };
	register uint32_t r0 __asm__("r0") = SYS_EXIT_EXTENDED;
	register uint32_t r1 __asm__("r1") = (uint32_t)(uintptr_t)block;
	__asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
}

void arch_poweroff(int code)
{
	semihosting_exit(((uint32_t)code << 1) | 1);
	/* Without -semihosting the call is an ordinary SVC from the kernel,
	 * which arm_trap ignores: stop here. */
	for (;;) {
		irq_disable();
		wfi();
	}
}

void arch_cpu_relax(void)
{
	__asm__ volatile("yield");
}

/* wfi wakes on a pending interrupt even while masked; unmasking then lets
 * it be taken, with no window in which it could be missed. */
void arch_wait_for_interrupt(void)
{
	wfi();
	irq_enable();
	isb();
	irq_disable();
}

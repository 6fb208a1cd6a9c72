/* arch/arm/machine.h - arch/arm's internal interfaces between its files,
 * and where the virt machine's devices are in the kernel's address space. */
#ifndef DPM_ARM_MACHINE_H
#define DPM_ARM_MACHINE_H
#include <stdint.h>
#include "kernel/abi/calls.h"

/* Physical device addresses of QEMU's virt machine, and the kernel's
 * supervisor-only window onto them (arch/arm/user/layout.h). */
#define DEVICE_PHYS_BASE 0x08000000u
#define DEVICE_VA(pa) ((uintptr_t)(pa) - DEVICE_PHYS_BASE + ARM_DEVICE_WINDOW)
#define GICD_BASE DEVICE_VA(0x08000000u)
#define GICC_BASE DEVICE_VA(0x08010000u)
#define UART_BASE DEVICE_VA(0x09000000u)
#define RTC_BASE DEVICE_VA(0x09010000u)   /* the PL031 */
#define VIRTIO_MMIO_BASE DEVICE_VA(0x0a000000u)
#define RAM_BASE 0x40000000u

#define TIMER_HZ 100
#define IRQ_VTIMER 27   /* the generic timer's virtual-timer PPI (16 + 11) */
#define IRQ_RTC 34      /* the PL031's SPI (32 + 2) */

void mmu_init(uintptr_t mem_end);
void mmu_switch(uintptr_t as);      /* TTBR0 := as (0: no user space) */
void gic_init(void);
int gic_ack(void);                  /* the interrupt being taken, or -1 */
void gic_eoi(int irq);
void gic_enable(int irq);
void gic_wait_for_devices(void);     /* virtual time: stalled, until a card interrupts */
void gic_clear_pending(int irq);      /* virtual time: a tick latched while the clock stood still */
void arm_irq_dispatch(int irq);     /* every IRQ but the timer */
void timer_init(void);
int timer_rearm(int from_user);       /* the timer interrupt: 1 when a tick is due */
uint32_t timer_mhz(void);
/* The device tree QEMU leaves at the start of RAM: the command line and
 * the end of RAM (0 when absent). */
void fdt_read(const void *fdt, char *cmdline, uint32_t cmdline_size, uintptr_t *mem_end);
#endif

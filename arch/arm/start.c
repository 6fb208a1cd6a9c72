/*
 * arch/arm/start.c - from QEMU's loader to kernel_main: paging first (the
 * devices are only reachable through the kernel's device window, and
 * unaligned accesses, which the compiler emits for ARMv7, need normal
 * memory), then the device tree's command line and memory size, the exception vectors,
 * the interrupt controller and the timer, and the portable kernel.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"

#define MAX_RAM (256u << 20)
#define DEFAULT_RAM (64u << 20)

extern char kernel_end[];
extern char arm_vectors[];
static char cmdline[CMDLINE_MAX];

void arm_start(void);
void arm_start(void)
{
	uintptr_t mem_end = 0;
	mmu_init(RAM_BASE + MAX_RAM);
	memcpy(cmdline, "kernel ", 8); /* the multiboot convention kernel_main expects */
	fdt_read((const void *)RAM_BASE, cmdline + 7, sizeof cmdline - 7, &mem_end);
	if (mem_end <= (uintptr_t)kernel_end)
		mem_end = RAM_BASE + DEFAULT_RAM;
	if (mem_end > RAM_BASE + MAX_RAM)
		mem_end = RAM_BASE + MAX_RAM;
	write_vbar((uint32_t)(uintptr_t)arm_vectors);
	isb();
	gic_init();
	timer_init();
	kprintf("arm: %u MiB RAM, timer %u MHz\n", (unsigned)((mem_end - RAM_BASE) >> 20), timer_mhz());
	kernel_main(cmdline, (uintptr_t)kernel_end, mem_end);
}

/*
 * arch/arm/fwcfg.c - QEMU's fw_cfg device on the virt machine: MMIO at
 * 0x09020000 (QEMU's virt memory map, VIRT_FW_CFG, inside the kernel's
 * device window), the data register at +0 (read a byte at a time, it
 * steps through the selected item) and the 16-bit big-endian selector at
 * +8.  The port layer of kernel/fwcfg.c.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"

#define FWCFG_BASE DEVICE_VA(0x09020000u)
#define FWCFG_DATA (FWCFG_BASE + 0)
#define FWCFG_SELECTOR (FWCFG_BASE + 8)

void arch_fwcfg_select(uint16_t key)
{
	*(volatile uint16_t *)FWCFG_SELECTOR = (uint16_t)((key >> 8) | (key << 8));
	dsb();
}

void arch_fwcfg_read(void *buf, uint32_t n)
{
	uint8_t *p = buf;
	for (uint32_t i = 0; i < n; i++)
		p[i] = mmio_read8(FWCFG_DATA);
}

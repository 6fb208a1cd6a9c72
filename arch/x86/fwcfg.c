/*
 * arch/x86/fwcfg.c - QEMU's fw_cfg device on the PC: a 16-bit selector
 * port (0x510, little-endian) and a byte-wide data port (0x511) that
 * steps through the selected item.  The port layer of kernel/fwcfg.c.
 */
#include "kernel/kernel.h"
#include "x86.h"

#define FWCFG_SELECTOR 0x510
#define FWCFG_DATA 0x511

void arch_fwcfg_select(uint16_t key)
{
	outw(FWCFG_SELECTOR, key);
}

void arch_fwcfg_read(void *buf, uint32_t n)
{
	uint8_t *p = buf;
	for (uint32_t i = 0; i < n; i++)
		p[i] = inb(FWCFG_DATA);
}

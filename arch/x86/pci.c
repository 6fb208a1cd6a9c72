/*
 * arch/x86/pci.c - PCI configuration space access (mechanism #1) and the
 * bus scan.  The firmware (SeaBIOS under QEMU) has already assigned BARs
 * and interrupt lines, so the kernel only reads them.  Bus 0 is scanned
 * (QEMU's pc machine puts every device there) plus any bus a bridge
 * announces in its secondary-bus register.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "pci.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CLASS_BRIDGE_PCI 0x0604
#define PCI_SECONDARY_BUS 0x19
#define PCI_MAX_BUSES 8

static void select_register(const struct pci_fn *f, uint8_t off)
{
	outl(PCI_CONFIG_ADDRESS, 0x80000000u | (uint32_t)f->bus << 16 | (uint32_t)f->dev << 11 |
				 (uint32_t)f->fn << 8 | (off & 0xfcu));
}

uint32_t pci_read32(const struct pci_fn *f, uint8_t off)
{
	select_register(f, off);
	return inl(PCI_CONFIG_DATA);
}

uint16_t pci_read16(const struct pci_fn *f, uint8_t off)
{
	return (uint16_t)(pci_read32(f, off) >> ((off & 2) * 8));
}

uint8_t pci_read8(const struct pci_fn *f, uint8_t off)
{
	return (uint8_t)(pci_read32(f, off) >> ((off & 3) * 8));
}

void pci_write16(const struct pci_fn *f, uint8_t off, uint16_t v)
{
	select_register(f, off);
	outw((uint16_t)(PCI_CONFIG_DATA + (off & 2)), v);
}

void pci_scan(void (*found)(const struct pci_fn *f))
{
	uint8_t buses[PCI_MAX_BUSES] = { 0 };
	uint32_t nbuses = 1;
	for (uint32_t b = 0; b < nbuses; b++) {
		for (uint8_t dev = 0; dev < 32; dev++) {
			for (uint8_t fn = 0; fn < 8; fn++) {
				struct pci_fn f = { .bus = buses[b], .dev = dev, .fn = fn };
				f.vendor = pci_read16(&f, PCI_VENDOR_ID);
				if (f.vendor == 0xffff) {
					if (fn == 0)
						break;
					continue;
				}
				f.device = pci_read16(&f, PCI_DEVICE_ID);
				uint16_t class = (uint16_t)(pci_read32(&f, 0x08) >> 16);
				if (class == PCI_CLASS_BRIDGE_PCI && nbuses < PCI_MAX_BUSES)
					buses[nbuses++] = pci_read8(&f, PCI_SECONDARY_BUS);
				found(&f);
				if (fn == 0 && !(pci_read8(&f, PCI_HEADER_TYPE) & 0x80))
					break;  /* not a multi-function device */
			}
		}
	}
}

/* arch/x86/pci.h - PCI configuration space through the 0xcf8/0xcfc ports
 * (configuration mechanism #1) and a scan of every function on the buses
 * the firmware set up. */
#ifndef DPM_X86_PCI_H
#define DPM_X86_PCI_H
#include <stdint.h>

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_HEADER_TYPE 0x0e
#define PCI_BAR0 0x10
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_COMMAND_IO 0x1
#define PCI_COMMAND_MASTER 0x4

struct pci_fn {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
};

uint32_t pci_read32(const struct pci_fn *f, uint8_t off);
uint16_t pci_read16(const struct pci_fn *f, uint8_t off);
uint8_t pci_read8(const struct pci_fn *f, uint8_t off);
void pci_write16(const struct pci_fn *f, uint8_t off, uint16_t v);
/* Call found() for every present function. */
void pci_scan(void (*found)(const struct pci_fn *f));
#endif

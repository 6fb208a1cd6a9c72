/*
 * arch/x86/virtio_pci.c - the legacy virtio PCI transport: QEMU's
 * transitional devices (vendor 0x1af4, device 0x1000-0x103f, the device
 * type in the subsystem id) expose the legacy registers in I/O BAR 0.
 * This file fills the virtio core's operations table with port accesses
 * and routes the device's INTx line (as the firmware set it) to the PIC.
 * arch_devices_init() is the x86 entry: scan PCI, attach virtio devices.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "pci.h"
#include "arch/virtio/virtio.h"

#define VIRTIO_PCI_VENDOR 0x1af4
#define VIRTIO_PCI_LEGACY_FIRST 0x1000
#define VIRTIO_PCI_LEGACY_LAST 0x103f

/* Legacy register offsets in BAR 0. */
#define REG_DEVICE_FEATURES 0x00
#define REG_GUEST_FEATURES 0x04
#define REG_QUEUE_PFN 0x08
#define REG_QUEUE_SIZE 0x0c
#define REG_QUEUE_SELECT 0x0e
#define REG_QUEUE_NOTIFY 0x10
#define REG_STATUS 0x12
#define REG_ISR 0x13
#define REG_DEVICE_CONFIG 0x14   /* without MSI-X */

static struct virtio_dev devices[VIRTIO_PCI_MAX];
static uint32_t ndevices;

static uint16_t port(struct virtio_dev *d, uint32_t reg) { return (uint16_t)(d->base + reg); }

static uint32_t pci_get_features(struct virtio_dev *d) { return inl(port(d, REG_DEVICE_FEATURES)); }
static void pci_set_features(struct virtio_dev *d, uint32_t f) { outl(port(d, REG_GUEST_FEATURES), f); }
static uint8_t pci_get_status(struct virtio_dev *d) { return inb(port(d, REG_STATUS)); }
static void pci_set_status(struct virtio_dev *d, uint8_t s) { outb(port(d, REG_STATUS), s); }
static uint8_t pci_ack_interrupt(struct virtio_dev *d) { return inb(port(d, REG_ISR)); }
static void pci_notify(struct virtio_dev *d, uint16_t q) { outw(port(d, REG_QUEUE_NOTIFY), q); }

static uint8_t pci_config_read8(struct virtio_dev *d, uint32_t off)
{
	return inb(port(d, REG_DEVICE_CONFIG + off));
}

static uint16_t pci_queue_size(struct virtio_dev *d, uint16_t q)
{
	outw(port(d, REG_QUEUE_SELECT), q);
	return inw(port(d, REG_QUEUE_SIZE));
}

static void pci_queue_activate(struct virtio_dev *d, struct virtq *vq)
{
	outw(port(d, REG_QUEUE_SELECT), vq->index);
	outl(port(d, REG_QUEUE_PFN), (uint32_t)(virtio_addr(vq->ring_mem) >> 12));
}

static const struct virtio_ops virtio_pci_ops = {
	.get_features = pci_get_features,
	.set_features = pci_set_features,
	.get_status = pci_get_status,
	.set_status = pci_set_status,
	.queue_size = pci_queue_size,
	.queue_activate = pci_queue_activate,
	.notify = pci_notify,
	.ack_interrupt = pci_ack_interrupt,
	.config_read8 = pci_config_read8,
};

static void name_device(struct virtio_dev *d, const struct pci_fn *f)
{
	static const char hex[] = "0123456789abcdef";
	char *s = d->where;
	memcpy(s, "pci 00:00.0", 12);
	s[4] = hex[f->bus >> 4]; s[5] = hex[f->bus & 15];
	s[7] = hex[f->dev >> 4]; s[8] = hex[f->dev & 15];
	s[10] = hex[f->fn & 7];
}

static void virtio_pci_found(const struct pci_fn *f)
{
	if (f->vendor != VIRTIO_PCI_VENDOR || f->device < VIRTIO_PCI_LEGACY_FIRST ||
	    f->device > VIRTIO_PCI_LEGACY_LAST || ndevices == VIRTIO_PCI_MAX)
		return;
	uint32_t bar0 = pci_read32(f, PCI_BAR0);
	struct virtio_dev *d = &devices[ndevices];
	name_device(d, f);
	if (!(bar0 & 1)) {
		kprintf("virtio: %s: BAR 0 is not an I/O port range; ignored\n", d->where);
		return;
	}
	ndevices++;
	pci_write16(f, PCI_COMMAND, (uint16_t)(pci_read16(f, PCI_COMMAND) | PCI_COMMAND_IO | PCI_COMMAND_MASTER));
	d->ops = &virtio_pci_ops;
	d->type = pci_read16(f, PCI_SUBSYSTEM_ID);
	d->base = bar0 & ~3u;
	d->irq = pci_read8(f, PCI_INTERRUPT_LINE);
	virtio_attach(d);
}

void arch_devices_init(void)
{
	pci_scan(virtio_pci_found);
}

/*
 * arch/arm/virtio_mmio.c - the legacy (version 1) virtio-mmio transport of
 * QEMU's virt machine: 32 slots of 0x200 bytes from 0x0a000000, slot n
 * wired to SPI 16 + n (GIC interrupt ID 48 + n); an empty slot reads
 * device id 0.  This file fills the virtio core's operations table with
 * register accesses through the kernel's device window.
 * arch_devices_init() is the ARM entry: probe the slots, attach devices.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"
#include "arch/virtio/virtio.h"

#define MMIO_SLOTS 32
#define MMIO_SLOT_SIZE 0x200
#define MMIO_FIRST_IRQ (32 + 16)
#define MMIO_MAGIC 0x74726976u   /* "virt" */
#define MMIO_LEGACY 1

#define REG_MAGIC 0x000
#define REG_VERSION 0x004
#define REG_DEVICE_ID 0x008
#define REG_HOST_FEATURES 0x010
#define REG_HOST_FEATURES_SEL 0x014
#define REG_GUEST_FEATURES 0x020
#define REG_GUEST_FEATURES_SEL 0x024
#define REG_GUEST_PAGE_SIZE 0x028
#define REG_QUEUE_SEL 0x030
#define REG_QUEUE_NUM_MAX 0x034
#define REG_QUEUE_NUM 0x038
#define REG_QUEUE_ALIGN 0x03c
#define REG_QUEUE_PFN 0x040
#define REG_QUEUE_NOTIFY 0x050
#define REG_INTERRUPT_STATUS 0x060
#define REG_INTERRUPT_ACK 0x064
#define REG_STATUS 0x070
#define REG_CONFIG 0x100

static struct virtio_dev devices[VIRTIO_MMIO_MAX];
static uint32_t ndevices;

static uint32_t rd(struct virtio_dev *d, uint32_t reg) { return mmio_read32(d->base + reg); }
static void wr(struct virtio_dev *d, uint32_t reg, uint32_t v) { mmio_write32(d->base + reg, v); }

static uint32_t mmio_get_features(struct virtio_dev *d)
{
	wr(d, REG_HOST_FEATURES_SEL, 0);
	return rd(d, REG_HOST_FEATURES);
}

static void mmio_set_features(struct virtio_dev *d, uint32_t f)
{
	wr(d, REG_GUEST_FEATURES_SEL, 0);
	wr(d, REG_GUEST_FEATURES, f);
}

static uint8_t mmio_get_status(struct virtio_dev *d) { return (uint8_t)rd(d, REG_STATUS); }

/* Legacy devices want the page size before any queue is set up; the
 * reset (status 0) that starts every bring-up is the moment. */
static void mmio_set_status(struct virtio_dev *d, uint8_t s)
{
	wr(d, REG_STATUS, s);
	if (s == 0)
		wr(d, REG_GUEST_PAGE_SIZE, 4096);
}

static uint8_t mmio_ack_interrupt(struct virtio_dev *d)
{
	uint32_t isr = rd(d, REG_INTERRUPT_STATUS);
	if (isr)
		wr(d, REG_INTERRUPT_ACK, isr);
	return (uint8_t)isr;
}

static void mmio_notify(struct virtio_dev *d, uint16_t q)
{
	virtio_barrier();
	wr(d, REG_QUEUE_NOTIFY, q);
}

static uint8_t mmio_config_read8(struct virtio_dev *d, uint32_t off)
{
	return mmio_read8(d->base + REG_CONFIG + off);
}

static uint16_t mmio_queue_size(struct virtio_dev *d, uint16_t q)
{
	wr(d, REG_QUEUE_SEL, q);
	if (rd(d, REG_QUEUE_PFN) != 0)
		return 0; /* already in use */
	uint32_t n = rd(d, REG_QUEUE_NUM_MAX);
	return (uint16_t)(n > VIRTQ_MAX_SIZE ? VIRTQ_MAX_SIZE : n);
}

static void mmio_queue_activate(struct virtio_dev *d, struct virtq *vq)
{
	wr(d, REG_QUEUE_SEL, vq->index);
	wr(d, REG_QUEUE_NUM, vq->size);
	wr(d, REG_QUEUE_ALIGN, VIRTQ_LEGACY_ALIGN);
	wr(d, REG_QUEUE_PFN, (uint32_t)(virtio_addr(vq->ring_mem) >> 12));
}

static const struct virtio_ops virtio_mmio_ops = {
	.get_features = mmio_get_features,
	.set_features = mmio_set_features,
	.get_status = mmio_get_status,
	.set_status = mmio_set_status,
	.queue_size = mmio_queue_size,
	.queue_activate = mmio_queue_activate,
	.notify = mmio_notify,
	.ack_interrupt = mmio_ack_interrupt,
	.config_read8 = mmio_config_read8,
};

static void name_device(struct virtio_dev *d, uint32_t phys)
{
	static const char hex[] = "0123456789abcdef";
	memcpy(d->where, "mmio 0x00000000", 16);
	for (int i = 0; i < 8; i++)
		d->where[7 + i] = hex[(phys >> (28 - 4 * i)) & 15];
}

static void probe_slot(uint32_t slot)
{
	uintptr_t base = VIRTIO_MMIO_BASE + slot * MMIO_SLOT_SIZE;
	if (mmio_read32(base + REG_MAGIC) != MMIO_MAGIC || mmio_read32(base + REG_DEVICE_ID) == 0)
		return;
	uint32_t phys = 0x0a000000u + slot * MMIO_SLOT_SIZE;
	if (mmio_read32(base + REG_VERSION) != MMIO_LEGACY || ndevices == VIRTIO_MMIO_MAX) {
		kprintf("virtio: mmio 0x%x: %s; ignored\n", phys,
			ndevices == VIRTIO_MMIO_MAX ? "too many devices" : "not a legacy (version 1) device");
		return;
	}
	struct virtio_dev *d = &devices[ndevices++];
	name_device(d, phys);
	d->ops = &virtio_mmio_ops;
	d->type = mmio_read32(base + REG_DEVICE_ID);
	d->base = base;
	d->irq = MMIO_FIRST_IRQ + (int)slot;
	virtio_attach(d);
}

void arch_devices_init(void)
{
	for (uint32_t slot = 0; slot < MMIO_SLOTS; slot++)
		probe_slot(slot);
}

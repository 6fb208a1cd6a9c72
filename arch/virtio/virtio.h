/*
 * arch/virtio/virtio.h - the virtio core: devices, split virtqueues and the
 * transport operations table.  The core and the device drivers are written
 * once for every machine; a transport (x86: legacy PCI in arch/x86/
 * virtio_pci.c; ARM later: virtio-mmio) fills struct virtio_ops and hands
 * each device it finds to virtio_attach().  Only the legacy (0.9.5) ring
 * layout is used: QEMU's transitional PCI devices and its virtio-mmio
 * devices both default to it.
 *
 * Memory shared with the device is given to it by address: the kernels
 * identity-map RAM, so a kernel pointer is the device's (physical) address.
 */
#ifndef DPM_VIRTIO_H
#define DPM_VIRTIO_H
#include <stddef.h>
#include <stdint.h>

/* Device types (virtio spec 5). */
#define VIRTIO_TYPE_NET 1
#define VIRTIO_TYPE_BLK 2

/* Device status bits. */
#define VIRTIO_STATUS_ACK 1
#define VIRTIO_STATUS_DRIVER 2
#define VIRTIO_STATUS_DRIVER_OK 4
#define VIRTIO_STATUS_FAILED 128

/* Descriptor flags. */
#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2
/* Available ring flags: the driver polls; the device need not interrupt. */
#define VRING_AVAIL_F_NO_INTERRUPT 1

#define VIRTQ_MAX_SIZE 256     /* largest ring the core accepts (QEMU's net: 256) */
#define VIRTQ_LEGACY_ALIGN 4096 /* legacy layout: used ring on its own page  */

struct vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct vring_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];
};

struct vring_used_elem {
	uint32_t id;
	uint32_t len;
};

struct vring_used {
	uint16_t flags;
	uint16_t idx;
	struct vring_used_elem ring[];
};

struct virtio_dev;

/* One split virtqueue as the driver sees it. */
struct virtq {
	struct virtio_dev *dev;
	uint16_t index;
	uint16_t size;
	struct vring_desc *desc;
	struct vring_avail *avail;
	volatile struct vring_used *used;
	void *ring_mem;            /* desc + avail, then used (legacy layout) */
	uint16_t free_head;        /* first free descriptor (chained by next) */
	uint16_t num_free;
	uint16_t last_used;        /* used.idx already consumed               */
	void *token[VIRTQ_MAX_SIZE]; /* what the driver gave with each chain  */
};

/* A piece of a buffer chain handed to the device. */
struct virtq_seg {
	void *buf;
	uint32_t len;
	int device_writes;         /* 1: device fills it (RX, read data)      */
};

/* What a transport offers the core.  Every function is given the device. */
struct virtio_ops {
	uint32_t (*get_features)(struct virtio_dev *d);
	void (*set_features)(struct virtio_dev *d, uint32_t features);
	uint8_t (*get_status)(struct virtio_dev *d);
	void (*set_status)(struct virtio_dev *d, uint8_t status);
	uint16_t (*queue_size)(struct virtio_dev *d, uint16_t q);   /* 0: no such queue */
	void (*queue_activate)(struct virtio_dev *d, struct virtq *vq); /* rings at vq->ring_mem */
	void (*notify)(struct virtio_dev *d, uint16_t q);
	uint8_t (*ack_interrupt)(struct virtio_dev *d); /* read and clear the interrupt status */
	uint8_t (*config_read8)(struct virtio_dev *d, uint32_t offset);
};

struct virtio_dev {
	const struct virtio_ops *ops;
	uint32_t type;             /* VIRTIO_TYPE_*                           */
	uintptr_t base;            /* transport's register base (port or MMIO) */
	int irq;                   /* transport's interrupt line              */
	char where[16];            /* for messages: "pci 0:3.0", "mmio 0x..."  */
	void *driver;              /* the driver's per-device state           */
};

/* Called by a transport for each device it finds; picks the driver. */
void virtio_attach(struct virtio_dev *d);

/* Device bring-up steps shared by every driver: reset, ACK|DRIVER, offer
 * the intersection of `wanted` and the device's features, return it. */
uint32_t virtio_begin_init(struct virtio_dev *d, uint32_t wanted);
void virtio_driver_ok(struct virtio_dev *d);
void virtio_fail(struct virtio_dev *d);

/* Virtqueues (virtqueue.c). */
int virtq_init(struct virtq *vq, struct virtio_dev *d, uint16_t index);
/* Put one chain on the available ring (not yet visible to the device
 * until virtq_kick).  0, or -1 when there are not enough descriptors. */
int virtq_add(struct virtq *vq, const struct virtq_seg *segs, uint32_t nsegs, void *token);
void virtq_kick(struct virtq *vq);
/* Tell the device not to interrupt for this queue (a polling driver). */
void virtq_no_interrupts(struct virtq *vq);
/* Next chain the device has finished with: its token and the bytes the
 * device wrote; NULL when none. */
void *virtq_get_used(struct virtq *vq, uint32_t *written);
/* Bytes of ring memory a legacy queue of `size` entries needs. */
uint32_t virtq_legacy_bytes(uint16_t size);

/* Drivers (one function per device type). */
int virtio_net_attach(struct virtio_dev *d);
int virtio_blk_attach(struct virtio_dev *d);

static inline uint64_t virtio_addr(const void *p) { return (uint64_t)(uintptr_t)p; }
static inline void virtio_barrier(void) { __sync_synchronize(); }
#endif

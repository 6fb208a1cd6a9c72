/*
 * arch/virtio/virtio_blk.c - the virtio block device: one request queue
 * (queue 0).  A request is a three-part chain: the 16-byte header (type,
 * sector), the data, and a one-byte status the device writes.  Requests are
 * served one at a time: the driver kicks the queue (start) and polls the
 * used ring until the device hands the chain back, with a bound on the
 * wait (finish).  The kernel runs with interrupts off and a request of a
 * few sectors completes within microseconds, so polling keeps the disk
 * service simple (no interrupt handler) at no real cost.  transfer is the
 * two back to back; in virtual time kernel/disk.c starts a request at once
 * and finishes it at its modelled completion time.
 *
 * The bound on the wait is host time (arch_host_seconds), since the device
 * is the host's: in node nanoseconds it would be instructions, and a slow
 * node (shift=10, the 1984 preset) spins through 5 s of them in a few host
 * milliseconds, less than a loaded host may take to write a block (the
 * 1984 file-system study's 4-user run lost a write so).  A request still
 * unanswered after it is one the device may yet complete, into a buffer
 * reused by then, and a later used entry would be taken for the wrong
 * request: the device is reset (which ends its requests) and serves no
 * more; every later request fails with E_DISKIO.
 * Legacy config space: the capacity in 512-byte sectors at offset 0.
 */
#include "kernel/kernel.h"
#include "virtio.h"
#include "kernel/disk.h"

#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_S_OK 0
#define VBLK_TIMEOUT_S 5   /* host seconds: a request unanswered this long failed */

struct vblk_header {
	uint32_t type;
	uint32_t reserved;
	uint64_t sector;
};

struct vblk {
	struct virtio_dev *dev;
	struct virtq vq;
	struct vblk_header header;
	volatile uint8_t status;
	int dead;                 /* did not answer: reset, out of service */
	struct blockdev bdev;
};

static struct vblk the_vblk;
static int attached;

static uint64_t read_capacity(struct virtio_dev *d)
{
	uint64_t c = 0;
	for (uint32_t i = 0; i < 8; i++)
		c |= (uint64_t)d->ops->config_read8(d, i) << (8 * i);
	return c;
}

/* Wait for the one request in flight; 0 when the device returned it, -1
 * when the host's clock has turned over more than VBLK_TIMEOUT_S seconds
 * meanwhile (between VBLK_TIMEOUT_S and one more of host time). */
static int wait_used(struct vblk *v)
{
	uint32_t last = arch_host_seconds(), turned = 0, spins = 0;
	while (virtq_get_used(&v->vq, NULL) == NULL) {
		if ((++spins & 1023) == 0) {
			uint32_t now = arch_host_seconds();
			if (now != last && ++turned > VBLK_TIMEOUT_S)
				return -1;
			last = now;
		}
		arch_cpu_relax();
	}
	return 0;
}

/* Hand the device one request (the driver has one in flight at most). */
static int32_t vblk_start(struct blockdev *b, int write, uint64_t sector, void *buf, uint32_t count)
{
	struct vblk *v = b->driver;
	if (count == 0 || count * DISK_SECTOR > DISK_MAX_BYTES || sector + count > b->sectors)
		return E_INVAL;
	if (v->dead)
		return E_DISKIO;
	v->header = (struct vblk_header){ write ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN, 0, sector };
	v->status = 0xff;
	struct virtq_seg segs[3] = {
		{ &v->header, sizeof v->header, 0 },
		{ buf, count * DISK_SECTOR, !write },
		{ (void *)&v->status, 1, 1 },
	};
	if (virtq_add(&v->vq, segs, 3, v) < 0)
		return E_DISKIO;
	virtq_kick(&v->vq);
	return 0;
}

/* Wait for the request started last and say how it went. */
static int32_t vblk_finish(struct blockdev *b)
{
	struct vblk *v = b->driver;
	int answered = wait_used(v);
	/* The device is asked not to interrupt; should it anyway, its line
	 * (which may be shared with a network card's) is cleared here. */
	v->dev->ops->ack_interrupt(v->dev);
	if (answered < 0) {
		kprintf("virtio-blk: %s: request for sector %u not answered within %u s of host time; "
			"device reset, out of service\n", v->dev->where, (unsigned)v->header.sector,
			VBLK_TIMEOUT_S);
		v->dev->ops->set_status(v->dev, 0); /* reset: no late write into the buffer */
		v->dead = 1;
		return E_DISKIO;
	}
	return v->status == VIRTIO_BLK_S_OK ? 0 : E_DISKIO;
}

static int32_t vblk_transfer(struct blockdev *b, int write, uint64_t sector, void *buf, uint32_t count)
{
	int32_t r = vblk_start(b, write, sector, buf, count);
	return r < 0 ? r : vblk_finish(b);
}

int virtio_blk_attach(struct virtio_dev *d)
{
	if (attached) {
		kprintf("virtio-blk: %s: a node has one disk; ignored\n", d->where);
		return 0;
	}
	struct vblk *v = &the_vblk;
	v->dev = d;
	virtio_begin_init(d, 0);
	if (virtq_init(&v->vq, d, 0) < 0)
		return -1;
	virtq_no_interrupts(&v->vq);
	v->bdev = (struct blockdev){
		.driver_name = "virtio-blk", .sectors = read_capacity(d), .driver = v, .transfer = vblk_transfer,
		.start = vblk_start, .finish = vblk_finish,
	};
	d->driver = v;
	virtio_driver_ok(d);
	attached = 1;
	disk_register(&v->bdev);
	return 0;
}

/*
 * arch/virtio/virtio.c - what every virtio device goes through whatever
 * its transport: the status handshake of the legacy interface (reset,
 * ACKNOWLEDGE, DRIVER, feature negotiation, DRIVER_OK or FAILED) and the
 * choice of driver by device type.
 */
#include "kernel/kernel.h"
#include "virtio.h"

uint32_t virtio_begin_init(struct virtio_dev *d, uint32_t wanted)
{
	d->ops->set_status(d, 0);   /* reset */
	d->ops->set_status(d, VIRTIO_STATUS_ACK);
	d->ops->set_status(d, VIRTIO_STATUS_ACK | VIRTIO_STATUS_DRIVER);
	uint32_t features = d->ops->get_features(d) & wanted;
	d->ops->set_features(d, features);
	return features;
}

void virtio_driver_ok(struct virtio_dev *d)
{
	d->ops->set_status(d, (uint8_t)(d->ops->get_status(d) | VIRTIO_STATUS_DRIVER_OK));
}

void virtio_fail(struct virtio_dev *d)
{
	d->ops->set_status(d, (uint8_t)(d->ops->get_status(d) | VIRTIO_STATUS_FAILED));
}

void virtio_attach(struct virtio_dev *d)
{
	int r;
	switch (d->type) {
	case VIRTIO_TYPE_NET:
		r = virtio_net_attach(d);
		break;
	case VIRTIO_TYPE_BLK:
		r = virtio_blk_attach(d);
		break;
	default:
		kprintf("virtio: %s: device type %u has no driver; ignored\n", d->where, d->type);
		return;
	}
	if (r < 0) {
		kprintf("virtio: %s: device type %u failed to start\n", d->where, d->type);
		virtio_fail(d);
	}
}

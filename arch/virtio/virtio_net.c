/*
 * arch/virtio/virtio_net.c - the virtio network card: queue 0 receives,
 * queue 1 transmits.  Every buffer is one descriptor holding the 10-byte
 * legacy virtio_net_hdr followed by the frame (no offloads, no merged
 * receive buffers are negotiated, so the header is always zero on
 * transmit and ignored on receive).  The receive ring is kept full of
 * 2 KiB buffers: each is handed up and put straight back.  Transmit
 * buffers return to a free list when the device has used them.
 */
#include "kernel/kernel.h"
#include "virtio.h"
#include "kernel/net/ethdev.h"

#define VIRTIO_NET_F_MAC (1u << 5)
#define VNET_HDR_LEN 10
#define VNET_BUF_LEN 2048
#define VNET_RX_BUFS 64
#define VNET_TX_BUFS 64
#define Q_RX 0
#define Q_TX 1

struct vnet {
	struct virtio_dev *dev;
	struct virtq rx, tx;
	uint8_t *tx_free[VNET_TX_BUFS];
	uint32_t tx_nfree;
	struct ethdev eth;
};

static struct vnet vnets[VNET_MAX];
static uint32_t nvnets;

/* Two 2 KiB buffers per page. */
static uint8_t *buffer_alloc(void)
{
	static uint8_t *half;
	uint8_t *b = half;
	if (b) {
		half = NULL;
		return b;
	}
	b = palloc();
	if (b)
		half = b + VNET_BUF_LEN;
	return b;
}

static int rx_post(struct vnet *v, uint8_t *buf)
{
	struct virtq_seg seg = { buf, VNET_BUF_LEN, 1 };
	return virtq_add(&v->rx, &seg, 1, buf);
}

static void tx_reclaim(struct vnet *v)
{
	uint8_t *buf;
	while ((buf = virtq_get_used(&v->tx, NULL)) != NULL)
		v->tx_free[v->tx_nfree++] = buf;
}

static uint8_t *vnet_tx_buffer(struct ethdev *e)
{
	struct vnet *v = e->driver;
	if (v->tx_nfree == 0)
		tx_reclaim(v);
	if (v->tx_nfree == 0)
		return NULL;
	return v->tx_free[v->tx_nfree - 1] + VNET_HDR_LEN;
}

static void vnet_tx_send(struct ethdev *e, uint8_t *frame, uint32_t len)
{
	struct vnet *v = e->driver;
	uint8_t *buf = frame - VNET_HDR_LEN;
	if (v->tx_nfree == 0 || v->tx_free[v->tx_nfree - 1] != buf || len > ETH_FRAME_MAX)
		panic("virtio-net: frame not in the buffer tx_buffer gave");
	v->tx_nfree--;
	memset(buf, 0, VNET_HDR_LEN);
	struct virtq_seg seg = { buf, VNET_HDR_LEN + len, 0 };
	if (virtq_add(&v->tx, &seg, 1, buf) < 0)
		panic("virtio-net: transmit ring full with a free buffer");
	virtq_kick(&v->tx);
}

static void vnet_poll(struct ethdev *e)
{
	struct vnet *v = e->driver;
	uint8_t *buf;
	uint32_t len;
	int refilled = 0;
	while ((buf = virtq_get_used(&v->rx, &len)) != NULL) {
		if (len > VNET_HDR_LEN && len <= VNET_BUF_LEN && e->input)
			e->input(e, buf + VNET_HDR_LEN, len - VNET_HDR_LEN);
		rx_post(v, buf);
		refilled = 1;
	}
	if (refilled)
		virtq_kick(&v->rx);
	tx_reclaim(v);
}

static void vnet_interrupt(void *arg)
{
	struct vnet *v = arg;
	if (v->dev->ops->ack_interrupt(v->dev))
		ethdev_interrupt(&v->eth);
}

static int fill_buffers(struct vnet *v)
{
	for (int i = 0; i < VNET_RX_BUFS; i++) {
		uint8_t *b = buffer_alloc();
		if (!b || rx_post(v, b) < 0)
			return -1;
	}
	for (int i = 0; i < VNET_TX_BUFS; i++) {
		uint8_t *b = buffer_alloc();
		if (!b)
			return -1;
		v->tx_free[v->tx_nfree++] = b;
	}
	return 0;
}

int virtio_net_attach(struct virtio_dev *d)
{
	if (nvnets == VNET_MAX) {
		kprintf("virtio-net: %s: more than %u cards; ignored\n", d->where, VNET_MAX);
		return 0;
	}
	struct vnet *v = &vnets[nvnets];
	v->dev = d;
	uint32_t features = virtio_begin_init(d, VIRTIO_NET_F_MAC);
	if (!(features & VIRTIO_NET_F_MAC))
		return -1;
	if (virtq_init(&v->rx, d, Q_RX) < 0 || virtq_init(&v->tx, d, Q_TX) < 0 || fill_buffers(v) < 0)
		return -1;
	for (int i = 0; i < 6; i++)
		v->eth.mac[i] = d->ops->config_read8(d, (uint32_t)i);
	v->eth.driver_name = "virtio-net";
	v->eth.driver = v;
	v->eth.tx_buffer = vnet_tx_buffer;
	v->eth.tx_send = vnet_tx_send;
	v->eth.poll = vnet_poll;
	d->driver = v;
	if (arch_irq_register(d->irq, vnet_interrupt, v) < 0)
		kprintf("virtio-net: %s: no interrupt; polled from the timer only\n", d->where);
	virtio_driver_ok(d);
	virtq_kick(&v->rx);
	nvnets++;
	ethdev_register(&v->eth);
	return 0;
}

/*
 * arch/virtio/virtqueue.c - split virtqueues in the legacy layout: the
 * descriptor table and the available ring, then (on the next 4 KiB
 * boundary) the used ring.  Ring memory comes from a static, page-aligned
 * pool in the kernel image: it must be physically contiguous, which a
 * page allocator handing out single pages does not promise.
 *
 * Free descriptors are kept in a list threaded through desc[].next.  The
 * driver adds chains and kicks; the device returns them on the used ring,
 * which virtq_get_used() walks in order.
 */
#include "virtio.h"

#define VRING_POOL_BYTES (8 * 3 * 4096) /* eight queues of 256 entries */

static uint8_t vring_pool[VRING_POOL_BYTES] __attribute__((aligned(4096)));
static uint32_t vring_pool_used;

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

uint32_t virtq_legacy_bytes(uint16_t size)
{
	uint32_t desc_avail = 16u * size + 6u + 2u * size;
	uint32_t used = 6u + 8u * size;
	return align_up(desc_avail, VIRTQ_LEGACY_ALIGN) + align_up(used, VIRTQ_LEGACY_ALIGN);
}

static void *vring_alloc(uint32_t bytes)
{
	if (bytes > VRING_POOL_BYTES - vring_pool_used)
		return NULL;
	void *p = vring_pool + vring_pool_used;
	vring_pool_used += bytes;
	return p;
}

int virtq_init(struct virtq *vq, struct virtio_dev *d, uint16_t index)
{
	uint16_t size = d->ops->queue_size(d, index);
	if (size == 0 || size > VIRTQ_MAX_SIZE || (size & (size - 1)))
		return -1;
	uint8_t *mem = vring_alloc(virtq_legacy_bytes(size));
	if (!mem)
		return -1;
	vq->dev = d;
	vq->index = index;
	vq->size = size;
	vq->ring_mem = mem;
	vq->desc = (struct vring_desc *)mem;
	vq->avail = (struct vring_avail *)(mem + 16u * size);
	vq->used = (volatile struct vring_used *)(mem + align_up(16u * size + 6u + 2u * size, VIRTQ_LEGACY_ALIGN));
	for (uint16_t i = 0; i < size; i++)
		vq->desc[i].next = (uint16_t)(i + 1);
	vq->free_head = 0;
	vq->num_free = size;
	vq->last_used = 0;
	d->ops->queue_activate(d, vq);
	return 0;
}

int virtq_add(struct virtq *vq, const struct virtq_seg *segs, uint32_t nsegs, void *token)
{
	if (nsegs == 0 || nsegs > vq->num_free)
		return -1;
	uint16_t head = vq->free_head, i = head, last = head;
	for (uint32_t s = 0; s < nsegs; s++) {
		struct vring_desc *dsc = &vq->desc[i];
		dsc->addr = virtio_addr(segs[s].buf);
		dsc->len = segs[s].len;
		dsc->flags = (uint16_t)((segs[s].device_writes ? VRING_DESC_F_WRITE : 0) |
					(s + 1 < nsegs ? VRING_DESC_F_NEXT : 0));
		last = i;
		i = dsc->next;
	}
	vq->free_head = vq->desc[last].next;
	vq->num_free = (uint16_t)(vq->num_free - nsegs);
	vq->token[head] = token;
	vq->avail->ring[vq->avail->idx % vq->size] = head;
	virtio_barrier();   /* the entry before the index that publishes it */
	vq->avail->idx++;
	return 0;
}

void virtq_kick(struct virtq *vq)
{
	virtio_barrier();
	vq->dev->ops->notify(vq->dev, vq->index);
}

void *virtq_get_used(struct virtq *vq, uint32_t *written)
{
	if (vq->last_used == vq->used->idx)
		return NULL;
	virtio_barrier();   /* read the element only after seeing the index */
	struct vring_used_elem e = vq->used->ring[vq->last_used % vq->size];
	vq->last_used++;
	uint16_t head = (uint16_t)e.id, i = head, n = 1;
	while (vq->desc[i].flags & VRING_DESC_F_NEXT) {
		i = vq->desc[i].next;
		n++;
	}
	vq->desc[i].next = vq->free_head;  /* give the whole chain back */
	vq->free_head = head;
	vq->num_free = (uint16_t)(vq->num_free + n);
	if (written)
		*written = e.len;
	void *token = vq->token[head];
	vq->token[head] = NULL;
	return token;
}

void virtq_no_interrupts(struct virtq *vq)
{
	vq->avail->flags = VRING_AVAIL_F_NO_INTERRUPT;
	virtio_barrier();
}

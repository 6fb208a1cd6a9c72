/*
 * kernel/vdisk.c - the disk model of virtual time (vdisk.h): completion
 * times and the ring of requests in issue order.  Sums saturate, so an
 * absurd model (a latency of years) gives "never", not a time in the past.
 */
#include "vdisk.h"

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void vdisk_init(struct vdisk *d, uint64_t latency_ns, uint64_t sector_ns)
{
	d->latency_ns = latency_ns;
	d->sector_ns = sector_ns;
	d->free_at = 0;
	d->head = d->len = 0;
}

int vdisk_issue(struct vdisk *d, uint64_t t, struct vdisk_req *r)
{
	if (d->len == VDISK_QUEUE)
		return -1;
	uint64_t start = t > d->free_at ? t : d->free_at;
	r->done_at = add_sat(add_sat(start, d->latency_ns), mul_sat(r->count, d->sector_ns));
	d->free_at = r->done_at;
	d->q[(d->head + d->len++) % VDISK_QUEUE] = *r;
	return 0;
}

struct vdisk_req *vdisk_head(struct vdisk *d)
{
	return d->len ? &d->q[d->head] : 0;
}

struct vdisk_req *vdisk_second(struct vdisk *d)
{
	return d->len > 1 ? &d->q[(d->head + 1) % VDISK_QUEUE] : 0;
}

void vdisk_pop(struct vdisk *d)
{
	if (!d->len)
		return;
	d->head = (d->head + 1) % VDISK_QUEUE;
	d->len--;
}

uint64_t vdisk_next(const struct vdisk *d)
{
	return d->len ? d->q[d->head].done_at : UINT64_MAX;
}

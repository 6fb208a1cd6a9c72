/*
 * kernel/vdisk.h - the disk model of virtual time (docs/virtual-time.md
 * §2.7): a request of n sectors issued at t completes at
 *     c = max(t, free) + latency + n * sector
 * where `free` is the completion of the request before it (one disk, one
 * request at a time), and the requests waiting for it in issue order.  Pure
 * arithmetic and a ring, no kernel state, so the host's unit tests build
 * it (tests/unit/test_kernel_vdisk.c); kernel/disk.c drives the device and
 * the waiting processes by it.
 */
#ifndef DPM_VDISK_H
#define DPM_VDISK_H
#include <stdint.h>

#define VDISK_QUEUE 64 /* one request per process at most: NPROC */

struct vdisk_req {
	uint64_t done_at;   /* its modelled completion, node clock      */
	void *who;          /* the requester (kernel/disk.c's proc)     */
	uint32_t task;      /* ... and its task: is it still the same   */
	int write;
	uint64_t sector;
	uint32_t count;
	void *page;         /* the data, owned by the request           */
	int32_t refused;    /* the device's error at its start, or 0    */
};

struct vdisk {
	uint64_t latency_ns, sector_ns;
	uint64_t free_at;   /* when the last request issued completes   */
	uint32_t head, len;
	struct vdisk_req q[VDISK_QUEUE];
};

/* The model's times (cluster file: disklatency=, disksector=). */
void vdisk_init(struct vdisk *d, uint64_t latency_ns, uint64_t sector_ns);
/* Queue *r issued at t: its done_at set by the model, the disk busy until
 * then.  0, or -1 (nothing changed) when VDISK_QUEUE requests wait. */
int vdisk_issue(struct vdisk *d, uint64_t t, struct vdisk_req *r);
/* The oldest request (the one the device serves), or NULL. */
struct vdisk_req *vdisk_head(struct vdisk *d);
/* The one after it (the device's next), or NULL. */
struct vdisk_req *vdisk_second(struct vdisk *d);
/* Remove the oldest. */
void vdisk_pop(struct vdisk *d);
/* The oldest request's completion, or UINT64_MAX with none. */
uint64_t vdisk_next(const struct vdisk *d);
#endif

/*
 * kernel/net/vqueue.h - the frames a node has received but may not deliver
 * yet, in virtual time (docs/virtual-time.md §2.3): a binary heap ordered
 * by delivery time, then sender node, then the order in which that
 * sender's frames arrived, so frames due at the same virtual time are
 * delivered in an order that does not depend on the host.  It holds
 * handles; where the frames' bytes live is the caller's business.  Pure,
 * host-tested.
 */
#ifndef DPM_VQUEUE_H
#define DPM_VQUEUE_H
#include <stdint.h>

struct vqueue_entry {
	uint64_t delivery;   /* virtual ns                         */
	uint32_t src;        /* sender node                        */
	uint32_t seq;        /* arrival order among src's frames   */
	uint32_t handle;     /* the caller's                       */
};

struct vqueue {
	struct vqueue_entry *e;
	uint32_t cap, n;
};

void vqueue_init(struct vqueue *q, struct vqueue_entry *storage, uint32_t cap);
/* 0, or -1 when full. */
int vqueue_push(struct vqueue *q, const struct vqueue_entry *x);
/* The first entry's delivery time, or UINT64_MAX when empty. */
uint64_t vqueue_next(const struct vqueue *q);
/* Take the first entry if it is due at `now` (delivery <= now): 1, else 0. */
int vqueue_pop_due(struct vqueue *q, uint64_t now, struct vqueue_entry *out);
#endif

/*
 * kernel/net/ring.h - a byte ring: the send buffer of a peer or host link.
 * Writes are all-or-nothing (a frame is queued whole or not at all);
 * reads hand out the contiguous run at the head.  Pure, host-tested.
 */
#ifndef DPM_RING_H
#define DPM_RING_H
#include <stdint.h>

struct ring {
	uint8_t *buf;
	uint32_t size;
	uint32_t head;   /* next byte to read                        */
	uint32_t len;    /* bytes queued                             */
};

void ring_init(struct ring *r, uint8_t *buf, uint32_t size);
uint32_t ring_space(const struct ring *r);
/* Append n bytes; -1 (nothing written) when they do not fit. */
int ring_put(struct ring *r, const void *p, uint32_t n);
/* The queued bytes that are contiguous from the head, and how many. */
const uint8_t *ring_peek(const struct ring *r, uint32_t *n);
void ring_consume(struct ring *r, uint32_t n);
void ring_clear(struct ring *r);
#endif

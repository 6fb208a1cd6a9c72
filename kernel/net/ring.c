/*
 * kernel/net/ring.c - the byte ring of ring.h.
 */
#include "ring.h"

#include <string.h>

void ring_init(struct ring *r, uint8_t *buf, uint32_t size)
{
	r->buf = buf;
	r->size = size;
	r->head = r->len = 0;
}

uint32_t ring_space(const struct ring *r)
{
	return r->size - r->len;
}

int ring_put(struct ring *r, const void *p, uint32_t n)
{
	if (n > ring_space(r))
		return -1;
	uint32_t tail = (r->head + r->len) % r->size;
	uint32_t first = r->size - tail < n ? r->size - tail : n;
	memcpy(r->buf + tail, p, first);
	memcpy(r->buf, (const uint8_t *)p + first, n - first);
	r->len += n;
	return 0;
}

const uint8_t *ring_peek(const struct ring *r, uint32_t *n)
{
	uint32_t run = r->size - r->head;
	*n = r->len < run ? r->len : run;
	return r->buf + r->head;
}

void ring_consume(struct ring *r, uint32_t n)
{
	if (n > r->len)
		n = r->len;
	r->head = (r->head + n) % r->size;
	r->len -= n;
	if (r->len == 0)
		r->head = 0;
}

void ring_clear(struct ring *r)
{
	r->head = r->len = 0;
}

/*
 * servers/fs/lru.c - the Buffer Manager's LRU replacement (lru.h).  A
 * linear scan of 64 buffers per lookup: cheaper than the disk request a
 * miss costs, and the order of use is one stamp per buffer.
 */
#include "lru.h"

void lru_init(struct lru *c)
{
	*c = (struct lru){ 0 };
	for (int i = 0; i < LRU_NBUF; i++)
		c->buf[i].block = LRU_NO_BLOCK;
}

int lru_lookup(struct lru *c, uint32_t block, int *slot)
{
	int oldest = 0;
	for (int i = 0; i < LRU_NBUF; i++) {
		if (block != LRU_NO_BLOCK && c->buf[i].block == block) {
			c->buf[i].last_use = ++c->clock;
			c->hits++;
			*slot = i;
			return 1;
		}
		if (c->buf[i].last_use < c->buf[oldest].last_use)
			oldest = i;
	}
	c->misses++;
	c->buf[oldest].block = LRU_NO_BLOCK;
	*slot = oldest;
	return 0;
}

void lru_fill(struct lru *c, int slot, uint32_t block)
{
	c->buf[slot] = (struct lru_buf){ block, ++c->clock };
}

void lru_forget(struct lru *c, int slot)
{
	c->buf[slot] = (struct lru_buf){ LRU_NO_BLOCK, 0 };
}

/*
 * servers/fs/lru.h - the Buffer Manager's replacement policy: which of
 * LRU_NBUF buffers holds which disk block, and which buffer a miss takes
 * (the least recently used one; a buffer never used counts as oldest).
 * Portable C with no DEMOS calls, so the host unit tests can check which
 * block is evicted (tests/unit/test_fs_lru.c); bm.c does the disk I/O.
 */
#ifndef DPM_FS_LRU_H
#define DPM_FS_LRU_H
#include <stdint.h>

#define LRU_NBUF 64
#define LRU_NO_BLOCK 0xffffffffu

struct lru {
	struct lru_buf {
		uint32_t block;     /* LRU_NO_BLOCK: holds nothing */
		uint32_t last_use;  /* clock at its last use; 0: never used */
	} buf[LRU_NBUF];
	uint32_t clock, hits, misses;
};

/* Every buffer empty, the counts zero. */
void lru_init(struct lru *c);

/* The buffer for `block`: on a hit (1) the buffer that holds it, now the
 * most recently used; on a miss (0) the least recently used buffer, which
 * now holds no block until lru_fill names its new one. */
int lru_lookup(struct lru *c, uint32_t block, int *slot);

/* Buffer `slot` now holds `block` and is the most recently used. */
void lru_fill(struct lru *c, int slot, uint32_t block);

/* Buffer `slot` no longer holds the disk's copy of its block: it holds
 * nothing and is the first a miss takes. */
void lru_forget(struct lru *c, int slot);
#endif

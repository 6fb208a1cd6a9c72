/*
 * servers/fs/bm.c - the Buffer Manager: a cache of BM_NBUF disk blocks
 * between the file system and the Disk Interface.  Replacement is LRU (each
 * use stamps the buffer; a miss takes the oldest: lru.c, tested on the
 * host).  Writes are
 * write-through: a block is written to the disk before the request is
 * answered, so a node that stops loses nothing that was acknowledged and
 * every buffer is always clean (eviction never writes).  File data moves
 * between a buffer and the client's buffer with MOVEDATA over a link to our
 * own cache (self_cache) and the link the client passed along.
 */
#include <stdio.h>
#include <string.h>

#include "fsproto.h"
#include "lru.h"

#define BM_NBUF LRU_NBUF

static uint8_t cache[BM_NBUF][FS_BLOCK];
static struct lru bufs;     /* which buffer holds which block */
static uint32_t writes;
static int di;              /* the Disk Interface */
static int self_cache;      /* names our cache, for MOVEDATA */

/* The buffer holding `block`, read from the disk on a miss (fill = 1)
 * or left as it was when the caller overwrites all of it (fill = 0). */
static int get_buf(uint32_t block, int fill, int *out)
{
	int lru;
	if (lru_lookup(&bufs, block, &lru)) {
		*out = lru;
		return 0;
	}
	if (fill) {
		uint32_t args[4] = { block, 0, 0, 0 }, got;
		struct fs_rhdr rh;
		int r = fs_call(di, DI_READ, args, NULL, 0, -1, &rh, cache[lru], FS_BLOCK, &got);
		if (r < 0 || got != FS_BLOCK) {
			lru_forget(&bufs, lru);
			return r < 0 ? r : FS_EIO;
		}
	}
	lru_fill(&bufs, lru, block);
	*out = lru;
	return 0;
}

static int write_through(int i)
{
	uint32_t args[4] = { bufs.buf[i].block, 0, 0, 0 };
	struct fs_rhdr rh;
	writes++;
	int r = fs_call(di, DI_WRITE, args, cache[i], FS_BLOCK, -1, &rh, NULL, 0, NULL);
	if (r < 0)
		lru_forget(&bufs, i); /* the disk does not hold what we do: forget it */
	return r;
}

static int in_block(uint32_t off, uint32_t len)
{
	return off <= FS_BLOCK && len <= FS_BLOCK - off;
}

/* BM_READ / BM_WRITE: between a buffer and the client's data area. */
static int client_data(const struct fs_hdr *h, int client)
{
	uint32_t block = h->arg[0], off = h->arg[1], len = h->arg[2], coff = h->arg[3];
	int i, r;
	if (client < 0 || !in_block(off, len))
		return FS_EINVAL;
	int whole = h->op == BM_WRITE && off == 0 && len == FS_BLOCK;
	if ((r = get_buf(block, !whole, &i)) < 0)
		return r;
	uint32_t at = (uint32_t)i * FS_BLOCK + off;
	if (h->op == BM_READ)
		return movedata(self_cache, at, client, coff, len);
	r = movedata(client, coff, self_cache, at, len);
	if (r < 0) {
		lru_forget(&bufs, i); /* partly overwritten: not the disk's block any more */
		return r;
	}
	int w = write_through(i);
	return w < 0 ? w : r; /* the disk's own error, not a generic FS_EIO */
}

static void serve(const struct message *m, const struct fs_hdr *h, const uint8_t *payload, uint32_t plen)
{
	uint32_t block = h->arg[0], off = h->arg[1], len = h->arg[2];
	int i, r;
	switch (h->op) {
	case BM_READ:
	case BM_WRITE:
		fs_reply(m, client_data(h, m->passed), 0, 0, 0, NULL, 0);
		return;
	case BM_GET:
		r = in_block(off, len) ? get_buf(block, 1, &i) : FS_EINVAL;
		fs_reply(m, r, 0, 0, 0, r == 0 ? cache[i] + off : NULL, r == 0 ? len : 0);
		return;
	case BM_PUT:
	case BM_ZERO:
		if (h->op == BM_ZERO)
			off = 0, plen = FS_BLOCK;
		if (!in_block(off, plen)) {
			fs_reply(m, FS_EINVAL, 0, 0, 0, NULL, 0);
			return;
		}
		r = get_buf(block, !(off == 0 && plen == FS_BLOCK), &i);
		if (r == 0) {
			if (h->op == BM_ZERO)
				memset(cache[i], 0, FS_BLOCK);
			else
				memcpy(cache[i] + off, payload, plen);
			r = write_through(i);
		}
		fs_reply(m, r, 0, 0, 0, NULL, 0);
		return;
	case BM_STATS:
		fs_reply(m, 0, bufs.hits, bufs.misses, writes, NULL, 0);
		return;
	}
	fs_reply(m, FS_EINVAL, 0, 0, 0, NULL, 0);
}

int main(void)
{
	lru_init(&bufs);
	di = FS_SLOT_PEER1;
	self_cache = createlink(0, cache, sizeof cache, LINK_READ | LINK_WRITE);
	int self = createlink(0, NULL, 0, 0);
	if (self_cache < 0 || self < 0) {
		printf("fs_bm: cannot make links (%s)\n", kerror_name(self_cache < 0 ? self_cache : self));
		fs_announce(self_cache < 0 ? self_cache : self, -1);
		return 1;
	}
	fs_announce(0, self);
	fs_serve_forever(serve);
}

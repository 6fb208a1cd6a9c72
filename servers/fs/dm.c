/*
 * servers/fs/dm.c - the Directory Manager: names, directories, inodes and
 * free space.  It resolves paths by reading directories through the Buffer
 * Manager, creates, removes and renames entries, lists directories into a
 * client's buffer (MOVEDATA), and hands out zeroed blocks for the Request
 * Interpreter to grow files with.  The free-block bitmap and which inodes
 * are in use are kept in memory as well as on the disk (written through
 * the BM at every change), so an allocation costs no reads.  Directories
 * use their direct blocks only (FS_NDIRECT * FS_DIRENTS_PER_BLOCK entries).
 */
#include <stdio.h>
#include <string.h>

#include "fsproto.h"

#define BM_LINK FS_SLOT_PEER1
#define LIST_BATCH 56   /* fs_entry records moved to a client at once */

static struct fs_super sb;
static uint8_t bitmap[FS_MAX_BLOCKS / 8];
static uint8_t inode_used[FS_MAX_BLOCKS / 8]; /* ninodes <= nblocks */
static uint32_t block_hint, inode_hint;
static struct fs_entry batch[LIST_BATCH];
static int self_batch;  /* names batch[], for MOVEDATA */

static int bm(uint32_t op, uint32_t a0, uint32_t a1, uint32_t a2, const void *payload, uint32_t plen,
	      void *out, uint32_t out_len)
{
	uint32_t args[4] = { a0, a1, a2, 0 }, got = 0;
	struct fs_rhdr rh;
	int r = fs_call(BM_LINK, op, args, payload, plen, -1, &rh, out, out_len, &got);
	return r < 0 ? r : got == out_len ? 0 : FS_EIO;
}

static int bit(const uint8_t *map, uint32_t i) { return map[i / 8] >> (i % 8) & 1; }

static int iget(uint32_t inum, struct fs_inode *ino)
{
	uint32_t per = (uint32_t)FS_INODES_PER_BLOCK;
	return bm(BM_GET, sb.inode_start + inum / per, (inum % per) * sizeof *ino, sizeof *ino, NULL, 0, ino,
		  sizeof *ino);
}

static int iput(uint32_t inum, const struct fs_inode *ino)
{
	uint32_t per = (uint32_t)FS_INODES_PER_BLOCK;
	return bm(BM_PUT, sb.inode_start + inum / per, (inum % per) * sizeof *ino, 0, ino, sizeof *ino, NULL, 0);
}

/* Set or clear bit i of an in-memory map; the bitmap also on the disk. */
static int mark_block(uint32_t b, int used)
{
	if (used)
		bitmap[b / 8] |= (uint8_t)(1u << (b % 8));
	else
		bitmap[b / 8] &= (uint8_t)~(1u << (b % 8));
	uint32_t byte = b / 8;
	return bm(BM_PUT, sb.bitmap_start + byte / FS_BLOCK, byte % FS_BLOCK, 0, &bitmap[byte], 1, NULL, 0);
}

static int alloc_block(uint32_t *out)
{
	for (uint32_t n = 0; n < sb.nblocks; n++) {
		uint32_t b = (block_hint + n) % sb.nblocks;
		if (b < sb.data_start || bit(bitmap, b))
			continue;
		int r = mark_block(b, 1);
		if (r == 0)
			r = bm(BM_ZERO, b, 0, 0, NULL, 0, NULL, 0);
		block_hint = b + 1;
		*out = b;
		return r;
	}
	return FS_ENOSPC;
}

static int free_block(uint32_t b)
{
	return b >= sb.data_start && b < sb.nblocks ? mark_block(b, 0) : 0;
}

static int alloc_inode(uint16_t type, uint32_t *out)
{
	for (uint32_t n = 0; n < sb.ninodes; n++) {
		uint32_t i = (inode_hint + n) % sb.ninodes;
		if (i == 0 || bit(inode_used, i))
			continue;
		struct fs_inode ino = { .type = type };
		inode_used[i / 8] |= (uint8_t)(1u << (i % 8));
		inode_hint = i + 1;
		*out = i;
		return iput(i, &ino);
	}
	return FS_ENOSPC;
}

static int free_inode(uint32_t inum, const struct fs_inode *ino)
{
	static uint32_t ind[FS_NINDIRECT];
	struct fs_inode zero = { 0 };
	int r = 0;
	for (uint32_t i = 0; i < FS_NDIRECT && r == 0; i++)
		r = free_block(ino->direct[i]);
	if (r == 0 && ino->indirect && (r = bm(BM_GET, ino->indirect, 0, FS_BLOCK, NULL, 0, ind, FS_BLOCK)) == 0) {
		for (uint32_t i = 0; i < FS_NINDIRECT && r == 0; i++)
			r = free_block(ind[i]);
		if (r == 0)
			r = free_block(ino->indirect);
	}
	inode_used[inum / 8] &= (uint8_t)~(1u << (inum % 8));
	return r < 0 ? r : iput(inum, &zero);
}

/* Directory slot `slot` of dir: its block and byte offset there. */
static uint32_t slot_block(const struct fs_inode *dir, uint32_t slot)
{
	return dir->direct[slot / FS_DIRENTS_PER_BLOCK];
}
static uint32_t slot_offset(uint32_t slot) { return (slot % FS_DIRENTS_PER_BLOCK) * sizeof(struct fs_dirent); }

/* Call fn on every used entry of dir until it returns non-zero. */
static int dir_each(const struct fs_inode *dir, int (*fn)(const struct fs_dirent *, uint32_t, void *), void *arg)
{
	static struct fs_dirent ents[FS_DIRENTS_PER_BLOCK];
	uint32_t nslots = dir->size / sizeof(struct fs_dirent);
	for (uint32_t s = 0; s < nslots; s++) {
		if (s % FS_DIRENTS_PER_BLOCK == 0) {
			int r = bm(BM_GET, slot_block(dir, s), 0, FS_BLOCK, NULL, 0, ents, FS_BLOCK);
			if (r < 0)
				return r;
		}
		const struct fs_dirent *e = &ents[s % FS_DIRENTS_PER_BLOCK];
		int r = e->inode ? fn(e, s, arg) : 0;
		if (r)
			return r;
	}
	return 0;
}

struct find { const char *name; uint32_t inum, slot; };

static int match_name(const struct fs_dirent *e, uint32_t slot, void *arg)
{
	struct find *f = arg;
	if (strncmp(e->name, f->name, sizeof e->name))
		return 0;
	f->inum = e->inode;
	f->slot = slot;
	return 1;
}

/* Resolve path: *parent the directory holding the last component (0 for
 * the root itself), last its name, *inum what it names (0: nothing). */
static int walk(const char *path, uint32_t *parent, char *last, uint32_t *inum, uint32_t *slot)
{
	*parent = 0;
	*inum = FS_ROOT_INODE;
	*slot = 0;
	last[0] = '\0';
	for (const char *p = path;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return 0;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		if (e - p > (long)FS_NAME_MAX)
			return FS_ENAMETOOLONG;
		if (*inum == 0)
			return FS_ENOENT;
		struct fs_inode d;
		int r = iget(*inum, &d);
		if (r < 0)
			return r;
		if (d.type != FS_T_DIR)
			return FS_ENOTDIR;
		*parent = *inum;
		memcpy(last, p, (size_t)(e - p));
		last[e - p] = '\0';
		struct find f = { last, 0, 0 };
		if ((r = dir_each(&d, match_name, &f)) < 0)
			return r;
		*inum = f.inum;
		*slot = f.slot;
		p = e;
	}
}

static int write_dirent(const struct fs_inode *dir, uint32_t slot, uint32_t inum, const char *name)
{
	struct fs_dirent e = { .inode = inum };
	strncpy(e.name, name, FS_NAME_MAX);
	return bm(BM_PUT, slot_block(dir, slot), slot_offset(slot), 0, &e, sizeof e, NULL, 0);
}

/* Put name -> inum into directory dnum: a free slot, or a new one at the end. */
static int dir_add(uint32_t dnum, const char *name, uint32_t inum)
{
	static struct fs_dirent ents[FS_DIRENTS_PER_BLOCK];
	struct fs_inode dir;
	int r = iget(dnum, &dir);
	if (r < 0)
		return r;
	uint32_t nslots = dir.size / sizeof(struct fs_dirent);
	for (uint32_t s = 0; s < nslots; s++) {
		if (s % FS_DIRENTS_PER_BLOCK == 0 &&
		    (r = bm(BM_GET, slot_block(&dir, s), 0, FS_BLOCK, NULL, 0, ents, FS_BLOCK)) < 0)
			return r;
		if (ents[s % FS_DIRENTS_PER_BLOCK].inode == 0)
			return write_dirent(&dir, s, inum, name);
	}
	if (nslots == FS_NDIRECT * FS_DIRENTS_PER_BLOCK)
		return FS_ENOSPC;
	if (nslots % FS_DIRENTS_PER_BLOCK == 0 &&
	    (r = alloc_block(&dir.direct[nslots / FS_DIRENTS_PER_BLOCK])) < 0)
		return r;
	dir.size += sizeof(struct fs_dirent);
	if ((r = write_dirent(&dir, nslots, inum, name)) < 0)
		return r;
	return iput(dnum, &dir);
}

static int clear_dirent(uint32_t dnum, uint32_t slot)
{
	struct fs_inode dir;
	int r = iget(dnum, &dir);
	return r < 0 ? r : write_dirent(&dir, slot, 0, "");
}

static int lookup(const char *path, uint32_t *inum, struct fs_inode *ino)
{
	uint32_t parent, slot;
	char last[FS_NAME_MAX + 1];
	int r = walk(path, &parent, last, inum, &slot);
	if (r == 0 && *inum == 0)
		r = FS_ENOENT;
	return r < 0 ? r : iget(*inum, ino);
}

static int create(uint32_t type, const char *path, uint32_t *inum, struct fs_inode *ino)
{
	uint32_t parent, slot;
	char last[FS_NAME_MAX + 1];
	int r = walk(path, &parent, last, inum, &slot);
	if (r < 0)
		return r;
	if (*inum)
		return FS_EEXIST;
	if (type != FS_T_FILE && type != FS_T_DIR)
		return FS_EINVAL;
	if ((r = alloc_inode((uint16_t)type, inum)) < 0)
		return r;
	if ((r = dir_add(parent, last, *inum)) < 0) {
		struct fs_inode fresh = { .type = (uint16_t)type };
		free_inode(*inum, &fresh);
		return r;
	}
	return iget(*inum, ino);
}

static int any_entry(const struct fs_dirent *e, uint32_t slot, void *arg)
{
	(void)e; (void)slot; (void)arg;
	return 1;
}

static int remove_path(const char *path)
{
	uint32_t parent, inum, slot;
	char last[FS_NAME_MAX + 1];
	struct fs_inode ino;
	int r = walk(path, &parent, last, &inum, &slot);
	if (r < 0)
		return r;
	if (!parent)
		return FS_EINVAL; /* the root */
	if (!inum)
		return FS_ENOENT;
	if ((r = iget(inum, &ino)) < 0)
		return r;
	if (ino.type == FS_T_DIR && (r = dir_each(&ino, any_entry, NULL)) != 0)
		return r < 0 ? r : FS_ENOTEMPTY;
	if ((r = clear_dirent(parent, slot)) < 0)
		return r;
	return free_inode(inum, &ino);
}

/* Whether directory `dir` is `inum` or lies below it. */
static int inside(uint32_t dir, uint32_t inum, const char *new_path)
{
	char prefix[FS_PATH_MAX];
	uint32_t parent, at, slot;
	char last[FS_NAME_MAX + 1];
	size_t n = strlen(new_path);
	memcpy(prefix, new_path, n + 1);
	/* walk up new_path's components: any of them naming inum is a cycle */
	while (n > 0) {
		if (walk(prefix, &parent, last, &at, &slot) == 0 && at == inum)
			return 1;
		while (n > 0 && prefix[n - 1] == '/')
			prefix[--n] = '\0';
		while (n > 0 && prefix[n - 1] != '/')
			prefix[--n] = '\0';
	}
	return dir == inum;
}

static int rename_path(const char *from, const char *to)
{
	uint32_t oparent, inum, oslot, nparent, ninum, nslot;
	char olast[FS_NAME_MAX + 1], nlast[FS_NAME_MAX + 1];
	struct fs_inode ino;
	int r = walk(from, &oparent, olast, &inum, &oslot);
	if (r < 0)
		return r;
	if (!oparent)
		return FS_EINVAL;
	if (!inum)
		return FS_ENOENT;
	if ((r = walk(to, &nparent, nlast, &ninum, &nslot)) < 0)
		return r;
	if (ninum)
		return FS_EEXIST;
	if ((r = iget(inum, &ino)) < 0)
		return r;
	if (ino.type == FS_T_DIR && inside(nparent, inum, to))
		return FS_EINVAL;
	if ((r = dir_add(nparent, nlast, inum)) < 0)
		return r;
	return clear_dirent(oparent, oslot);
}

struct listing { int client; uint32_t cap, count, held, moved; int err; };

static int flush_batch(struct listing *l)
{
	if (l->held == 0)
		return 0;
	int r = movedata(self_batch, 0, l->client, l->moved * sizeof(struct fs_entry),
			 l->held * sizeof(struct fs_entry));
	l->moved += l->held;
	l->held = 0;
	return r < 0 ? r : 0;
}

static int list_one(const struct fs_dirent *e, uint32_t slot, void *arg)
{
	struct listing *l = arg;
	struct fs_inode ino;
	(void)slot;
	l->count++;
	if (l->moved + l->held >= l->cap)
		return 0;
	int r = iget(e->inode, &ino);
	if (r < 0)
		return r;
	struct fs_entry *out = &batch[l->held++];
	*out = (struct fs_entry){ .type = ino.type, .size = ino.size };
	memcpy(out->name, e->name, sizeof out->name);
	return l->held == LIST_BATCH ? flush_batch(l) : 0;
}

static int list(const char *path, uint32_t cap, int client)
{
	uint32_t inum;
	struct fs_inode dir;
	int r = lookup(path, &inum, &dir);
	if (r < 0)
		return r;
	if (dir.type != FS_T_DIR)
		return FS_ENOTDIR;
	if (client < 0)
		return FS_EINVAL;
	struct listing l = { .client = client, .cap = cap };
	if ((r = dir_each(&dir, list_one, &l)) < 0 || (r = flush_batch(&l)) < 0)
		return r;
	return (int)l.count;
}

static void serve(const struct message *m, const struct fs_hdr *h, const uint8_t *payload, uint32_t plen)
{
	const char *p1 = NULL, *p2 = NULL;
	uint32_t inum = 0, block = 0;
	struct fs_inode ino;
	int r = 0;
	int paths = h->op == DM_RENAME ? 2 : h->op <= DM_LIST ? 1 : 0;
	if (paths && (r = fs_payload_paths(payload, plen, &p1, paths == 2 ? &p2 : NULL)) < 0) {
		fs_reply(m, r, 0, 0, 0, NULL, 0);
		return;
	}
	switch (h->op) {
	case DM_LOOKUP:
	case DM_CREATE:
		r = h->op == DM_LOOKUP ? lookup(p1, &inum, &ino) : create(h->arg[0], p1, &inum, &ino);
		fs_reply(m, r, inum, 0, 0, &ino, r == 0 ? sizeof ino : 0);
		return;
	case DM_REMOVE:
		r = remove_path(p1);
		break;
	case DM_RENAME:
		r = rename_path(p1, p2);
		break;
	case DM_LIST:
		r = list(p1, h->arg[0], m->passed);
		break;
	case DM_ALLOC:
		r = alloc_block(&block);
		break;
	case DM_PUTINODE:
		r = h->arg[0] == 0 || h->arg[0] >= sb.ninodes || plen != sizeof ino ? FS_EINVAL
										: iput(h->arg[0], (const struct fs_inode *)payload);
		break;
	default:
		r = FS_EINVAL;
	}
	fs_reply(m, r, block, 0, 0, NULL, 0);
}

/* Read the superblock, the bitmap and which inodes are in use. */
static int mount(void)
{
	static struct fs_inode inodes[FS_INODES_PER_BLOCK];
	int r = bm(BM_GET, 0, 0, sizeof sb, NULL, 0, &sb, sizeof sb);
	if (r < 0)
		return r;
	if (sb.magic != FS_MAGIC || sb.version != FS_VERSION || sb.block_size != FS_BLOCK ||
	    sb.nblocks > FS_MAX_BLOCKS || sb.ninodes > sb.nblocks || sb.data_start >= sb.nblocks)
		return FS_EIO;
	uint32_t map_bytes = (sb.nblocks + 7) / 8;
	for (uint32_t b = 0; b < sb.bitmap_blocks; b++) {
		uint32_t len = map_bytes - b * FS_BLOCK < FS_BLOCK ? map_bytes - b * FS_BLOCK : FS_BLOCK;
		if ((r = bm(BM_GET, sb.bitmap_start + b, 0, len, NULL, 0, bitmap + b * FS_BLOCK, len)) < 0)
			return r;
	}
	for (uint32_t b = 0; b < sb.inode_blocks; b++) {
		if ((r = bm(BM_GET, sb.inode_start + b, 0, FS_BLOCK, NULL, 0, inodes, FS_BLOCK)) < 0)
			return r;
		for (uint32_t i = 0; i < FS_INODES_PER_BLOCK; i++) {
			uint32_t n = b * (uint32_t)FS_INODES_PER_BLOCK + i;
			if (inodes[i].type != FS_T_FREE)
				inode_used[n / 8] |= (uint8_t)(1u << (n % 8));
		}
	}
	block_hint = sb.data_start;
	return 0;
}

int main(void)
{
	self_batch = createlink(0, batch, sizeof batch, LINK_READ);
	int self = createlink(0, NULL, 0, 0);
	int r = self_batch < 0 ? self_batch : self < 0 ? self : mount();
	if (r < 0) {
		printf("fs_dm: cannot mount the disk: %s\n", fs_strerror(r));
		fs_announce(r, -1);
		return 1;
	}
	fs_announce(0, self);
	fs_serve_forever(serve);
}

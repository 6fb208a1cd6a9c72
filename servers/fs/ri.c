/*
 * servers/fs/ri.c - the Request Interpreter: the file system's front door
 * (registered as "fs" in the name service).  It keeps the open files
 * (handle -> inode, offset; a handle belongs to the process that opened it)
 * and the in-core inodes of open files, maps file offsets to disk blocks
 * (direct and indirect blocks), and turns each client request into
 * requests to the Directory Manager (names, new blocks, inode updates) and
 * the Buffer Manager (file data, moved straight to or from the client's
 * buffer with MOVEDATA over the link the client passed).  Inode changes are
 * written through the DM when the request that made them ends.
 *
 * A client that dies keeps its handles open until the RI notices: with
 * every open the client passes a link to one byte of itself (one kept per
 * client), and when a delete finds the file open or the tables are full,
 * the RI reads that byte of each client (MOVEDATA) and closes the handles
 * of those that have ended.
 */
#include <stdio.h>
#include <string.h>

#include "fsproto.h"

#define DM_LINK FS_SLOT_PEER1
#define BM_LINK FS_SLOT_PEER2
#define FS_MAX_OPEN 128
#define FS_MAX_CLIENTS 40   /* links kept, within NLINK with our own */
#define HANDLE_INDEX(h) ((uint32_t)(h) & 0xffu)

struct client {
	uint32_t task;      /* 0: slot free */
	int link;           /* to one byte of the client: alive while readable */
	uint32_t nopen;
};

struct incore {
	uint32_t inum;      /* 0: slot free */
	uint32_t refs;
	int dirty;
	struct fs_inode d;
};

struct open_file {
	int in_use;
	uint32_t gen;
	uint32_t owner;     /* task that opened it */
	uint32_t offset;
	struct incore *ic;
	struct client *cl;
};

static struct client clients[FS_MAX_CLIENTS];
static uint8_t probe_byte;
static int probe_link;   /* names probe_byte: where a client's byte is read to */

static struct open_file files[FS_MAX_OPEN];
static struct incore inodes[FS_MAX_OPEN];
static uint32_t next_gen = 1;
static uint8_t zeros[FS_BLOCK];
static int zero_link;    /* names zeros[]: what a hole reads as */

static int call4(int link, uint32_t op, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, int pass,
		 struct fs_rhdr *rh, void *out, uint32_t out_len)
{
	uint32_t args[4] = { a0, a1, a2, a3 };
	return fs_call(link, op, args, NULL, 0, pass, rh, out, out_len, NULL);
}

static struct incore *incore_find(uint32_t inum)
{
	for (int i = 0; i < FS_MAX_OPEN; i++)
		if (inodes[i].inum == inum)
			return &inodes[i];
	return NULL;
}

static struct client *client_of(uint32_t task, int alive_link)
{
	struct client *free_slot = NULL;
	for (int i = 0; i < FS_MAX_CLIENTS; i++) {
		if (clients[i].task == task)
			return &clients[i];
		if (!clients[i].task && !free_slot)
			free_slot = &clients[i];
	}
	if (!free_slot || alive_link < 0)
		return NULL;
	*free_slot = (struct client){ .task = task, .link = alive_link };
	fs_keep_passed = 1;
	return free_slot;
}

static int open_inode(uint32_t owner, int alive_link, uint32_t inum, const struct fs_inode *d)
{
	struct open_file *f = NULL;
	int idx = 0;
	for (; idx < FS_MAX_OPEN && !f; idx++)
		if (!files[idx].in_use)
			f = &files[idx];
	struct incore *ic = incore_find(inum);
	if (!ic)
		ic = incore_find(0);
	if (!f || !ic)
		return FS_EMFILE;
	/* only now: a slot given to a new client whose open then failed would
	 * hold no file, so reap_dead_clients would never free it */
	struct client *cl = client_of(owner, alive_link);
	if (!cl)
		return FS_EMFILE;
	cl->nopen++;
	if (ic->inum == 0)
		*ic = (struct incore){ .inum = inum, .d = *d };
	ic->refs++;
	next_gen = (next_gen + 1) & 0x7fffffu;
	*f = (struct open_file){ .in_use = 1, .gen = next_gen ? next_gen : 1, .owner = owner, .ic = ic, .cl = cl };
	return (int)(f->gen << 8 | (uint32_t)(idx - 1));
}

static struct open_file *file_of(uint32_t owner, int32_t h)
{
	if (h < 0)
		return NULL;
	struct open_file *f = &files[HANDLE_INDEX(h) % FS_MAX_OPEN];
	if (HANDLE_INDEX(h) >= FS_MAX_OPEN || !f->in_use || f->gen != (uint32_t)h >> 8 || f->owner != owner)
		return NULL;
	return f;
}

static int save_inode(struct incore *ic)
{
	if (!ic->dirty)
		return 0;
	uint32_t args[4] = { ic->inum, 0, 0, 0 };
	struct fs_rhdr rh;
	ic->dirty = 0;
	return fs_call(DM_LINK, DM_PUTINODE, args, &ic->d, sizeof ic->d, -1, &rh, NULL, 0, NULL);
}

static int new_block(uint32_t *b)
{
	struct fs_rhdr rh;
	int r = call4(DM_LINK, DM_ALLOC, 0, 0, 0, 0, -1, &rh, NULL, 0);
	*b = rh.val[0];
	return r;
}

/* The disk block of file block fb (0: a hole), allocated when `alloc`. */
static int bmap(struct incore *ic, uint32_t fb, int alloc, uint32_t *block)
{
	struct fs_rhdr rh;
	int r;
	*block = 0;
	if (fb < FS_NDIRECT) {
		if (!ic->d.direct[fb] && alloc) {
			if ((r = new_block(&ic->d.direct[fb])) < 0)
				return r;
			ic->dirty = 1;
		}
		*block = ic->d.direct[fb];
		return 0;
	}
	uint32_t at = (fb - FS_NDIRECT) * 4;
	if (!ic->d.indirect) {
		if (!alloc)
			return 0;
		if ((r = new_block(&ic->d.indirect)) < 0)
			return r;
		ic->dirty = 1;
	}
	if ((r = call4(BM_LINK, BM_GET, ic->d.indirect, at, 4, 0, -1, &rh, block, 4)) < 0)
		return r;
	if (*block || !alloc)
		return 0;
	if ((r = new_block(block)) < 0)
		return r;
	uint32_t args[4] = { ic->d.indirect, at, 0, 0 };
	return fs_call(BM_LINK, BM_PUT, args, block, 4, -1, &rh, NULL, 0, NULL);
}

/* Read or write up to len bytes at the file's offset, between the file and
 * the client's data area (link `client`, from its offset 0). */
static int transfer(struct open_file *f, int writing, uint32_t len, int client)
{
	struct incore *ic = f->ic;
	struct fs_rhdr rh;
	uint32_t done = 0;
	int r = 0;
	if (client < 0)
		return FS_EINVAL;
	while (done < len) {
		uint32_t off = f->offset, fb = off / FS_BLOCK, boff = off % FS_BLOCK, block;
		uint32_t n = FS_BLOCK - boff < len - done ? FS_BLOCK - boff : len - done;
		if (!writing && off >= ic->d.size)
			break;
		if (!writing && n > ic->d.size - off)
			n = ic->d.size - off;
		if (fb >= FS_NDIRECT + FS_NINDIRECT) {
			r = FS_EFBIG;
			break;
		}
		if ((r = bmap(ic, fb, writing, &block)) < 0)
			break;
		if (block)
			r = call4(BM_LINK, writing ? BM_WRITE : BM_READ, block, boff, n, done, client, &rh, NULL, 0);
		else
			r = movedata(zero_link, 0, client, done, n);
		if (r < 0)
			break;
		done += n;
		f->offset += n;
		if (f->offset > ic->d.size) {
			ic->d.size = f->offset;
			ic->dirty = 1;
		}
	}
	int s = save_inode(ic);
	if (done > 0)
		return (int)done;
	return r < 0 ? r : s;
}

static int seek(struct open_file *f, int32_t off, uint32_t whence)
{
	int64_t base = whence == FS_SEEK_SET ? 0 : whence == FS_SEEK_CUR ? f->offset : f->ic->d.size;
	if (whence > FS_SEEK_END || base + off < 0)
		return FS_EINVAL;
	if (base + off > (int64_t)FS_MAX_FILE)
		return FS_EFBIG;
	f->offset = (uint32_t)(base + off);
	return (int)f->offset;
}

static int close_file(struct open_file *f)
{
	int r = save_inode(f->ic);
	if (--f->ic->refs == 0)
		f->ic->inum = 0;
	if (--f->cl->nopen == 0) {
		destroylink(f->cl->link);
		f->cl->task = 0;
	}
	f->in_use = 0;
	return r;
}

/* Close the handles of clients that have ended; how many were closed. */
static int reap_dead_clients(void)
{
	int closed = 0;
	for (int c = 0; c < FS_MAX_CLIENTS; c++) {
		struct client *cl = &clients[c];
		if (!cl->task || movedata(cl->link, 0, probe_link, 0, 1) >= 0)
			continue;
		for (int i = 0; i < FS_MAX_OPEN; i++)
			if (files[i].in_use && files[i].cl == cl && ++closed)
				close_file(&files[i]);
	}
	return closed;
}

static int by_path(uint32_t op, uint32_t a0, const uint8_t *payload, uint32_t plen, int pass, struct fs_rhdr *rh,
		   struct fs_inode *ino)
{
	uint32_t args[4] = { a0, 0, 0, 0 };
	return fs_call(DM_LINK, op, args, payload, plen, pass, rh, ino, ino ? sizeof *ino : 0, NULL);
}

static int open_path(uint32_t owner, int alive_link, uint32_t op, const uint8_t *payload, uint32_t plen)
{
	struct fs_rhdr rh;
	struct fs_inode ino;
	int r = op == FS_OP_CREATE ? by_path(DM_CREATE, FS_T_FILE, payload, plen, -1, &rh, &ino)
				   : by_path(DM_LOOKUP, 0, payload, plen, -1, &rh, &ino);
	if (r < 0)
		return r;
	if (ino.type == FS_T_DIR)
		return FS_EISDIR;
	r = open_inode(owner, alive_link, rh.val[0], &ino);
	if (r == FS_EMFILE && reap_dead_clients())
		r = open_inode(owner, alive_link, rh.val[0], &ino);
	return r;
}

static int delete_path(const uint8_t *payload, uint32_t plen)
{
	struct fs_rhdr rh;
	struct fs_inode ino;
	int r = by_path(DM_LOOKUP, 0, payload, plen, -1, &rh, &ino);
	if (r < 0)
		return r;
	if (incore_find(rh.val[0]) && (!reap_dead_clients() || incore_find(rh.val[0])))
		return FS_EBUSY;
	return by_path(DM_REMOVE, 0, payload, plen, -1, &rh, NULL);
}

static int request(const struct message *m, const struct fs_hdr *h, const uint8_t *payload, uint32_t plen,
		   struct fs_rhdr *out)
{
	struct open_file *f = NULL;
	if (h->op >= FS_OP_READ && h->op <= FS_OP_CLOSE && !(f = file_of(m->from, (int32_t)h->arg[0])))
		return FS_EBADF;
	switch (h->op) {
	case FS_OP_CREATE:
	case FS_OP_OPEN:
		return open_path(m->from, m->passed, h->op, payload, plen);
	case FS_OP_READ:
	case FS_OP_WRITE:
		return transfer(f, h->op == FS_OP_WRITE, h->arg[1], m->passed);
	case FS_OP_SEEK:
		return seek(f, (int32_t)h->arg[1], h->arg[2]);
	case FS_OP_CLOSE:
		return close_file(f);
	case FS_OP_DELETE:
		return delete_path(payload, plen);
	case FS_OP_RENAME:
		return by_path(DM_RENAME, 0, payload, plen, -1, out, NULL);
	case FS_OP_LIST:
		return by_path(DM_LIST, h->arg[1], payload, plen, m->passed, out, NULL);
	case FS_OP_MKDIR:
		return by_path(DM_CREATE, FS_T_DIR, payload, plen, -1, out, NULL);
	case FS_OP_STATS:
		return call4(BM_LINK, BM_STATS, 0, 0, 0, 0, -1, out, NULL, 0);
	}
	return FS_EINVAL;
}

static void serve(const struct message *m, const struct fs_hdr *h, const uint8_t *payload, uint32_t plen)
{
	struct fs_rhdr out = { 0, { 0, 0, 0 } };
	int r = request(m, h, payload, plen, &out);
	fs_reply(m, r, out.val[0], out.val[1], out.val[2], NULL, 0);
}

int main(void)
{
	zero_link = createlink(0, zeros, sizeof zeros, LINK_READ);
	probe_link = createlink(0, &probe_byte, 1, LINK_WRITE);
	int self = createlink(0, NULL, 0, 0);
	if (zero_link < 0 || probe_link < 0 || self < 0) {
		printf("fs_ri: cannot make links (%s)\n", kerror_name(zero_link < 0 ? zero_link : self));
		fs_announce(zero_link < 0 ? zero_link : self, -1);
		return 1;
	}
	fs_announce(0, self);
	fs_serve_forever(serve);
}

/*
 * servers/fs/di.c - the Disk Interface: the one process that talks to the
 * disk.  It asks its process manager for a kernel link with LINK_KDISK
 * (PM_DISKLINK) and turns the Buffer Manager's block requests into sector
 * requests over it; a block is FS_SECTORS_PER_BLOCK sectors, moved in one
 * kernel request.  It must run on the node whose disk it uses (kernel links
 * serve only their own node's processes).
 */
#include <stdio.h>
#include <string.h>

#include "fsproto.h"
#include "servers/lib/pm.h"

static int disk;           /* kernel link with LINK_KDISK */
static uint32_t nblocks;

static int disk_io(uint32_t kind, uint32_t block, const void *data, void *out)
{
	static uint8_t req[KR_DISK_HEADER + FS_BLOCK];
	uint32_t w[4] = { kind, block * FS_SECTORS_PER_BLOCK, 0, FS_SECTORS_PER_BLOCK };
	memcpy(req, w, sizeof w);
	uint32_t len = KR_DISK_HEADER;
	if (data) {
		memcpy(req + KR_DISK_HEADER, data, FS_BLOCK);
		len += FS_BLOCK;
	}
	struct message m = message_into(out, out ? FS_BLOCK : 0);
	int r = call(disk, req, len, -1, &m);
	if (r < 0)
		return r; /* the kernel's code (E_DISKIO: the device failed) */
	return out && r != (int)FS_BLOCK ? FS_EIO : 0;
}

static void serve(const struct message *m, const struct fs_hdr *h, const uint8_t *payload, uint32_t plen)
{
	static uint8_t block[FS_BLOCK];
	uint32_t b = h->arg[0];
	if (b >= nblocks) {
		fs_reply(m, FS_EINVAL, 0, 0, 0, NULL, 0);
	} else if (h->op == DI_READ) {
		int r = disk_io(KR_DISK_READ, b, NULL, block);
		fs_reply(m, r, 0, 0, 0, block, r == 0 ? FS_BLOCK : 0);
	} else if (h->op == DI_WRITE && plen == FS_BLOCK) {
		fs_reply(m, disk_io(KR_DISK_WRITE, b, payload, NULL), 0, 0, 0, NULL, 0);
	} else {
		fs_reply(m, FS_EINVAL, 0, 0, 0, NULL, 0);
	}
}

int main(void)
{
	uint64_t sectors = 0;
	int self = createlink(0, NULL, 0, 0);
	disk = pm_disklink(0);
	if (disk >= 0) {
		uint32_t kind = KR_DISK_INFO;
		struct message m = message_into(&sectors, sizeof sectors);
		int r = call(disk, &kind, sizeof kind, -1, &m);
		if (r < 0)
			disk = r;
	}
	if (self < 0 || disk < 0) {
		printf("fs_di: no disk on this node (%s)\n", kerror_name(self < 0 ? self : disk));
		fs_announce(disk < 0 ? disk : self, -1);
		return 1;
	}
	nblocks = (uint32_t)(sectors / FS_SECTORS_PER_BLOCK);
	fs_announce(0, self);
	fs_serve_forever(serve);
}

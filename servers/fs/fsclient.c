/*
 * servers/fs/fsclient.c - client calls of the file system (fsclient.h).
 * The link to the Request Interpreter is looked up once and kept.
 */
#include <string.h>

#include "fsclient.h"
#include "servers/lib/ns.h"

static int ri_link = -1;
static uint8_t alive; /* the RI reads it to learn whether we still exist */

static int ri(void)
{
	if (ri_link < 0)
		ri_link = ns_lookup(FS_SERVICE_NAME);
	return ri_link;
}

/* One request; data (when len > 0) goes through a link over buf. */
static int request(uint32_t op, uint32_t a0, uint32_t a1, uint32_t a2, const char *p1, const char *p2,
		   void *buf, uint32_t len, uint32_t rights, struct fs_rhdr *rh)
{
	char payload[2 * FS_PATH_MAX];
	uint32_t plen = 0, args[4] = { a0, a1, a2, 0 };
	for (const char *p = p1; p; p = p == p1 ? p2 : NULL) {
		size_t n = strlen(p) + 1;
		if (n > FS_PATH_MAX)
			return FS_ENAMETOOLONG;
		memcpy(payload + plen, p, n);
		plen += (uint32_t)n;
	}
	int link = ri();
	if (link < 0)
		return link;
	int data = -1;
	if (buf && len && (data = createlink(0, buf, len, rights)) < 0)
		return data;
	struct fs_rhdr local;
	int r = fs_call(link, op, args, payload, plen, data, rh ? rh : &local, NULL, 0, NULL);
	if (data >= 0)
		destroylink(data);
	return r;
}

int fs_create(const char *path)
{
	return request(FS_OP_CREATE, 0, 0, 0, path, NULL, &alive, 1, LINK_READ, NULL);
}

int fs_open(const char *path)
{
	return request(FS_OP_OPEN, 0, 0, 0, path, NULL, &alive, 1, LINK_READ, NULL);
}
int fs_close(int h) { return request(FS_OP_CLOSE, (uint32_t)h, 0, 0, NULL, NULL, NULL, 0, 0, NULL); }
int fs_delete(const char *path) { return request(FS_OP_DELETE, 0, 0, 0, path, NULL, NULL, 0, 0, NULL); }
int fs_mkdir(const char *path) { return request(FS_OP_MKDIR, 0, 0, 0, path, NULL, NULL, 0, 0, NULL); }

int fs_rename(const char *from, const char *to)
{
	return request(FS_OP_RENAME, 0, 0, 0, from, to, NULL, 0, 0, NULL);
}

int fs_read(int h, void *buf, uint32_t len)
{
	if (len == 0)
		return 0;
	return request(FS_OP_READ, (uint32_t)h, len, 0, NULL, NULL, buf, len, LINK_WRITE, NULL);
}

int fs_write(int h, const void *buf, uint32_t len)
{
	if (len == 0)
		return 0;
	return request(FS_OP_WRITE, (uint32_t)h, len, 0, NULL, NULL, (void *)buf, len, LINK_READ, NULL);
}

int fs_seek(int h, int32_t offset, int whence)
{
	return request(FS_OP_SEEK, (uint32_t)h, (uint32_t)offset, (uint32_t)whence, NULL, NULL, NULL, 0, 0, NULL);
}

int fs_list(const char *path, struct fs_entry *ents, uint32_t max)
{
	static struct fs_entry none;
	if (max == 0)
		ents = &none; /* the servers still need a link to count through */
	return request(FS_OP_LIST, 0, max, 0, path, NULL, ents, (max ? max : 1) * (uint32_t)sizeof *ents,
		       LINK_WRITE, NULL);
}

int fs_stats(uint32_t *hits, uint32_t *misses, uint32_t *writes)
{
	struct fs_rhdr rh;
	int r = request(FS_OP_STATS, 0, 0, 0, NULL, NULL, NULL, 0, 0, &rh);
	if (r >= 0) {
		*hits = rh.val[0];
		*misses = rh.val[1];
		*writes = rh.val[2];
	}
	return r;
}

/*
 * qemu/disk.c - a node's disk image (`dpm disk create`, whose command is
 * qemu/commands/disk.c): a raw file holding an empty file system in the
 * format of kernel/abi/fs_disk.h (superblock, bitmap with the metadata
 * blocks marked used, an empty root directory).  The image is what a
 * cluster file's disk= key gives a node, so files outlive the node.
 * Refuses to overwrite an existing file unless forced: an image holds
 * someone's data.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disk.h"
#include "kernel/abi/fs_disk.h"


static int write_block(int fd, uint32_t block, const void *data)
{
	ssize_t n = pwrite(fd, data, FS_BLOCK, (off_t)block * FS_BLOCK);
	return n == (ssize_t)FS_BLOCK ? 0 : -1;
}

/* Mark blocks 0 .. data_start-1 in use. */
static int write_bitmap(int fd, const struct fs_super *s)
{
	static uint8_t map[FS_BLOCK];
	for (uint32_t b = 0; b < s->bitmap_blocks; b++) {
		memset(map, 0, sizeof map);
		for (uint32_t i = 0; i < FS_BITS_PER_BLOCK; i++) {
			uint32_t block = b * FS_BITS_PER_BLOCK + i;
			if (block < s->data_start || block >= s->nblocks)
				map[i / 8] |= (uint8_t)(1u << (i % 8)); /* metadata, or past the end */
		}
		if (write_block(fd, s->bitmap_start + b, map))
			return -1;
	}
	return 0;
}

int disk_format(const char *path, uint32_t size_mib, int force, char *err, size_t errlen)
{
	uint64_t bytes = (uint64_t)size_mib << 20;
	if (size_mib == 0 || size_mib > DISK_MAX_MIB) {
		snprintf(err, errlen, "size must be 1 to %d MiB, not %u", DISK_MAX_MIB, size_mib);
		return -1;
	}
	int fd = open(path, O_RDWR | O_CREAT | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == EEXIST ? " (use --force to overwrite it)" : "");
		return -1;
	}
	struct fs_super s = fs_layout((uint32_t)(bytes / FS_BLOCK));
	static uint8_t block[FS_BLOCK];
	struct fs_inode root = { .type = FS_T_DIR };
	int bad = ftruncate(fd, (off_t)bytes) < 0;
	memset(block, 0, sizeof block);
	memcpy(block, &s, sizeof s);
	bad = bad || write_block(fd, 0, block) || write_bitmap(fd, &s);
	memset(block, 0, sizeof block);
	for (uint32_t b = 0; b < s.inode_blocks && !bad; b++) {
		if (b == 0)
			memcpy(block + FS_ROOT_INODE * sizeof root, &root, sizeof root);
		bad = write_block(fd, s.inode_start + b, block);
		memset(block, 0, sizeof block);
	}
	bad = bad || fsync(fd) < 0;
	if (close(fd) < 0 || bad) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

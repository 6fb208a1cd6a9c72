/*
 * qemu/disk.c - `dpm disk create PATH [--size MIB]`: write a node's disk
 * image, a raw file holding an empty file system in the format of
 * kernel/abi/fs_disk.h (superblock, bitmap with the metadata blocks
 * marked used, an empty root directory).  The image is what a cluster
 * file's disk= key gives a node, so files outlive the node.  Refuses to
 * overwrite an existing file unless --force: an image holds someone's data.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disk.h"
#include "kernel/abi/fs_disk.h"

#define DISK_DEFAULT_MIB 8
#define DISK_MAX_MIB 2048

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

static void usage(FILE *to)
{
	fprintf(to, "usage: dpm disk create PATH [--size MIB] [--force]\n"
		    "  write a disk image holding an empty file system (docs/fs.md)\n"
		    "  --size MIB   image size, 1 to %d MiB (default %d)\n"
		    "  --force      overwrite PATH if it exists\n", DISK_MAX_MIB, DISK_DEFAULT_MIB);
}

static int disk_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long size = DISK_DEFAULT_MIB;
	int force = 0, c;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:fh", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'f') {
			force = 1;
		} else if (c == 's') {
			size = strtol(optarg, &end, 10);
			if (*end || end == optarg || size < 1 || size > DISK_MAX_MIB) {
				fprintf(stderr, "dpm disk create: --size must be 1 to %d MiB, not '%s'\n",
					DISK_MAX_MIB, optarg);
				return 2;
			}
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	char err[512];
	if (disk_format(argv[optind], (uint32_t)size, force, err, sizeof err)) {
		fprintf(stderr, "dpm disk create: %s\n", err);
		return 1;
	}
	struct fs_super s = fs_layout((uint32_t)(((uint64_t)size << 20) / FS_BLOCK));
	printf("%s: %ld MiB, %u blocks of %u bytes, %u inodes, %u data blocks\n", argv[optind], size,
	       s.nblocks, FS_BLOCK, s.ninodes - 1, s.nblocks - s.data_start);
	return 0;
}

int disk_main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return disk_create(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}

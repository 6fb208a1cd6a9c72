/*
 * kernel/abi/fs_disk.h - the file system's on-disk format, shared by the
 * host tool that writes a fresh image (`dpm disk create`, qemu/disk.c) and
 * the servers that use it.  Plain fixed-size little-endian structures, so
 * host and guest read the same bytes.  docs/fs.md draws the layout.
 *
 *   block 0                 superblock
 *   bitmap_start ..         one bit a block, 1 = in use
 *   inode_start ..          inodes, FS_INODES_PER_BLOCK a block (0 unused)
 *   data_start ..           file and directory blocks
 *
 * A file has FS_NDIRECT direct blocks and one indirect block of block
 * numbers; a directory is a file of struct fs_dirent (inode 0 = empty slot).
 * The root directory is inode FS_ROOT_INODE.
 */
#ifndef DPM_FS_FORMAT_H
#define DPM_FS_FORMAT_H
#include <stdint.h>

#define FS_MAGIC 0x31534644u          /* "DFS1" */
#define FS_VERSION 1u
#define FS_BLOCK 2048u                /* bytes in a block                      */
#define FS_SECTOR 512u
#define FS_SECTORS_PER_BLOCK (FS_BLOCK / FS_SECTOR)
#define FS_NDIRECT 12u
#define FS_NINDIRECT (FS_BLOCK / 4u)
#define FS_MAX_FILE ((FS_NDIRECT + FS_NINDIRECT) * FS_BLOCK)
#define FS_NAME_MAX 27u               /* bytes of one path component          */
#define FS_ROOT_INODE 1u
#define FS_BITS_PER_BLOCK (FS_BLOCK * 8u)
#define FS_MIN_BLOCKS 64u             /* smallest image: 128 KiB               */
#define FS_MAX_BLOCKS (1u << 20)      /* largest image: 2 GiB                  */

enum fs_inode_type { FS_T_FREE = 0, FS_T_FILE = 1, FS_T_DIR = 2 };

struct fs_super {
	uint32_t magic;
	uint32_t version;
	uint32_t block_size;
	uint32_t nblocks;                 /* blocks on the disk                   */
	uint32_t ninodes;                 /* inodes, including unused inode 0     */
	uint32_t bitmap_start, bitmap_blocks;
	uint32_t inode_start, inode_blocks;
	uint32_t data_start;              /* first block files may use            */
};

struct fs_inode {
	uint16_t type;                    /* enum fs_inode_type                   */
	uint16_t reserved;
	uint32_t size;                    /* bytes                                */
	uint32_t direct[FS_NDIRECT];      /* block numbers, 0 = none (a hole)     */
	uint32_t indirect;                /* block of FS_NINDIRECT numbers, or 0  */
	uint32_t pad;
};

struct fs_dirent {
	uint32_t inode;                   /* 0: the slot is free                  */
	char name[FS_NAME_MAX + 1];       /* NUL-terminated                       */
};

#define FS_INODES_PER_BLOCK (FS_BLOCK / sizeof(struct fs_inode))
#define FS_DIRENTS_PER_BLOCK (FS_BLOCK / sizeof(struct fs_dirent))

_Static_assert(sizeof(struct fs_inode) == 64, "inode size is part of the format");
_Static_assert(sizeof(struct fs_dirent) == 32, "dirent size is part of the format");
_Static_assert(sizeof(struct fs_super) <= FS_BLOCK, "superblock fits block 0");

/* The layout of a fresh file system of `nblocks` blocks: one inode per
 * 8 blocks (at least 64), rounded up to whole inode blocks. */
static inline struct fs_super fs_layout(uint32_t nblocks)
{
	struct fs_super s = { .magic = FS_MAGIC, .version = FS_VERSION, .block_size = FS_BLOCK,
			      .nblocks = nblocks };
	uint32_t inodes = nblocks / 8 < 64 ? 64 : nblocks / 8;
	s.inode_blocks = (uint32_t)((inodes + FS_INODES_PER_BLOCK - 1) / FS_INODES_PER_BLOCK);
	s.ninodes = s.inode_blocks * (uint32_t)FS_INODES_PER_BLOCK;
	s.bitmap_start = 1;
	s.bitmap_blocks = (nblocks + FS_BITS_PER_BLOCK - 1) / FS_BITS_PER_BLOCK;
	s.inode_start = s.bitmap_start + s.bitmap_blocks;
	s.data_start = s.inode_start + s.inode_blocks;
	return s;
}
#endif

/*
 * tests/unit/test_fs_disk.c - a node's disk on the host side: the image
 * `dpm disk create` writes (superblock, bitmap, empty root directory, in
 * the format of kernel/abi/fs_disk.h), its refusals, and the cluster
 * file's disk= key down to the QEMU command line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/cluster/cluster_qemu.h"
#include "qemu/disk.h"
#include "kernel/abi/fs_disk.h"

static char dir[] = "/tmp/test_fs_disk.XXXXXX";
static char img[256];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(img, sizeof img, "%s/node.img", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(img);
	return rmdir(dir);
}

static void read_block(uint32_t b, void *out)
{
	FILE *f = fopen(img, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, (long)b * FS_BLOCK, SEEK_SET), 0);
	assert_int_equal(fread(out, FS_BLOCK, 1, f), 1);
	fclose(f);
}

static void test_image_holds_an_empty_file_system(void **state)
{
	(void)state;
	char err[256];
	static uint8_t block[FS_BLOCK];
	unlink(img);
	assert_int_equal(disk_format(img, 4, 0, err, sizeof err), 0);
	FILE *f = fopen(img, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	assert_int_equal(ftell(f), 4 << 20);
	fclose(f);
	struct fs_super s;
	read_block(0, block);
	memcpy(&s, block, sizeof s);
	assert_int_equal(s.magic, FS_MAGIC);
	assert_int_equal(s.nblocks, 2048);
	assert_int_equal(s.bitmap_start, 1);
	assert_int_equal(s.inode_start, 2);
	assert_int_equal(s.ninodes, 256);  /* one inode per 8 blocks */
	assert_int_equal(s.data_start, 2 + 256 / FS_INODES_PER_BLOCK);
	read_block(s.bitmap_start, block);
	for (uint32_t b = 0; b < s.nblocks; b++) /* metadata used, data free */
		assert_int_equal(block[b / 8] >> (b % 8) & 1, b < s.data_start);
	struct fs_inode root;
	read_block(s.inode_start, block);
	memcpy(&root, block + FS_ROOT_INODE * sizeof root, sizeof root);
	assert_int_equal(root.type, FS_T_DIR);
	assert_int_equal(root.size, 0);
	assert_int_equal(block[0], 0); /* inode 0 unused */
}

static void test_existing_image_is_kept_without_force(void **state)
{
	(void)state;
	char err[256];
	unlink(img);
	assert_int_equal(disk_format(img, 1, 0, err, sizeof err), 0);
	assert_int_equal(disk_format(img, 2, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(disk_format(img, 2, 1, err, sizeof err), 0);
	assert_int_equal(disk_format(img, 0, 1, err, sizeof err), -1);
	assert_string_equal(err, "size must be 1 to 2048 MiB, not 0");
	assert_int_equal(disk_format("/nonexistent/dir/x.img", 1, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "No such file"));
}

static void test_layout_of_large_disks(void **state)
{
	(void)state;
	struct fs_super s = fs_layout(FS_MAX_BLOCKS);
	assert_int_equal(s.bitmap_blocks, FS_MAX_BLOCKS / FS_BITS_PER_BLOCK);
	assert_true(s.ninodes >= FS_MAX_BLOCKS / 8);
	assert_true(s.data_start < s.nblocks);
	s = fs_layout(FS_MIN_BLOCKS);
	assert_int_equal(s.ninodes, 64);
}

static void test_disk_key_reaches_the_qemu_command(void **state)
{
	(void)state;
	static struct cluster_spec spec;
	static struct qemu_command cmd;
	char err[512], text[512];
	unlink(img);
	assert_int_equal(disk_format(img, 1, 0, err, sizeof err), 0);
	snprintf(text, sizeof text, "node a id=1 disk=%s\nnode b id=2\n", img);
	assert_int_equal(cluster_parse("t.cluster", text, &spec, err, sizeof err), 0);
	assert_string_equal(spec.nodes[0].disk, img);
	assert_string_equal(spec.nodes[1].disk, "");
	struct node_launch l = { .dir = dir, .kernel = "/k.elf", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	char want[512];
	snprintf(want, sizeof want, "file=%s,format=raw,if=none,id=disk", img);
	assert_string_equal(cmd.argv[cmd.argc - 4], "-drive");
	assert_string_equal(cmd.argv[cmd.argc - 3], want);
	assert_string_equal(cmd.argv[cmd.argc - 1], "virtio-blk-pci,drive=disk");
	assert_int_equal(qemu_node_command(&spec.nodes[1], &l, &cmd, err, sizeof err), 0);
	for (int i = 0; i < cmd.argc; i++)
		assert_null(strstr(cmd.argv[i], "virtio-blk"));
	/* nodes added by a count do not share the last node's image */
	assert_int_equal(cluster_parse("t.cluster", text, &spec, err, sizeof err), 0);
	spec.nnodes = 1;
	assert_int_equal(cluster_set_node_count(&spec, 3, err, sizeof err), 0);
	assert_string_equal(spec.nodes[2].disk, "");
}

static void test_disk_key_errors(void **state)
{
	(void)state;
	static struct cluster_spec spec;
	static struct qemu_command cmd;
	char err[512];
	assert_int_equal(cluster_parse("t.cluster", "node a disk=\"\"\n", &spec, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.cluster:1:8: disk must be the path of an image file"));
	assert_int_equal(cluster_parse("t.cluster", "node a disk=/no/such.img\n", &spec, err, sizeof err), 0);
	struct node_launch l = { .dir = dir, .kernel = "/k.elf", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), -1);
	assert_string_equal(err, "node 'a': disk image '/no/such.img': No such file or directory "
				 "(make one with `dpm disk create`)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_holds_an_empty_file_system),
		cmocka_unit_test(test_existing_image_is_kept_without_force),
		cmocka_unit_test(test_layout_of_large_disks),
		cmocka_unit_test(test_disk_key_reaches_the_qemu_command),
		cmocka_unit_test(test_disk_key_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * tests/guest/t_diskerr.c - the file system over a disk that fails.  Booted
 * (t_diskerr.ARCH.qemu-args) with a 1 MiB image behind QEMU's blkdebug,
 * which answers every write to the first data blocks a new file gets
 * (blocks 5-12: tests/guest/t_diskerr.blkdebug) with an I/O error; the
 * metadata blocks write normally.  A client's write that needs such a
 * block must fail with the disk's own error, E_DISKIO, as the Disk
 * Interface got it from its kernel, not with FS_EIO ("disk error or no
 * file system"), which the servers made of every disk error until the
 * 1984 file-system study needed to know why a write had failed; and the
 * servers go on serving.
 */
#include <string.h>

#include "servers/fs/fsclient.h"
#include "gtest.h"

static int run_fsstart(void)
{
	const char *argv[] = { "fsstart", NULL };
	uint32_t task;
	struct kr_exit_notice n;
	int r = spawn_child(argv, &task, NULL);
	if (r < 0 || (r = wait_child(task, &n)) < 0)
		return r;
	return n.reason == EXIT_NORMAL ? n.status : -1000 - (int)n.reason;
}

static void test_servers_up(void)
{
	CHECK_EQ(run_fsstart(), 0);
}

static void test_write_reports_the_disks_error(void)
{
	static uint8_t data[100];
	memset(data, 0x5a, sizeof data);
	int h = fs_create("/f");
	CHECK(h >= 0);
	CHECK_EQ(fs_write(h, data, sizeof data), E_DISKIO);
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_END), 0); /* nothing was written */
	CHECK_EQ(fs_close(h), 0);
	h = fs_open("/f"); /* the servers still serve */
	CHECK(h >= 0);
	CHECK_EQ(fs_close(h), 0);
	CHECK(strstr(fs_strerror(E_DISKIO), "E_DISKIO") != NULL);
}

GTESTS({ "fsstart over the failing disk", test_servers_up },
       { "a failed block write reports E_DISKIO, not FS_EIO", test_write_reports_the_disks_error });
GTEST_MAIN("diskerr")

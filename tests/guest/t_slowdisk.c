/*
 * tests/guest/t_slowdisk.c - a slow node with a slow host disk.  Booted
 * (t_slowdisk.ARCH.qemu-args) under -icount shift=10 (one instruction a
 * microsecond, the 1984 preset's node) with a disk QEMU throttles to two
 * requests a second of host time: each request below waits about 500 ms
 * of host time for the device, during which the kernel's poll executes
 * far more than 5 s worth of instructions at this speed.  Every request
 * must still succeed with its data: the driver's bound on a device's
 * answer is host time (arch/virtio/virtio_blk.c), not node time.  Before
 * it was, each of these requests failed with E_DISKIO ("not answered"),
 * as a write of the file-system study at the 1984 preset did on a loaded
 * host.  Its own suite, since its throttled disk would slow t_fs's
 * hundreds of requests to minutes.
 */
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

#define SECTORS 7u /* the most one write carries */
#define ROUNDS 3u  /* a write and a read each: 6 throttled requests */

static void test_slow_requests_succeed(void)
{
	static uint8_t req[KR_DISK_HEADER + SECTORS * 512], got[SECTORS * 512];
	int disk = pm_disklink(0);
	CHECK(disk >= 0);
	for (uint32_t round = 0; round < ROUNDS; round++) {
		uint32_t at = 8 + round * SECTORS, wr[4] = { KR_DISK_WRITE, at, 0, SECTORS },
			 rd[4] = { KR_DISK_READ, at, 0, SECTORS };
		memcpy(req, wr, sizeof wr);
		for (uint32_t i = 0; i < SECTORS * 512; i++)
			req[KR_DISK_HEADER + i] = (uint8_t)(i * 13 + round * 7 + 1);
		struct message m = message_into(NULL, 0);
		CHECK_EQ(call(disk, req, sizeof req, -1, &m), 0);
		m = message_into(got, sizeof got);
		CHECK_EQ(call(disk, rd, sizeof rd, -1, &m), (int)sizeof got);
		CHECK(memcmp(got, req + KR_DISK_HEADER, sizeof got) == 0);
	}
	destroylink(disk);
}

GTESTS({ "slow host disk on a slow node: every request answered", test_slow_requests_succeed });
GTEST_MAIN("slowdisk")

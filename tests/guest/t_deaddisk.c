/*
 * tests/guest/t_deaddisk.c - a disk that does not answer.  Booted
 * (t_deaddisk.ARCH.qemu-args) like t_slowdisk, on a shift=10 node, but
 * with a disk QEMU throttles to 100 bytes a second of host time: its
 * first request (a 7-sector write) goes at once, which leaves the next
 * (a read) 36 s behind, past the driver's 5 s of host time
 * (arch/virtio/virtio_blk.c).  That read must fail with E_DISKIO after the
 * bound, the device be reset (so that its late answer cannot land in
 * a buffer the kernel has reused, nor be taken for the next request), and
 * every later request fail with E_DISKIO at once, the node running on.
 * ~6 s of host time.
 */
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

static void test_unanswered_request_takes_the_disk_out(void)
{
	static uint8_t req[KR_DISK_HEADER + 7 * 512], got[512];
	uint32_t wr[4] = { KR_DISK_WRITE, 8, 0, 7 }, rd[4] = { KR_DISK_READ, 8, 0, 1 }, info = KR_DISK_INFO;
	uint64_t sectors = 0;
	int disk = pm_disklink(0);
	CHECK(disk >= 0);
	memcpy(req, wr, sizeof wr);
	memset(req + KR_DISK_HEADER, 0xa5, 7 * 512);
	struct message m = message_into(NULL, 0);
	CHECK_EQ(call(disk, req, sizeof req, -1, &m), 0);
	for (int i = 0; i < 3; i++) {
		m = message_into(got, sizeof got);
		CHECK_EQ(call(disk, rd, sizeof rd, -1, &m), E_DISKIO);
	}
	m = message_into(&sectors, sizeof sectors); /* no device work: still served */
	CHECK_EQ(call(disk, &info, sizeof info, -1, &m), 8);
	CHECK(sectors > 0);
	destroylink(disk);
}

GTESTS({ "an unanswered request: E_DISKIO, the device out of service", test_unanswered_request_takes_the_disk_out });
GTEST_MAIN("deaddisk")

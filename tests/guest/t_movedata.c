/*
 * tests/guest/t_movedata.c - MOVEDATA between data areas: reading and
 * writing another process's area through links it gave us, the rights and
 * bounds checks, 1 MiB in one call, and areas that are not (or no longer)
 * there.
 */
#include <stdlib.h>
#include <string.h>

#include "gtest.h"

static uint8_t mine[8192];

static uint32_t checksum(const uint8_t *d, uint32_t n)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum = sum * 31 + d[i];
	return sum;
}

/* Start a data-offering child: *area is the link to its area. */
static int data_child(const char *mode, const char *size, uint32_t *task, int *child, int *area)
{
	const char *argv[] = { "t_child", mode, size, NULL };
	int r = spawn_child(argv, task, child);
	if (r < 0)
		return r;
	uint32_t n;
	struct message m = message_into(&n, sizeof n);
	r = receivemessage(&m);
	*area = m.passed;
	return r < 0 ? r : (int)n;
}

static uint32_t ask_checksum(int child, uint32_t last)
{
	uint32_t sum = 0;
	struct message m = message_into(&sum, sizeof sum);
	call(child, &last, sizeof last, -1, &m);
	return sum;
}

static void end_child(int child, uint32_t task)
{
	struct kr_exit_notice ex;
	ask_checksum(child, 0);
	wait_child(task, &ex);
	destroylink(child);
}

static void read_and_write_other_process(void)
{
	uint32_t task;
	int child, area;
	CHECK_EQ(data_child("data", "4096", &task, &child, &area), 4096);
	int me = createlink(1, mine, sizeof mine, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(area, 0, me, 0, 4096), 4096);
	for (uint32_t i = 0; i < 4096; i++)
		CHECK_EQ(mine[i], (uint8_t)(i * 7 + 3));
	for (uint32_t i = 0; i < 100; i++)
		mine[i] = (uint8_t)(0xff - i);
	CHECK_EQ(movedata(me, 0, area, 1000, 100), 100);
	for (uint32_t i = 0; i < 4096; i++)
		mine[i] = (uint8_t)(i * 7 + 3);
	for (uint32_t i = 0; i < 100; i++)
		mine[1000 + i] = (uint8_t)(0xff - i);
	CHECK_EQ(ask_checksum(child, 1), checksum(mine, 4096));
	end_child(child, task);
	destroylink(area);
	destroylink(me);
}

static void rights_enforced(void)
{
	uint32_t task;
	int child, area;
	CHECK_EQ(data_child("rodata", "4096", &task, &child, &area), 4096);
	int me = createlink(1, mine, sizeof mine, LINK_READ | LINK_WRITE);
	int ro = createlink(1, mine, sizeof mine, LINK_READ);
	int wo = createlink(1, mine, sizeof mine, LINK_WRITE);
	CHECK_EQ(movedata(area, 0, me, 0, 16), 16);
	CHECK_EQ(movedata(me, 0, area, 0, 16), E_RIGHTS);  /* their area is read-only */
	CHECK_EQ(movedata(me, 0, ro, 0, 16), E_RIGHTS);
	CHECK_EQ(movedata(wo, 0, me, 0, 16), E_RIGHTS);
	int plain = createlink(1, NULL, 0, 0);
	CHECK_EQ(movedata(plain, 0, me, 0, 1), E_RIGHTS);
	end_child(child, task);
	destroylink(area); destroylink(me); destroylink(ro); destroylink(wo); destroylink(plain);
}

static void bounds_enforced(void)
{
	int a = createlink(1, mine, 4096, LINK_READ | LINK_WRITE);
	int b = createlink(1, mine + 4096, 4096, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(a, 0, b, 0, 4096), 4096);
	CHECK_EQ(movedata(a, 0, b, 0, 4097), E_BOUNDS);
	CHECK_EQ(movedata(a, 4000, b, 0, 97), E_BOUNDS);
	CHECK_EQ(movedata(a, 0, b, 4000, 97), E_BOUNDS);
	CHECK_EQ(movedata(a, 0xffffffff, b, 0, 2), E_BOUNDS);   /* offset + length wraps */
	CHECK_EQ(movedata(a, 1, b, 0, 0xffffffff), E_BOUNDS);
	CHECK_EQ(movedata(a, 4096, b, 4096, 0), 0);
	destroylink(a);
	destroylink(b);
}

static void within_own_process(void)
{
	for (int i = 0; i < 4096; i++)
		mine[i] = (uint8_t)i;
	int a = createlink(1, mine, 4096, LINK_READ);
	int b = createlink(1, mine + 4096, 4096, LINK_WRITE);
	CHECK_EQ(movedata(a, 10, b, 20, 1000), 1000);
	CHECK_EQ(mine[4096 + 20], 10);
	CHECK_EQ(mine[4096 + 1019], (uint8_t)1009);
	destroylink(a);
	destroylink(b);
}

static void forged_and_bad_arguments(void)
{
	int a = createlink(1, mine, 4096, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(-1, 0, a, 0, 1), E_BADLINK);
	CHECK_EQ(movedata(a, 0, 63, 0, 1), E_BADLINK);
	CHECK_EQ(kcall(K_MOVEDATA, 0, 0, 0, 0, 0), E_BADADDR);
	CHECK_EQ(kcall(K_MOVEDATA, 0x100000, 0, 0, 0, 0), E_BADADDR);
	destroylink(a);
}

static void unmapped_area(void)
{
	int a = createlink(1, mine, 4096, LINK_READ);
	int hole = createlink(1, (void *)((USER_BASE + USER_TOP) / 2), 4096, LINK_READ | LINK_WRITE);
	CHECK(hole >= 0);                        /* a range may be named before it is mapped */
	CHECK_EQ(movedata(a, 0, hole, 0, 16), E_BADADDR);
	CHECK_EQ(movedata(hole, 0, a, 0, 16), E_RIGHTS);  /* a is read-only */
	destroylink(a);
	destroylink(hole);
}

static void one_mebibyte(void)
{
	const uint32_t size = 1u << 20;
	uint32_t task;
	int child, area;
	CHECK_EQ(data_child("data", "1048576", &task, &child, &area), (int)size);
	uint8_t *buf = malloc(size);
	CHECK(buf != NULL);
	int me = createlink(1, buf, size, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(area, 0, me, 0, size), (int)size);
	CHECK_EQ(checksum(buf, size), ask_checksum(child, 1));
	for (uint32_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(i >> 3);
	CHECK_EQ(movedata(me, 0, area, 0, size), (int)size);
	CHECK_EQ(ask_checksum(child, 1), checksum(buf, size));
	end_child(child, task);
	destroylink(me);
	destroylink(area);
	free(buf);
}

static void dead_owner(void)
{
	uint32_t task;
	int child, area;
	CHECK_EQ(data_child("data", "4096", &task, &child, &area), 4096);
	end_child(child, task);
	int me = createlink(1, mine, 4096, LINK_READ | LINK_WRITE);
	CHECK_EQ(movedata(area, 0, me, 0, 16), E_DEAD);
	destroylink(me);
	destroylink(area);
}

GTESTS(
	{ "read and write another process's area", read_and_write_other_process },
	{ "rights enforced", rights_enforced },
	{ "bounds enforced", bounds_enforced },
	{ "within own process", within_own_process },
	{ "forged links and bad arguments", forged_and_bad_arguments },
	{ "area not mapped", unmapped_area },
	{ "1 MiB between processes", one_mebibyte },
	{ "owner of the area has ended", dead_owner },
);
GTEST_MAIN("movedata")

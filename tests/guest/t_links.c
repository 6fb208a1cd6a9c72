/*
 * tests/guest/t_links.c - CREATELINK and DESTROYLINK: normal use, every
 * error code, and that a link index is only ever a slot in the caller's own
 * table.
 */
#include <string.h>

#include "gtest.h"

static uint8_t area[256];

static void create_plain(void)
{
	int l = createlink(1, NULL, 0, 0);
	CHECK(l >= LINK_FIRST_FREE);
	CHECK_EQ(destroylink(l), 0);
}

static void create_with_data_area(void)
{
	int l = createlink(2, area, sizeof area, LINK_READ | LINK_WRITE);
	CHECK(l >= LINK_FIRST_FREE);
	CHECK_EQ(destroylink(l), 0);
}

static void create_bad_rights(void)
{
	CHECK_EQ(createlink(3, area, sizeof area, 0x80), E_INVAL);
	CHECK_EQ(createlink(3, area, sizeof area, LINK_KCTL), E_INVAL);   /* not for processes */
	CHECK_EQ(createlink(3, area, sizeof area, LINK_REPLY), E_INVAL);
	CHECK_EQ(createlink(3, NULL, 0, LINK_READ), E_INVAL);             /* rights without area */
}

static void create_area_outside_user_space(void)
{
	CHECK_EQ(createlink(4, (void *)0x100000, 4096, LINK_READ), E_BADADDR);
	CHECK_EQ(createlink(4, (void *)0xbffff000, 0x2000, LINK_READ), E_BADADDR);
	CHECK_EQ(createlink(4, (void *)0x40000000, 0xffffffff, LINK_READ), E_BADADDR);
}

static void create_bad_argument_pointer(void)
{
	CHECK_EQ(kcall(K_CREATELINK, 0, 0, 0, 0, 0), E_BADADDR);
	CHECK_EQ(kcall(K_CREATELINK, 0x100000, 0, 0, 0, 0), E_BADADDR);
	CHECK_EQ(kcall(K_CREATELINK, 0x70000000, 0, 0, 0, 0), E_BADADDR); /* unmapped */
}

static void destroy_twice(void)
{
	int l = createlink(5, NULL, 0, 0);
	CHECK_EQ(destroylink(l), 0);
	CHECK_EQ(destroylink(l), E_BADLINK);
}

static void destroy_forged_indices(void)
{
	CHECK_EQ(destroylink(-1), E_BADLINK);
	CHECK_EQ(destroylink(NLINK), E_BADLINK);
	CHECK_EQ(destroylink(0x7fffffff), E_BADLINK);
	CHECK_EQ(destroylink(NLINK - 1), E_BADLINK); /* in range, not in use */
}

static void table_full(void)
{
	int made[NLINK], n = 0, r;
	while ((r = createlink(6, NULL, 0, 0)) >= 0)
		made[n++] = r;
	CHECK_EQ(r, E_NOSPACE);
	CHECK(n > 50);
	CHECK_EQ(destroylink(made[0]), 0);
	r = createlink(6, NULL, 0, 0);
	CHECK_EQ(r, made[0]);
	for (int i = 0; i < n; i++)
		destroylink(made[i]);
}

static void code_travels_with_message(void)
{
	int l = createlink(0xabcd, NULL, 0, 0);
	uint32_t v = 5;
	CHECK_EQ(sendmessage(l, &v, 4, -1), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(m.code, 0xabcd);
	CHECK_EQ(m.from & 0xffff0000u, 0x10000u); /* node 1 */
	destroylink(l);
}

static void standard_links_present(void)
{
	/* the pm gave us pm, ns and console: a kernel-link request works */
	uint32_t node = 0;
	CHECK_EQ(node_info(&node, NULL), 0);
	CHECK_EQ(node, 1);
}

GTESTS(
	{ "create plain link", create_plain },
	{ "create link with data area", create_with_data_area },
	{ "create with bad rights", create_bad_rights },
	{ "create with area outside user space", create_area_outside_user_space },
	{ "create with bad argument pointer", create_bad_argument_pointer },
	{ "destroy twice", destroy_twice },
	{ "destroy forged indices", destroy_forged_indices },
	{ "link table full and reused", table_full },
	{ "link code travels with message", code_travels_with_message },
	{ "standard links present", standard_links_present },
);
GTEST_MAIN("links")

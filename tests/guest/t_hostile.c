/*
 * tests/guest/t_hostile.c - a hostile process: it tries kernel requests it
 * has no right to, malformed requests to the kernel, the process manager
 * and the name service, runaway memory, and other processes' memory.  None
 * of it may crash the kernel or reach what was not given.
 */
#include <stdlib.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/ns.h"
#include "servers/lib/pm.h"

static volatile uint32_t secret = 1;

static void kernel_control_needs_rights(void)
{
	uint32_t req[3] = { KR_KILL, 0x10001, 0 };  /* kill the pm, over our console link */
	struct message m = message_into(req, sizeof req);
	CHECK_EQ(call(LINK_CONSOLE, req, 8, -1, &m), E_RIGHTS);
	req[0] = KR_CREATE;
	CHECK_EQ(call(LINK_CONSOLE, req, 12, -1, &m), E_RIGHTS);
	req[0] = KR_SETMETER;
	CHECK_EQ(call(LINK_CONSOLE, req, 12, -1, &m), E_RIGHTS);
	uint32_t off[2] = { KR_POWEROFF, 0 };
	CHECK_EQ(sendmessage(LINK_CONSOLE, off, 8, -1), E_RIGHTS);
	CHECK_EQ(node_info(NULL, NULL), 0);          /* still here */
}

static void malformed_kernel_requests(void)
{
	uint32_t req[2] = { KR_BRK, 0 };
	struct message m = message_into(req, sizeof req);
	CHECK_EQ(call(LINK_CONSOLE, req, 4, -1, &m), E_BADREQ);  /* missing argument */
	req[1] = 0x10000;                                       /* below our program */
	CHECK_EQ(call(LINK_CONSOLE, req, 8, -1, &m), E_NOMEM);
	req[1] = 0xb0000000;                                    /* far past the limit */
	CHECK_EQ(call(LINK_CONSOLE, req, 8, -1, &m), E_NOMEM);
	CHECK_EQ(sendmessage(LINK_CONSOLE, req, 0, -1), E_BADREQ);
}

static void runaway_malloc_fails_cleanly(void)
{
	void *p = malloc(200u << 20);
	CHECK(p == NULL);
	p = malloc(1 << 20);
	CHECK(p != NULL);
	free(p);
}

static void malformed_pm_requests(void)
{
	struct pm_request req;
	struct pm_reply rep;
	memset(&req, 0, sizeof req);
	struct message m = message_into(&rep, sizeof rep);
	CHECK_EQ(call(LINK_PM, &req, 3, -1, &m), (int)sizeof rep);
	CHECK_EQ(rep.status, E_BADREQ);
	req.op = 99;
	CHECK_EQ(call(LINK_PM, &req, PM_REQUEST_HEADER, -1, &m), (int)sizeof rep);
	CHECK_EQ(rep.status, E_BADREQ);
	req.op = PM_CREATE;
	req.args_len = 5;
	memcpy(req.args, "hello", 5);                      /* not NUL-terminated */
	CHECK_EQ(call(LINK_PM, &req, PM_REQUEST_HEADER + 5, -1, &m), (int)sizeof rep);
	CHECK_EQ(rep.status, E_BADREQ);
	req.args_len = 900;                                 /* claims more than sent */
	CHECK_EQ(call(LINK_PM, &req, PM_REQUEST_HEADER + 5, -1, &m), (int)sizeof rep);
	CHECK_EQ(rep.status, E_BADREQ);
	req.op = PM_KILL;
	req.task = 0x10001;                                 /* the pm itself: not ours */
	CHECK_EQ(call(LINK_PM, &req, PM_REQUEST_HEADER, -1, &m), (int)sizeof rep);
	CHECK(rep.status < 0);
}

static void name_service(void)
{
	int l = self_link(0x1234);
	CHECK_EQ(ns_lookup("t_hostile.none"), E_NONAME);
	CHECK_EQ(ns_register("t_hostile.svc", l), 0);
	int found = ns_lookup("t_hostile.svc");
	CHECK(found >= 0);
	uint32_t v = 1;
	CHECK_EQ(sendmessage(found, &v, 4, -1), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(m.code, 0x1234);                            /* the registered link */
	CHECK_EQ(ns_unregister("t_hostile.svc"), 0);
	CHECK_EQ(ns_lookup("t_hostile.svc"), E_NONAME);
	CHECK_EQ(ns_register("", l), E_INVAL);
	CHECK_EQ(ns_register("x", -1), E_BADREQ);            /* nothing to register */
	destroylink(found);
	destroylink(l);
}

static void other_address_spaces_unreachable(void)
{
	/* A child running this same program writes its own `secret`; ours,
	 * at the same address, must not change. */
	const char *argv[] = { "t_hostile", "scribble", NULL };
	uint32_t task;
	struct kr_exit_notice ex;
	secret = 1;
	CHECK_EQ(spawn_child(argv, &task, NULL), 0);
	CHECK_EQ(wait_child(task, &ex), 0);
	CHECK_EQ(ex.reason, EXIT_NORMAL);
	CHECK_EQ(ex.status, 0x5c);                           /* it did write */
	CHECK_EQ(secret, 1);
}

static void kernel_pointers_everywhere(void)
{
	uint32_t k = 0x00100000, top = 0xffffff00;
	CHECK_EQ(kcall(K_SENDMESSAGE, LINK_CONSOLE, k, 64, (uint32_t)-1, 0), E_BADADDR);
	struct kcall_received got;
	uint32_t v = KR_NODE;
	CHECK_EQ(kcall_receive(K_CALL, LINK_CONSOLE, k, 64, (uint32_t)-1, k, 64, &got), E_BADADDR);
	CHECK_EQ(kcall_receive(K_CALL, LINK_CONSOLE, (uint32_t)(uintptr_t)&v, 4, (uint32_t)-1, k, 64, &got), E_BADADDR);
	CHECK_EQ(kcall_receive(K_RECEIVEMESSAGE, top, 64, 0, 0, 0, 0, &got), E_BADADDR);
	CHECK_EQ(kcall(K_MOVEDATA, top, 0, 0, 0, 0), E_BADADDR);
	CHECK_EQ(kcall(K_CREATELINK, top, 0, 0, 0, 0), E_BADADDR);
	CHECK_EQ(node_info(NULL, NULL), 0);
}

GTESTS(
	{ "kernel control needs rights", kernel_control_needs_rights },
	{ "malformed kernel requests", malformed_kernel_requests },
	{ "runaway malloc fails cleanly", runaway_malloc_fails_cleanly },
	{ "malformed process-manager requests", malformed_pm_requests },
	{ "name service register, lookup, errors", name_service },
	{ "other address spaces unreachable", other_address_spaces_unreachable },
	{ "kernel pointers in every call", kernel_pointers_everywhere },
);

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "scribble")) {
		secret = 0xdead;
		return secret == 0xdead ? 0x5c : 1;
	}
	return gtest_run("hostile", gtests, sizeof gtests / sizeof gtests[0]);
}

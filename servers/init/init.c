/*
 * servers/init/init.c - the first program the kernel starts besides the
 * process manager and name service.  Its arguments come from the kernel
 * command line: `init [--halt] PROGRAM ARGS...` runs PROGRAM through the
 * process manager, reports how it ended and, with --halt, powers the node
 * off with a status the host can read (INIT_EXIT_OK or INIT_EXIT_FAIL).
 * Without a program it waits, leaving the node to requests from outside.
 */
#include <stdio.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define LINK_KPOWER_SLOT 3
#define INIT_EXIT_OK 0x20   /* QEMU exits with status 65 */
#define INIT_EXIT_FAIL 0x21 /* QEMU exits with status 67 */

static void poweroff(uint32_t code)
{
	uint32_t req[2] = { KR_POWEROFF, code };
	fflush(stdout);
	sendmessage(LINK_KPOWER_SLOT, req, sizeof req, -1);
}

static void idle(void)
{
	uint8_t buf[64];
	for (;;) {
		struct message m = message_into(buf, sizeof buf);
		receivemessage(&m);
	}
}

int main(int argc, char **argv)
{
	int first = 1, halt = 0;
	if (argc > 1 && !strcmp(argv[1], "--halt")) {
		halt = 1;
		first = 2;
	}
	if (first >= argc)
		idle();
	int notify = createlink(1, NULL, 0, 0);
	uint32_t task;
	int r = notify < 0 ? notify : pm_spawn((const char *const *)argv + first, notify, &task);
	if (r < 0) {
		printf("init: cannot run %s: %s\n", argv[first], kerror_name(r));
		if (halt)
			poweroff(INIT_EXIT_FAIL);
		idle();
	}
	struct kr_exit_notice n;
	r = pm_wait(task, &n);
	int ok = r == 0 && n.reason == EXIT_NORMAL && n.status == 0;
	if (r == 0)
		printf("init: %s ended: %s, status %d\n", argv[first], exit_reason_name(n.reason), (int)n.status);
	if (halt)
		poweroff(ok ? INIT_EXIT_OK : INIT_EXIT_FAIL);
	idle();
}

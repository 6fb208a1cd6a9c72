/*
 * tests/fuzz/fuzz_control.c - the controller's command language
 * (qemu/control/control.h) as `dpm control` reads it, line by line, with
 * nodes that accept every request (as test_control.c's fake does).  A line
 * starting with '>' is not a command but output reported by the last
 * process created; whenever the controller waits, every running process
 * is reported ended, so `wait` returns at once.  The controller runs in a
 * directory of its own (its state dir, removed at exit; libFuzzer must
 * then be given absolute paths), and the commands that name a host
 * file (`sink`, `getlog`, `filter`, `source`) are skipped when a '/' is on
 * their line, so they write and read only there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fuzz.h"
#include "qemu/control/control.h"

static struct control ctl;
static uint32_t tasks[CONTROL_MAX_PROCS * 2];
static size_t ntasks;
static uint32_t next_pid;

static void remember(uint32_t task)
{
	if (ntasks < sizeof tasks / sizeof tasks[0])
		tasks[ntasks++] = task;
}

static int node_of(const char *machine, uint32_t *node, char *err, size_t errlen)
{
	char *end;
	unsigned long n = strtoul(machine[0] == 'n' ? machine + 1 : machine, &end, 10);
	if (*end || n == 0 || n > 255) {
		snprintf(err, errlen, "no node %s", machine);
		return -1;
	}
	*node = (uint32_t)n;
	return 0;
}

static int n_create(void *ctx, const char *machine, char *const argv[], const char *input,
		    uint32_t flags, const char *filter, uint32_t *task, char *err, size_t errlen)
{
	(void)ctx, (void)argv, (void)input, (void)flags, (void)filter;
	uint32_t node;
	if (node_of(machine, &node, err, errlen) < 0)
		return -1;
	*task = node << 16 | (++next_pid & 0xffff);
	remember(*task);
	return 0;
}

static int n_setmeter(void *ctx, uint32_t task, uint32_t flags, const char *filter, char *err,
		      size_t errlen)
{
	(void)ctx, (void)task, (void)flags, (void)filter, (void)err, (void)errlen;
	return 0;
}

static int n_op(void *ctx, uint32_t task, char *err, size_t errlen)
{
	(void)ctx, (void)task, (void)err, (void)errlen;
	return 0;
}

static int n_acquire(void *ctx, const char *machine, uint32_t pid, uint32_t *task, char *err,
		     size_t errlen)
{
	(void)ctx;
	uint32_t node;
	if (node_of(machine, &node, err, errlen) < 0)
		return -1;
	*task = node << 16 | (pid & 0xffff);
	remember(*task);
	return 0;
}

static int n_input(void *ctx, uint32_t task, const char *bytes, size_t len, char *err,
		   size_t errlen)
{
	(void)ctx, (void)task, (void)err, (void)errlen;
	if (len && !bytes)
		fuzz_fail("input of %zu bytes with no bytes", len);
	return 0;
}

static int n_sync_log(void *ctx, const char *filter, const char *log, char *err, size_t errlen)
{
	(void)ctx, (void)filter, (void)log, (void)err, (void)errlen;
	return 0;
}

/* The nodes report every process they were asked for as ended. */
static void n_poll(void *ctx, int ms)
{
	(void)ctx;
	if (ms == 0)
		return;
	for (size_t i = 0; i < ntasks; i++)
		control_process_ended(&ctl, tasks[i], 1, (int32_t)i);
	ntasks = 0;
}

static const struct control_nodes nodes = {
	.create = n_create, .setmeter = n_setmeter, .start = n_op, .stop = n_op, .kill = n_op,
	.acquire = n_acquire, .input = n_input, .sync_log = n_sync_log, .poll = n_poll,
};

/* Whether the line's command is one that writes or reads a host file. */
static int names_host_file(const char *line)
{
	static const char *const cmds[] = { "sink", "getlog", "filter", "source" };
	line += strspn(line, " \t\r");
	size_t n = strcspn(line, " \t\r");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (n == strlen(cmds[i]) && !strncasecmp(line, cmds[i], n))
			return 1;
	return 0;
}

static char dir[64];
static FILE *devnull;

/* The directory and what the commands wrote there go at exit. */
static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull) {
		snprintf(dir, sizeof dir, "/tmp/dpm-fuzz-control-XXXXXX");
		if (!mkdtemp(dir) || chdir(dir) < 0 || !(devnull = fopen("/dev/null", "w")))
			fuzz_fail("cannot make a directory to run in");
		atexit(remove_dir);
	}
	control_init(&ctl, &nodes, dir);
	ctl.terminal = ctl.out = ctl.err = devnull;
	ntasks = 0;
	next_pid = 0;
	char *text = fuzz_text(data, size);
	char *line = text;
	int lineno = 1;
	for (char *end; line < text + size; line = end + 1, lineno++) {
		end = memchr(line, '\n', (size_t)(text + size - line));
		if (!end)
			end = text + size;
		*end = '\0';
		if (strchr(line, '/') && names_host_file(line))
			continue;
		if (line[0] == '>') {
			if (ntasks)
				control_process_output(&ctl, tasks[ntasks - 1], line + 1, strlen(line + 1));
			continue;
		}
		char where[32];
		snprintf(where, sizeof where, "fuzz:%d", lineno);
		if (control_line(&ctl, line, where, 0) == CR_EXIT)
			break;
	}
	control_end_of_input(&ctl);
	control_fini(&ctl);
	free(text);
	return 0;
}

/*
 * servers/lib/newlib_glue.c - the system calls newlib expects, on DEMOS
 * terms: standard I/O goes as messages over the stdio link, or output over
 * the console (kernel) link when there is none (stdio_proto.h), the heap
 * grows through the kernel link's KR_BRK request, exit is STOPTASK.  There
 * is no file system behind these (the DEMOS file system is a server reached
 * by messages), so file calls fail with ENOSYS-style errors.
 * i386 newlib calls them without a leading underscore, ARM newlib with one;
 * GLUE() names each for the target.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/time.h>

#include "demos.h"
#include "stdio_proto.h"

#ifdef __arm__
#define GLUE(name) _##name
#else
#define GLUE(name) name
#endif

#undef errno
extern int errno;

char *__env[1] = { 0 };
char **environ = __env;

/* Standard input and output go over LINK_STDIO when the controller's
 * agent gave the process one (stdio_proto.h), else output goes to the
 * node's console and input is empty.  Which it is is found on first use. */
static enum { STDIO_UNKNOWN, STDIO_LINK, STDIO_CONSOLE } stdio_path;

/* One STDIO_WRITE; its status, or the CALL's error. */
static int stdio_write_chunk(const uint8_t *bytes, uint32_t n)
{
	static uint8_t req[4 + STDIO_WRITE_MAX];
	uint32_t op = STDIO_WRITE;
	int32_t status = 0;
	memcpy(req, &op, 4);
	memcpy(req + 4, bytes, n);
	struct message m = message_into(&status, sizeof status);
	int r = call(LINK_STDIO, req, 4 + n, -1, &m);
	return r < 0 ? r : r == (int)sizeof status ? status : E_BADREQ;
}

static int stdio_write(const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint32_t done = 0;
	while (stdio_path != STDIO_CONSOLE && done < len) {
		uint32_t n = len - done > STDIO_WRITE_MAX ? STDIO_WRITE_MAX : len - done;
		if (stdio_write_chunk(p + done, n) < 0) {
			stdio_path = STDIO_CONSOLE; /* none, or the agent is gone */
			break;
		}
		stdio_path = STDIO_LINK;
		done += n;
	}
	if (done < len && console_write(p + done, len - done) < 0)
		return -1;
	return (int)len;
}

int GLUE(write)(int fd, const void *buf, int len);
int GLUE(write)(int fd, const void *buf, int len)
{
	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	if (len <= 0)
		return 0;
	return stdio_write(buf, (uint32_t)len);
}

int GLUE(read)(int fd, void *buf, int len);
int GLUE(read)(int fd, void *buf, int len)
{
	if (fd != 0) {
		errno = EBADF;
		return -1;
	}
	if (len <= 0 || stdio_path == STDIO_CONSOLE)
		return 0; /* no standard input: it is empty */
	uint32_t req[2] = { STDIO_READ, (uint32_t)len < MSG_MAX ? (uint32_t)len : MSG_MAX };
	struct message m = message_into(buf, req[1]);
	int r = call(LINK_STDIO, req, sizeof req, -1, &m);
	if (r < 0) {
		if (stdio_path == STDIO_UNKNOWN)
			stdio_path = STDIO_CONSOLE;
		return 0;
	}
	stdio_path = STDIO_LINK;
	return r;
}

void *GLUE(sbrk)(int incr);
void *GLUE(sbrk)(int incr)
{
	static uint32_t cur;
	if (!cur) {
		int r = program_break(0);
		if (r < 0)
			goto fail;
		cur = (uint32_t)r;
	}
	uint32_t old = cur, want = cur + (uint32_t)incr;
	if (incr > 0) {
		int r = program_break(want);
		if (r < 0 || (uint32_t)r < want)
			goto fail;
	}
	cur = want;
	return (void *)(uintptr_t)old;
fail:
	errno = ENOMEM;
	return (void *)-1;
}

/* newlib's exit() flushes stdio and then calls _exit, on both machines. */
void _exit(int status);
void _exit(int status) { stoptask(status); }

int GLUE(close)(int fd) { (void)fd; return 0; }
int GLUE(fstat)(int fd, struct stat *st) { (void)fd; st->st_mode = S_IFCHR; return 0; }
int GLUE(isatty)(int fd) { return fd <= 2; }
int GLUE(lseek)(int fd, int off, int whence) { (void)fd; (void)off; (void)whence; errno = ESPIPE; return -1; }
int GLUE(open)(const char *name, int flags, int mode) { (void)name; (void)flags; (void)mode; errno = ENOSYS; return -1; }
int GLUE(getpid)(void) { return 1; }
int GLUE(kill)(int pid, int sig) { (void)pid; (void)sig; errno = EINVAL; return -1; }
int GLUE(link)(const char *a, const char *b) { (void)a; (void)b; errno = ENOSYS; return -1; }
int GLUE(unlink)(const char *name) { (void)name; errno = ENOSYS; return -1; }
int GLUE(stat)(const char *name, struct stat *st) { (void)name; (void)st; errno = ENOSYS; return -1; }
int GLUE(fork)(void) { errno = ENOSYS; return -1; }
int GLUE(wait)(int *status) { (void)status; errno = ECHILD; return -1; }
int GLUE(execve)(const char *n, char *const a[], char *const e[]) { (void)n; (void)a; (void)e; errno = ENOSYS; return -1; }

clock_t GLUE(times)(struct tms *t)
{
	uint64_t now, cpu;
	if (node_time(&now, &cpu) < 0)
		return (clock_t)-1;
	t->tms_utime = (clock_t)(cpu / 10000000);
	t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
	return (clock_t)(now / 10000000);
}

int GLUE(gettimeofday)(struct timeval *tv, void *tz)
{
	(void)tz;
	uint64_t now;
	if (node_time(&now, 0) < 0)
		return -1;
	tv->tv_sec = (time_t)(now / 1000000000u);
	tv->tv_usec = (suseconds_t)(now % 1000000000u / 1000);
	return 0;
}

#ifdef __arm__
/* ARM has no divide trap: the run-time ABI's division routines call these
 * on a zero divisor.  UDF #0xd1 is the undefined instruction the ARM
 * kernel reports as a divide fault (arch/arm/trap.c), so a division by
 * zero ends the process as x86's #DE does. */
int __aeabi_idiv0(int r);
int __aeabi_idiv0(int r)
{
	__asm__ volatile(".inst 0xe7f00df1"); /* udf #0xd1 */
	return r;
}

long long __aeabi_ldiv0(long long r);
long long __aeabi_ldiv0(long long r)
{
	__asm__ volatile(".inst 0xe7f00df1");
	return r;
}
#endif

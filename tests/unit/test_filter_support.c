/*
 * tests/unit/test_filter_support.c - see test_filter_support.h.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/tracelog/log.h"
#include "hostfilter/tracelog/logformat.h"
#include "hostfilter/filter/meterstream.h"
#include "test_filter_support.h"

static size_t record(uint8_t *out, uint32_t machine, uint32_t type, uint32_t seq, uint32_t task,
		     const void *body, size_t body_len)
{
	struct trace_header h = { machine, type, 1000ull * seq, 10ull * seq, seq, 1, task,
				  (uint32_t)(TRACE_HEADER_SIZE + body_len) };
	memcpy(out, &h, sizeof h);
	memcpy(out + sizeof h, body, body_len);
	return h.size;
}

size_t tf_send(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
	       uint32_t channel, uint64_t msg)
{
	struct trace_send b = { from, to, channel, 7, 2, NO_LINK, msg, 100, 0 };
	return record(out, machine, TRACE_SEND, seq, from, &b, sizeof b);
}

size_t tf_queued(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
		 uint64_t msg)
{
	struct trace_queued b = { from, to, msg, 100, 1, 0, 7 };
	return record(out, machine, TRACE_QUEUED, seq, to, &b, sizeof b);
}

size_t tf_receive(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
		  uint64_t msg)
{
	struct trace_receive b = { from, to, 1, 7, msg, 100, NO_LINK, 0, 0 };
	return record(out, machine, TRACE_RECEIVE, seq, to, &b, sizeof b);
}

size_t tf_receivecall(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t task,
		      uint32_t blocking)
{
	struct trace_receivecall b = { task, 0, blocking, 0 };
	return record(out, machine, TRACE_RECEIVECALL, seq, task, &b, sizeof b);
}

size_t tf_dropped(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t count)
{
	struct trace_dropped b = { count, 0 };
	return record(out, machine, TRACE_DROPPED, seq, 0, &b, sizeof b);
}

size_t tf_term(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t task, uint32_t reason)
{
	struct trace_process b = { TASK_MAKE(machine, 1), task, reason, 0 };
	return record(out, machine, TRACE_TERMPROCESS, seq, task, &b, sizeof b);
}

size_t tf_mark(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t token)
{
	struct trace_mark b = { token, 0 };
	return record(out, machine, TRACE_MARK, seq, TASK_MAKE(machine, 4), &b, sizeof b);
}

size_t tf_batch(uint8_t *out, uint32_t machine, uint16_t count, const uint8_t *recs,
		size_t bytes)
{
	struct meter_batch_header h = { METER_BATCH_MAGIC, METER_BATCH_VERSION, count, machine,
					(uint32_t)bytes };
	memcpy(out, &h, sizeof h);
	memmove(out + sizeof h, recs, bytes);
	return sizeof h + bytes;
}

size_t tf_send_batch(uint8_t *out, uint32_t machine, uint32_t seq0, unsigned n)
{
	uint8_t recs[1024 * TRACE_MAX_SIZE];
	size_t len = 0;
	for (unsigned i = 0; i < n; i++)
		len += tf_send(recs + len, machine, seq0 + i, TASK_MAKE(machine, 3),
			       TASK_MAKE(machine + 1, 3), 0, ((uint64_t)machine << 48) | (seq0 + i));
	return tf_batch(out, machine, (uint16_t)n, recs, len);
}

size_t tf_message_batch(uint8_t *out, int dropped)
{
	uint8_t recs[8 * TRACE_MAX_SIZE];
	size_t n = 0;
	uint64_t msg = (1ull << 48) | 42;
	n += tf_send(recs + n, 1, 10, TASK_MAKE(1, 3), TASK_MAKE(2, 3), 6, msg);
	n += tf_queued(recs + n, 1, 11, TASK_MAKE(1, 3), TASK_MAKE(2, 3), msg);
	n += tf_receive(recs + n, 1, 12, TASK_MAKE(1, 3), TASK_MAKE(2, 3), msg);
	n += tf_term(recs + n, 1, 13, TASK_MAKE(1, 3), 2);
	if (dropped)
		n += tf_dropped(recs + n, 1, 14, 3);
	return tf_batch(out, 1, (uint16_t)(dropped ? 5 : 4), recs, n);
}

/* ---- files ---------------------------------------------------------- */

const char *tf_dir(void)
{
	static char dir[64];
	if (!dir[0]) {
		strcpy(dir, "/tmp/dpm-filter-test-XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	return dir;
}

const char *tf_path(const char *name)
{
	static char paths[8][256];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, 256, "%s/%s", tf_dir(), name);
	return p;
}

void tf_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

void tf_write_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

void tf_write_log(const char *path, const char *descs, const void *records, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fprintf(f, "%sdescriptions %zu crc32 %08x\n%s%s", LOG_MAGIC, strlen(descs),
		(unsigned)log_crc32(descs, strlen(descs)), descs, LOG_RECORDS_LINE);
	if (len) {
		uint8_t h[LOG_BLOCK_HEADER];
		log_block_header(h, (uint32_t)len, log_crc32(records, len));
		assert_int_equal(fwrite(h, 1, sizeof h, f), sizeof h);
		assert_int_equal(fwrite(records, 1, len, f), len);
	}
	assert_int_equal(fclose(f), 0);
}

void tf_overwrite(const char *path, long at, const void *bytes, size_t n)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, at, at < 0 ? SEEK_END : SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

void tf_truncate_by(const char *path, long bytes)
{
	FILE *f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_int_equal(ftruncate(fileno(f), ftell(f) - bytes), 0);
	fclose(f);
}

char *tf_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	do {
		if (len + 4096 + 1 > cap) {
			cap = (cap + 4096) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = 0;
	return buf;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int tf_cleanup(void **state)
{
	(void)state;
	return nftw(tf_dir(), remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

void tf_make_log(const char *path, const char *rules_text, const uint8_t *stream, size_t len)
{
	char err[512];
	struct formats fm;
	struct rules rules;
	struct filter_core core;
	struct meter_stream s;
	assert_int_equal(formats_load(&fm, NULL, err, sizeof err), 0);
	if (rules_text)
		assert_int_equal(rules_parse(&rules, &fm, "rules", rules_text, strlen(rules_text), err,
					     sizeof err), 0);
	else
		assert_int_equal(rules_load(&rules, &fm, NULL, err, sizeof err), 0);
	assert_int_equal(core_open(&core, &fm, &rules, path, err, sizeof err), 0);
	core.quiet = 1;
	assert_int_equal(stream_open(&core, &s), 0);
	int rc = 0;
	while (len > 0 && rc == 0) {
		size_t room;
		uint8_t *space = stream_space(&s, &room);
		size_t n = len < room ? len : room;
		memcpy(space, stream, n);
		stream += n;
		len -= n;
		rc = stream_received(&core, &s, n);
	}
	assert_true(rc >= 0);
	if (rc == 0)
		assert_int_equal(stream_end(&core, &s, 0), 0);
	stream_free(&s);
	assert_int_equal(core_close(&core, err, sizeof err), 0);
	rules_free(&rules);
	formats_free(&fm);
}

/* ---- child processes ------------------------------------------------ */

static int argv_count(const char *const *argv)
{
	int n = 0;
	while (argv[n])
		n++;
	return n;
}

static void redirect(int fd, const char *path)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (f < 0 || dup2(f, fd) < 0)
		_exit(99);
	close(f);
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int tf_run(int (*main_fn)(int, char **), const char *const *argv, const char *in_path,
	   const char *out_path, const char *err_path)
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = in_path ? open(in_path, O_RDONLY) : STDIN_FILENO;
		if (in < 0 || dup2(in, STDIN_FILENO) < 0)
			_exit(99);
		redirect(STDOUT_FILENO, out_path);
		redirect(STDERR_FILENO, err_path);
		int rc = main_fn(argv_count(argv), (char **)argv);
		fflush(NULL);
		_exit(rc);
	}
	return wait_status(pid);
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

void tf_filter_start(struct tf_filter *f, const char *name, const char *const *extra)
{
	char log[256], err[256], port_file[256];
	snprintf(log, sizeof log, "%s/%s.log", tf_dir(), name);
	snprintf(err, sizeof err, "%s/%s.err", tf_dir(), name);
	snprintf(port_file, sizeof port_file, "%s/%s.port", tf_dir(), name);
	unlink(port_file);
	const char *argv[32] = { "filter", "--port", "0", "--port-file", port_file,
				 "--timeout", "60", "-o", log };
	int n = 9;
	for (int i = 0; extra && extra[i] && n < 31; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	snprintf(f->log, sizeof f->log, "%s", log);
	snprintf(f->err, sizeof f->err, "%s", err);
	fflush(NULL);
	f->pid = fork();
	assert_true(f->pid >= 0);
	if (f->pid == 0) {
		redirect(STDERR_FILENO, err);
		_exit(filter_main(n, (char **)argv));
	}
	for (int tries = 0; tries < 500; tries++) { /* up to 5 s */
		FILE *pf = fopen(port_file, "r");
		if (pf) {
			int ok = fscanf(pf, "%d", &f->port) == 1;
			fclose(pf);
			if (ok)
				return;
		}
		sleep_ms(10);
	}
	kill(f->pid, SIGKILL);
	fail_msg("the filter did not write its port file");
}

int tf_filter_stop(struct tf_filter *f)
{
	kill(f->pid, SIGTERM);
	for (int tries = 0; tries < 1000; tries++) { /* up to 10 s */
		int st;
		pid_t r = waitpid(f->pid, &st, WNOHANG);
		if (r == f->pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		sleep_ms(10);
	}
	kill(f->pid, SIGKILL);
	wait_status(f->pid);
	fail_msg("the filter did not stop on SIGTERM");
	return -1;
}

int tf_connect(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	return fd;
}

void tf_send_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;
	while (len > 0) {
		ssize_t k = send(fd, p, len, MSG_NOSIGNAL);
		assert_true(k > 0);
		p += k;
		len -= (size_t)k;
	}
}

long tf_count_log(const char *path, unsigned counts[257])
{
	char err[512];
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(path, err, sizeof err);
	if (!log)
		return -1;
	long total = 0;
	int r;
	memset(counts, 0, 257 * sizeof counts[0]);
	while ((r = dpm_log_next(log, &rec, err, sizeof err)) > 0) {
		if (rec.trace_type <= 256)
			counts[rec.trace_type]++;
		total++;
	}
	dpm_log_close(log);
	return r < 0 ? -1 : total;
}

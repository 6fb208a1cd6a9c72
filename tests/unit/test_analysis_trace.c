/*
 * tests/unit/test_analysis_trace.c - hand-built traces and output capture
 * for the analysis tests (see test_analysis_trace.h).
 */
#include "test_analysis_trace.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t tp(struct trace *t, unsigned node, unsigned pid)
{
	return trace_process(t, TASK_MAKE(node, pid));
}

static size_t add(struct trace *t, struct event e)
{
	e.line = (uint32_t)t->nev + 2; /* as if row 1 were a header */
	e.machine = TASK_NODE(t->proc[e.task].id);
	trace_add(t, &e);
	return t->nev - 1;
}

size_t t_send(struct trace *t, uint32_t from, uint32_t to, uint64_t time, uint64_t cpu,
	      uint64_t msg, uint32_t len)
{
	return add(t, (struct event){ .type = TRACE_SEND, .task = from, .src = from, .dst = to,
				      .time = time, .cpu = cpu, .msg_id = msg, .length = len,
				      .flags = (uint8_t)((msg ? EV_MSG_ID : 0) | EV_LENGTH) });
}

size_t t_recv(struct trace *t, uint32_t to, uint32_t from, uint64_t time, uint64_t cpu,
	      uint64_t msg, uint32_t len)
{
	return add(t, (struct event){ .type = TRACE_RECEIVE, .task = to, .src = from, .dst = to,
				      .time = time, .cpu = cpu, .msg_id = msg, .length = len,
				      .flags = (uint8_t)((msg ? EV_MSG_ID : 0) | EV_LENGTH) });
}

size_t t_queued(struct trace *t, uint32_t to, uint32_t from, uint64_t time, uint64_t msg,
		uint32_t len, uint32_t qlen)
{
	return add(t, (struct event){ .type = TRACE_QUEUED, .task = to, .src = from, .dst = to,
				      .time = time, .msg_id = msg, .length = len, .queue_len = qlen,
				      .flags = EV_MSG_ID | EV_LENGTH | EV_QUEUE_LEN });
}

size_t t_step(struct trace *t, uint32_t p, unsigned type, uint64_t time, uint64_t cpu)
{
	return add(t, (struct event){ .type = (uint8_t)type, .task = p, .src = NO_PROC,
				      .dst = p, .time = time, .cpu = cpu });
}

const char *temp_file(int slot, const char *text)
{
	static char paths[4][64];
	snprintf(paths[slot], sizeof paths[slot], "/tmp/dpm-analysis-test-XXXXXX");
	int fd = mkstemp(paths[slot]);
	if (fd < 0)
		abort();
	size_t n = strlen(text);
	if (write(fd, text, n) != (ssize_t)n)
		abort();
	close(fd);
	return paths[slot];
}

/* Run main_fn with output descriptor `which` (1 or 2) going to a file. */
static char *capture_fd(int which, int (*main_fn)(int, char **), int argc, char **argv, int *rc)
{
	char path[] = "/tmp/dpm-analysis-out-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		abort();
	fflush(stdout);
	fflush(stderr);
	int saved = dup(which);
	dup2(fd, which);
	*rc = main_fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, which);
	close(saved);
	off_t size = lseek(fd, 0, SEEK_END);
	char *out = calloc((size_t)size + 1, 1);
	if (pread(fd, out, (size_t)size, 0) != size)
		abort();
	close(fd);
	unlink(path);
	return out;
}

char *capture(int (*main_fn)(int, char **), int argc, char **argv, int *rc)
{
	return capture_fd(1, main_fn, argc, argv, rc);
}

char *capture_stderr(int (*main_fn)(int, char **), int argc, char **argv, int *rc)
{
	return capture_fd(2, main_fn, argc, argv, rc);
}

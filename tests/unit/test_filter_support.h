/*
 * tests/unit/test_filter_support.h - helpers shared by the filter's unit
 * tests: building trace records and batches as a node's kernel would,
 * running a command entry point in a child with its output captured, and
 * a filter child process on a 127.0.0.1 port.
 */
#ifndef DPM_TEST_FILTER_SUPPORT_H
#define DPM_TEST_FILTER_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/abi/trace.h"

/* Records; each returns the bytes written at out.  Header time is
 * 1000 * seq, procTime 10 * seq, load 1. */
size_t tf_send(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
	       uint32_t channel, uint64_t msg);
size_t tf_queued(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
		 uint64_t msg);
size_t tf_receive(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t from, uint32_t to,
		  uint64_t msg);
size_t tf_receivecall(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t task,
		      uint32_t blocking);
size_t tf_dropped(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t count);
size_t tf_term(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t task, uint32_t reason);
size_t tf_mark(uint8_t *out, uint32_t machine, uint32_t seq, uint32_t token);

/* A batch header then the `bytes` of records at recs; returns its length. */
size_t tf_batch(uint8_t *out, uint32_t machine, uint16_t count, const uint8_t *recs,
		size_t bytes);

/* A batch of n SEND records from node `machine` (seq from seq0). */
size_t tf_send_batch(uint8_t *out, uint32_t machine, uint32_t seq0, unsigned n);

/* One batch from node 1: SEND, QUEUED and RECEIVE of message 0x1000000000002a
 * from 1.3 to 2.3 (seq 10..12), a TERMPROCESS of 1.3 for reason 2 (seq 13),
 * and with `dropped` a DROPPED of 3 traces (seq 14). */
size_t tf_message_batch(uint8_t *out, int dropped);

/* A fresh directory for a test's files, and a path in it. */
const char *tf_dir(void);
const char *tf_path(const char *name); /* static buffer, rotating (8 at a time) */
void tf_write_file(const char *path, const char *text);
char *tf_read_file(const char *path); /* malloc'd, NUL-terminated */
void tf_truncate_by(const char *path, long bytes); /* cut the end off */

/* Run main_fn(argv) in a child with stdin from in_path (NULL: inherited)
 * and stdout and stderr going to files; returns its exit status (or 128 +
 * signal). */
int tf_run(int (*main_fn)(int, char **), const char *const *argv, const char *in_path,
	   const char *out_path, const char *err_path);

/* A log of the current format with the descriptions descs and one block
 * of `len` bytes of records (none if len is 0), as a filter would write it. */
void tf_write_log(const char *path, const char *descs, const void *records, size_t len);

/* Overwrite n bytes of a file at offset at (from the end if negative). */
void tf_overwrite(const char *path, long at, const void *bytes, size_t n);

/* Write `len` bytes to a new file. */
void tf_write_bytes(const char *path, const void *data, size_t len);

/* A `dpm filter` child listening on a free 127.0.0.1 port. */
struct tf_filter {
	pid_t pid;
	int port;
	char log[256], err[256]; /* its log and its standard error */
};
/* extra: NULL-terminated extra arguments (may be NULL). */
void tf_filter_start(struct tf_filter *f, const char *name, const char *const *extra);
/* SIGTERM and wait; returns the exit status. */
int tf_filter_stop(struct tf_filter *f);

int tf_connect(int port);
void tf_send_all(int fd, const void *data, size_t len);

/* Remove tf_dir() and its files (a cmocka group teardown). */
int tf_cleanup(void **state);

/* Write a log at `path` as the filter would from one stream of `len`
 * bytes, with the rules in rules_text (NULL: keep everything). */
void tf_make_log(const char *path, const char *rules_text, const uint8_t *stream, size_t len);

/* Records of each type in a log (counts[256] for NOTE); returns total or -1. */
long tf_count_log(const char *path, unsigned counts[257]);

#endif

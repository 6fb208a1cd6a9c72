/*
 * tests/unit/test_analysis_trace.h - building traces by hand for the
 * analysis tests: processes are named node.pid as in a CSV, events are
 * added in the order the test lists them, and a CSV file can be written
 * for tests that go through a command's entry point.
 */
#ifndef TEST_ANALYSIS_TRACE_H
#define TEST_ANALYSIS_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/model/events.h"

/* Process index of node.pid (created on first use). */
uint32_t tp(struct trace *t, unsigned node, unsigned pid);

/* Add an event; returns its index.  msg 0 means "no msg_id". */
size_t t_send(struct trace *t, uint32_t from, uint32_t to, uint64_t time, uint64_t cpu,
	      uint64_t msg, uint32_t len);
size_t t_recv(struct trace *t, uint32_t to, uint32_t from, uint64_t time, uint64_t cpu,
	      uint64_t msg, uint32_t len);
size_t t_queued(struct trace *t, uint32_t to, uint32_t from, uint64_t time, uint64_t msg,
		uint32_t len, uint32_t qlen);
/* Any other event of process p. */
size_t t_step(struct trace *t, uint32_t p, unsigned type, uint64_t time, uint64_t cpu);

/* Write text to a fresh temporary file; returns its path (static buffer
 * per call slot 0..3). */
const char *temp_file(int slot, const char *text);

/* Run main(argc, argv) with stdout captured into a temporary file whose
 * contents are returned (malloc'd); *rc gets the exit code. */
char *capture(int (*main_fn)(int, char **), int argc, char **argv, int *rc);
/* The same with stderr captured instead. */
char *capture_stderr(int (*main_fn)(int, char **), int argc, char **argv, int *rc);

#endif

/*
 * analysis/model/cli.h - what the three analysis commands share on the command
 * line: loading the input with errors in the project's form, the output
 * format switch, and printing times and JSON strings.
 */
#ifndef DPM_ANALYSIS_MODEL_CLI_H
#define DPM_ANALYSIS_MODEL_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "events.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

/* Exit codes shared by every dpm command. */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_BADINPUT = 2 };

/* Load path into t; on error print it (file:line: what is wrong) and
 * return the exit code to use (2 for unreadable or malformed input). */
int cli_load(const char *cmd, const char *path, struct trace *t);

/* Complain about the command line on stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A time in ns for people: "850 ns", "12.4 us", "3.21 ms", "1.500 s". */
const char *fmt_ns(double ns, char *buf, size_t len);

/* A JSON string literal of s (quotes included). */
void json_string(FILE *out, const char *s);

/* Parse a non-negative integer option value: 0 ok, -1 bad. */
int cli_parse_count(const char *s, size_t *out);

#endif

/*
 * qemu/dispatch.h - the table-driven dispatch of `dpm` and of its command
 * groups (`dpm cluster`, `dpm disk`), git/perf style.
 *
 * A group is a name, a table of rows (name, entry point, one-line summary)
 * and the text around its list of commands; dpm_dispatch() runs the row
 * that argv[1] names with argv shifted by one, so every entry point sees
 * its own name as argv[0].  Exit codes, shared by every command:
 * 0 success, 1 the operation failed, 2 bad usage or bad input (a few
 * commands add their own, e.g. 128+N when interrupted by signal N; see
 * docs/cluster.md and docs/control.md).
 */
#ifndef DPM_DISPATCH_H
#define DPM_DISPATCH_H

#include <stddef.h>
#include <stdio.h>

enum { DPM_EXIT_OK = 0, DPM_EXIT_FAILED = 1, DPM_EXIT_USAGE = 2 };

struct dpm_command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

struct dpm_group {
	const char *prog;     /* "dpm", "dpm cluster" */
	const char *kind;     /* in "'x' is not a KIND command" */
	const char *args;     /* after "usage: PROG " */
	const char *intro;    /* before the list of commands */
	const char *epilogue; /* after it */
	int width;            /* of the name column */
	const struct dpm_command *commands;
	size_t count;
	int (*version)(int argc, char **argv); /* --version runs it (NULL: none) */
};

/* The group's usage: its usage line, intro, one line a command, epilogue. */
void dpm_group_usage(const struct dpm_group *g, FILE *out);

/* Run the command argv[1] names (argv[0] is the group's own name).  No
 * command: usage on stderr, 2; --help, -h or help: usage on stdout, 0;
 * help CMD: what CMD --help prints (as git does); --version: the group's
 * version command; an unknown name: a message, 2.  Otherwise the
 * command's exit status. */
int dpm_dispatch(const struct dpm_group *g, int argc, char **argv);

#endif

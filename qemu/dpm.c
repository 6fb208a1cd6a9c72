/*
 * qemu/dpm.c - the `dpm` command: one entry point, a table of subcommands.
 *
 * Each subcommand lives with the component that owns it (cluster and
 * control here in qemu/, filter and dump in hostfilter/, the analyses in
 * analysis/); this file only dispatches, so adding a subcommand is one row.
 * Exit codes, shared by every subcommand: 0 success, 1 the operation
 * failed, 2 bad usage or bad input.
 */
#include <stdio.h>
#include <string.h>

#include "dpm_commands.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	DPM_SUBCOMMANDS
};

static void usage(FILE *out)
{
	fprintf(out, "usage: dpm COMMAND [ARGS...]\n\n"
		     "The Distributed Programs Monitor.  Commands:\n");
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		fprintf(out, "  %-11s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\nRun 'dpm COMMAND --help' for a command's options.\n"
		     "Exit status: 0 success, 1 operation failed, 2 bad usage or input.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "dpm: '%s' is not a dpm command (see 'dpm --help')\n", argv[1]);
	return 2;
}

int version_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		printf("usage: dpm version\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	printf("dpm 0.1 (trace format 1)\n");
	return 0;
}

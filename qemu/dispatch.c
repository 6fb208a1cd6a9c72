/*
 * qemu/dispatch.c - the one dispatcher of `dpm` and its command groups
 * (dispatch.h): a group is data, so adding a command is adding a row.
 */
#include <string.h>

#include "dispatch.h"

void dpm_group_usage(const struct dpm_group *g, FILE *out)
{
	fprintf(out, "usage: %s %s\n\n%s", g->prog, g->args, g->intro);
	for (size_t i = 0; i < g->count; i++)
		fprintf(out, "  %-*s %s\n", g->width, g->commands[i].name, g->commands[i].summary);
	fputs(g->epilogue, out);
}

int dpm_dispatch(const struct dpm_group *g, int argc, char **argv)
{
	if (argc < 2) {
		dpm_group_usage(g, stderr);
		return DPM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		dpm_group_usage(g, stdout);
		return DPM_EXIT_OK;
	}
	for (size_t i = 0; i < g->count; i++)
		if (!strcmp(argv[1], g->commands[i].name))
			return g->commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "%s: '%s' is not a %s command (see '%s --help')\n", g->prog, argv[1], g->kind,
		g->prog);
	return DPM_EXIT_USAGE;
}

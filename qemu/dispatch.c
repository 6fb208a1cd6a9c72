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
	if (g->version && !strcmp(argv[1], "--version")) {
		char *args[] = { "version", NULL };
		return g->version(1, args);
	}
	int help = !strcmp(argv[1], "help");
	if (help && argc > 3) {
		fprintf(stderr, "%s: help takes one command (see '%s --help')\n", g->prog, g->prog);
		return DPM_EXIT_USAGE;
	}
	if ((help && argc == 2) || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		dpm_group_usage(g, stdout);
		return DPM_EXIT_OK;
	}
	const char *name = help ? argv[2] : argv[1];
	for (size_t i = 0; i < g->count; i++) {
		if (strcmp(name, g->commands[i].name))
			continue;
		if (help) { /* as git: 'help CMD' is what 'CMD --help' prints */
			char *args[] = { argv[2], "--help", NULL };
			return g->commands[i].main(2, args);
		}
		return g->commands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: '%s' is not a %s command (see '%s --help')\n", g->prog, name, g->kind,
		g->prog);
	return DPM_EXIT_USAGE;
}

/*
 * qemu/dpm.c - the `dpm` command: one entry point, a table of subcommands.
 *
 * Each subcommand lives with the component that owns it (its commands/
 * folder: qemu/commands/ for cluster, control, record and disk; filter and
 * dump in hostfilter/, the analyses in analysis/); this file only holds the
 * table, and qemu/dispatch.c dispatches, so adding a subcommand is one row.
 * Exit codes, shared by every subcommand: 0 success, 1 the operation
 * failed, 2 bad usage or bad input.
 */
#include "dispatch.h"
#include "dpm_commands.h"

static const struct dpm_command subcommands[] = {
	DPM_SUBCOMMANDS
};

static const struct dpm_group dpm = {
	.prog = "dpm",
	.kind = "dpm",
	.args = "COMMAND [ARGS...]",
	.intro = "The Distributed Programs Monitor.  Commands:\n",
	.epilogue = "\nRun 'dpm help COMMAND' (or 'dpm COMMAND --help') for a command's options;\n"
		    "'dpm --version' for the version.\n"
		    "Exit status: 0 success, 1 operation failed, 2 bad usage or input (docs/cli.md).\n",
	.width = 11,
	.commands = subcommands,
	.count = sizeof subcommands / sizeof subcommands[0],
	.version = version_main,
};

int main(int argc, char **argv)
{
	return dpm_dispatch(&dpm, argc, argv);
}

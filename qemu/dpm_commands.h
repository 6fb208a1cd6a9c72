/*
 * qemu/dpm_commands.h - the rows of dpm's subcommand table.
 *
 * One row per subcommand: name, entry point, one-line summary.  Each
 * component declares its entry points here and adds its row to
 * DPM_SUBCOMMANDS; qemu/dpm.c does the dispatching.
 */
#ifndef DPM_COMMANDS_H
#define DPM_COMMANDS_H

int version_main(int argc, char **argv);

#define DPM_SUBCOMMANDS \
	{ "version", version_main, "print the version of dpm and its trace format" },

#endif

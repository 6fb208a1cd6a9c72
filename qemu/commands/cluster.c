/*
 * qemu/commands/cluster.c - `dpm cluster`: the group's table (up, status,
 * console, down, run, hub), dispatched by qemu/dispatch.c like dpm's own.
 */
#include "qemu/dispatch.h"
#include "qemu/dpm_commands.h"
#include "cluster_commands.h"

static const struct dpm_command commands[] = {
	{ "up", cluster_up_main, "boot the nodes of a cluster file in the background" },
	{ "status", cluster_status_main, "list the nodes, the switch and the services" },
	{ "console", cluster_console_main, "show (or follow, or type into) a node's console" },
	{ "down", cluster_down_main, "stop everything the cluster started" },
	{ "run", cluster_run_main, "up, run a command against the cluster, down" },
	{ "hub", cluster_hub_main, "the control hub 'up' starts (host service 'ctl'; internal)" },
};

static const struct dpm_group cluster = {
	.prog = "dpm cluster",
	.kind = "cluster",
	.args = "COMMAND [OPTIONS]",
	.intro = "Boot and manage a cluster of DPM nodes (QEMU) joined by a vde_switch.\n"
		 "Commands:\n",
	.epilogue = "\nThe state directory is --dir DIR, else $DPM_CLUSTER_DIR, else build/cluster.\n"
		    "Run 'dpm cluster COMMAND --help' for a command's options; see docs/cluster.md.\n",
	.width = 8,
	.commands = commands,
	.count = sizeof commands / sizeof commands[0],
};

int cluster_main(int argc, char **argv)
{
	return dpm_dispatch(&cluster, argc, argv);
}

/*
 * qemu/commands/cluster_down.c - `dpm cluster down`: stop a cluster and clean its
 * state directory.
 *
 * The supervisor is asked first (SIGTERM): it knows the order and reaps
 * its children.  Whatever still runs afterwards (the supervisor was killed,
 * or hangs) is stopped here from the pids in the state file, each checked
 * against its recorded start time so a reused pid is never signalled.
 * Idempotent: with nothing running it says so and succeeds.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "qemu/cluster/cluster_dir.h"
#include "cluster_commands.h"

/* The supervisor stops nodes, services and the switch, each with its own
 * grace period; give it time for all of them. */
#define SUPERVISOR_STOP_MS 12000
#define LEFTOVER_STOP_MS 3000

static int count_running(const struct cluster_state *st, enum member_kind kind)
{
	int n = 0;
	for (int i = 0; i < st->nmembers; i++)
		n += st->members[i].kind == kind && st->members[i].state != MEMBER_EXTERNAL &&
		     proc_alive(&st->members[i].proc);
	return n;
}

static void report_stopped(const char *dir, int nodes, int services, int sw)
{
	printf("stopped %d node%s", nodes, nodes == 1 ? "" : "s");
	if (services)
		printf(", %d service%s", services, services == 1 ? "" : "s");
	printf("%s in %s\n", sw ? " and the switch" : "", dir);
}

int cluster_down(const char *dir, int quiet)
{
	struct cluster_state st;
	char err[512];
	int r = state_load(dir, &st, err, sizeof err);
	if (r <= 0) {
		if (r < 0) {
			fprintf(stderr, "dpm cluster: %s; removing it\n", err);
			state_clean(dir, 0);
		} else if (!quiet) {
			printf("no cluster running in %s; nothing to stop\n", dir);
		}
		return 0;
	}
	int nodes = count_running(&st, MEMBER_NODE);
	int services = count_running(&st, MEMBER_SERVICE);
	int sw = count_running(&st, MEMBER_SWITCH);
	int supervisor = proc_alive(&st.supervisor);
	if (supervisor)
		proc_stop(&st.supervisor, 1, SUPERVISOR_STOP_MS);
	struct proc_id left[STATE_MAX_MEMBERS];
	int n = state_live_processes(&st, left);
	if (n)
		n = proc_stop(left, n, LEFTOVER_STOP_MS);
	state_clean(dir, 0);
	if (n || proc_alive(&st.supervisor)) {
		fprintf(stderr, "dpm cluster: %d process%s of the cluster in %s would not stop\n", n,
			n == 1 ? "" : "es", dir);
		return 1;
	}
	if (!quiet && (supervisor || nodes || services || sw))
		report_stopped(dir, nodes, services, sw);
	else if (!quiet)
		printf("no cluster was running in %s; removed the state it left\n", dir);
	return 0;
}

static const char down_usage[] =
	"usage: dpm cluster down [--dir DIR]\n\n"
	"Stop every node, service and the switch of the cluster in DIR (SIGTERM, then\n"
	"SIGKILL after a bounded wait) and remove its sockets, secret and state.\n"
	"Consoles and logs stay for reading.  With nothing running it says so.\n\n"
	"Exit status: 0 stopped or nothing to stop, 1 something would not stop.\n";

int cluster_down_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir_option = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'd')
			dir_option = optarg;
		else if (c == 'h')
			return fputs(down_usage, stdout), 0;
		else
			return fputs(down_usage, stderr), 2;
	}
	if (optind < argc) {
		fprintf(stderr, "dpm cluster down: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	char dir[PATH_MAX];
	return cluster_existing_dir(dir_option, dir, sizeof dir) ? 1 : cluster_down(dir, 0);
}

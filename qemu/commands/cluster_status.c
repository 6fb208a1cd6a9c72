/*
 * qemu/commands/cluster_status.c - `dpm cluster status`: one line per member of the
 * cluster (switch, services, nodes), as the state file records them,
 * checked against the live processes.
 *
 * A process the state calls running but that is gone (its supervisor died
 * before it could note the end) shows as exited with an unknown status.
 * --porcelain prints tab-separated fields without a header for scripts:
 * a first line for the cluster itself (its supervisor: up, starting or
 * gone), then one a member, so scripts never read the state file.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "qemu/cluster/cluster_dir.h"

/* The member as it is now. */
static struct member observed(const struct member *m)
{
	struct member now = *m;
	if (now.state == MEMBER_RUNNING && !proc_alive(&now.proc)) {
		now.state = MEMBER_EXITED;
		now.end = (struct proc_end){ -1, 0 };
	}
	return now;
}

static const char status_usage[] =
	"usage: dpm cluster status [--dir DIR] [--porcelain]\n\n"
	"List the cluster's switch, host services and nodes: name, node id, arch, pid,\n"
	"state (running, exited (STATUS), not-started, external) and service port.\n"
	"STATUS is the QEMU exit status (65 and 67 are init's power-off codes) or the\n"
	"signal that ended it.\n\n"
	"  --porcelain   tab-separated, no header: kind name id arch pid state status port;\n"
	"                first the cluster (kind 'cluster', pid the supervisor's, state up,\n"
	"                starting or gone), then a line a member (docs/cluster.md)\n\n"
	"Exit status: 0 the cluster runs, 1 no cluster (or its supervisor is gone).\n";

int cluster_status_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "porcelain", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir_option = NULL;
	int porcelain = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'd')
			dir_option = optarg;
		else if (c == 'p')
			porcelain = 1;
		else if (c == 'h')
			return fputs(status_usage, stdout), 0;
		else
			return fputs(status_usage, stderr), 2;
	}
	if (optind < argc) {
		fprintf(stderr, "dpm cluster status: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	char dir[PATH_MAX];
	struct cluster_state st;
	if (cluster_existing_dir(dir_option, dir, sizeof dir))
		return 1;
	int r = cluster_load_state(dir, &st);
	if (r)
		return r;
	int alive = proc_alive(&st.supervisor);
	char line[PATH_MAX + STATE_LINE_MAX]; /* the cluster line names dir */
	cluster_status_line(st.supervisor.pid, !alive ? "gone" : st.ready ? "up" : "starting", porcelain, dir,
			    line, sizeof line);
	puts(line);
	if (!porcelain)
		printf("%-12s %-3s %-5s %-8s %-16s %s\n", "NAME", "ID", "ARCH", "PID", "STATE", "PORT");
	for (int i = 0; i < st.nmembers; i++) {
		struct member m = observed(&st.members[i]);
		member_status_line(&m, porcelain, line, sizeof line);
		puts(line);
	}
	if (!alive) {
		fprintf(stderr, "dpm cluster: the supervisor of the cluster in %s is gone; "
				"'dpm cluster down' cleans up\n", dir);
		return 1;
	}
	return 0;
}

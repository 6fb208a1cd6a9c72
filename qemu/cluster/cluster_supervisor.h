/*
 * qemu/cluster/cluster_supervisor.h - the process that owns a running cluster.
 *
 * `dpm cluster up` forks it; it becomes the parent of the switch, the host
 * services and every node's QEMU (so it learns how each one ends), reports
 * to `up` whether the cluster came up, and stays in the background until
 * `down` (SIGTERM) tells it to stop everything.
 */
#ifndef DPM_CLUSTER_SUPERVISOR_H
#define DPM_CLUSTER_SUPERVISOR_H

#include <limits.h>

#include "cluster_file.h"

struct up_options {
	char dir[PATH_MAX];       /* state directory, absolute */
	char kernel[PATH_MAX];    /* x86 kernel image, absolute */
	struct cluster_spec spec; /* nodes already cut or extended to --nodes */
	int timeout_s;            /* for each node's banner and each service to listen */
	int no_services;          /* boot without host services (no second NIC) */
	int quiet;                /* no "cluster up" summary on stdout */
	int hold;                 /* --hold: the hub holds a virtual cluster for a controller */
};

/* Exit statuses the supervisor reports to `up` (one byte on report_fd). */
#define SUPERVISOR_READY 0
#define SUPERVISOR_FAILED 1
#define SUPERVISOR_REFUSED 3 /* a cluster already runs in that directory */

/* Run in the forked child: bring the cluster up, report on report_fd, keep
 * it until SIGTERM/SIGINT/SIGHUP, then stop everything and clean up.
 * Returns the process's exit status. */
int supervisor_main(const struct up_options *o, int report_fd);

#endif

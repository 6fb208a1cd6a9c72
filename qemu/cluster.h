/*
 * qemu/cluster.h - what the `dpm cluster` subcommands share: where the
 * state directory and the kernel image are by default, and `down` (which
 * `run` and failing tests reuse).
 */
#ifndef DPM_CLUSTER_H
#define DPM_CLUSTER_H

#include <stddef.h>

#include "cluster_state.h"
#include "cluster_supervisor.h"

/* The state directory: --dir if given, else $DPM_CLUSTER_DIR, else
 * build/cluster beside dpm's own build directory.  Made absolute; created
 * (mode 0700) when create is set.  Returns 0, or -1 with a message. */
int cluster_dir(const char *option, int create, char *out, size_t size, char *err, size_t errlen);

/* cluster_dir for commands that read or stop a cluster (nothing is
 * created); prints the error itself.  Returns 0 or exit status 1. */
int cluster_existing_dir(const char *option, char *out, size_t size);

/* A path under dpm's build directory (build/bin/dpm -> build/REL). */
int cluster_build_path(const char *rel, char *out, size_t size);

/* Load the state of dir for a reader; prints "no cluster" (exit 1) or the
 * error (exit 2) itself.  Returns 0 with *st filled, or the exit status. */
int cluster_load_state(const char *dir, struct cluster_state *st);

/* Stop the cluster of dir (if any) and remove its sockets, secret and
 * state.  Messages go to stdout unless quiet.  Returns an exit status. */
int cluster_down(const char *dir, int quiet);

/* Bring a cluster up: fork the supervisor and wait for its report.
 * SIGINT/SIGTERM meanwhile stop what was started.  Returns an exit status
 * (0 up, 1 failed or refused, 128+signal interrupted); *supervisor gets its
 * pid. */
int cluster_up(const struct up_options *o, int *supervisor);

/* Entry points of the subcommands (argv[0] is the subcommand's name). */
int cluster_up_main(int argc, char **argv);
int cluster_run_main(int argc, char **argv);
int cluster_status_main(int argc, char **argv);
int cluster_console_main(int argc, char **argv);
int cluster_down_main(int argc, char **argv);
int cluster_hub_main(int argc, char **argv);   /* qemu/cluster_hub.c */

#endif

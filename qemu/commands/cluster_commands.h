/*
 * qemu/commands/cluster_commands.h - the `dpm cluster` group: the entry
 * points its table (commands/cluster.c) names, and the two operations
 * other commands reuse (`run` and `record` bring a cluster up and down).
 */
#ifndef DPM_CLUSTER_COMMANDS_H
#define DPM_CLUSTER_COMMANDS_H

#include "qemu/cluster/cluster_supervisor.h"

/* Stop the cluster of dir (if any) and remove its sockets, secret and
 * state.  Messages go to stdout unless quiet.  Returns an exit status. */
int cluster_down(const char *dir, int quiet);   /* commands/cluster_down.c */

/* Bring a cluster up: fork the supervisor and wait for its report.
 * SIGINT/SIGTERM meanwhile stop what was started.  Returns an exit status
 * (0 up, 1 failed or refused, 128+signal interrupted); *supervisor gets its
 * pid. */
int cluster_up(const struct up_options *o, int *supervisor);   /* commands/cluster_up.c */

/* Entry points of the subcommands (argv[0] is the subcommand's name). */
int cluster_up_main(int argc, char **argv);      /* commands/cluster_up.c */
int cluster_run_main(int argc, char **argv);     /* commands/cluster_up.c */
int cluster_status_main(int argc, char **argv);  /* commands/cluster_status.c */
int cluster_console_main(int argc, char **argv); /* commands/cluster_console.c */
int cluster_down_main(int argc, char **argv);    /* commands/cluster_down.c */
int cluster_hub_main(int argc, char **argv);     /* commands/cluster_hub.c */

#endif

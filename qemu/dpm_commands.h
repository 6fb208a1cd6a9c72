/*
 * qemu/dpm_commands.h - the rows of dpm's subcommand table.
 *
 * One row per subcommand: name, entry point, one-line summary.  Each
 * component declares its entry points here and adds its row to
 * DPM_SUBCOMMANDS; qemu/dpm.c holds the table, qemu/dispatch.c dispatches.
 */
#ifndef DPM_COMMANDS_H
#define DPM_COMMANDS_H

int version_main(int argc, char **argv);    /* qemu/commands/version.c */
int cluster_main(int argc, char **argv);    /* qemu/commands/cluster.c */
int filter_main(int argc, char **argv);     /* hostfilter/commands/filter.c */
int dump_main(int argc, char **argv);       /* hostfilter/commands/dump.c */
int export_main(int argc, char **argv);     /* hostfilter/commands/export.c */
int parallel_main(int argc, char **argv);   /* analysis/commands/parallel.c */
int stats_main(int argc, char **argv);      /* analysis/commands/stats.c */
int causality_main(int argc, char **argv);  /* analysis/commands/causality.c */
int report_main(int argc, char **argv);     /* analysis/commands/report.c */
int critical_main(int argc, char **argv);   /* analysis/commands/critical.c */
int disk_main(int argc, char **argv);       /* qemu/commands/disk.c */
int control_main(int argc, char **argv);    /* qemu/commands/control.c */
int record_main(int argc, char **argv);     /* qemu/commands/record.c */

#define DPM_SUBCOMMANDS \
	{ "version", version_main, "print the version of dpm and its trace format" }, \
	{ "cluster", cluster_main, "boot, watch and stop a cluster of QEMU nodes" }, \
	{ "control", control_main, "run and meter jobs on a cluster (a prompt, or a script)" }, \
	{ "record", record_main, "run a program metered on a cluster and keep its trace" }, \
	{ "filter", filter_main, "receive meter streams, select traces, write a log" }, \
	{ "dump", dump_main, "print a filter log as text or CSV" }, \
	{ "export", export_main, "write a filter log as CTF, OTF2 or Chrome trace JSON" }, \
	{ "parallel", parallel_main, "parallelism factor P of a trace, and predictions" }, \
	{ "stats", stats_main, "message statistics of a trace: who sends what to whom" }, \
	{ "causality", causality_main, "paths of causality of requests through servers" }, \
	{ "critical", critical_main, "the critical path of a run and where its time went" }, \
	{ "report", report_main, "an HTML report with plots of one or more traced runs" }, \
	{ "disk", disk_main, "create a node's disk image holding an empty file system" },

#endif

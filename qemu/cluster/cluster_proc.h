/*
 * qemu/cluster/cluster_proc.h - the host processes of a cluster: starting them so
 * they cannot outlive their starter, recognising them later by pid and
 * start time (a pid alone may have been reused), and stopping them with a
 * bounded wait.
 */
#ifndef DPM_CLUSTER_PROC_H
#define DPM_CLUSTER_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* A process as recorded in the state file: pid plus its start time in
 * clock ticks since boot (field 22 of /proc/PID/stat). */
struct proc_id {
	pid_t pid;
	unsigned long long start;
};

/* How a child ended, from its wait status. */
struct proc_end {
	int code;   /* exit code, or -1 */
	int signal; /* terminating signal, or 0 */
};

struct spawn_io {
	int in;             /* fd for stdin, or -1 for /dev/null */
	const char *out;    /* file for stdout and stderr (truncated) */
	char *const *env;   /* extra NAME=VALUE strings, NULL-terminated, or NULL */
};

/* Start argv[0] (searched in PATH) as a child that gets SIGTERM if the
 * caller dies.  Returns 0 with *id filled, or -1 with "cannot run ...: why"
 * in err (exec failures included: they are reported, not silent). */
int proc_spawn(char *const argv[], const struct spawn_io *io, struct proc_id *id,
	       char *err, size_t errlen);

/* Start time of a live (non-zombie) pid; -1 if there is none. */
int proc_start_time(pid_t pid, unsigned long long *start);

/* Whether the recorded process still runs (same pid, same start). */
int proc_alive(const struct proc_id *id);

/* Reap a child of ours if it ended, after sending its process group (what
 * it left running) SIGTERM; 1 with *end filled, 0 if it runs or is not our
 * child. */
int proc_reap(pid_t pid, struct proc_end *end);

/* SIGTERM every live process of ids, wait up to grace_ms for them to go,
 * then SIGKILL the rest and wait up to one more second.  Children of ours
 * are reaped on the way.  Returns how many were still alive at the end. */
int proc_stop(const struct proc_id *ids, int n, int grace_ms);

/* Sleep ms milliseconds (interrupted sleeps simply return early). */
void proc_sleep_ms(int ms);

#endif

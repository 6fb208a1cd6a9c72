/*
 * hostfilter/export/export.h - `dpm export`: a filter log written in the
 * formats other tools read (CTF 1.8, OTF2, Chrome trace JSON).
 *
 * One reader, several sinks (babeltrace2's model): export.c reads the log
 * through the trace-log library (log.h), record by record, and derives
 * what every format needs alike - the nodes, the processes, and each
 * process's running/blocked state - then hands each record and each state
 * change to one sink (ctf.c, otf2.c, chrome.c).  Nothing is kept per
 * record, so memory is bounded by the number of nodes and processes, not
 * by the length of the log.
 *
 * States of a process (a task): it is RUNNING from its first record
 * (not blocked in a receive: the trace has no scheduler events, so this
 * includes time spent ready), BLOCKED from a blocking RECEIVECALL until
 * its next RECEIVE, and ENDED at a TERMPROCESS naming it (childTask) or
 * at the end of the log (at its node's last time).  Records with task 0
 * (DROPPED, MARK from the kernel) belong to the node's pseudo-process 0,
 * which has no states.
 */
#ifndef DPM_HOSTFILTER_EXPORT_H
#define DPM_HOSTFILTER_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "hostfilter/tracelog/log.h"

enum export_state { EXPORT_NONE, EXPORT_RUNNING, EXPORT_BLOCKED, EXPORT_ENDED };

/* A node: one per machine id seen, in order of first appearance. */
struct export_node {
	uint32_t machine;
	uint32_t index;     /* 0, 1, ... */
	uint64_t last_time; /* largest time of its records so far */
	void *sink;         /* the sink's own data for it (malloc'd; the driver frees it) */
};

/* A process (task), in order of first appearance. */
struct export_proc {
	uint32_t task;      /* node << 16 | pid; pid 0 is the node's kernel */
	uint32_t index;     /* 0, 1, ... */
	struct export_node *node;
	enum export_state state;
	uint64_t since;     /* when it entered that state */
	void *sink;         /* the sink's own data (malloc'd; the driver frees it) */
};

/* One record of the log as the sinks see it. */
struct export_event {
	const struct dpm_log_record *rec;
	int is_note;               /* a filter NOTE (no time, no task) */
	uint32_t machine;
	uint64_t time;             /* 0 if the record has none */
	uint64_t msg_id;
	int has_msg;               /* SEND, QUEUED, RECEIVE with msgId kept */
	struct export_node *node;  /* NULL for a NOTE */
	struct export_proc *proc;  /* the record's task; NULL for a NOTE */
	struct export_proc *peer;  /* SEND: the receiver, RECEIVE: the sender
	                            * (NULL if the field was discarded) */
};

struct export_ctx; /* the driver's state, read through these: */
size_t export_nnodes(const struct export_ctx *x);
struct export_node *export_node_at(const struct export_ctx *x, size_t i);
size_t export_nprocs(const struct export_ctx *x);
struct export_proc *export_proc_at(const struct export_ctx *x, size_t i);
const struct dpm_log *export_log_of(const struct export_ctx *x);

/* A format.  Every call returns 0, or -1 with a message in err. */
struct export_sink {
	const char *name;   /* "ctf", ... */
	size_t size;        /* bytes of its state, zeroed before open */
	int writes_dir;     /* out is a directory (else a file, or '-') */
	int (*open)(void *s, const struct export_ctx *x, const char *out, char *err, size_t errlen);
	/* A new node / process (before its first record or state). */
	int (*node)(void *s, struct export_node *n, char *err, size_t errlen);
	int (*proc)(void *s, struct export_proc *p, char *err, size_t errlen);
	/* p goes from state `from` (entered at time `from_since`) to p->state
	 * at time t. */
	int (*state)(void *s, struct export_proc *p, enum export_state from, uint64_t from_since,
		     uint64_t t, char *err, size_t errlen);
	int (*event)(void *s, const struct export_event *e, char *err, size_t errlen);
	/* After the last record (every process is ENDED by then). */
	int (*close)(void *s, const struct export_ctx *x, char *err, size_t errlen);
	/* Free what is left, after close or after a failure. */
	void (*discard)(void *s);
};

extern const struct export_sink export_ctf, export_otf2, export_chrome;

/* The sink called name, or NULL. */
const struct export_sink *export_sink_named(const char *name);

struct export_counts {
	uint64_t records, notes, nodes, procs;
	size_t truncated; /* bytes of an incomplete last record ignored */
};

/* Export the log at log_path to out with sink, written beside it first
 * and renamed into place (a directory out must be absent or empty).
 * 0, or with "file: what is wrong" in err and out as it was: -2 the log
 * cannot be read (missing, not a log, truncated, corrupt), -1 anything
 * else (out cannot be written, memory). */
int export_log(const struct export_sink *sink, const char *log_path, const char *out,
	       struct export_counts *counts, char *err, size_t errlen);

/* Make the directory a sink writes into (a new one).  0, or -1 and err. */
int export_make_dir(const char *dir, char *err, size_t errlen);

/* Names shared by the sinks. */
const char *export_state_name(enum export_state s); /* "running", "blocked" */

#endif

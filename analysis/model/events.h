/*
 * analysis/model/events.h - the trace as the analyses see it: one flat array of
 * events and a table of the processes they name.
 *
 * Both input formats (the trace CSV of docs/trace-csv.md and the filter's
 * log) load into this one shape, so every analysis is written once.  Events
 * stay in input order in a single array (no allocation per event); a
 * process is an index into the process table, resolved once at load time
 * through a hash of task ids, so later passes never hash a task again.
 */
#ifndef DPM_ANALYSIS_MODEL_EVENTS_H
#define DPM_ANALYSIS_MODEL_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "kernel/abi/trace.h"

#define NO_PROC 0xffffffffu

/* Which optional fields an event carries. */
enum event_flags {
	EV_MSG_ID = 1,
	EV_LENGTH = 2,
	EV_QUEUE_LEN = 4,
};

struct event {
	uint64_t time;      /* the node's local clock, ns */
	uint64_t cpu;       /* PROCTIME of `task`, ns */
	uint64_t msg_id;    /* valid with EV_MSG_ID */
	uint32_t task;      /* process index the event happened to */
	uint32_t src, dst;  /* process indices, NO_PROC if none (docs/trace-csv.md) */
	uint32_t length;    /* bytes, valid with EV_LENGTH */
	uint32_t queue_len; /* valid with EV_QUEUE_LEN */
	uint32_t machine;   /* node the record came from */
	uint32_t line;      /* CSV line, or record number in a log */
	uint8_t type;       /* enum trace_type */
	uint8_t flags;      /* enum event_flags */
	uint8_t reason;     /* TERMPROCESS: enum exit_reason (EXIT_NORMAL otherwise) */
};

struct process {
	uint32_t id;        /* task id, (node << 16) | pid */
	uint32_t machine;   /* node it ran on: its first own event's machine,
	                       else the node part of its id */
	uint8_t traced;     /* it has events of its own (it is some event's task) */
	char *name;         /* what it is called (a names file), or NULL: node.pid */
};

#define TRACE_PROC_CACHE 64

struct proc_cache {
	uint32_t id, proc, valid;
};

struct trace {
	const char *path;
	struct event *ev;
	size_t nev, evcap;
	struct process *proc;
	size_t nproc, proccap;
	struct hashmap proc_by_id;
	uint64_t dropped;   /* traces the kernels said they dropped (DROPPED) */
	struct proc_cache cache[TRACE_PROC_CACHE];
};

void trace_init(struct trace *t, const char *path);
void trace_free(struct trace *t);

/* The process index for task id, adding it if new; NO_PROC out of memory. */
uint32_t trace_process(struct trace *t, uint32_t id);

/* Append an event (its task marks that process traced).  Returns a pointer
 * to the stored copy, NULL out of memory. */
struct event *trace_add(struct trace *t, const struct event *e);

/* The run's elapsed time from its events' times: on one clock (a cluster
 * in virtual time, where every node's clock is the same), the span from
 * the first event to the last; otherwise, since different machines'
 * clocks are never compared, the longest span of one machine's events on
 * that machine's own clock.  0 without events. */
double trace_elapsed(const struct trace *t, int one_clock);

/* "node.pid" for a process index, into buf (also returned). */
const char *process_name(const struct trace *t, uint32_t p, char *buf, size_t len);

/* Parse "node.pid" into a task id: 1 ok, 0 empty, -1 malformed. */
int parse_task(const char *s, uint32_t *id);

/* The process index of "node.pid" in t, or NO_PROC with "ctx: what is
 * wrong" in err (not a process, or not in the trace). */
uint32_t trace_named_process(const struct trace *t, const char *who, const char *ctx,
			     char *err, size_t errlen);

/* Event type by name ("SEND", case-insensitive), 0 if unknown, and back. */
unsigned event_type_by_name(const char *name);
const char *event_type_name(unsigned type);

/* Whether an event of this type is a step of its task's own execution
 * (everything except the asynchronous QUEUED and the DROPPED notice). */
int event_is_process_step(unsigned type);

#endif

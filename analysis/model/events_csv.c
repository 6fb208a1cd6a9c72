/*
 * analysis/model/events_csv.c - loading the trace CSV interchange format
 * (docs/trace-csv.md) into the event table.
 *
 * Columns are found by name; only type, time_ns and cpu_ns are required,
 * so a hand-written CSV of SEND and RECEIVE rows with src, dst, msg_id and
 * length is enough.  When the task column is absent or empty the task is
 * inferred from src/dst the way the format defines them.  Every error names
 * the file and line.
 */
#include "events_csv.h"

#include <stdio.h>
#include <string.h>

#include "csv_row.h"
#include "kernel/abi/names.h"

struct csv_columns {
	int machine, type, time, cpu, task, src, dst, msg_id, length, queue_len, reason;
};

static void find_columns(const struct csv_reader *r, struct csv_columns *c)
{
	c->machine = csv_column(r, "machine");
	c->type = csv_column(r, "type");
	c->time = csv_column(r, "time_ns");
	c->cpu = csv_column(r, "cpu_ns");
	c->task = csv_column(r, "task");
	c->src = csv_column(r, "src");
	c->dst = csv_column(r, "dst");
	c->msg_id = csv_column(r, "msg_id");
	c->length = csv_column(r, "length");
	c->queue_len = csv_column(r, "queue_len");
	c->reason = csv_column(r, "reason");
}

static int require_columns(const struct csv_reader *r, const struct csv_columns *c,
			   char *err, size_t errlen)
{
	const char *missing = c->type < 0 ? "type" : c->time < 0 ? "time_ns"
			    : c->cpu < 0 ? "cpu_ns" : NULL;
	if (!missing && c->task < 0 && c->src < 0 && c->dst < 0)
		missing = "task (or src/dst)";
	if (!missing)
		return 0;
	snprintf(err, errlen, "%s:%lu:1: no '%s' column in the header", r->path, r->line, missing);
	return -1;
}

/* The process named by a task-valued field: 0 ok (NO_PROC if empty). */
static int task_field(struct trace *t, const struct csv_reader *r, int col,
		      const char *name, uint32_t *proc, char *err, size_t errlen)
{
	const char *s = csv_field(r, col);
	uint32_t id;
	int ok = parse_task(s, &id);
	*proc = NO_PROC;
	if (ok < 0) {
		snprintf(err, errlen, "%s:%lu:%lu: %s '%s' is not a process (want node.pid)",
			 r->path, r->line, csv_col(r, col), name, s);
		return -1;
	}
	if (ok == 0)
		return 0;
	*proc = trace_process(t, id);
	if (*proc == NO_PROC) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	return 0;
}

/* A numeric field: 1 present, 0 empty, -1 malformed (err filled). */
static int number_field(const struct csv_reader *r, int col, const char *name,
			uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	const char *s = csv_field(r, col);
	int ok = csv_parse_u64(s, v);
	if (ok < 0 || (ok > 0 && *v > max)) {
		snprintf(err, errlen, "%s:%lu:%lu: %s '%s' is not a number%s", r->path, r->line,
			 csv_col(r, col), name, s, ok > 0 ? " in range" : "");
		return -1;
	}
	return ok;
}

static int required_number(const struct csv_reader *r, int col, const char *name,
			   uint64_t *v, char *err, size_t errlen)
{
	int ok = number_field(r, col, name, UINT64_MAX, v, err, errlen);
	if (ok == 0)
		snprintf(err, errlen, "%s:%lu:%lu: empty %s", r->path, r->line, csv_col(r, col), name);
	return ok > 0 ? 0 : -1;
}

/* A TERMPROCESS's exit reason, by its CSV tag (`dpm dump --csv`'s:
 * "normal", "killed", "fault-memory", ..., or a number it does not know):
 * 0 ok (EXIT_NORMAL if empty). */
static int reason_field(const struct csv_reader *r, int col, uint8_t *reason, char *err,
			size_t errlen)
{
	const char *s = csv_field(r, col);
	*reason = EXIT_NORMAL;
	if (!*s)
		return 0;
	for (uint32_t i = 0; abi_exit_reason(i); i++)
		if (abi_exit_reason(i)->tag && !strcmp(s, abi_exit_reason(i)->tag)) {
			*reason = (uint8_t)i;
			return 0;
		}
	uint64_t v; /* a reason dump does not know is written as its number */
	if (csv_parse_u64(s, &v) > 0 && v <= UINT8_MAX) {
		*reason = (uint8_t)v;
		return 0;
	}
	snprintf(err, errlen, "%s:%lu:%lu: reason '%s' is not an exit reason (normal, killed, fault-...)",
		 r->path, r->line, csv_col(r, col), s);
	return -1;
}

/* The task a row belongs to when its task column is empty. */
static uint32_t inferred_task(unsigned type, uint32_t src, uint32_t dst)
{
	switch (type) {
	case TRACE_SEND:
	case TRACE_CREATEPROCESS:
	case TRACE_CREATELINK:
	case TRACE_DESTROYLINK:
	case TRACE_MOVEDATA:
		return src != NO_PROC ? src : dst;
	default:
		return dst != NO_PROC ? dst : src;
	}
}

static int parse_row(struct trace *t, const struct csv_reader *r,
		     const struct csv_columns *c, char *err, size_t errlen)
{
	struct event e = { .line = (uint32_t)r->line };
	const char *type = csv_field(r, c->type);
	e.type = (uint8_t)event_type_by_name(type);
	if (!e.type) {
		snprintf(err, errlen, "%s:%lu:%lu: unknown event type '%s'", r->path, r->line,
			 csv_col(r, c->type), type);
		return -1;
	}
	uint64_t v;
	int ok;
	if (e.type == TRACE_MARK)
		return 0; /* the controller's synchronisation point, not an event */
	if (e.type == TRACE_DROPPED) {
		/* A notice, not a step of any process: counted, not stored. */
		t->dropped++;
		return 0;
	}
	if (required_number(r, c->time, "time_ns", &e.time, err, errlen) < 0 ||
	    required_number(r, c->cpu, "cpu_ns", &e.cpu, err, errlen) < 0)
		return -1;
	uint32_t task;
	if (task_field(t, r, c->src, "src", &e.src, err, errlen) < 0 ||
	    task_field(t, r, c->dst, "dst", &e.dst, err, errlen) < 0 ||
	    task_field(t, r, c->task, "task", &task, err, errlen) < 0)
		return -1;
	e.task = task != NO_PROC ? task : inferred_task(e.type, e.src, e.dst);
	if (e.task == NO_PROC) {
		snprintf(err, errlen, "%s:%lu:1: %s row names no process (task, src and dst empty)",
			 r->path, r->line, event_type_name(e.type));
		return -1;
	}
	if ((ok = number_field(r, c->msg_id, "msg_id", UINT64_MAX, &e.msg_id, err, errlen)) < 0)
		return -1;
	e.flags |= ok ? EV_MSG_ID : 0;
	if ((ok = number_field(r, c->length, "length", UINT32_MAX, &v, err, errlen)) < 0)
		return -1;
	e.length = (uint32_t)v;
	e.flags |= ok ? EV_LENGTH : 0;
	if ((ok = number_field(r, c->queue_len, "queue_len", UINT32_MAX, &v, err, errlen)) < 0)
		return -1;
	e.queue_len = (uint32_t)v;
	e.flags |= ok ? EV_QUEUE_LEN : 0;
	if (e.type == TRACE_TERMPROCESS && reason_field(r, c->reason, &e.reason, err, errlen) < 0)
		return -1;
	if ((ok = number_field(r, c->machine, "machine", UINT32_MAX, &v, err, errlen)) < 0)
		return -1;
	e.machine = ok ? (uint32_t)v : TASK_NODE(t->proc[e.task].id);
	if (!trace_add(t, &e)) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	return 0;
}

int trace_load_csv(struct trace *t, const char *path, char *err, size_t errlen)
{
	struct csv_reader r;
	struct csv_columns c;
	if (csv_open(&r, path, err, errlen) < 0)
		return -1;
	find_columns(&r, &c);
	int rc = require_columns(&r, &c, err, errlen);
	while (rc == 0 && (rc = csv_next(&r, err, errlen)) > 0)
		rc = parse_row(t, &r, &c, err, errlen);
	csv_close(&r);
	return rc;
}

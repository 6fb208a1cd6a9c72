/*
 * analysis/model/events_log.c - loading the filter's log
 * (hostfilter/tracelog/log.h) into the event table.
 *
 * The log is self-describing: a record is a trace type plus the named
 * fields the filter kept (kernel/abi/trace.h).  The names are mapped onto the
 * event by the map `dpm dump --csv` writes the CSV columns by
 * (hostfilter/tracelog/logcolumns.h), so a log and its CSV are read alike: e.g.
 * fromTask, parentTask or (for links) task is the source process, toTask or
 * childTask the destination.  A task address is (node << 16) | pid; 0
 * means "no process".  Fields a selection rule discarded read as absent
 * (time and CPU time as 0).
 */
#include "events_log.h"

#include <stdio.h>

#include "kernel/abi/calls.h"
#include "hostfilter/tracelog/log.h"
#include "hostfilter/tracelog/logcolumns.h"

struct log_fields {
	uint64_t machine, time, cpu, task, src, dst, msg_id, length, queue_len, count, reason;
	int has_machine, has_task, has_msg_id, has_length, has_queue_len;
};

/* Field name of rec (NULL: the type has no such column) into *v, 0 if absent. */
static int field(const struct dpm_log_record *rec, const char *name, uint64_t *v)
{
	*v = 0;
	return name && dpm_log_field(rec, name, v);
}

static void read_fields(const struct dpm_log_record *rec, struct log_fields *f)
{
	const struct log_columns *m = log_columns_of(rec->type_name);
	f->has_machine = field(rec, "machine", &f->machine);
	field(rec, "time", &f->time);
	field(rec, "procTime", &f->cpu);
	f->has_task = field(rec, "task", &f->task);
	field(rec, m->src, &f->src);
	field(rec, m->dst, &f->dst);
	f->has_msg_id = field(rec, "msgId", &f->msg_id);
	f->has_length = field(rec, m->length, &f->length);
	f->has_queue_len = field(rec, m->queue_len, &f->queue_len);
	field(rec, m->count, &f->count);
	field(rec, m->reason, &f->reason);
}

/* Process index of a task address, NO_PROC for 0 / out of memory. */
static uint32_t proc_of(struct trace *t, uint64_t task)
{
	return task && task <= UINT32_MAX ? trace_process(t, (uint32_t)task) : NO_PROC;
}

static int add_record(struct trace *t, const struct dpm_log_record *rec, uint32_t recno,
		      char *err, size_t errlen)
{
	struct log_fields f;
	read_fields(rec, &f);
	if (rec->trace_type == TRACE_DROPPED) {
		t->dropped += f.count ? f.count : 1;
		return 0;
	}
	struct event e = { .type = (uint8_t)rec->trace_type, .line = recno,
			   .time = f.time, .cpu = f.cpu, .msg_id = f.msg_id,
			   .length = (uint32_t)f.length, .queue_len = (uint32_t)f.queue_len,
			   .reason = f.reason <= UINT8_MAX ? (uint8_t)f.reason : EXIT_FAULT_OTHER };
	e.flags = (f.has_msg_id ? EV_MSG_ID : 0) | (f.has_length ? EV_LENGTH : 0) |
		  (f.has_queue_len ? EV_QUEUE_LEN : 0);
	e.src = proc_of(t, f.src);
	e.dst = proc_of(t, f.dst);
	e.task = f.has_task ? proc_of(t, f.task) : NO_PROC;
	if (e.task == NO_PROC)
		e.task = rec->trace_type == TRACE_SEND ? e.src : e.dst != NO_PROC ? e.dst : e.src;
	if (e.task == NO_PROC) {
		snprintf(err, errlen, "%s: record %u (%s) names no process", t->path, recno,
			 rec->type_name);
		return -1;
	}
	e.machine = f.has_machine ? (uint32_t)f.machine : TASK_NODE(t->proc[e.task].id);
	if (!trace_add(t, &e)) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -1;
	}
	return 0;
}

int trace_load_log(struct trace *t, const char *path, char *err, size_t errlen)
{
	struct dpm_log *log = dpm_log_open(path, err, errlen);
	if (!log)
		return -1;
	struct dpm_log_record rec;
	int rc;
	uint32_t recno = 0;
	while ((rc = dpm_log_next(log, &rec, err, errlen)) > 0) {
		recno++;
		if (rec.trace_type < 1 || rec.trace_type > TRACE_TYPE_MAX || rec.trace_type == TRACE_MARK)
			continue; /* the filter's own notes, the controller's marks */
		if (add_record(t, &rec, recno, err, errlen) < 0) {
			rc = -1;
			break;
		}
	}
	dpm_log_close(log);
	return rc < 0 ? -1 : 0;
}

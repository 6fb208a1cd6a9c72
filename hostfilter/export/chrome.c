/*
 * hostfilter/export/chrome.c - the Chrome trace JSON sink (chrome://tracing,
 * Perfetto): {"traceEvents":[...]} written as the records come, so memory
 * does not grow with the log.
 *
 *  - a track per process, grouped by node: pid = node (machine id), tid =
 *    the process's pid (0 for the node's kernel records), named by "M"
 *    metadata events when first seen;
 *  - slices "running" and "blocked" as complete events ("X", with their
 *    duration), written when the state ends (export.h says what the
 *    states are): robust where B/E pairs at one timestamp could be taken
 *    in either order;
 *  - every record an instant event ("i", thread scope) named by its type,
 *    with every kept field in args (base-10 fields as numbers, others as
 *    dump writes them, in strings, so a 64-bit msgId stays exact);
 *  - a flow per message: "s" on its SEND, "f" (bound to the enclosing
 *    slice) on its RECEIVE, both with id = msgId, so the UI draws an arrow;
 *  - filter NOTEs as global instants ("s":"g") at the time of the record
 *    logged before them.
 * Timestamps are microseconds with three decimals (the nodes' ns clocks).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "hostfilter/tracelog/print.h"
#include "kernel/abi/trace.h"

struct chrome {
	FILE *f;
	const char *path;
	int first;        /* no event written yet (no comma needed) */
	uint64_t last_time;
};

static void sep(struct chrome *c)
{
	fputs(c->first ? "\n" : ",\n", c->f);
	c->first = 0;
}

static void ts(struct chrome *c, uint64_t ns)
{
	fprintf(c->f, "\"ts\":%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static int chrome_open(void *s, const struct export_ctx *x, const char *out, char *err,
		       size_t errlen)
{
	struct chrome *c = s;
	(void)x;
	c->path = out;
	c->first = 1;
	c->f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!c->f) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		return -1;
	}
	setvbuf(c->f, NULL, _IOFBF, 1 << 20);
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"dpm export\","
	      "\"clocks\":\"each node's own clock, ns since its boot\"},\"traceEvents\":[",
	      c->f);
	return 0;
}

static int chrome_node(void *s, struct export_node *n, char *err, size_t errlen)
{
	struct chrome *c = s;
	(void)err, (void)errlen;
	sep(c);
	fprintf(c->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,"
		      "\"args\":{\"name\":\"node %u\"}}", n->machine, n->machine);
	sep(c);
	fprintf(c->f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,"
		      "\"args\":{\"sort_index\":%u}}", n->machine, n->index);
	return 0;
}

static int chrome_proc(void *s, struct export_proc *p, char *err, size_t errlen)
{
	struct chrome *c = s;
	(void)err, (void)errlen;
	sep(c);
	if (TASK_PID(p->task))
		fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
			      "\"args\":{\"name\":\"%u.%u\"}}",
			TASK_NODE(p->task), TASK_PID(p->task), TASK_NODE(p->task), TASK_PID(p->task));
	else
		fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":0,"
			      "\"args\":{\"name\":\"kernel\"}}", TASK_NODE(p->task));
	return 0;
}

/* A finished state as a complete event: from `since` to t. */
static int chrome_state(void *s, struct export_proc *p, enum export_state from, uint64_t since,
			uint64_t t, char *err, size_t errlen)
{
	struct chrome *c = s;
	(void)err, (void)errlen;
	if (from != EXPORT_RUNNING && from != EXPORT_BLOCKED)
		return 0;
	sep(c);
	fprintf(c->f, "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"state\",\"pid\":%u,\"tid\":%u,",
		export_state_name(from), TASK_NODE(p->task), TASK_PID(p->task));
	uint64_t dur = t > since ? t - since : 0; /* a clock that went back */
	ts(c, since);
	fprintf(c->f, ",\"dur\":%llu.%03llu}", (unsigned long long)(dur / 1000),
		(unsigned long long)(dur % 1000));
	return 0;
}

static void args(struct chrome *c, const struct dpm_log_record *rec)
{
	fputs("\"args\":{", c->f);
	for (size_t i = 0; i < rec->nfields; i++) {
		fprintf(c->f, "%s\"%s\":", i ? "," : "", rec->names[i]);
		if (rec->bases[i] == 10) {
			fprintf(c->f, "%llu", (unsigned long long)rec->values[i]);
		} else {
			fputc('"', c->f);
			log_print_value(c->f, rec->values[i], rec->bases[i]);
			fputc('"', c->f);
		}
	}
	fputc('}', c->f);
}

static int chrome_event(void *s, const struct export_event *e, char *err, size_t errlen)
{
	struct chrome *c = s;
	const struct dpm_log_record *rec = e->rec;
	(void)err, (void)errlen;
	sep(c);
	if (e->is_note) {
		fprintf(c->f, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"%s\",\"cat\":\"filter\",\"pid\":0,"
			      "\"tid\":0,", rec->type_name);
		ts(c, c->last_time);
		fputc(',', c->f);
		args(c, rec);
		fputc('}', c->f);
		return 0;
	}
	c->last_time = e->time;
	uint32_t pid = e->machine, tid = TASK_PID(e->proc->task);
	fprintf(c->f, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"cat\":\"trace\",\"pid\":%u,"
		      "\"tid\":%u,", rec->type_name, pid, tid);
	ts(c, e->time);
	fputc(',', c->f);
	args(c, rec);
	fputc('}', c->f);
	if (e->has_msg && (rec->trace_type == TRACE_SEND || rec->trace_type == TRACE_RECEIVE)) {
		int send = rec->trace_type == TRACE_SEND;
		sep(c);
		fprintf(c->f, "{\"ph\":\"%s\",%s\"name\":\"message\",\"cat\":\"message\","
			      "\"id\":\"0x%llx\",\"pid\":%u,\"tid\":%u,",
			send ? "s" : "f", send ? "" : "\"bp\":\"e\",",
			(unsigned long long)e->msg_id, pid, tid);
		ts(c, e->time);
		fputc('}', c->f);
	}
	return 0;
}

static int chrome_close(void *s, const struct export_ctx *x, char *err, size_t errlen)
{
	struct chrome *c = s;
	(void)x;
	fputs("\n]}\n", c->f);
	int bad = ferror(c->f) | fflush(c->f);
	if (c->f != stdout)
		bad |= fclose(c->f);
	c->f = NULL;
	if (bad) {
		snprintf(err, errlen, "%s: %s", c->path, strerror(errno));
		return -1;
	}
	return 0;
}

static void chrome_discard(void *s)
{
	struct chrome *c = s;
	if (c->f && c->f != stdout)
		fclose(c->f);
	c->f = NULL;
}

const struct export_sink export_chrome = {
	.name = "chrome",
	.size = sizeof(struct chrome),
	.open = chrome_open,
	.node = chrome_node,
	.proc = chrome_proc,
	.state = chrome_state,
	.event = chrome_event,
	.close = chrome_close,
	.discard = chrome_discard,
};

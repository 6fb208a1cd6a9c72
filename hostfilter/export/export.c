/*
 * hostfilter/export/export.c - the one reader behind every export format
 * (export.h): reads the log record by record, keeps the nodes and
 * processes and each process's state, and drives a sink.
 */
#define _GNU_SOURCE /* nftw */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "analysis/model/hashmap.h"
#include "hostfilter/tracelog/grow.h"
#include "hostfilter/tracelog/logcolumns.h"
#include "hostfilter/tracelog/logformat.h"
#include "kernel/abi/trace.h"

/* A list of nodes or processes: pointers (the sinks keep them), found by
 * key through a map to the index. */
struct table {
	void **items;
	size_t n, cap;
	struct hashmap of;
};

struct export_ctx {
	struct dpm_log *log;
	const struct export_sink *sink;
	void *s;
	struct table nodes, procs; /* by machine, by task */
};

size_t export_nnodes(const struct export_ctx *x) { return x->nodes.n; }
struct export_node *export_node_at(const struct export_ctx *x, size_t i) { return x->nodes.items[i]; }
size_t export_nprocs(const struct export_ctx *x) { return x->procs.n; }
struct export_proc *export_proc_at(const struct export_ctx *x, size_t i) { return x->procs.items[i]; }
const struct dpm_log *export_log_of(const struct export_ctx *x) { return x->log; }

const char *export_state_name(enum export_state s)
{
	return s == EXPORT_BLOCKED ? "blocked" : s == EXPORT_RUNNING ? "running" : "ended";
}

const struct export_sink *export_sink_named(const char *name)
{
	static const struct export_sink *const all[] = { &export_ctf, &export_otf2, &export_chrome };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

/* A directory export may write: absent, or an empty directory. */
static int check_out_dir(const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty) {
		snprintf(err, errlen, "%s: not empty (an export writes a new directory)", dir);
		return -1;
	}
	return 0;
}

int export_make_dir(const char *dir, char *err, size_t errlen)
{
	if (!mkdir(dir, 0777))
		return 0;
	snprintf(err, errlen, "%s: %s", dir, strerror(errno));
	return -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* A new zeroed item of `size` bytes at the end of t under key: its index
 * is t->n - 1.  NULL if out of memory. */
static void *table_add(struct table *t, uint64_t key, size_t size)
{
	void *item = calloc(1, size);
	if (!item || grow_for_one_more((void **)&t->items, &t->cap, t->n, sizeof *t->items) ||
	    hashmap_put(&t->of, key, (uint32_t)t->n)) {
		free(item);
		return NULL;
	}
	t->items[t->n++] = item;
	return item;
}

static struct export_node *node_for(struct export_ctx *x, uint32_t machine, char *err,
				    size_t errlen)
{
	uint32_t i = hashmap_get(&x->nodes.of, machine);
	if (i != HASHMAP_NONE)
		return x->nodes.items[i];
	struct export_node *n = table_add(&x->nodes, machine, sizeof *n);
	if (!n) {
		oom(err, errlen);
		return NULL;
	}
	n->machine = machine;
	n->index = (uint32_t)x->nodes.n - 1;
	return x->sink->node(x->s, n, err, errlen) ? NULL : n;
}

/* The process of task, first seen now or before. */
static struct export_proc *proc_for(struct export_ctx *x, uint32_t task, char *err, size_t errlen)
{
	uint32_t i = hashmap_get(&x->procs.of, task);
	if (i != HASHMAP_NONE)
		return x->procs.items[i];
	struct export_node *n = node_for(x, TASK_NODE(task), err, errlen);
	struct export_proc *p = n ? table_add(&x->procs, task, sizeof *p) : NULL;
	if (!p) {
		if (n)
			oom(err, errlen);
		return NULL;
	}
	p->task = task;
	p->index = (uint32_t)x->procs.n - 1;
	p->node = n;
	return x->sink->proc(x->s, p, err, errlen) ? NULL : p;
}

static int set_state(struct export_ctx *x, struct export_proc *p, enum export_state to,
		     uint64_t t, char *err, size_t errlen)
{
	enum export_state from = p->state;
	uint64_t from_since = p->since;
	if (from == to || TASK_PID(p->task) == 0)
		return 0;
	p->state = to;
	p->since = t;
	return x->sink->state(x->s, p, from, from_since, t, err, errlen);
}

static int one_record(struct export_ctx *x, const struct dpm_log_record *rec, char *err,
		      size_t errlen)
{
	struct export_event e = { .rec = rec };
	uint64_t v;
	if (rec->trace_type == LOG_NOTE_TYPE) {
		e.is_note = 1;
		if (dpm_log_field(rec, "machine", &v))
			e.machine = (uint32_t)v;
		return x->sink->event(x->s, &e, err, errlen);
	}
	if (dpm_log_field(rec, "machine", &v))
		e.machine = (uint32_t)v;
	if (dpm_log_field(rec, "time", &v))
		e.time = v;
	e.has_msg = dpm_log_field(rec, "msgId", &e.msg_id);
	/* A kernel record (task 0) goes to its machine's pseudo-process. */
	uint32_t task = dpm_log_field(rec, "task", &v) ? (uint32_t)v : 0;
	if (TASK_PID(task) == 0)
		task = TASK_MAKE(e.machine, 0);
	if (!(e.proc = proc_for(x, task, err, errlen)))
		return -1;
	/* The record's node is the machine it came from. */
	if (!(e.node = node_for(x, e.machine, err, errlen)))
		return -1;
	if (e.time > e.node->last_time)
		e.node->last_time = e.time;
	const struct log_columns *m = log_columns_of(rec->type_name);
	const char *peer_field = rec->trace_type == TRACE_SEND ? m->dst
				 : rec->trace_type == TRACE_RECEIVE ? m->src : NULL;
	if (peer_field && dpm_log_field(rec, peer_field, &v) && TASK_PID(v) &&
	    !(e.peer = proc_for(x, (uint32_t)v, err, errlen)))
		return -1;

	struct export_proc *p = e.proc;
	if (p->state == EXPORT_NONE || p->state == EXPORT_ENDED)
		if (set_state(x, p, EXPORT_RUNNING, e.time, err, errlen))
			return -1;
	if (rec->trace_type == TRACE_RECEIVE && set_state(x, p, EXPORT_RUNNING, e.time, err, errlen))
		return -1;
	if (x->sink->event(x->s, &e, err, errlen))
		return -1;
	/* A receive that may wait: RECEIVEMESSAGE or CALL (blocking 1), or one
	 * whose blocking field a rule discarded. */
	if (rec->trace_type == TRACE_RECEIVECALL && (!dpm_log_field(rec, "blocking", &v) || v) &&
	    set_state(x, p, EXPORT_BLOCKED, e.time, err, errlen))
		return -1;
	if (rec->trace_type == TRACE_TERMPROCESS) {
		uint32_t child = m->dst && dpm_log_field(rec, m->dst, &v) ? (uint32_t)v : p->task;
		uint32_t i = hashmap_get(&x->procs.of, child);
		if (i != HASHMAP_NONE && set_state(x, export_proc_at(x, i), EXPORT_ENDED, e.time, err, errlen))
			return -1;
	}
	return 0;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->items[i]);
	}
	free(t->items);
	hashmap_free(&t->of);
}

static void free_ctx(struct export_ctx *x)
{
	for (size_t i = 0; i < x->nodes.n; i++)
		free(export_node_at(x, i)->sink);
	for (size_t i = 0; i < x->procs.n; i++)
		free(export_proc_at(x, i)->sink);
	table_free(&x->nodes);
	table_free(&x->procs);
	if (x->log)
		dpm_log_close(x->log);
}

static int export_to(const struct export_sink *sink, const char *log_path, const char *out,
		     struct export_counts *counts, char *err, size_t errlen)
{
	struct export_ctx x = { .sink = sink };
	struct dpm_log_record rec;
	int r = -1, bad_log = 0;
	if (hashmap_init(&x.nodes.of, 64) || hashmap_init(&x.procs.of, 256) ||
	    !(x.s = calloc(1, sink->size))) {
		oom(err, errlen);
		goto done;
	}
	if (!(x.log = dpm_log_open(log_path, err, errlen))) {
		bad_log = 1;
		goto done;
	}
	if (sink->open(x.s, &x, out, err, errlen))
		goto done;
	while ((r = dpm_log_next(x.log, &rec, err, errlen)) > 0) {
		if (one_record(&x, &rec, err, errlen)) {
			r = -1;
			break;
		}
		counts->records++;
		counts->notes += rec.trace_type == LOG_NOTE_TYPE;
	}
	if (r < 0) {
		bad_log = 1;
		goto done;
	}
	counts->truncated = dpm_log_truncated(x.log);
	/* Every process still alive ends at its node's last time. */
	for (size_t i = 0; i < x.procs.n && !r; i++) {
		struct export_proc *p = export_proc_at(&x, i);
		r = set_state(&x, p, EXPORT_ENDED, p->node->last_time, err, errlen);
	}
	if (!r)
		r = sink->close(x.s, &x, err, errlen);
	counts->nodes = x.nodes.n;
	counts->procs = x.procs.n;
done:
	if (x.s) {
		sink->discard(x.s);
		free(x.s);
	}
	free_ctx(&x);
	return bad_log ? -2 : r < 0 ? -1 : 0;
}

int export_log(const struct export_sink *sink, const char *log_path, const char *out,
	       struct export_counts *counts, char *err, size_t errlen)
{
	/* Written beside out, renamed over it when whole: a failed export
	 * leaves nothing behind and an earlier one untouched. */
	char tmp[4096];
	int to_stdout = !strcmp(out, "-");
	memset(counts, 0, sizeof *counts);
	if (sink->writes_dir && check_out_dir(out, err, errlen))
		return -1;
	if (!to_stdout && (size_t)snprintf(tmp, sizeof tmp, "%s.part%ld", out, (long)getpid()) >= sizeof tmp) {
		snprintf(err, errlen, "%s: path too long", out);
		return -1;
	}
	int r = export_to(sink, log_path, to_stdout ? out : tmp, counts, err, errlen);
	if (!r && !to_stdout && rename(tmp, out)) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		r = -1;
	}
	if (r && !to_stdout)
		nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return r;
}

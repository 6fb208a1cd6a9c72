/*
 * hostfilter/export/otf2.c - the OTF2 sink, written through libotf2 (Debian's
 * libotf2-trace-dev): an archive OUT/trace.otf2 that Vampir, Scalasca and
 * otf2-print read.
 *
 *  - system tree: "cluster", then one node per DPM node; a location group
 *    (a process) per DPM process under its node, with one location
 *    (a CPU thread) each: location id = rank = the process's index;
 *  - regions: "running" and "blocked" (export.h's states, entered and
 *    left at each change), and one per trace type of the log, entered and
 *    left at the record's time (a kernel call or kernel event takes no
 *    time in the trace), nested in the state it happened in;
 *  - messages: an MpiSend on the sender at its SEND and an MpiRecv on the
 *    receiver at its RECEIVE, on one communicator holding every process,
 *    with tag = the low 32 bits of msgId (the sender node's counter) and
 *    the whole msgId as attribute "msgId", so Vampir matches the two and
 *    draws the message line;
 *  - one global clock of 1 GHz: the nodes' ns clocks as they are.
 * Events go to libotf2's per-location buffers (at most OTF2_CHUNKS chunks
 * of OTF2_CHUNK bytes each), flushed to disk when full, so memory grows
 * with the processes, not the log.  Definitions are written at the end, when every node and process
 * is known.  Filter NOTEs are not exported (they are not traces).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "export.h"
#include "hostfilter/tracelog/desc.h"
#include "kernel/abi/trace.h"

#define OTF2_CHUNK (256u * 1024)
#define OTF2_DEF_CHUNK (1024u * 1024)

struct otf2_loc {
	OTF2_EvtWriter *w;
	uint64_t last; /* time of its last event: kept monotonic as OTF2 wants */
};

struct otf2 {
	OTF2_Archive *a;
	const struct dpm_log *log;
	OTF2_AttributeList *attrs;
	uint32_t region_running, region_blocked; /* after the layouts' regions */
	uint64_t max_time;
	const char *out;
};

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc,
				void *caller, bool final)
{
	(void)user, (void)type, (void)loc, (void)caller, (void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { .otf2_pre_flush = pre_flush,
						     .otf2_post_flush = NULL };

/* libotf2 keeps a writer's chunks in memory until told there is no more
 * (its own allocator never says so: the whole trace would be held until
 * the end).  So chunks come from here, at most OTF2_CHUNKS per buffer:
 * then allocate says no, libotf2 flushes that buffer to its file and
 * gives its chunks back through free_all. */
#define OTF2_CHUNKS 4
struct otf2_chunks {
	unsigned n;
	void *chunk[OTF2_CHUNKS];
};

static void *chunk_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			    uint64_t size)
{
	struct otf2_chunks *c = *per_buffer;
	(void)user, (void)type, (void)loc;
	if (!c && !(c = *per_buffer = calloc(1, sizeof *c)))
		return NULL;
	if (c->n == OTF2_CHUNKS || !(c->chunk[c->n] = malloc(size)))
		return NULL;
	return c->chunk[c->n++];
}

static void chunk_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			   bool final)
{
	struct otf2_chunks *c = *per_buffer;
	(void)user, (void)type, (void)loc;
	if (!c)
		return;
	while (c->n)
		free(c->chunk[--c->n]);
	if (final) {
		free(c);
		*per_buffer = NULL;
	}
}

static const OTF2_MemoryCallbacks memory_callbacks = { .otf2_allocate = chunk_allocate,
						       .otf2_free_all = chunk_free_all };

static int otf2_fail(char *err, size_t errlen, const char *what, OTF2_ErrorCode e)
{
	snprintf(err, errlen, "OTF2 %s: %s", what, OTF2_Error_GetDescription(e));
	return -1;
}

static int otf2_open(void *s, const struct export_ctx *x, const char *out, char *err,
		     size_t errlen)
{
	struct otf2 *o = s;
	o->out = out;
	o->log = export_log_of(x);
	o->region_running = (uint32_t)dpm_log_nlayouts(o->log);
	o->region_blocked = o->region_running + 1;
	if (export_make_dir(out, err, errlen))
		return -1;
	o->a = OTF2_Archive_Open(out, "trace", OTF2_FILEMODE_WRITE, OTF2_CHUNK, OTF2_DEF_CHUNK,
				 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o->a) {
		snprintf(err, errlen, "%s: libotf2 cannot create the archive", out);
		return -1;
	}
	OTF2_ErrorCode e;
	if ((e = OTF2_Archive_SetFlushCallbacks(o->a, &flush_callbacks, NULL)) != OTF2_SUCCESS ||
	    (e = OTF2_Archive_SetMemoryCallbacks(o->a, &memory_callbacks, NULL)) != OTF2_SUCCESS ||
	    (e = OTF2_Archive_SetSerialCollectiveCallbacks(o->a)) != OTF2_SUCCESS ||
	    (e = OTF2_Archive_SetCreator(o->a, "dpm export")) != OTF2_SUCCESS ||
	    (e = OTF2_Archive_OpenEvtFiles(o->a)) != OTF2_SUCCESS)
		return otf2_fail(err, errlen, "archive", e);
	if (!(o->attrs = OTF2_AttributeList_New())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int otf2_node(void *s, struct export_node *n, char *err, size_t errlen)
{
	(void)s, (void)n, (void)err, (void)errlen;
	return 0;
}

static int otf2_proc(void *s, struct export_proc *p, char *err, size_t errlen)
{
	struct otf2 *o = s;
	struct otf2_loc *l = calloc(1, sizeof *l);
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->sink = l;
	if (!(l->w = OTF2_Archive_GetEvtWriter(o->a, p->index))) {
		snprintf(err, errlen, "OTF2: no event writer for location %u", p->index);
		return -1;
	}
	return 0;
}

/* The time to stamp on p's next event: t, or its last if t went back. */
static uint64_t at(struct otf2 *o, struct export_proc *p, uint64_t t)
{
	struct otf2_loc *l = p->sink;
	if (t < l->last)
		t = l->last;
	l->last = t;
	if (t > o->max_time)
		o->max_time = t;
	return t;
}

static int otf2_state(void *s, struct export_proc *p, enum export_state from,
		      uint64_t from_since, uint64_t t, char *err, size_t errlen)
{
	struct otf2 *o = s;
	(void)from_since;
	struct otf2_loc *l = p->sink;
	OTF2_ErrorCode e = OTF2_SUCCESS;
	t = at(o, p, t);
	if (from == EXPORT_RUNNING || from == EXPORT_BLOCKED)
		e = OTF2_EvtWriter_Leave(l->w, NULL, t, from == EXPORT_RUNNING ? o->region_running
									      : o->region_blocked);
	if (e == OTF2_SUCCESS && (p->state == EXPORT_RUNNING || p->state == EXPORT_BLOCKED))
		e = OTF2_EvtWriter_Enter(l->w, NULL, t, p->state == EXPORT_RUNNING
								? o->region_running : o->region_blocked);
	return e == OTF2_SUCCESS ? 0 : otf2_fail(err, errlen, "state", e);
}

static int otf2_event(void *s, const struct export_event *e, char *err, size_t errlen)
{
	struct otf2 *o = s;
	if (e->is_note)
		return 0;
	struct otf2_loc *l = e->proc->sink;
	uint64_t t = at(o, e->proc, e->time), len = 0;
	uint32_t type = e->rec->trace_type, region = e->rec->layout;
	OTF2_ErrorCode r = OTF2_EvtWriter_Enter(l->w, NULL, t, region);
	if (r == OTF2_SUCCESS && e->peer && e->has_msg &&
	    (type == TRACE_SEND || type == TRACE_RECEIVE)) {
		(void)dpm_log_field(e->rec, "length", &len);
		OTF2_AttributeList_RemoveAllAttributes(o->attrs);
		r = OTF2_AttributeList_AddUint64(o->attrs, 0, e->msg_id);
		if (r == OTF2_SUCCESS && type == TRACE_SEND)
			r = OTF2_EvtWriter_MpiSend(l->w, o->attrs, t, e->peer->index, 0,
						   (uint32_t)e->msg_id, len);
		else if (r == OTF2_SUCCESS)
			r = OTF2_EvtWriter_MpiRecv(l->w, o->attrs, t, e->peer->index, 0,
						   (uint32_t)e->msg_id, len);
	}
	if (r == OTF2_SUCCESS)
		r = OTF2_EvtWriter_Leave(l->w, NULL, t, region);
	return r == OTF2_SUCCESS ? 0 : otf2_fail(err, errlen, "event", r);
}

/* ---- definitions, at the end ---------------------------------------- */

struct defs {
	OTF2_GlobalDefWriter *w;
	uint32_t next_string;
	OTF2_ErrorCode e;
};

static uint32_t str(struct defs *d, const char *s)
{
	if (d->e == OTF2_SUCCESS)
		d->e = OTF2_GlobalDefWriter_WriteString(d->w, d->next_string, s);
	return d->next_string++;
}

static void region(struct defs *d, uint32_t id, const char *name, const char *what)
{
	uint32_t n = str(d, name), desc = str(d, what);
	if (d->e == OTF2_SUCCESS)
		d->e = OTF2_GlobalDefWriter_WriteRegion(d->w, id, n, n, desc, OTF2_REGION_ROLE_FUNCTION,
							OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
							OTF2_UNDEFINED_STRING, 0, 0);
}

static int write_defs(struct otf2 *o, const struct export_ctx *x, const uint64_t *nevents,
		      char *err, size_t errlen)
{
	struct defs d = { .w = OTF2_Archive_GetGlobalDefWriter(o->a) };
	char name[64];
	if (!d.w)
		return otf2_fail(err, errlen, "definitions", OTF2_ERROR_MEM_ALLOC_FAILED);
	d.e = OTF2_GlobalDefWriter_WriteClockProperties(d.w, 1000000000, 0, o->max_time + 1,
							 OTF2_UNDEFINED_TIMESTAMP);
	for (size_t k = 0; k < dpm_log_nlayouts(o->log); k++)
		region(&d, (uint32_t)k, dpm_log_layout(o->log, k)->name, "a DPM trace record");
	region(&d, o->region_running, "running", "a DPM process not blocked in a receive");
	region(&d, o->region_blocked, "blocked", "a DPM process waiting in a blocking receive");
	uint32_t attr_name = str(&d, "msgId"), attr_desc = str(&d, "DPM message identity");
	if (d.e == OTF2_SUCCESS)
		d.e = OTF2_GlobalDefWriter_WriteAttribute(d.w, 0, attr_name, attr_desc, OTF2_TYPE_UINT64);
	uint32_t cluster = str(&d, "cluster"), machine = str(&d, "machine"), node_class = str(&d, "node");
	if (d.e == OTF2_SUCCESS)
		d.e = OTF2_GlobalDefWriter_WriteSystemTreeNode(d.w, 0, cluster, machine,
							       OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (size_t i = 0; i < export_nnodes(x) && d.e == OTF2_SUCCESS; i++) {
		const struct export_node *n = export_node_at(x, i);
		snprintf(name, sizeof name, "node %u", n->machine);
		uint32_t s = str(&d, name);
		if (d.e == OTF2_SUCCESS)
			d.e = OTF2_GlobalDefWriter_WriteSystemTreeNode(d.w, n->index + 1, s, node_class, 0);
	}
	size_t np = export_nprocs(x);
	for (size_t i = 0; i < np && d.e == OTF2_SUCCESS; i++) {
		const struct export_proc *p = export_proc_at(x, i);
		if (TASK_PID(p->task))
			snprintf(name, sizeof name, "%u.%u", TASK_NODE(p->task), TASK_PID(p->task));
		else
			snprintf(name, sizeof name, "%u.kernel", TASK_NODE(p->task));
		uint32_t s = str(&d, name);
		if (d.e == OTF2_SUCCESS)
			d.e = OTF2_GlobalDefWriter_WriteLocationGroup(d.w, p->index, s,
								      OTF2_LOCATION_GROUP_TYPE_PROCESS,
								      p->node->index + 1,
								      OTF2_UNDEFINED_LOCATION_GROUP);
		if (d.e == OTF2_SUCCESS)
			d.e = OTF2_GlobalDefWriter_WriteLocation(d.w, p->index, s,
								 OTF2_LOCATION_TYPE_CPU_THREAD,
								 nevents[i], p->index);
	}
	/* One communicator of every process: rank i is location i. */
	uint64_t *members = malloc(np * sizeof *members);
	if (!members) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < np; i++)
		members[i] = i;
	uint32_t locs = str(&d, ""), all = str(&d, "DPM processes");
	if (d.e == OTF2_SUCCESS)
		d.e = OTF2_GlobalDefWriter_WriteGroup(d.w, 0, locs, OTF2_GROUP_TYPE_COMM_LOCATIONS,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
						      (uint32_t)np, members);
	if (d.e == OTF2_SUCCESS)
		d.e = OTF2_GlobalDefWriter_WriteGroup(d.w, 1, locs, OTF2_GROUP_TYPE_COMM_GROUP,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
						      (uint32_t)np, members);
	free(members);
	if (d.e == OTF2_SUCCESS)
		d.e = OTF2_GlobalDefWriter_WriteComm(d.w, 0, all, 1, OTF2_UNDEFINED_COMM,
						     OTF2_COMM_FLAG_NONE);
	if (d.e != OTF2_SUCCESS)
		return otf2_fail(err, errlen, "definitions", d.e);
	OTF2_ErrorCode e = OTF2_Archive_CloseGlobalDefWriter(o->a, d.w);
	return e == OTF2_SUCCESS ? 0 : otf2_fail(err, errlen, "definitions", e);
}

static int otf2_close(void *s, const struct export_ctx *x, char *err, size_t errlen)
{
	struct otf2 *o = s;
	size_t np = export_nprocs(x);
	if (!np) {
		snprintf(err, errlen, "the log has no trace record, and an OTF2 archive without a "
				      "location cannot be read");
		return -1;
	}
	uint64_t *nevents = calloc(np, sizeof *nevents);
	OTF2_ErrorCode e = OTF2_SUCCESS;
	if (!nevents) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < np && e == OTF2_SUCCESS; i++) {
		struct otf2_loc *l = export_proc_at(x, i)->sink;
		e = OTF2_EvtWriter_GetNumberOfEvents(l->w, &nevents[i]);
		if (e == OTF2_SUCCESS)
			e = OTF2_Archive_CloseEvtWriter(o->a, l->w);
		l->w = NULL;
	}
	if (e == OTF2_SUCCESS)
		e = OTF2_Archive_CloseEvtFiles(o->a);
	/* Each location's (empty) local definitions, which readers open. */
	if (e == OTF2_SUCCESS)
		e = OTF2_Archive_OpenDefFiles(o->a);
	for (size_t i = 0; i < np && e == OTF2_SUCCESS; i++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->a, i);
		e = dw ? OTF2_Archive_CloseDefWriter(o->a, dw) : OTF2_ERROR_MEM_ALLOC_FAILED;
	}
	if (e == OTF2_SUCCESS)
		e = OTF2_Archive_CloseDefFiles(o->a);
	int r = e == OTF2_SUCCESS ? write_defs(o, x, nevents, err, errlen)
				  : otf2_fail(err, errlen, "closing", e);
	free(nevents);
	if (!r) {
		e = OTF2_Archive_Close(o->a);
		o->a = NULL;
		if (e != OTF2_SUCCESS)
			r = otf2_fail(err, errlen, "closing", e);
	}
	return r;
}

static void otf2_discard(void *s)
{
	struct otf2 *o = s;
	if (o->attrs)
		OTF2_AttributeList_Delete(o->attrs);
	if (o->a)
		OTF2_Archive_Close(o->a);
}

const struct export_sink export_otf2 = {
	.name = "otf2",
	.writes_dir = 1,
	.size = sizeof(struct otf2),
	.open = otf2_open,
	.node = otf2_node,
	.proc = otf2_proc,
	.state = otf2_state,
	.event = otf2_event,
	.close = otf2_close,
	.discard = otf2_discard,
};

/*
 * analysis/model/critical.h - the interaction network of a traced run, its
 * critical path by INMON's backward walk (thesis 004, Ch. 5, Fig. 5-2) and
 * the decomposition of response time into states (Ch. 6-7).
 *
 * Shape: the network is the computation graph (graph.h: each process's
 * events in its order, messages matched by msg_id) plus what a walk on
 * actual times needs and the graph does not keep: the time each received
 * message was QUEUED at its receiver, and the CREATEPROCESS that forked each
 * process.  Edges are not stored: every vertex has at most three
 * predecessors (its process's previous event, the SEND of the message it
 * received, the CREATEPROCESS that made it), so the walk decides at each
 * vertex which incoming edge is the non-B-edge from the times alone.  A path
 * is kept as (head vertex, kind of edge followed) pairs, 8 bytes a step, and
 * the states of a step are computed from the trace when they are asked for,
 * so every sum (job, node, process, request) is made by one function.
 */
#ifndef DPM_ANALYSIS_MODEL_CRITICAL_H
#define DPM_ANALYSIS_MODEL_CRITICAL_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* The states time on a path (or in a process's life) is split into. */
enum cstate {
	CS_RUNNING,         /* the process's own CPU (PROCTIME difference) */
	CS_READY,           /* able to run and not running: the rest of a stretch */
	CS_FLIGHT,          /* a remote message between SEND and QUEUED */
	CS_QUEUED,          /* a message on its receiver's queue, receiver busy */
	CS_BLOCKED_RECEIVE, /* waiting in RECEIVE for a traced process's message */
	CS_BLOCKED_CALL,    /* waiting for the reply to a CALL (SEND to X, then a
			       RECEIVE from X) */
	CS_EXTERNAL,        /* waiting for an untraced process, the kernel's
			       node.0 included (a disk or host request) */
	CS_KERNEL,          /* kernel work: a local message between SEND and
			       QUEUED, a process's creation */
	CS_COUNT
};

extern const char *const cstate_name[CS_COUNT];

struct cstates {
	uint64_t ns[CS_COUNT];
};

uint64_t cstates_total(const struct cstates *s);
void cstates_add(struct cstates *into, const struct cstates *s);

/* Which predecessor of a path step's head vertex the walk followed. */
enum cstep_kind {
	STEP_PROCESS, /* the process's previous event */
	STEP_MESSAGE, /* the message's SEND: the receiver was waiting for it */
	STEP_QUEUED,  /* the message's SEND although it was queued (request
			 walks only: the receiver's earlier work belongs to
			 another interaction) */
	STEP_FORK,    /* the CREATEPROCESS that made the process */
	STEP_EXIT,    /* the TERMPROCESS of a child whose end the RECEIVE's
			 message (from an untraced manager) announces */
};

struct cstep {
	uint32_t head; /* vertex (graph node) the step ends at */
	uint32_t kind; /* enum cstep_kind */
};

struct cnet {
	struct cgraph g;
	uint32_t *queued;   /* per node: event index of its message's QUEUED, or NO_NODE */
	uint32_t *fork;     /* per process: node of the CREATEPROCESS that made it, or NO_NODE */
	uint8_t *request;   /* per node: 1 for a SEND that is a request (not a reply) */
	uint32_t *exit_of;  /* per node: for a RECEIVE that is a child's exit
			       notice, the child's TERMPROCESS node, or NO_NODE */
	uint32_t *order;    /* the vertices in a topological order (every edge
			       forward): the what-if's and the slack's passes */
	/* A what-if's re-timed network (critical_whatif): per node its time,
	 * its message's arrival (matched RECEIVEs) and its stretch's CPU; NULL
	 * for the run as traced. */
	uint64_t *wt, *wq, *wc;
	uint64_t t0;        /* the first event's time */
	uint32_t last;      /* the last vertex (v_f): latest time, then latest in input */
};

/* Build the network of t (which must outlive it).  0 ok; -1 with
 * "file:line: what is wrong" in err for an empty or inconsistent trace
 * (a message received or queued before it was sent, which on one clock
 * cannot happen; messages at one instant in a cycle; those of graph.h). */
int cnet_build(struct cnet *n, const struct trace *t, char *err, size_t errlen);
void cnet_free(struct cnet *n);

static inline uint64_t cnet_time(const struct cnet *n, uint32_t k)
{
	return n->wt ? n->wt[k] : cgraph_event(&n->g, k)->time;
}

/* A path, in time order (steps[0] is the earliest step). */
struct cpath {
	struct cstep *steps;
	size_t nsteps, cap;
	uint32_t start;     /* first vertex of the path */
	uint32_t end;       /* last vertex */
	uint64_t clip_ns;   /* request walks: time cut off the earliest step */
};

void cpath_free(struct cpath *p);

/* The critical path of the whole run: INMON's walk back from v_f until a
 * vertex with no predecessor.  0 ok, -1 with the reason in err (out of
 * memory, a cycle). */
int critical_walk(const struct cnet *n, struct cpath *p, char *err, size_t errlen);

/* The critical path of one request: back from vertex `end` to vertex
 * `begin` (a CALL's reply RECEIVE and its SEND); a step reaching before
 * begin's time is cut at it.  0 ok, -1 out of memory. */
int critical_walk_request(const struct cnet *n, uint32_t begin, uint32_t end, struct cpath *p);

/* The states of one step (clip applied when it is the path's first). */
void cstep_states(const struct cnet *n, const struct cpath *p, size_t i, struct cstates *out);

/* The process a step is charged to: its head's process. */
static inline uint32_t cstep_process(const struct cnet *n, const struct cstep *s)
{
	return n->g.node_proc[s->head];
}

/* The tail vertex of a step (where it starts). */
uint32_t cstep_tail(const struct cnet *n, const struct cstep *s);

/* The states of process stretch k-1 -> k (all activities, on the path or
 * not); 0 for a process's first node. */
void cstretch_states(const struct cnet *n, uint32_t k, struct cstates *out);

/* Time messages received at node k spent queued while the receiver was
 * busy (0 if it was waiting, or k is not a RECEIVE). */
uint64_t cnet_queued_wait(const struct cnet *n, uint32_t k);

/* Times at a stretch k-1 -> k: its CPU (at most its elapsed time); at a
 * RECEIVE, when the process asked (its RECEIVECALL, else the previous
 * event plus the CPU since) and when the message reached its queue (its
 * QUEUED, else a matched message's SEND, else the RECEIVE). */
uint64_t cnet_stretch_cpu(const struct cnet *n, uint32_t k);
uint64_t cnet_asked_at(const struct cnet *n, uint32_t k);
uint64_t cnet_arrived_at(const struct cnet *n, uint32_t k);

/* The network round trips of MOVEDATA node k: one per 4096-byte chunk
 * (the kernel's move_remote) for each of its two areas on another node; 0
 * for a local move or another event. */
uint32_t cnet_movedata_trips(const struct cnet *n, uint32_t k);

/* What if: process p's CPU `speed[p]` times faster (1 unchanged; for an
 * untraced p, the waits for its answers) and every remote message
 * `latency` ns from SEND to QUEUED (negative: as measured), plus
 * `latency_add` (the cluster's one-way latency changed by that much; each
 * round trip of a remote MOVEDATA then changes by twice that).  Re-times the same network, every wait recomputed from the
 * joins (a RECEIVE happens when both its process asked and its message
 * arrived), into *w: a copy of n sharing its graph with its own times, to
 * walk and sum like n; free it with cnet_whatif_free.  0 ok, -1 out of
 * memory or a cycle (err says). */
struct cwhatif {
	const double *speed;  /* per process, 1 unchanged */
	int64_t latency;      /* every remote flight this long; -1 as measured */
	int64_t latency_add;  /* then added to every remote flight (may be < 0) */
	const int64_t *wait_add; /* per untraced process: added to each wait for
				    its answer (a disk request's latency), or NULL */
};

int cnet_whatif(const struct cnet *n, const struct cwhatif *c, struct cnet *w, char *err,
		size_t errlen);
void cnet_whatif_free(struct cnet *w);

/* The slack of every vertex (INMON's "activities off the path"): how much
 * later it could happen, everything else as measured, without the run
 * ending later; 0 on a critical path.  A backward pass over the order:
 * a vertex must leave its successors their measured durations, except that
 * at a join the earlier of the two arrivals may slip up to the later.  0
 * ok, -1 no memory or a cycle. */
int cnet_slack(const struct cnet *n, uint64_t *slack);

/* The CALL whose reply node k receives: its SEND node, else NO_NODE.  A
 * CALL is a SEND to X followed by (RECEIVECALL and) a RECEIVE from X,
 * where the SEND is not itself a reply: a process that received from X
 * owes X a reply, and its next SEND to X pays it (cnet_build marks them). */
uint32_t cnet_call_of(const struct cnet *n, uint32_t k);

#endif

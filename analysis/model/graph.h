/*
 * analysis/model/graph.h - the computation graph of TR 574 §3 built from a trace.
 *
 * Nodes are the events of each traced process in that process's own order
 * (its local clock, then its CPU time, then input order); node numbers are
 * grouped by process, so the process arc into node k comes from node k-1
 * unless k is the process's first node.  Each node has at most one other
 * incoming arc (its "cross" predecessor):
 *   - a message arc from the SEND with the same msg_id (matched exactly), or
 *   - an external-wait arc (TR 574 §3.3) from the process's own earlier SEND
 *     to a process that was not traced, into the RECEIVE of that process's
 *     answer; it is weighted by the elapsed local-clock time between them.
 * Arrays are indexed by node, so memory is a few words per event and the
 * graph is built in time linear in the trace (plus sorting any process
 * whose events arrive out of order).
 */
#ifndef DPM_ANALYSIS_MODEL_GRAPH_H
#define DPM_ANALYSIS_MODEL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

#define NO_NODE 0xffffffffu

enum cross_kind { CROSS_NONE = 0, CROSS_MESSAGE = 1, CROSS_EXTERNAL = 2 };

struct cgraph {
	const struct trace *tr;
	size_t nnodes;
	uint32_t *node_ev;    /* event index of node k */
	uint32_t *node_proc;  /* process of node k */
	uint32_t *first;      /* nodes of process p: first[p] .. first[p+1]-1 */
	uint32_t *cross;      /* cross predecessor of node k, or NO_NODE */
	uint32_t *succ;       /* for a SEND node: its matched RECEIVE node */
	uint8_t *kind;        /* enum cross_kind of node k's cross arc */
	size_t nmessages;     /* matched message arcs */
	size_t nexternal;     /* external-wait arcs */
	size_t unmatched_receives; /* RECEIVEs from traced senders without SEND */
	size_t untraced;      /* processes named but without events of their own */
};

/* Build g from t (which must outlive g and have passed trace_check, as
 * every trace_load does: messages sent and received once, by their
 * addressee).  0 ok; -1 on CPU time running backwards in a process, with
 * "file:line: what is wrong" in err, or out of memory. */
int cgraph_build(struct cgraph *g, const struct trace *t, char *err, size_t errlen);
void cgraph_free(struct cgraph *g);

static inline const struct event *cgraph_event(const struct cgraph *g, uint32_t k)
{
	return &g->tr->ev[g->node_ev[k]];
}

static inline int cgraph_is_first(const struct cgraph *g, uint32_t k)
{
	return k == g->first[g->node_proc[k]];
}

/* CPU time of the process arc into node k (0 for a first node). */
static inline uint64_t cgraph_proc_arc(const struct cgraph *g, uint32_t k)
{
	return cgraph_is_first(g, k) ? 0 : cgraph_event(g, k)->cpu - cgraph_event(g, k - 1)->cpu;
}

/* t_proc of process p: the sum of its process arcs. */
uint64_t cgraph_tproc(const struct cgraph *g, uint32_t p);

#endif

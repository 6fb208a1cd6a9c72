/*
 * analysis/model/parallelism.h - the parallelism factor P = T / t_max of a
 * computation graph for one configuration (TR 574 §4).
 *
 * A configuration is an assignment of processes to machines, a delivery
 * time function MTIME and whether processes on one machine share its CPU.
 * Without sharing, t_max is the longest path through the labelled graph;
 * with sharing the process arcs are relabelled first (reweight.h).  Both
 * leave, per node, the time it happens and which incoming arc bound it, so
 * the maximum path can be walked back from its last node.  The
 * configuration and the per-node results are in ptiming.h, below both.
 */
#ifndef DPM_ANALYSIS_MODEL_PARALLELISM_H
#define DPM_ANALYSIS_MODEL_PARALLELISM_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "ptiming.h"

struct presult {
	double T;       /* total CPU: sum of process arcs, ns */
	double t_max;   /* length of the maximum path, ns */
	double P;       /* T / t_max (0 when t_max is 0) */
	size_t M;       /* machines holding at least one traced process */
	double util;    /* P / M */
	uint32_t end;   /* last node of the maximum path, NO_NODE if none */
};

/* Evaluate c.  0 ok; -1 if the graph has a cycle (events of the trace
 * contradict each other), with the place in err. */
int parallel_eval(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		  struct presult *r, char *err, size_t errlen);

/* One stretch of the maximum path inside a process, and the arc that
 * leaves it (none for the last). */
struct path_step {
	uint32_t proc;
	uint32_t from, to;   /* nodes */
	double cpu;          /* sum of the process arcs from..to */
	double wait;         /* ... and of their remote MOVEDATAs' round trips
	                        (wait_weight), which are no CPU */
	uint8_t out_kind;    /* enum cross_kind of the arc to the next step */
	double out_weight;   /* its weight */
};

/* The maximum path ending at r->end as steps (malloc'd, *n of them). */
struct path_step *max_path(const struct cgraph *g, const struct pconfig *c,
			   const struct pwork *w, const struct presult *r, size_t *n);

#endif

/*
 * analysis/parallelism.h - the parallelism factor P = T / t_max of a
 * computation graph for one configuration (TR 574 §4).
 *
 * A configuration is an assignment of processes to machines, a delivery
 * time function MTIME and whether processes on one machine share its CPU.
 * Without sharing, t_max is the longest path through the labelled graph;
 * with sharing the process arcs are relabelled first (reweight.c).  Both
 * leave, per node, the time it happens and which incoming arc bound it, so
 * the maximum path can be walked back from its last node.
 */
#ifndef DPM_ANALYSIS_PARALLELISM_H
#define DPM_ANALYSIS_PARALLELISM_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "mtime.h"

struct pconfig {
	const uint32_t *machine_of; /* machine index of each process */
	const struct mtime_table *mt;
	int contention;             /* processor sharing on each machine */
};

/* Per-node results of an evaluation. */
struct pwork {
	double *when;   /* time the node happens on the longest path, ns */
	uint8_t *via;   /* 1 if the node's cross arc bound it, else 0 */
};

struct presult {
	double T;       /* total CPU: sum of process arcs, ns */
	double t_max;   /* length of the maximum path, ns */
	double P;       /* T / t_max (0 when t_max is 0) */
	size_t M;       /* machines holding at least one traced process */
	double util;    /* P / M */
	uint32_t end;   /* last node of the maximum path, NO_NODE if none */
};

int pwork_alloc(struct pwork *w, size_t nnodes);
void pwork_free(struct pwork *w);

/* Weight of node k's cross arc under configuration c (MTIME for a message,
 * elapsed time for an external wait). */
double cross_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k);

/* Evaluate c.  0 ok; -1 if the graph has a cycle (events of the trace
 * contradict each other), with the place in err. */
int parallel_eval(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		  struct presult *r, char *err, size_t errlen);

/* The two ways of timing the graph (fill w->when and w->via). */
int longest_path(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		 char *err, size_t errlen);
int reweight_simulate(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		      char *err, size_t errlen);

/* After timing: 0 if every process reached its end (pos[p] is the next
 * node of p), else -1 naming the first one that could not (a cycle). */
int check_all_timed(const struct cgraph *g, const uint32_t *pos, char *err, size_t errlen);

/* One stretch of the maximum path inside a process, and the arc that
 * leaves it (none for the last). */
struct path_step {
	uint32_t proc;
	uint32_t from, to;   /* nodes */
	double cpu;          /* sum of the process arcs from..to */
	uint8_t out_kind;    /* enum cross_kind of the arc to the next step */
	double out_weight;   /* its weight */
};

/* The maximum path ending at r->end as steps (malloc'd, *n of them). */
struct path_step *max_path(const struct cgraph *g, const struct pconfig *c,
			   const struct pwork *w, const struct presult *r, size_t *n);

#endif

/*
 * analysis/model/critical_sum.h - the sums of `dpm critical` (critical_sum.c):
 * the critical path's states per job, node and process, each process's
 * whole life in states, requests per server and the slowest ones, and a
 * what-if's path.  The command prints them; the report shows them.
 */
#ifndef DPM_ANALYSIS_MODEL_CRITICAL_SUM_H
#define DPM_ANALYSIS_MODEL_CRITICAL_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "critical.h"

struct critical_proc {
	struct cstates path;  /* on the critical path */
	struct cstates all;   /* the process's whole traced life */
	uint64_t queued;      /* its messages' waits in its queue */
	uint64_t cpu;         /* PROCTIME from its first to its last event */
	uint64_t events, critical_events; /* its events, those with no slack */
	uint64_t least_slack; /* the least slack of the others (UINT64_MAX: none) */
};

struct critical_server {
	uint64_t count, response;
	struct cstates states;
};

struct critical_request {
	uint32_t send, reply;
	uint64_t response;
	struct cstates states;
};

struct critical_result {
	struct cnet net;
	struct cpath path;
	struct cstates job;
	uint64_t elapsed, length, clamped_cpu;
	struct critical_proc *proc;
	struct critical_server *server;  /* by the called process */
	uint64_t nrequests, request_mismatch;
	struct critical_request *slow;       /* the slowest, longest first */
	size_t nslow;
	uint32_t *machines;         /* distinct machines, sorted */
	size_t nmachines;
	struct cstates *by_machine;
	/* the what-if, when one was made (critical_result_whatif) */
	int whatif;
	struct cnet wnet;
	struct cpath wpath;
	struct cstates wjob;
	uint64_t welapsed, wlength;
};

/* Build the network of t, walk it and add everything up, keeping the
 * `slowest` slowest requests.  0 ok; -1 bad input, -2 out of memory, with
 * what is wrong in err.  Free r with critical_result_free either way. */
int critical_analyse(const struct trace *t, size_t slowest, struct critical_result *r, char *err,
		     size_t errlen);
void critical_result_free(struct critical_result *r);

/* The what-if of cnet_whatif on r's network, walked and summed into r's
 * w* fields.  0 ok, -1 with err. */
int critical_result_whatif(struct critical_result *r, const struct cwhatif *c, char *err,
			   size_t errlen);

/* The states of a path's steps added into `into`. */
void critical_sum_steps(const struct cnet *n, const struct cpath *p, struct cstates *into);

/* Index of machine m in r->machines. */
size_t critical_machine_index(const struct critical_result *r, uint32_t m);

#endif

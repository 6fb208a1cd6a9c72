/*
 * analysis/report/run.h - the analyses of one run, computed in-process
 * with the analysis library (run.c): statistics, P in the thesis's five
 * configurations, and paths of causality when requestors are named.
 */
#ifndef DPM_ANALYSIS_REPORT_RUN_H
#define DPM_ANALYSIS_REPORT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model/causality_roles.h"
#include "analysis/model/configs.h"
#include "analysis/model/critical_sum.h"
#include "analysis/model/stats.h"
#include "spec.h"

/* Indices into report_run.cfg, the order of configs_plan_thesis. */
enum { CFG_UPPER, CFG_MEASURED, CFG_CONTENTION, CFG_EACH_OWN, CFG_ONE };

/* What the timelines on the run's own clock show (overview.c). */
struct report_overview {
	int made;
	size_t lanes;
	double t0, t1;           /* the run, first to last event */
	size_t messages, every, drawn; /* between lanes; every k-th drawn */
	double z0, z1;           /* the zoomed window */
	size_t zdrawn;
};

struct report_run {
	const struct report_spec *spec;
	struct trace tr;
	struct stats st;
	struct cgraph g;
	struct mtime_table mt;
	char mtime_what[320];
	char clock[16];          /* the clock the log was recorded in (mtime_log_clock) */
	struct config_run cfg[CONFIGS_THESIS];
	double *when_upper;      /* each node's time under the upper bound */
	double *when_measured;   /* ... and the measured configuration */
	struct roles roles;      /* names of the processes; roles if causality */
	int have_causality;      /* some process is a requestor */
	struct causality cz;
	int have_critical;       /* the critical path was found (one clock) */
	char critical_why[160];  /* else why not */
	struct critical_result crit;
	char raw_file[128];      /* the input as kept inside DIR */
	char csv_file[128];      /* its CSV inside DIR */
	int raw_is_log;          /* the input was a filter log (else a CSV) */
	struct report_overview overview;
};

/* Load the run's trace and compute everything.  0 ok; else an exit code
 * (2 bad input, 1 failed) with "file:line: what is wrong" in err. */
int report_run_analyse(struct report_run *r, const struct report_spec *s, char *err,
		       size_t errlen);
void report_run_free(struct report_run *r);

/* The process's name for people: its names-file name, else node.pid. */
const char *report_process(const struct report_run *r, uint32_t p);
/* Whether process p has events of its own (a node of the graph). */
int report_traced(const struct report_run *r, uint32_t p);
/* Processes with events ranked by CPU, busiest first, into order; how
 * many there are. */
size_t report_cpu_ranking(const struct report_run *r, uint32_t *order);
/* The process with events that used the most CPU, or NO_PROC. */
uint32_t report_busiest(const struct report_run *r);

#endif

/*
 * analysis/report/timeline.h - the data of a run's space-time diagram and
 * parallelism profile (timeline.c), which plot.c draws.
 */
#ifndef DPM_ANALYSIS_REPORT_TIMELINE_H
#define DPM_ANALYSIS_REPORT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run.h"

/* The space-time diagram's data: run stretches and messages of the
 * measured timing, in the window [0, until] that keeps it readable. */
#define TIMELINE_MAX_LANES 48
struct timeline {
	double until;            /* end of the window shown, ns */
	double t_max;
	size_t nruns, nmsgs;     /* shown */
	size_t all_msgs;
	uint32_t lane_proc[TIMELINE_MAX_LANES];  /* process of each lane */
	size_t nlanes;
};
/* lane[p] for each process (or -1): the busiest TIMELINE_MAX_LANES, grouped
 * by machine, in order[0..lanes); returns how many lanes. */
size_t report_timeline_lanes(const struct report_run *r, int *lane, uint32_t *order);
/* Write the two data blocks (stretches, messages) to f. */
int report_timeline(const struct report_run *r, FILE *f, struct timeline *tl);
/* Average number of processes running in each of nbins slices of
 * [0, t_max] of a timing (when), into bins. */
void report_profile(const struct report_run *r, const double *when, double t_max,
		    double *bins, size_t nbins);

#endif

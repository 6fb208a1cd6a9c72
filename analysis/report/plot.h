/*
 * analysis/report/plot.h - the figures of a run and of the runs together
 * (plot.c): P of the five configurations (with published values beside
 * them when an extension has some), CPU shares, message sizes, the
 * parallelism profile, the timeline, the request state diagram, and P of
 * every configuration across the runs.
 */
#ifndef DPM_ANALYSIS_REPORT_PLOT_H
#define DPM_ANALYSIS_REPORT_PLOT_H

#include <stddef.h>

#include "extension.h"
#include "figure.h"
#include "run.h"

enum { PLOT_P, PLOT_CPU, PLOT_SIZES, PLOT_PROFILE, PLOT_TIMELINE, REPORT_PLOTS };
/* The plots of run r, each with its .dat and .gp written and drawn; refs:
 * the extension whose published values are set beside P, or NULL. */
int report_plots(const struct report_run *r, const struct report_extension *refs,
		 struct report_tools *tools, struct report_figure fig[REPORT_PLOTS], char *why,
		 size_t whylen);
/* P of every configuration across the runs. */
int report_plot_runs(const struct report_run *runs, size_t n, struct report_tools *tools,
		     struct report_figure *fig, char *why, size_t whylen);
/* The request state diagram (thesis Fig. 5.19). */
int report_diagram(const struct report_run *r, struct report_tools *tools,
		   struct report_figure *fig, char *why, size_t whylen);

#endif

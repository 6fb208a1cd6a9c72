/*
 * analysis/report/overview.h - a run's timelines on its own clock
 * (overview.c): the whole run per process, coloured by state, with a
 * sample of its messages, and a zoomed window with all of them.
 */
#ifndef DPM_ANALYSIS_REPORT_OVERVIEW_H
#define DPM_ANALYSIS_REPORT_OVERVIEW_H

#include <stddef.h>

#include "run.h"

/* Write DIR/NAME-overview.svg and DIR/NAME-zoom.svg for a run with a
 * critical path (one clock), filling r->overview; nothing for another.
 * 0 ok; -1 with why. */
int report_overview(struct report_run *r, const char *dir, char *why, size_t whylen);

#endif

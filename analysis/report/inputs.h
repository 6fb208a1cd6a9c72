/*
 * analysis/report/inputs.h - the raw inputs of a run kept beside the
 * page (inputs.c): a copy of the log or CSV, and the CSV of a log.
 */
#ifndef DPM_ANALYSIS_REPORT_INPUTS_H
#define DPM_ANALYSIS_REPORT_INPUTS_H

#include <stddef.h>

#include "run.h"

/* Copy the run's input into dir/raw/ and keep a CSV of it there (written
 * from a filter log, or the CSV itself).  0 ok; -1 with why. */
int report_keep_inputs(struct report_run *r, const char *dir, char *why, size_t whylen);

#endif

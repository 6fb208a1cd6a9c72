/*
 * analysis/report/inputs.h - the raw inputs of a run kept beside the
 * page (inputs.c): a link to the input where it lies, or with --copy-raw
 * a copy of the log or CSV and the CSV of a log.
 */
#ifndef DPM_ANALYSIS_REPORT_INPUTS_H
#define DPM_ANALYSIS_REPORT_INPUTS_H

#include <stddef.h>

#include "run.h"

/* With copy, copy the run's input into dir/raw/ and keep a CSV of it
 * there (written from a filter log, or the CSV itself); without, only
 * note where the input is, relative to dir (r->raw_file; no CSV).  0 ok;
 * -1 with why. */
int report_keep_inputs(struct report_run *r, const char *dir, int copy, char *why, size_t whylen);
/* The path of file relative to folder dir (both must exist): "../x/a.log".
 * 0 ok; -1 if a path cannot be resolved or out is too short. */
int report_relative_path(const char *dir, const char *file, char *out, size_t outlen);

#endif

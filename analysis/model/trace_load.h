/*
 * analysis/model/trace_load.h - loading a trace from either kind of file
 * the analyses take, a trace CSV or a filter log (trace_load.c), so a
 * command need not know which it was given.
 */
#ifndef DPM_ANALYSIS_MODEL_TRACE_LOAD_H
#define DPM_ANALYSIS_MODEL_TRACE_LOAD_H

#include <stddef.h>

#include "events.h"

/* Load a trace CSV or a filter log (told apart by dpm_log_sniff) and check
 * that it holds together (trace_check.h).  0 ok; -1 with "file:line: what
 * is wrong" in err. */
int trace_load(struct trace *t, const char *path, char *err, size_t errlen);

#endif

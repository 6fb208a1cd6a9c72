/*
 * analysis/model/trace_check.h - whether a loaded trace holds together,
 * checked once when it is loaded (trace_load) and before the computation
 * graph is built, so no analysis builds anything on a trace that
 * contradicts itself: every event's process references lie inside the
 * process table, each message is sent at most once and received at most
 * once, and by the process it was sent to.  The error names the file and
 * the line (CSV) or record (log) and says why; the commands exit 2.
 */
#ifndef DPM_ANALYSIS_MODEL_TRACE_CHECK_H
#define DPM_ANALYSIS_MODEL_TRACE_CHECK_H

#include <stddef.h>

#include "events.h"

/* 0 the trace holds together; -1 with "file:line: why" in err. */
int trace_check(const struct trace *t, char *err, size_t errlen);

#endif

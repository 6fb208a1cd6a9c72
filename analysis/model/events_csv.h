/*
 * analysis/model/events_csv.h - reading a trace CSV (docs/trace-csv.md)
 * into the event table (events_csv.c).
 */
#ifndef DPM_ANALYSIS_MODEL_EVENTS_CSV_H
#define DPM_ANALYSIS_MODEL_EVENTS_CSV_H

#include <stddef.h>

#include "events.h"

/* 0 ok; -1 with "file:line: what is wrong" in err. */
int trace_load_csv(struct trace *t, const char *path, char *err, size_t errlen);

#endif

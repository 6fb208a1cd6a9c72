/*
 * analysis/model/events_log.h - reading the filter's log
 * (hostfilter/tracelog/log.h) into the event table (events_log.c).
 */
#ifndef DPM_ANALYSIS_MODEL_EVENTS_LOG_H
#define DPM_ANALYSIS_MODEL_EVENTS_LOG_H

#include <stddef.h>

#include "events.h"

/* 0 ok; -1 with "file: what is wrong" in err. */
int trace_load_log(struct trace *t, const char *path, char *err, size_t errlen);

#endif

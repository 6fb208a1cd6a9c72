/*
 * analysis/model/trace_load.c - trace_load: picks the reader of a trace
 * file (events_csv.c or events_log.c) by sniffing it, and refuses
 * what is neither (binary, or text that has no CSV header line).
 */
#include "trace_load.h"

#include "events_csv.h"
#include "events_log.h"
#include "hostfilter/tracelog/log.h"

#include <stdio.h>

int trace_load(struct trace *t, const char *path, char *err, size_t errlen)
{
	switch (dpm_trace_file_kind(path)) {
	case DPM_FILE_LOG:
		return trace_load_log(t, path, err, errlen);
	case DPM_FILE_NEITHER:
		snprintf(err, errlen, "%s: not a DPM log or trace CSV", path);
		return -1;
	default:
		return trace_load_csv(t, path, err, errlen);
	}
}

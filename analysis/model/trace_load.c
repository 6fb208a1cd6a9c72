/*
 * analysis/model/trace_load.c - trace_load: picks the reader of a trace
 * file (events_csv.c or events_log.c) by sniffing it, refuses what is
 * neither (binary, or text that has no CSV header line), then checks that
 * what it read holds together (trace_check.c) before any analysis builds
 * on it.
 */
#include "trace_load.h"

#include "events_csv.h"
#include "events_log.h"
#include "trace_check.h"
#include "hostfilter/tracelog/log.h"

#include <stdio.h>

int trace_load(struct trace *t, const char *path, char *err, size_t errlen)
{
	int rc;
	switch (dpm_trace_file_kind(path)) {
	case DPM_FILE_LOG:
		rc = trace_load_log(t, path, err, errlen);
		break;
	case DPM_FILE_NEITHER:
		snprintf(err, errlen, "%s: not a DPM log or trace CSV", path);
		return -1;
	default:
		rc = trace_load_csv(t, path, err, errlen);
		break;
	}
	return rc < 0 ? rc : trace_check(t, err, errlen);
}

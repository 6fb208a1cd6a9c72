/*
 * analysis/model/trace_load.c - trace_load: picks the reader of a trace
 * file (events_csv.c or events_log.c) by sniffing it, then checks that
 * what it read holds together (trace_check.c) before any analysis
 * builds on it.
 */
#include "trace_load.h"

#include "events_csv.h"
#include "events_log.h"
#include "trace_check.h"
#include "hostfilter/tracelog/log.h"

int trace_load(struct trace *t, const char *path, char *err, size_t errlen)
{
	int rc = dpm_log_sniff(path) ? trace_load_log(t, path, err, errlen)
				     : trace_load_csv(t, path, err, errlen);
	return rc < 0 ? rc : trace_check(t, err, errlen);
}

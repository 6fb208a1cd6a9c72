/*
 * analysis/model/trace_load.c - trace_load: picks the reader of a trace
 * file (events_csv.c or events_log.c) by sniffing it.
 */
#include "trace_load.h"

#include "events_csv.h"
#include "events_log.h"
#include "hostfilter/tracelog/log.h"

int trace_load(struct trace *t, const char *path, char *err, size_t errlen)
{
	if (dpm_log_sniff(path))
		return trace_load_log(t, path, err, errlen);
	return trace_load_csv(t, path, err, errlen);
}

/*
 * hostfilter/tracelog/logwindow.h - one job's part of a filter log: the records
 * each node traced between two MARKs the controller placed (KR_METERMARK,
 * docs/control.md), so `dpm record` leaves a log of its job alone even
 * when the cluster's filter was logging other jobs too.
 */
#ifndef DPM_HOSTFILTER_LOGWINDOW_H
#define DPM_HOSTFILTER_LOGWINDOW_H

#include <stddef.h>
#include <stdint.h>

struct log_window_counts {
	uint64_t records;     /* records written, marks and notes included */
	unsigned started;     /* machines whose start mark was found */
	unsigned ended;       /* ... and whose end mark */
};

/* Write to out a log with in's header and, of in's records, each
 * machine's from its MARK with token `start` to its MARK with token `end`
 * (both kept), and the filter's NOTEs.  0, or -1 with "file: what" in err. */
int log_window_extract(const char *in, const char *out, uint32_t start, uint32_t end,
		       struct log_window_counts *counts, char *err, size_t errlen);

#endif

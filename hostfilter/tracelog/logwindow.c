/*
 * hostfilter/tracelog/logwindow.c - cutting one job's records out of a filter log
 * (logwindow.h) by the controller's MARK traces.
 *
 * Each node's traces reach the filter in one ordered stream, so on every
 * machine what lies between its MARK with the start token and its MARK
 * with the end token is exactly what that node traced in between, even
 * while other jobs fill the same log.  The copy keeps the header as it is
 * and the chosen records byte for byte, in blocks of its own (logwrite.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "logformat.h"
#include "logwindow.h"
#include "logwrite.h"
#include "kernel/abi/trace.h"

#define MACHINES 256

enum window { BEFORE, INSIDE, AFTER };

/* Move machine's window along at a MARK; whether the record is kept. */
static int keep(const struct dpm_log_record *rec, enum window *w, uint32_t start, uint32_t end,
		struct log_window_counts *counts)
{
	uint64_t machine, token;
	if (rec->trace_type == LOG_NOTE_TYPE)
		return 1; /* the filter's own notes: what it could not log */
	if (!dpm_log_field(rec, "machine", &machine) || machine >= MACHINES)
		return 0;
	if (rec->trace_type == TRACE_MARK && dpm_log_field(rec, "token", &token)) {
		if (token == start && w[machine] == BEFORE) {
			w[machine] = INSIDE;
			counts->started++;
			return 1;
		}
		if (token == end && w[machine] == INSIDE) {
			w[machine] = AFTER;
			counts->ended++;
			return 1;
		}
		return 0;
	}
	return w[machine] == INSIDE;
}

int log_window_extract(const char *in, const char *out_path, uint32_t start, uint32_t end,
		       struct log_window_counts *counts, char *err, size_t errlen)
{
	memset(counts, 0, sizeof *counts);
	struct dpm_log *log = dpm_log_open(in, err, errlen);
	if (!log)
		return -1;
	dpm_log_follow(log); /* the cluster's filter may still be appending */
	struct log_writer out;
	int r = logw_open_copy(&out, out_path, in, dpm_log_header_size(log), err, errlen);
	enum window w[MACHINES] = { BEFORE };
	struct dpm_log_record rec;
	uint8_t raw[2 + 65536];
	int more = 0;
	while (r == 0 && (more = dpm_log_next(log, &rec, err, errlen)) > 0) {
		if (!keep(&rec, w, start, end, counts))
			continue;
		size_t n = dpm_log_last_raw(log, raw, sizeof raw);
		if (!n) {
			snprintf(err, errlen, "%s: a record too long to copy", in);
			r = -1;
		} else if (logw_append_raw(&out, raw, n, err, errlen)) {
			r = -1;
		}
		counts->records++;
	}
	if (more < 0)
		r = -1;
	dpm_log_close(log);
	char cerr[256];
	if (logw_close(&out, cerr, sizeof cerr) != 0 && r == 0) {
		snprintf(err, errlen, "%s", cerr);
		r = -1;
	}
	return r;
}

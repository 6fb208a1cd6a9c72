/*
 * hostfilter/tracelog/logcolumns.h - which field of a filter log's record fills
 * which column of the trace CSV (docs/trace-csv.md), per trace type
 * (logcolumns.c).  The one such map: `dpm dump --csv` writes the CSV by it
 * and the analyses read a log by it (analysis/model/events_log.c), so a
 * log and its CSV are read alike.
 */
#ifndef DPM_HOSTFILTER_LOGCOLUMNS_H
#define DPM_HOSTFILTER_LOGCOLUMNS_H

/* The field filling each per-type column; NULL where the type has none.
 * The columns every type shares (machine, time_ns, cpu_ns, seq, load,
 * task, msg_id) are the header's fields and msgId, named alike for all. */
struct log_columns {
	const char *type;
	const char *src, *dst, *length, *link, *code, *pass_link, *queue_len;
	const char *reason;      /* TERMPROCESS's exit reason */
	const char *count;       /* DROPPED's count, MARK's token */
};

/* The columns of the trace type called type_name (case-insensitive): a
 * row with every column NULL for a type the map does not know. */
const struct log_columns *log_columns_of(const char *type_name);

#endif

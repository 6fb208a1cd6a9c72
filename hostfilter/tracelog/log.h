/*
 * hostfilter/tracelog/log.h - reading the filter's self-describing log.
 *
 * The log carries the descriptions of the fields it kept, so a reader needs
 * no other file: a record is a trace type plus named field values.  This is
 * the API every host tool (dump, the analyses) uses to read a log; the file
 * format itself is private to hostfilter/ and documented in docs/filter.md.
 */
#ifndef DPM_HOSTFILTER_LOG_H
#define DPM_HOSTFILTER_LOG_H

#include <stddef.h>
#include <stdint.h>

struct dpm_log;

struct dpm_log_record {
	uint32_t trace_type;     /* traceType of the record (enum trace_type) */
	const char *type_name;   /* its description's name, e.g. "SEND"       */
	/* Fields kept by the filter, in description order.  Owned by the log;
	 * valid until the next dpm_log_next() call. */
	size_t nfields;
	const char *const *names;
	const uint64_t *values;
	const unsigned *bases;   /* display base of each field */
	unsigned layout;         /* its layout in the log (dpm_log_layout) */
};

/* Open a log.  On failure returns NULL and writes "path: what is wrong"
 * into err. */
struct dpm_log *dpm_log_open(const char *path, char *err, size_t errlen);

/* Read the next record: 1 and *rec filled, 0 at the end, -1 on a corrupt
 * or truncated log (a message with the byte offset and what was expected
 * is written into err).  Every block's checksum is checked before any of
 * its records is returned. */
int dpm_log_next(struct dpm_log *log, struct dpm_log_record *rec, char *err, size_t errlen);

/* Bytes of the log's header (its descriptions): records start there. */
uint64_t dpm_log_header_size(const struct dpm_log *log);
/* The record dpm_log_next() read last, as it is in the file (layout id and
 * packed fields), into out: its length, or 0 when size is too small. */
size_t dpm_log_last_raw(const struct dpm_log *log, uint8_t *out, size_t size);

/* After dpm_log_next() returned 0 on a log a filter is still writing: go
 * back to the end of the last whole record, so the next call reads what
 * has been appended since.  0, or -1 (not a file that can seek). */
int dpm_log_resume(struct dpm_log *log);

/* Value of the field called `name` in rec: 1 and *value set if present, 0 if
 * the record has no such field (not described, or discarded by a rule). */
int dpm_log_field(const struct dpm_log_record *rec, const char *name, uint64_t *value);

/* Whether `path` starts like a filter log (used to tell a log from CSV);
 * a log of an older format counts, so dpm_log_open can say so. */
int dpm_log_sniff(const char *path);

/* The log's layouts (one flat description each, offsets from the start
 * of the packed fields): how many, and the k-th, for writers that declare
 * every record's shape before the records (the CTF export). */
struct desc;
size_t dpm_log_nlayouts(const struct dpm_log *log);
const struct desc *dpm_log_layout(const struct dpm_log *log, size_t k);

/* What a trace file is, from its first bytes: a DPM log (any version), a
 * trace CSV (text whose first line that is not a comment has a comma),
 * neither, or unreadable (no such file, standard input: the caller's
 * reader says why).  Readers say "not a DPM log or trace CSV" for
 * DPM_FILE_NEITHER. */
enum dpm_file_kind { DPM_FILE_NEITHER, DPM_FILE_LOG, DPM_FILE_CSV, DPM_FILE_UNREADABLE };
enum dpm_file_kind dpm_trace_file_kind(const char *path);

/* The log is still being written (a filter is running): a block not yet
 * whole at its end is the end for now (dpm_log_next returns 0 and
 * dpm_log_truncated says how much of it there is), where otherwise it is
 * a truncated log (-1 and a message). */
void dpm_log_follow(struct dpm_log *log);

/* Bytes of an incomplete last block that a following reader left. */
size_t dpm_log_truncated(const struct dpm_log *log);
void dpm_log_close(struct dpm_log *log);

#endif

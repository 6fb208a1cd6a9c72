/*
 * hostfilter/tracelog/logformat.h - the filter log's file format, private to
 * hostfilter/ (readers outside use log.h).  docs/filter.md documents it:
 *
 *   "DPMLOG 1\n"                      magic and version
 *   "descriptions N\n"                N bytes follow:
 *   <descriptions>                    one flat description per layout, in
 *                                     the description language; the k-th
 *                                     is layout k; offsets count from the
 *                                     start of the packed fields
 *   "records\n"
 *   { layout:u16le  fields... }       records to the end of the file
 *
 * The filter also writes NOTE records (type 256, not a trace) to say what
 * it rejected on a connection.
 */
#ifndef DPM_HOSTFILTER_LOGFORMAT_H
#define DPM_HOSTFILTER_LOGFORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"

#define LOG_MAGIC "DPMLOG 1\n"
#define LOG_RECORDS_LINE "records\n"
#define LOG_LAYOUTS_MAX 65535

#define LOG_NOTE_TYPE 256u
#define LOG_NOTE_NAME "NOTE"

/* Why a connection's bytes were rejected (a NOTE's reason field). */
enum note_reason {
	NOTE_BAD_MAGIC = 1,       /* batch does not start with "DPMB"        */
	NOTE_BAD_VERSION = 2,     /* batch version is not 1                  */
	NOTE_BAD_BATCH_SIZE = 3,  /* bytes disagrees with count or records   */
	NOTE_BAD_RECORD_SIZE = 4, /* a record's size is impossible           */
	NOTE_UNKNOWN_TYPE = 5,    /* a record's traceType is not described   */
	NOTE_TRUNCATED = 6,       /* the stream ended inside a batch         */
	NOTE_READ_ERROR = 7,      /* reading the connection failed           */
	NOTE_FOREIGN_MACHINE = 8, /* an authenticated node sent another node's
	                             batch or record                          */
	NOTE_STALLED = 9,         /* the peer stopped inside a batch         */
	NOTE_REASON_MAX = 9
};

/* A NOTE record as the filter builds it before packing. */
struct log_note {
	uint32_t conn;    /* connection number, 1 for the first accepted */
	uint32_t machine; /* node named by the batch, or 0xffffffff if unknown */
	uint32_t reason;  /* enum note_reason */
	uint32_t pad;
	uint64_t offset;  /* byte of the connection's stream where it went wrong */
	uint64_t bytes;   /* bytes received and not logged */
};

/* The NOTE record's format (so it is described in the log like a trace). */
void log_note_format(struct format *f);

/* "bad magic", ... ; "?" for an unknown reason. */
const char *note_reason_name(uint32_t reason);

/* Bytes of an incomplete last record (a filter killed while writing),
 * known once dpm_log_next() has returned 0; 0 if the log ended cleanly. */
#endif

/*
 * hostfilter/tracelog/logformat.h - the filter log's file format, private to
 * hostfilter/ (readers outside use log.h).  docs/filter.md documents it:
 *
 *   "DPMLOG 2\n"                      magic and version
 *   "descriptions N crc32 XXXXXXXX\n" N bytes follow, with their CRC-32:
 *   <descriptions>                    one flat description per layout, in
 *                                     the description language; the k-th
 *                                     is layout k; offsets count from the
 *                                     start of the packed fields
 *   "records\n"
 *   { block }                         blocks to the end of the file
 *
 *   block: "DBLK" n:u32le crc:u32le hcrc:u32le, then n bytes of records
 *          { layout:u16le  fields... }; crc is the CRC-32 (zlib's) of the
 *          n bytes, hcrc that of the block header's first 12 bytes.  The
 *          writer emits a block per flush (one or more whole meter
 *          batches) with one write(2), so a killed filter leaves whole
 *          blocks; a reader checks every block before it hands out any of
 *          its records.
 *
 * The filter also writes NOTE records (type 256, not a trace) to say what
 * it rejected on a connection.
 */
#ifndef DPM_HOSTFILTER_LOGFORMAT_H
#define DPM_HOSTFILTER_LOGFORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"

#define LOG_MAGIC_WORD "DPMLOG "
#define LOG_VERSION 2
#define LOG_MAGIC "DPMLOG 2\n"
#define LOG_BLOCK_MAGIC "DBLK"
#define LOG_BLOCK_HEADER 16u
#define LOG_BLOCK_MAX (64u * 1024 * 1024) /* bytes of records in one block */
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

/* CRC-32 of n bytes (zlib's crc32, the checksum of blocks and header). */
uint32_t log_crc32(const void *data, size_t n);

/* Fill a block header for n bytes of records (crc their CRC-32). */
void log_block_header(uint8_t out[LOG_BLOCK_HEADER], uint32_t n, uint32_t crc);
#endif

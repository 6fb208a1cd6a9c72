/*
 * hostfilter/tracelog/logwrite.h - writing the filter's log (format: logformat.h).
 *
 * Records are appended to a buffer and written with write(2) only between
 * batches (logw_flush), each flush one checksummed block (logformat.h) in
 * one write, so the file only ever ends after a whole block: a filter
 * killed with SIGKILL leaves a log readable to its last block.  The
 * buffer's first LOG_BLOCK_HEADER bytes are kept for the block's header.
 */
#ifndef DPM_HOSTFILTER_LOGWRITE_H
#define DPM_HOSTFILTER_LOGWRITE_H

#include "layout.h"

struct log_writer {
	int fd;
	const char *path;
	uint8_t *buf;
	size_t len, cap;
};

/* Create `path` and write the header describing every layout in ls. */
int logw_open(struct log_writer *w, const char *path, const struct layout_set *ls, char *err,
	      size_t errlen);

/* Create `path` with the header (magic, descriptions, records line) of the
 * log `from`, whose first header_size bytes it is (dpm_log_header_size). */
int logw_open_copy(struct log_writer *w, const char *path, const char *from,
		   uint64_t header_size, char *err, size_t errlen);

/* Make room for `bytes` more, flushing what is buffered if needed. */
int logw_reserve(struct log_writer *w, size_t bytes, char *err, size_t errlen);

/* Append a record in layout number `id` (room must have been reserved). */
static inline void logw_append(struct log_writer *w, uint32_t id, const struct layout *l,
			       const uint8_t *rec)
{
	uint8_t *p = w->buf + w->len;
	p[0] = (uint8_t)id;
	p[1] = (uint8_t)(id >> 8);
	w->len = (size_t)(layout_pack(l, rec, p + 2) - w->buf);
}

/* Append a record as it is in a log (layout id and packed fields, n bytes,
 * as dpm_log_last_raw gives it), reserving room for it. */
int logw_append_raw(struct log_writer *w, const uint8_t *raw, size_t n, char *err, size_t errlen);

/* Write what is buffered as one block (nothing if nothing is). */
int logw_flush(struct log_writer *w, char *err, size_t errlen);

/* Flush and close; 0 or -1 with a message. */
int logw_close(struct log_writer *w, char *err, size_t errlen);

#endif

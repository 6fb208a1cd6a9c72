/*
 * hostfilter/tracelog/logwrite.c - the log writer: header at open, whole records
 * after, written in large pieces, each a checksummed block (logformat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "logformat.h"
#include "logwrite.h"

#define LOGW_BUFFER (256 * 1024)

static int write_all(struct log_writer *w, const void *data, size_t n, char *err, size_t errlen)
{
	const char *p = data;
	while (n > 0) {
		ssize_t k = write(w->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

uint32_t log_crc32(const void *data, size_t n)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	const Bytef *p = data;
	while (n > 0) { /* zlib takes a uInt length */
		uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
		crc = crc32(crc, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)crc;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void log_block_header(uint8_t out[LOG_BLOCK_HEADER], uint32_t n, uint32_t crc)
{
	memcpy(out, LOG_BLOCK_MAGIC, 4);
	put32(out + 4, n);
	put32(out + 8, crc);
	put32(out + 12, log_crc32(out, 12));
}

/* The header: magic, the layouts' descriptions, the start of records. */
static int write_header(struct log_writer *w, const struct layout_set *ls, char *err,
			size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem) {
		snprintf(err, errlen, "%s: out of memory", w->path);
		return -1;
	}
	for (size_t i = 0; i < ls->n; i++)
		layout_describe(&ls->v[i], mem);
	fclose(mem);
	char head[64];
	int n = snprintf(head, sizeof head, "%sdescriptions %zu crc32 %08x\n", LOG_MAGIC, len,
			 (unsigned)log_crc32(text, len));
	int rc = write_all(w, head, (size_t)n, err, errlen) || write_all(w, text, len, err, errlen) ||
		 write_all(w, LOG_RECORDS_LINE, strlen(LOG_RECORDS_LINE), err, errlen);
	free(text);
	return rc ? -1 : 0;
}

static int create(struct log_writer *w, const char *path, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->path = path;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	w->cap = LOGW_BUFFER;
	w->buf = malloc(w->cap);
	if (!w->buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	w->len = LOG_BLOCK_HEADER;
	return 0;
}

int logw_open(struct log_writer *w, const char *path, const struct layout_set *ls, char *err,
	      size_t errlen)
{
	if (ls->n > LOG_LAYOUTS_MAX) {
		memset(w, 0, sizeof *w);
		w->fd = -1;
		snprintf(err, errlen, "%s: too many record layouts (%zu)", path, ls->n);
		return -1;
	}
	if (create(w, path, err, errlen))
		return -1;
	return write_header(w, ls, err, errlen);
}

int logw_open_copy(struct log_writer *w, const char *path, const char *from,
		   uint64_t header_size, char *err, size_t errlen)
{
	if (create(w, path, err, errlen))
		return -1;
	FILE *f = fopen(from, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -1;
	}
	char buf[65536];
	uint64_t left = header_size;
	while (left) {
		size_t n = fread(buf, 1, left < sizeof buf ? (size_t)left : sizeof buf, f);
		if (!n || write_all(w, buf, n, err, errlen))
			break;
		left -= n;
	}
	fclose(f);
	if (left) {
		snprintf(err, errlen, "%s: copying its header failed", from);
		return -1;
	}
	return 0;
}

int logw_flush(struct log_writer *w, char *err, size_t errlen)
{
	if (w->len <= LOG_BLOCK_HEADER)
		return 0;
	size_t n = w->len - LOG_BLOCK_HEADER;
	w->len = LOG_BLOCK_HEADER;
	if (n > LOG_BLOCK_MAX) {
		snprintf(err, errlen, "%s: a block of %zu bytes is over the format's %u", w->path, n,
			 LOG_BLOCK_MAX);
		return -1;
	}
	log_block_header(w->buf, (uint32_t)n, log_crc32(w->buf + LOG_BLOCK_HEADER, n));
	return write_all(w, w->buf, LOG_BLOCK_HEADER + n, err, errlen);
}

int logw_append_raw(struct log_writer *w, const uint8_t *raw, size_t n, char *err, size_t errlen)
{
	if (logw_reserve(w, n, err, errlen))
		return -1;
	memcpy(w->buf + w->len, raw, n);
	w->len += n;
	return 0;
}

int logw_reserve(struct log_writer *w, size_t bytes, char *err, size_t errlen)
{
	if (w->len + bytes <= w->cap)
		return 0;
	if (logw_flush(w, err, errlen))
		return -1;
	if (LOG_BLOCK_HEADER + bytes > w->cap) {
		size_t want = LOG_BLOCK_HEADER + bytes;
		uint8_t *bigger = realloc(w->buf, want);
		if (!bigger) {
			snprintf(err, errlen, "%s: out of memory", w->path);
			return -1;
		}
		w->buf = bigger;
		w->cap = want;
	}
	return 0;
}

int logw_close(struct log_writer *w, char *err, size_t errlen)
{
	int rc = 0;
	if (w->fd >= 0 && w->buf)
		rc = logw_flush(w, err, errlen);
	if (w->fd >= 0 && close(w->fd) && !rc) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	free(w->buf);
	w->buf = NULL;
	w->fd = -1;
	return rc;
}

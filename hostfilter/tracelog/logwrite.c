/*
 * hostfilter/tracelog/logwrite.c - the log writer: header at open, whole records
 * after, written in large pieces.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	int n = snprintf(head, sizeof head, "%sdescriptions %zu\n", LOG_MAGIC, len);
	int rc = write_all(w, head, (size_t)n, err, errlen) || write_all(w, text, len, err, errlen) ||
		 write_all(w, LOG_RECORDS_LINE, strlen(LOG_RECORDS_LINE), err, errlen);
	free(text);
	return rc ? -1 : 0;
}

int logw_open(struct log_writer *w, const char *path, const struct layout_set *ls, char *err,
	      size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->fd = -1;
	w->path = path;
	if (ls->n > LOG_LAYOUTS_MAX) {
		snprintf(err, errlen, "%s: too many record layouts (%zu)", path, ls->n);
		return -1;
	}
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
	return write_header(w, ls, err, errlen);
}

int logw_flush(struct log_writer *w, char *err, size_t errlen)
{
	int rc = write_all(w, w->buf, w->len, err, errlen);
	w->len = 0;
	return rc;
}

int logw_reserve(struct log_writer *w, size_t bytes, char *err, size_t errlen)
{
	if (w->len + bytes <= w->cap)
		return 0;
	if (logw_flush(w, err, errlen))
		return -1;
	if (bytes > w->cap) {
		uint8_t *bigger = realloc(w->buf, bytes);
		if (!bigger) {
			snprintf(err, errlen, "%s: out of memory", w->path);
			return -1;
		}
		w->buf = bigger;
		w->cap = bytes;
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

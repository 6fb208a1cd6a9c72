/*
 * hostfilter/tracelog/log.c - reading the filter's log: the API of log.h.
 *
 * The header's descriptions are parsed with the description parser, so a
 * reader knows every layout's field names, sizes and bases from the log
 * alone.  Records are read through stdio and decoded into one value array
 * owned by the log (no allocation per record).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "log.h"
#include "logformat.h"

struct log_layout {
	const struct desc *d;
	uint32_t size;
	const char *names[DESC_FIELDS_MAX];
	unsigned bases[DESC_FIELDS_MAX];
};

struct dpm_log {
	FILE *f;
	char *path;
	struct desc_set descs;
	struct log_layout *layouts;
	uint64_t pos;       /* file offset of the next record */
	uint64_t records_at; /* file offset of the first record */
	unsigned last_layout; /* layout of the record read last */
	size_t truncated;   /* bytes of an incomplete last record */
	uint8_t *buf;       /* one packed record */
	uint64_t values[DESC_FIELDS_MAX];
};

static int fail(struct dpm_log *log, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", log->path, what);
	return -1;
}

/* "descriptions N\n" then N bytes of descriptions, then "records\n". */
static int read_header(struct dpm_log *log, char *err, size_t errlen)
{
	char line[64];
	size_t n, counts_line;
	if (!fgets(line, sizeof line, log->f) || strcmp(line, LOG_MAGIC))
		return fail(log, err, errlen, "not a dpm filter log (bad magic line)");
	if (!fgets(line, sizeof line, log->f) || sscanf(line, "descriptions %zu\n", &n) != 1 ||
	    n > 64u * 1024 * 1024)
		return fail(log, err, errlen, "corrupt log header (no descriptions line)");
	counts_line = strlen(line);
	char *text = malloc(n + 1);
	if (!text)
		return fail(log, err, errlen, "out of memory");
	if (fread(text, 1, n, log->f) != n) {
		free(text);
		return fail(log, err, errlen, "log ends inside its descriptions");
	}
	int rc = desc_parse(&log->descs, log->path, text, n, 3, err, errlen);
	free(text);
	if (rc)
		return -1;
	if (!fgets(line, sizeof line, log->f) || strcmp(line, LOG_RECORDS_LINE))
		return fail(log, err, errlen, "corrupt log header (no records line)");
	log->pos = strlen(LOG_MAGIC) + counts_line + n + strlen(LOG_RECORDS_LINE);
	log->records_at = log->pos;
	return 0;
}

static int build_layouts(struct dpm_log *log, char *err, size_t errlen)
{
	uint32_t max = 1;
	log->layouts = calloc(log->descs.n ? log->descs.n : 1, sizeof *log->layouts);
	if (!log->layouts)
		return fail(log, err, errlen, "out of memory");
	for (size_t i = 0; i < log->descs.n; i++) {
		struct log_layout *l = &log->layouts[i];
		l->d = &log->descs.descs[i];
		l->size = desc_extent(l->d);
		for (size_t k = 0; k < l->d->nfields; k++) {
			l->names[k] = l->d->fields[k].name;
			l->bases[k] = l->d->fields[k].base;
		}
		if (l->size > max)
			max = l->size;
	}
	log->buf = malloc(max);
	return log->buf ? 0 : fail(log, err, errlen, "out of memory");
}

struct dpm_log *dpm_log_open(const char *path, char *err, size_t errlen)
{
	struct dpm_log *log = calloc(1, sizeof *log);
	if (!log || !(log->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(log);
		return NULL;
	}
	log->f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!log->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		dpm_log_close(log);
		return NULL;
	}
	setvbuf(log->f, NULL, _IOFBF, 1 << 20);
	if (read_header(log, err, errlen) || build_layouts(log, err, errlen)) {
		dpm_log_close(log);
		return NULL;
	}
	return log;
}

int dpm_log_next(struct dpm_log *log, struct dpm_log_record *rec, char *err, size_t errlen)
{
	uint8_t id[2];
	size_t got = fread(id, 1, 2, log->f);
	if (got < 2) {
		log->truncated = got;
		return 0;
	}
	unsigned n = id[0] | (unsigned)id[1] << 8;
	if (n >= log->descs.n) {
		snprintf(err, errlen, "%s: byte %llu: record layout %u is not described (corrupt log)",
			 log->path, (unsigned long long)log->pos, n);
		return -1;
	}
	const struct log_layout *l = &log->layouts[n];
	got = fread(log->buf, 1, l->size, log->f);
	if (got < l->size) {
		log->truncated = 2 + got;
		return 0;
	}
	log->pos += 2 + l->size;
	log->last_layout = n;
	for (size_t k = 0; k < l->d->nfields; k++) {
		const struct desc_field *f = &l->d->fields[k];
		uint64_t v = 0;
		memcpy(&v, log->buf + f->offset, f->length); /* little-endian host */
		log->values[k] = v;
	}
	rec->trace_type = l->d->type;
	rec->type_name = l->d->name;
	rec->nfields = l->d->nfields;
	rec->names = l->names;
	rec->values = log->values;
	rec->bases = l->bases;
	rec->layout = n;
	return 1;
}

int dpm_log_field(const struct dpm_log_record *rec, const char *name, uint64_t *value)
{
	for (size_t i = 0; i < rec->nfields; i++)
		if (!strcmp(rec->names[i], name)) {
			*value = rec->values[i];
			return 1;
		}
	return 0;
}

int dpm_log_sniff(const char *path)
{
	char head[sizeof LOG_MAGIC - 1];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	return n == sizeof head && !memcmp(head, LOG_MAGIC, sizeof head);
}

uint64_t dpm_log_header_size(const struct dpm_log *log)
{
	return log->records_at;
}

size_t dpm_log_last_raw(const struct dpm_log *log, uint8_t *out, size_t size)
{
	const struct log_layout *l = &log->layouts[log->last_layout];
	size_t n = 2 + l->size;
	if (n > size)
		return 0;
	out[0] = (uint8_t)log->last_layout;
	out[1] = (uint8_t)(log->last_layout >> 8);
	memcpy(out + 2, log->buf, l->size);
	return n;
}

int dpm_log_resume(struct dpm_log *log)
{
	if (log->f == stdin || fseeko(log->f, (off_t)log->pos, SEEK_SET) != 0)
		return -1;
	clearerr(log->f);
	log->truncated = 0;
	return 0;
}

size_t dpm_log_nlayouts(const struct dpm_log *log)
{
	return log->descs.n;
}

const struct desc *dpm_log_layout(const struct dpm_log *log, size_t k)
{
	return k < log->descs.n ? &log->descs.descs[k] : NULL;
}

size_t dpm_log_truncated(const struct dpm_log *log)
{
	return log->truncated;
}

void dpm_log_close(struct dpm_log *log)
{
	if (!log)
		return;
	if (log->f && log->f != stdin)
		fclose(log->f);
	desc_free(&log->descs);
	free(log->layouts);
	free(log->buf);
	free(log->path);
	free(log);
}

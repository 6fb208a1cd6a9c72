/*
 * hostfilter/tracelog/log.c - reading the filter's log: the API of log.h.
 *
 * The header's descriptions are parsed with the description parser, so a
 * reader knows every layout's field names, sizes and bases from the log
 * alone.  Records are read through stdio and decoded into one value array
 * owned by the log (no allocation per record).  Records come in blocks
 * (logformat.h): a block is read whole and its CRC-32 checked before any
 * of its records is handed out, so a truncated or overwritten log is
 * reported with the byte where it goes wrong and what was expected,
 * never read as wrong values.
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
	uint64_t pos;       /* file offset of the next block */
	uint64_t records_at; /* file offset of the first block */
	unsigned last_layout; /* layout of the record read last */
	const uint8_t *last; /* its packed fields, in block */
	size_t truncated;   /* bytes of an incomplete last block (following) */
	int following;      /* a filter may still be writing the log */
	uint8_t *block;     /* the block being read: its records */
	size_t block_len, block_cap, block_off;
	uint64_t values[DESC_FIELDS_MAX];
};

static int fail(struct dpm_log *log, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", log->path, what);
	return -1;
}

/* The magic line: this version, an older one, or not a log at all. */
static int check_magic(struct dpm_log *log, const char *line, char *err, size_t errlen)
{
	if (!strcmp(line, LOG_MAGIC))
		return 0;
	unsigned version;
	if (!strncmp(line, LOG_MAGIC_WORD, strlen(LOG_MAGIC_WORD)) &&
	    sscanf(line + strlen(LOG_MAGIC_WORD), "%u", &version) == 1) {
		snprintf(err, errlen,
			 "%s: a DPM log of format %u, which this dpm does not read (it reads "
			 "format %d, whose blocks carry checksums): record the run again",
			 log->path, version, LOG_VERSION);
		return -1;
	}
	snprintf(err, errlen, "%s: %s", log->path,
		 dpm_trace_file_kind(log->path) == DPM_FILE_CSV ?
			 "a trace CSV, not a DPM log (this command reads logs only)" :
			 "not a DPM log or trace CSV");
	return -1;
}

/* "descriptions N crc32 X\n" then N bytes of descriptions, then "records\n". */
static int read_header(struct dpm_log *log, char *err, size_t errlen)
{
	char line[64];
	size_t n, counts_line;
	unsigned crc;
	if (!fgets(line, sizeof line, log->f))
		line[0] = 0;
	if (check_magic(log, line, err, errlen))
		return -1;
	size_t at = strlen(line);
	if (!fgets(line, sizeof line, log->f) ||
	    sscanf(line, "descriptions %zu crc32 %8x\n", &n, &crc) != 2 || n > 64u * 1024 * 1024) {
		snprintf(err, errlen,
			 "%s: byte %zu: expected \"descriptions N crc32 XXXXXXXX\" (corrupt log header)",
			 log->path, at);
		return -1;
	}
	counts_line = strlen(line);
	char *text = malloc(n + 1);
	if (!text)
		return fail(log, err, errlen, "out of memory");
	size_t got = fread(text, 1, n, log->f);
	if (got != n) {
		free(text);
		snprintf(err, errlen,
			 "%s: byte %zu: log ends inside its descriptions (%zu bytes expected, %zu "
			 "present): truncated log",
			 log->path, at + counts_line, n, got);
		return -1;
	}
	uint32_t sum = log_crc32(text, n);
	if (sum != crc) {
		free(text);
		snprintf(err, errlen,
			 "%s: byte %zu: the descriptions' checksum is %08x, the header says %08x "
			 "(corrupt log)",
			 log->path, at + counts_line, (unsigned)sum, crc);
		return -1;
	}
	int rc = desc_parse(&log->descs, log->path, text, n, 3, err, errlen);
	free(text);
	if (rc)
		return -1;
	if (!fgets(line, sizeof line, log->f) || strcmp(line, LOG_RECORDS_LINE)) {
		snprintf(err, errlen, "%s: byte %zu: expected \"records\" (corrupt log header)",
			 log->path, at + counts_line + n);
		return -1;
	}
	log->pos = strlen(LOG_MAGIC) + counts_line + n + strlen(LOG_RECORDS_LINE);
	log->records_at = log->pos;
	return 0;
}

static int build_layouts(struct dpm_log *log, char *err, size_t errlen)
{
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
	}
	return 0;
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

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A log that ends inside a block: the end while following a filter that
 * is still writing (0), else an error. */
static int ends_early(struct dpm_log *log, size_t got, char *err, size_t errlen, const char *fmt,
		      uint64_t expected)
{
	if (log->following) {
		log->truncated = got;
		return 0;
	}
	char what[128];
	snprintf(what, sizeof what, fmt, (unsigned long long)expected);
	snprintf(err, errlen, "%s: byte %llu: log ends inside a block (%s, %zu present): truncated log",
		 log->path, (unsigned long long)log->pos, what, got);
	return -1;
}

/* Read and check the block at log->pos: 1, 0 at the end, -1 corrupt. */
static int next_block(struct dpm_log *log, char *err, size_t errlen)
{
	uint8_t h[LOG_BLOCK_HEADER];
	size_t got = fread(h, 1, sizeof h, log->f);
	if (got == 0)
		return 0;
	if (got < sizeof h)
		return ends_early(log, got, err, errlen, "%llu bytes of block header expected",
				  LOG_BLOCK_HEADER);
	uint32_t hsum = log_crc32(h, 12);
	if (memcmp(h, LOG_BLOCK_MAGIC, 4) || hsum != get32(h + 12)) {
		snprintf(err, errlen,
			 "%s: byte %llu: expected a block header (\"%s\", length, checksums whose "
			 "own checksum is %08x), found %02x %02x %02x %02x ... %08x (corrupt log)",
			 log->path, (unsigned long long)log->pos, LOG_BLOCK_MAGIC, (unsigned)hsum, h[0],
			 h[1], h[2], h[3], (unsigned)get32(h + 12));
		return -1;
	}
	uint32_t n = get32(h + 4), crc = get32(h + 8);
	if (n > LOG_BLOCK_MAX || n == 0) {
		snprintf(err, errlen, "%s: byte %llu: a block of %u bytes (1 to %u expected; corrupt log)",
			 log->path, (unsigned long long)log->pos, (unsigned)n, LOG_BLOCK_MAX);
		return -1;
	}
	if (n > log->block_cap) {
		uint8_t *b = realloc(log->block, n);
		if (!b)
			return fail(log, err, errlen, "out of memory");
		log->block = b;
		log->block_cap = n;
	}
	got = fread(log->block, 1, n, log->f);
	if (got < n)
		return ends_early(log, sizeof h + got, err, errlen,
				  "16 + %llu bytes of block expected", n);
	uint32_t sum = log_crc32(log->block, n);
	if (sum != crc) {
		snprintf(err, errlen,
			 "%s: byte %llu: the block of %u bytes has checksum %08x, its header says "
			 "%08x (corrupt log)",
			 log->path, (unsigned long long)log->pos, (unsigned)n, (unsigned)sum,
			 (unsigned)crc);
		return -1;
	}
	log->pos += sizeof h + n;
	log->block_len = n;
	log->block_off = 0;
	return 1;
}

int dpm_log_next(struct dpm_log *log, struct dpm_log_record *rec, char *err, size_t errlen)
{
	if (log->block_off == log->block_len) {
		int r = next_block(log, err, errlen);
		if (r <= 0)
			return r;
	}
	/* the file offset of this record, for messages */
	uint64_t at = log->pos - log->block_len + log->block_off;
	const uint8_t *p = log->block + log->block_off;
	size_t left = log->block_len - log->block_off;
	if (left < 2) {
		snprintf(err, errlen, "%s: byte %llu: 1 byte left in a block, a record expected "
				      "(corrupt log)", log->path, (unsigned long long)at);
		return -1;
	}
	unsigned n = p[0] | (unsigned)p[1] << 8;
	if (n >= log->descs.n) {
		snprintf(err, errlen, "%s: byte %llu: record layout %u is not described (corrupt log)",
			 log->path, (unsigned long long)at, n);
		return -1;
	}
	const struct log_layout *l = &log->layouts[n];
	if (left - 2 < l->size) {
		snprintf(err, errlen,
			 "%s: byte %llu: a record of layout %u (%u bytes) overruns its block, "
			 "which has %zu left (corrupt log)",
			 log->path, (unsigned long long)at, n, (unsigned)(2 + l->size), left);
		return -1;
	}
	log->block_off += 2 + l->size;
	log->last_layout = n;
	log->last = p + 2;
	for (size_t k = 0; k < l->d->nfields; k++) {
		const struct desc_field *f = &l->d->fields[k];
		uint64_t v = 0;
		memcpy(&v, p + 2 + f->offset, f->length); /* little-endian host */
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

enum dpm_file_kind dpm_trace_file_kind(const char *path)
{
	unsigned char head[4096];
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
	if (!f)
		return DPM_FILE_UNREADABLE;
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	size_t word = strlen(LOG_MAGIC_WORD);
	if (n >= word && !memcmp(head, LOG_MAGIC_WORD, word))
		return DPM_FILE_LOG;
	int line_start = 1, comment = 0, header_done = 0, comma = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = head[i];
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
			return DPM_FILE_NEITHER; /* binary */
		if (header_done)
			continue;
		if (line_start)
			comment = c == '#';
		line_start = c == '\n';
		if (!comment && c == ',')
			comma = 1;
		if (c == '\n' && !comment && i > 0 && head[i - 1] != '\n')
			header_done = 1;
	}
	return comma ? DPM_FILE_CSV : DPM_FILE_NEITHER;
}

int dpm_log_sniff(const char *path)
{
	return dpm_trace_file_kind(path) == DPM_FILE_LOG;
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
	memcpy(out + 2, log->last, l->size);
	return n;
}

void dpm_log_follow(struct dpm_log *log)
{
	log->following = 1;
}

int dpm_log_resume(struct dpm_log *log)
{
	if (log->block_off != log->block_len)
		return 0; /* records of the last block are still to be read */
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
	free(log->block);
	free(log->path);
	free(log);
}

/*
 * hostfilter/filter/meterstream.c - batches in, selected records out.
 *
 * The record loop (log_batch) is the filter's hot path: per record it
 * reads the type and size from fixed header offsets, looks the type up in
 * an array, runs the type's compiled rules and packs the kept fields into
 * the log buffer.  Nothing is allocated per record or per batch.
 *
 * The kernel sends compact batches (version METER_BATCH_COMPACT,
 * kernel/abi/tracewire.h): take_batch decodes one with the shared decoder
 * into full records (version 1's layout, which the filter also takes as
 * it is) and logs those, so the log and everything after it see the
 * records of kernel/abi/trace.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "meterstream.h"
#include "kernel/abi/trace.h"
#include "kernel/abi/tracewire.h"

#define STREAM_READ_ROOM (64 * 1024)
#define BATCH_HEADER_SIZE sizeof(struct meter_batch_header)
#define NO_MACHINE 0xffffffffu

/* Why a batch was refused, for the NOTE and the message. */
struct refusal {
	enum note_reason reason;
	char detail[160];
};

int core_open(struct filter_core *c, const struct formats *fm, struct rules *r,
	      const char *log_path, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->log.fd = -1;
	if (!(c->dec = malloc(sizeof *c->dec))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->fm = fm;
	c->rules = r;
	log_note_format(&c->note_format);
	int id = layout_get(&r->layouts, &c->note_format, layout_all_fields(&c->note_format));
	if (id < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->note_layout = (uint32_t)id;
	c->mark = formats_by_name(fm, "MARK");
	c->dropped = formats_by_name(fm, "DROPPED");
	for (size_t i = 0; fm->n && i < fm->list[0].nfields && !c->has_machine; i++)
		if (!strcmp(fm->list[0].fields[i].name, "machine") &&
		    fm->list[0].fields[i].offset + fm->list[0].fields[i].length <= fm->header_size) {
			c->machine = fm->list[0].fields[i];
			c->has_machine = 1;
		}
	int k = c->dropped ? format_field_index(c->dropped, "count") : -1;
	if (k < 0)
		c->dropped = NULL;
	else
		c->dropped_count = c->dropped->fields[k];
	return logw_open(&c->log, log_path, &r->layouts, err, errlen);
}

int core_close(struct filter_core *c, char *err, size_t errlen)
{
	free(c->dec);
	free(c->wide);
	c->dec = NULL;
	c->wide = NULL;
	return logw_close(&c->log, err, errlen);
}

int stream_open(struct filter_core *c, struct meter_stream *s)
{
	memset(s, 0, sizeof *s);
	s->id = (unsigned)++c->st.connections;
	s->machine = NO_MACHINE;
	s->cap = STREAM_READ_ROOM;
	s->buf = malloc(s->cap);
	return s->buf ? 0 : -1;
}

void stream_free(struct meter_stream *s)
{
	free(s->buf);
	s->buf = NULL;
}

uint8_t *stream_space(struct meter_stream *s, size_t *room)
{
	size_t want = s->len + STREAM_READ_ROOM;
	if (s->need > want)
		want = s->need;
	if (want > s->cap) {
		uint8_t *bigger = realloc(s->buf, want);
		if (bigger) {
			s->buf = bigger;
			s->cap = want;
		}
	}
	*room = s->cap - s->len;
	return s->buf + s->len;
}

/* Write a NOTE for what the stream lost, and say it on stderr. */
static int note(struct filter_core *c, struct meter_stream *s, const struct refusal *why,
		uint64_t at, uint64_t bytes)
{
	struct log_note n = { s->id, s->machine, why->reason, 0, at, bytes };
	if (!c->quiet)
		fprintf(stderr,
			"dpm filter: connection %u (machine %d): %s at byte %llu: %s; "
			"%llu bytes not logged\n",
			s->id, s->machine == NO_MACHINE ? -1 : (int)s->machine,
			note_reason_name(why->reason), (unsigned long long)at, why->detail,
			(unsigned long long)bytes);
	c->st.rejected_bytes += bytes;
	const struct layout *l = &c->rules->layouts.v[c->note_layout];
	if (logw_reserve(&c->log, 2 + l->packed_size, c->err, sizeof c->err))
		return -1;
	logw_append(&c->log, c->note_layout, l, (const uint8_t *)&n);
	return logw_flush(&c->log, c->err, sizeof c->err);
}

static int refuse(struct refusal *why, enum note_reason reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(struct refusal *why, enum note_reason reason, const char *fmt, ...)
{
	va_list ap;
	why->reason = reason;
	va_start(ap, fmt);
	vsnprintf(why->detail, sizeof why->detail, fmt, ap);
	va_end(ap);
	return -1;
}

static int check_batch_header(const struct filter_core *c, const struct meter_batch_header *h,
			      struct refusal *why)
{
	if (h->magic != METER_BATCH_MAGIC)
		return refuse(why, NOTE_BAD_MAGIC, "found 0x%08x", h->magic);
	if (h->version == METER_BATCH_COMPACT) {
		if (h->bytes % 4 || (uint64_t)h->bytes > (uint64_t)h->count * TW_TRACE_MAX ||
		    (uint64_t)h->bytes < (uint64_t)h->count * 16)
			return refuse(why, NOTE_BAD_BATCH_SIZE, "%u compact records cannot take %u bytes",
				      h->count, h->bytes);
		return 0;
	}
	if (h->version != METER_BATCH_VERSION)
		return refuse(why, NOTE_BAD_VERSION, "version %u, expected %u or %u", h->version,
			      METER_BATCH_VERSION, METER_BATCH_COMPACT);
	if ((uint64_t)h->bytes > (uint64_t)h->count * TRACE_MAX_SIZE ||
	    (uint64_t)h->bytes < (uint64_t)h->count * c->fm->header_size)
		return refuse(why, NOTE_BAD_BATCH_SIZE, "%u records cannot take %u bytes", h->count,
			      h->bytes);
	return 0;
}

/* Select and log the records of a whole batch; on a bad record the
 * batch's records are taken back out of the log buffer.  Counts go to
 * *kept and *dropped. */
static int log_batch(struct filter_core *c, const struct meter_batch_header *h,
		     const uint8_t *body, uint32_t node, uint64_t *kept, uint64_t *dropped,
		     struct refusal *why)
{
	const struct formats *fm = c->fm;
	const struct rules *r = c->rules;
	const struct layout *layouts = r->layouts.v;
	struct log_writer *w = &c->log;
	size_t mark = w->len;
	uint32_t off = 0;
	for (unsigned i = 0; i < h->count; i++) {
		const uint8_t *rec = body + off;
		uint32_t left = h->bytes - off;
		if (left < fm->header_size) {
			w->len = mark;
			return refuse(why, NOTE_BAD_BATCH_SIZE, "record %u of %u overruns the batch", i,
				      h->count);
		}
		uint64_t size = field_load(rec + fm->size_field.offset, fm->size_field.length);
		uint64_t type = field_load(rec + fm->type_field.offset, fm->type_field.length);
		const struct format *f = type < FORMAT_TYPES ? fm->by_type[type] : NULL;
		if (!f) {
			w->len = mark;
			return refuse(why, NOTE_UNKNOWN_TYPE, "record %u has traceType %llu", i,
				      (unsigned long long)type);
		}
		if (size < f->min_size || size > left || size > TRACE_MAX_SIZE) {
			w->len = mark;
			return refuse(why, NOTE_BAD_RECORD_SIZE, "record %u (%s) has size %llu", i,
				      f->name, (unsigned long long)size);
		}
		if (node && c->has_machine &&
		    field_load(rec + c->machine.offset, c->machine.length) != node) {
			w->len = mark;
			return refuse(why, NOTE_FOREIGN_MACHINE, "record %u (%s) names machine %llu, "
				      "the connection is node %u's", i, f->name,
				      (unsigned long long)field_load(rec + c->machine.offset,
								     c->machine.length), node);
		}
		int id;
		if (f == c->dropped) {
			id = (int)rules_full_layout(r, f);
			*dropped += field_load(rec + c->dropped_count.offset, c->dropped_count.length);
		} else if (f == c->mark) {
			id = (int)rules_full_layout(r, f);
		} else {
			id = rules_select(r, (uint32_t)type, rec);
		}
		if (id >= 0) {
			logw_append(w, (uint32_t)id, &layouts[id], rec);
			++*kept;
		}
		off += (uint32_t)size;
	}
	if (off != h->bytes) {
		w->len = mark;
		return refuse(why, NOTE_BAD_BATCH_SIZE, "records fill %u of the batch's %u bytes", off,
			      h->bytes);
	}
	return 0;
}

/* The compact batch at p (len bytes, header h) as full records in
 * c->wide, *full their header: 0, a decoder error (enum tw_error, < 0),
 * or DECODE_NOMEM (c->err says so). */
#define DECODE_NOMEM 1
static int decode_batch(struct filter_core *c, const uint8_t *p, size_t len, struct meter_batch_header *full)
{
	size_t want = (size_t)full->count * TRACE_MAX_SIZE;
	if (want > c->wide_cap) {
		uint8_t *bigger = realloc(c->wide, want);
		if (!bigger) {
			snprintf(c->err, sizeof c->err, "out of memory");
			return DECODE_NOMEM;
		}
		c->wide = bigger;
		c->wide_cap = want;
	}
	int r = tw_begin(c->dec, p, len);
	size_t at = 0;
	union tw_full rec;
	while (r == 0 && (r = tw_next(c->dec, &rec)) == 1) {
		memcpy(c->wide + at, &rec, rec.h.size);
		at += rec.h.size;
		r = 0;
	}
	full->version = METER_BATCH_VERSION;
	full->bytes = (uint32_t)at;
	return r;
}

/* Handle the batch at p (avail bytes).  Returns bytes used, 0 if the batch
 * is not whole yet, -1 refused (why says why), -2 log error. */
static long take_batch(struct filter_core *c, struct meter_stream *s, const uint8_t *p,
		       size_t avail, struct refusal *why)
{
	struct meter_batch_header h;
	if (avail < BATCH_HEADER_SIZE)
		return 0;
	memcpy(&h, p, sizeof h);
	if (check_batch_header(c, &h, why))
		return -1;
	if (s->node && h.machine != s->node)
		return refuse(why, NOTE_FOREIGN_MACHINE, "a batch of machine %u on node %u's connection",
			      h.machine, s->node);
	size_t total = BATCH_HEADER_SIZE + h.bytes;
	if (avail < total) {
		s->need = total;
		return 0;
	}
	s->need = 0;
	size_t most = (size_t)h.count * (2 + c->rules->layouts.max_packed);
	if (logw_reserve(&c->log, most, c->err, sizeof c->err))
		return -2;
	struct meter_batch_header full = h;
	const uint8_t *records = p + BATCH_HEADER_SIZE;
	if (h.version == METER_BATCH_COMPACT) {
		int r = decode_batch(c, p, total, &full);
		if (r == DECODE_NOMEM)
			return -2;
		if (r < 0)
			return refuse(why, r == TW_ERR_TYPE ? NOTE_UNKNOWN_TYPE : NOTE_BAD_BATCH_SIZE,
				      "compact record %u of %u: %s", c->dec->seen, h.count,
				      tw_error_name(r));
		records = c->wide;
	}
	uint64_t kept = 0, dropped = 0;
	if (log_batch(c, &full, records, s->node, &kept, &dropped, why))
		return -1;
	s->machine = h.machine;
	c->st.batches++;
	c->st.received += h.count;
	c->st.kept += kept;
	c->st.kernel_dropped += dropped;
	if (c->batch_log)
		fprintf(c->batch_log, "%u,%u,%u,%u\n", s->id, h.machine, h.count, h.bytes);
	return (long)total;
}

int stream_received(struct filter_core *c, struct meter_stream *s, size_t n)
{
	size_t pos = 0;
	long used;
	struct refusal why;
	s->len += n;
	while ((used = take_batch(c, s, s->buf + pos, s->len - pos, &why)) > 0)
		pos += (size_t)used;
	if (used == -2)
		return -1;
	if (used == -1) {
		if (why.reason != NOTE_BAD_MAGIC && !s->node) /* the header names the node */
			memcpy(&s->machine, s->buf + pos + offsetof(struct meter_batch_header, machine), 4);
		c->st.rejected++;
		if (logw_flush(&c->log, c->err, sizeof c->err) ||
		    note(c, s, &why, s->offset + pos, s->len - pos))
			return -1;
		s->len = pos;
		return 1;
	}
	memmove(s->buf, s->buf + pos, s->len - pos);
	s->len -= pos;
	s->offset += pos;
	return logw_flush(&c->log, c->err, sizeof c->err);
}

int stream_stalled(struct filter_core *c, struct meter_stream *s)
{
	struct refusal why;
	refuse(&why, NOTE_STALLED, "no byte for too long, %zu bytes into a batch", s->len);
	c->st.truncated++;
	uint64_t lost = s->len;
	s->len = 0;
	return note(c, s, &why, s->offset, lost);
}

int stream_end(struct filter_core *c, struct meter_stream *s, int read_error)
{
	if (!s->len && !read_error)
		return 0;
	struct refusal why;
	if (read_error)
		refuse(&why, NOTE_READ_ERROR, "the connection failed");
	else
		refuse(&why, NOTE_TRUNCATED, "the stream ended %zu bytes into a batch", s->len);
	c->st.truncated += !read_error;
	uint64_t lost = s->len;
	s->len = 0;
	return note(c, s, &why, s->offset, lost);
}

/*
 * hostfilter/export/ctf.c - the CTF 1.8 sink: a trace directory that
 * babeltrace2 and Trace Compass read.
 *
 *   OUT/metadata        TSDL, written last (the nodes are known only then)
 *   OUT/node<M>         one data stream per node M, written as the records
 *                       come in packets of at most CTF_PACKET bytes
 *   OUT/filter          the filter's NOTE records, if the log has any
 *
 * Each node is a stream class of its own whose events are stamped by the
 * node's clock (clock node<M>: ns since that node's boot).  The clocks
 * share one uuid so a reader may merge the streams by time (babeltrace2's
 * muxer requires it); they are not synchronised, which docs/formats.md
 * says.  Each layout of the log is an event class (id = layout index) in
 * every stream class, named by its trace type, whose payload is every
 * field the layout kept, in order, as unsigned integers of the field's
 * size and display base - so `babeltrace2 OUT` shows the same names and
 * values `dpm dump` does, msgId included (the message identity shared by
 * a SEND, its QUEUED and its RECEIVE).  The event header's timestamp is
 * the record's time, held monotonic within a stream as CTF requires (a
 * record whose time went back keeps its own in the `time` field).  NOTE
 * records have no time: they are stamped with the largest time logged
 * before them, in a stream of their own on clock "filter".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "hostfilter/tracelog/desc.h"

#define CTF_PACKET (256u * 1024)
#define CTF_MAGIC 0xc1fc1fc1u
#define CTF_HEADER 24u  /* magic, uuid[16], stream_id */
#define CTF_CONTEXT 32u /* timestamp_begin, timestamp_end, content_size, packet_size */
#define CTF_EVENT_MAX (2 + 8 + DESC_FIELDS_MAX * 8)

struct ctf_stream {
	FILE *f;
	uint32_t id;          /* stream class id */
	uint64_t first, last; /* timestamps of the packet's first and last events */
	size_t len;           /* bytes in buf (header and context included) */
	int used;             /* an event was written (so it is declared) */
	uint8_t buf[CTF_PACKET];
};

struct ctf {
	const char *dir;
	const struct dpm_log *log;
	uint8_t uuid[16];
	struct ctf_stream **streams; /* by node index; NULL until its first event */
	size_t nstreams;
	struct ctf_stream *notes;
	uint64_t max_time;           /* over every record so far */
};

static int sys_fail(char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s%s%s: %s", path, what[0] ? " " : "", what, strerror(errno));
	return -1;
}

static void make_uuid(uint8_t u[16])
{
	int fd = open("/dev/urandom", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, u, 16) : -1;
	if (fd >= 0)
		close(fd);
	if (n != 16) {
		uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		for (int i = 0; i < 16; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			u[i] = (uint8_t)(seed >> 56);
		}
	}
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40); /* version 4 */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

static int ctf_open(void *s, const struct export_ctx *x, const char *out, char *err, size_t errlen)
{
	struct ctf *c = s;
	c->dir = out;
	c->log = export_log_of(x);
	if (export_make_dir(out, err, errlen))
		return -1;
	make_uuid(c->uuid);
	return 0;
}

static int ctf_node(void *s, struct export_node *n, char *err, size_t errlen)
{
	struct ctf *c = s;
	struct ctf_stream **bigger = realloc(c->streams, (n->index + 1) * sizeof *bigger);
	if (!bigger) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->streams = bigger;
	c->streams[n->index] = NULL;
	c->nstreams = n->index + 1;
	return 0;
}

static int ctf_proc(void *s, struct export_proc *p, char *err, size_t errlen)
{
	(void)s, (void)p, (void)err, (void)errlen;
	return 0;
}

static int ctf_state(void *s, struct export_proc *p, enum export_state from, uint64_t from_since,
		     uint64_t t, char *err, size_t errlen)
{
	(void)s, (void)p, (void)from, (void)from_since, (void)t, (void)err, (void)errlen;
	return 0; /* states are the reader's to derive: CTF carries the records */
}

static void put(struct ctf_stream *st, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		st->buf[st->len++] = (uint8_t)(v >> (8 * i)); /* little-endian */
}

static void begin_packet(const struct ctf *c, struct ctf_stream *st)
{
	st->len = 0;
	put(st, CTF_MAGIC, 4);
	memcpy(st->buf + st->len, c->uuid, 16);
	st->len += 16;
	put(st, st->id, 4);
	st->len += CTF_CONTEXT; /* filled when the packet is written */
}

static int flush_packet(struct ctf *c, struct ctf_stream *st, const char *name, char *err,
			size_t errlen)
{
	if (st->len == CTF_HEADER + CTF_CONTEXT)
		return 0;
	size_t end = st->len;
	st->len = CTF_HEADER;
	put(st, st->first, 8);
	put(st, st->last, 8);
	put(st, (uint64_t)end * 8, 8); /* content_size, bits */
	put(st, (uint64_t)end * 8, 8); /* packet_size, bits: no padding */
	if (fwrite(st->buf, 1, end, st->f) != end) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", c->dir, name);
		return sys_fail(err, errlen, "", path);
	}
	begin_packet(c, st);
	return 0;
}

static struct ctf_stream *stream_open(struct ctf *c, uint32_t id, const char *name, char *err,
				      size_t errlen)
{
	char path[4096];
	struct ctf_stream *st = calloc(1, sizeof *st);
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof path, "%s/%s", c->dir, name);
	if (!(st->f = fopen(path, "wb"))) {
		sys_fail(err, errlen, "", path);
		free(st);
		return NULL;
	}
	st->id = id;
	begin_packet(c, st);
	return st;
}

static int write_event(struct ctf *c, struct ctf_stream *st, const char *name,
		       const struct dpm_log_record *rec, uint64_t t, char *err, size_t errlen)
{
	if (st->len + CTF_EVENT_MAX > CTF_PACKET && flush_packet(c, st, name, err, errlen))
		return -1;
	if (st->used && t < st->last)
		t = st->last;
	if (st->len == CTF_HEADER + CTF_CONTEXT)
		st->first = t;
	st->last = t;
	st->used = 1;
	put(st, rec->layout, 2);
	put(st, t, 8);
	const struct desc *d = dpm_log_layout(c->log, rec->layout);
	for (size_t i = 0; i < rec->nfields; i++)
		put(st, rec->values[i], d->fields[i].length);
	return 0;
}

static void stream_name(char *buf, size_t size, const struct export_node *n)
{
	snprintf(buf, size, "node%u", n->machine);
}

static int ctf_event(void *s, const struct export_event *e, char *err, size_t errlen)
{
	struct ctf *c = s;
	if (e->is_note) {
		if (!c->notes && !(c->notes = stream_open(c, (uint32_t)c->nstreams, "filter", err, errlen)))
			return -1;
		return write_event(c, c->notes, "filter", e->rec, c->max_time, err, errlen);
	}
	char name[32];
	stream_name(name, sizeof name, e->node);
	struct ctf_stream **st = &c->streams[e->node->index];
	if (!*st && !(*st = stream_open(c, e->node->index, name, err, errlen)))
		return -1;
	if (e->time > c->max_time)
		c->max_time = e->time;
	return write_event(c, *st, name, e->rec, e->time, err, errlen);
}

/* ---- metadata ------------------------------------------------------- */

/* A TSDL keyword cannot name a field; babeltrace2 drops one leading '_'. */
static const char *field_prefix(const char *name)
{
	static const char *const keywords[] = {
		"align", "callsite", "const", "char", "clock", "double", "enum", "env", "event",
		"floating_point", "float", "integer", "int", "long", "short", "signed", "stream",
		"string", "struct", "trace", "typealias", "typedef", "unsigned", "variant", "void",
		"_Bool", "_Complex", "_Imaginary",
	};
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (!strcmp(name, keywords[i]))
			return "_";
	return name[0] == '_' ? "_" : "";
}

static void print_uuid(FILE *f, const uint8_t u[16])
{
	for (int i = 0; i < 16; i++)
		fprintf(f, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

static void declare_stream(FILE *f, const struct ctf *c, uint32_t id, const char *clock,
			   const char *what)
{
	fprintf(f, "clock {\n\tname = %s;\n\tuuid = \"", clock);
	print_uuid(f, c->uuid);
	fprintf(f, "\";\n\tdescription = \"%s\";\n\tfreq = 1000000000;\n\tprecision = 1;\n"
		   "\toffset_s = 0;\n\toffset = 0;\n\tabsolute = FALSE;\n};\n\n", what);
	fprintf(f, "typealias integer { size = 64; align = 8; signed = false; map = clock.%s.value; } "
		   ":= %s_t;\n\n", clock, clock);
	fprintf(f, "stream {\n\tid = %u;\n"
		   "\tpacket.context := struct {\n"
		   "\t\t%s_t timestamp_begin;\n\t\t%s_t timestamp_end;\n"
		   "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t};\n"
		   "\tevent.header := struct {\n\t\tuint16_t id;\n\t\t%s_t timestamp;\n\t};\n};\n\n",
		id, clock, clock, clock);
	for (size_t k = 0; k < dpm_log_nlayouts(c->log); k++) {
		const struct desc *d = dpm_log_layout(c->log, k);
		fprintf(f, "event {\n\tname = \"%s\";\n\tid = %zu;\n\tstream_id = %u;\n"
			   "\tfields := struct {\n", d->name, k, id);
		for (size_t i = 0; i < d->nfields; i++) {
			const struct desc_field *fl = &d->fields[i];
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = false; base = %u; } %s%s;\n",
				fl->length * 8u, fl->base, field_prefix(fl->name), fl->name);
		}
		fputs("\t};\n};\n\n", f);
	}
}

static int write_metadata(struct ctf *c, const struct export_ctx *x, char *err, size_t errlen)
{
	char path[4096], name[32], what[96];
	snprintf(path, sizeof path, "%s/metadata", c->dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return sys_fail(err, errlen, "", path);
	fputs("/* CTF 1.8 */\n\n"
	      "/* Written by dpm export from a DPM filter log (docs/formats.md). */\n\n"
	      "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	      "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	      "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
	      "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"", f);
	print_uuid(f, c->uuid);
	fputs("\";\n\tbyte_order = le;\n"
	      "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
	      "\t\tuint32_t stream_id;\n\t};\n};\n\n"
	      "env {\n\tdomain = \"dpm\";\n\ttracer_name = \"dpm\";\n};\n\n", f);
	for (size_t i = 0; i < c->nstreams; i++) {
		if (!c->streams[i])
			continue;
		const struct export_node *n = export_node_at(x, i);
		stream_name(name, sizeof name, n);
		snprintf(what, sizeof what, "node %u's local clock, ns since its boot", n->machine);
		declare_stream(f, c, (uint32_t)i, name, what);
	}
	if (c->notes)
		declare_stream(f, c, c->notes->id, "filter",
			       "a filter note: the largest node time logged before it");
	int bad = ferror(f);
	bad |= fclose(f);
	return bad ? sys_fail(err, errlen, "", path) : 0;
}

/* Close a stream's file after its last packet. */
static int stream_close(struct ctf *c, struct ctf_stream *st, const char *name, char *err,
			size_t errlen)
{
	if (flush_packet(c, st, name, err, errlen))
		return -1;
	int bad = fclose(st->f);
	st->f = NULL;
	if (bad) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", c->dir, name);
		return sys_fail(err, errlen, "", path);
	}
	return 0;
}

static int ctf_close(void *s, const struct export_ctx *x, char *err, size_t errlen)
{
	struct ctf *c = s;
	char name[32];
	for (size_t i = 0; i < c->nstreams; i++) {
		if (!c->streams[i])
			continue;
		stream_name(name, sizeof name, export_node_at(x, i));
		if (stream_close(c, c->streams[i], name, err, errlen))
			return -1;
	}
	if (c->notes && stream_close(c, c->notes, "filter", err, errlen))
		return -1;
	return write_metadata(c, x, err, errlen);
}

static void ctf_discard(void *s)
{
	struct ctf *c = s;
	for (size_t i = 0; i < c->nstreams; i++) {
		if (c->streams[i] && c->streams[i]->f)
			fclose(c->streams[i]->f);
		free(c->streams[i]);
	}
	free(c->streams);
	if (c->notes && c->notes->f)
		fclose(c->notes->f);
	free(c->notes);
}

const struct export_sink export_ctf = {
	.name = "ctf",
	.writes_dir = 1,
	.size = sizeof(struct ctf),
	.open = ctf_open,
	.node = ctf_node,
	.proc = ctf_proc,
	.state = ctf_state,
	.event = ctf_event,
	.close = ctf_close,
	.discard = ctf_discard,
};

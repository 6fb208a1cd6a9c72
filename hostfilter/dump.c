/*
 * hostfilter/dump.c - `dpm dump`: a filter log as text or as CSV.
 *
 * Text: one record a line, the type's name then every kept field as
 * name=value in its display base, so the output greps and diffs well.
 * CSV: the interchange format of docs/trace-csv.md, which the analyses
 * read; which trace field fills which column depends on the trace type
 * (the table below).  Only log.h's API is used, as any log reader would.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dpm_commands.h"
#include "dump.h"
#include "kernel/abi_names.h"
#include "logformat.h"
#include "trace.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: dpm dump [--csv] LOG\n\n"
		     "Print the records of a filter log (LOG '-' reads standard input).\n"
		     "  --csv   write the trace CSV interchange format (docs/trace-csv.md)\n"
		     "Text output: one record a line, TYPE name=value ...; see docs/dump.md.\n");
}

/* ---- text ----------------------------------------------------------- */

static void print_in_base(FILE *out, uint64_t v, unsigned base)
{
	switch (base) {
	case 16:
		fprintf(out, "0x%llx", (unsigned long long)v);
		break;
	case 8:
		fprintf(out, v ? "0%llo" : "%llo", (unsigned long long)v);
		break;
	case 2: {
		char bits[65];
		int n = 0;
		do
			bits[n++] = (char)('0' + (v & 1));
		while (v >>= 1);
		fputs("0b", out);
		while (n--)
			fputc(bits[n], out);
		break;
	}
	default:
		fprintf(out, "%llu", (unsigned long long)v);
	}
}

static void print_record(FILE *out, const struct dpm_log_record *rec)
{
	fputs(rec->type_name, out);
	for (size_t i = 0; i < rec->nfields; i++) {
		fprintf(out, " %s=", rec->names[i]);
		print_in_base(out, rec->values[i], rec->bases[i]);
	}
	uint64_t reason;
	if (rec->trace_type == LOG_NOTE_TYPE && dpm_log_field(rec, "reason", &reason))
		fprintf(out, " (%s)", note_reason_name((uint32_t)reason));
	fputc('\n', out);
}

/* ---- CSV ------------------------------------------------------------ */

/* Which field of each trace type fills the per-type columns. */
struct csv_map {
	const char *type;
	const char *src, *dst, *length, *link, *code, *pass_link, *queue_len;
};

static const struct csv_map csv_maps[] = {
	{ "SEND", "fromTask", "toTask", "length", "sendLink", "code", "passLink", NULL },
	{ "RECEIVECALL", NULL, "toTask", NULL, NULL, NULL, NULL, "queueLen" },
	{ "RECEIVE", "fromTask", "toTask", "length", NULL, "code", "passLink", "queueLen" },
	{ "QUEUED", "fromTask", "toTask", "length", NULL, "code", NULL, "queueLen" },
	{ "CREATELINK", "task", "toTask", "dataLen", "link", "code", NULL, NULL },
	{ "DESTROYLINK", "task", "toTask", "dataLen", "link", "code", NULL, NULL },
	{ "MOVEDATA", "fromTask", "toTask", "length", NULL, NULL, NULL, NULL },
	{ "CREATEPROCESS", "parentTask", "childTask", NULL, NULL, NULL, NULL, NULL },
	{ "TERMPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL },
	{ "STARTPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL },
	{ "STOPPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL },
	{ "DROPPED", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "MARK", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

static const char csv_header[] = "machine,type,time_ns,cpu_ns,seq,load,task,src,dst,msg_id,"
				 "length,link,code,pass_link,queue_len,reason,count";

static const struct csv_map *csv_map_for(const char *type_name)
{
	for (size_t i = 0; i < sizeof csv_maps / sizeof csv_maps[0]; i++)
		if (!strcasecmp(csv_maps[i].type, type_name))
			return &csv_maps[i];
	return NULL;
}

enum cell_style { DECIMAL, TASK, HEX, LINK, REASON };

/* ",value" for field `name` of rec in `style`; just "," if absent. */
static void cell(FILE *out, const struct dpm_log_record *rec, const char *name,
		 enum cell_style style)
{
	uint64_t v;
	fputc(',', out);
	if (!name || !dpm_log_field(rec, name, &v))
		return;
	switch (style) {
	case TASK:
		fprintf(out, "%u.%u", TASK_NODE(v), TASK_PID(v));
		break;
	case HEX:
		fprintf(out, "0x%llx", (unsigned long long)v);
		break;
	case LINK:
		if (v != NO_LINK)
			fprintf(out, "%llu", (unsigned long long)v);
		break;
	case REASON: {
		const struct abi_exit_reason_text *t = v <= UINT32_MAX ? abi_exit_reason((uint32_t)v) : NULL;
		if (t)
			fputs(t->tag, out);
		else
			fprintf(out, "%llu", (unsigned long long)v);
		break;
	}
	default:
		fprintf(out, "%llu", (unsigned long long)v);
	}
}

static void print_csv_row(FILE *out, const struct dpm_log_record *rec)
{
	const struct csv_map *m = csv_map_for(rec->type_name);
	static const struct csv_map none;
	if (rec->trace_type == LOG_NOTE_TYPE) {
		fputs("# note: ", out);
		print_record(out, rec);
		return;
	}
	if (!m)
		m = &none;
	uint64_t machine;
	if (dpm_log_field(rec, "machine", &machine))
		fprintf(out, "%llu", (unsigned long long)machine);
	fprintf(out, ",%s", rec->type_name);
	cell(out, rec, "time", DECIMAL);
	cell(out, rec, "procTime", DECIMAL);
	cell(out, rec, "seq", DECIMAL);
	cell(out, rec, "load", DECIMAL);
	cell(out, rec, "task", TASK);
	cell(out, rec, m->src, TASK);
	cell(out, rec, m->dst, TASK);
	cell(out, rec, "msgId", HEX);
	cell(out, rec, m->length, DECIMAL);
	cell(out, rec, m->link, LINK);
	cell(out, rec, m->code, DECIMAL);
	cell(out, rec, m->pass_link, LINK);
	cell(out, rec, m->queue_len, DECIMAL);
	cell(out, rec, m == csv_map_for("TERMPROCESS") ? "reason" : NULL, REASON);
	cell(out, rec, m == csv_map_for("DROPPED") ? "count" : m == csv_map_for("MARK") ? "token" : NULL,
	     DECIMAL);
	fputc('\n', out);
}

/* ---- command -------------------------------------------------------- */

int dump_records(const char *path, int csv, FILE *out, char *err, size_t errlen,
		 size_t *truncated)
{
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(path, err, errlen);
	*truncated = 0;
	if (!log)
		return -1;
	if (csv)
		fprintf(out, "%s\n", csv_header);
	int r;
	while ((r = dpm_log_next(log, &rec, err, errlen)) > 0) {
		if (csv)
			print_csv_row(out, &rec);
		else
			print_record(out, &rec);
	}
	if (r == 0)
		*truncated = dpm_log_truncated(log);
	dpm_log_close(log);
	return r < 0 ? -1 : 0;
}

static int dump_log(const char *path, int csv)
{
	char err[512];
	size_t truncated;
	int r = dump_records(path, csv, stdout, err, sizeof err, &truncated);
	if (r < 0)
		fprintf(stderr, "dpm dump: %s\n", err);
	else if (truncated)
		fprintf(stderr, "dpm dump: %s: ignored an incomplete last record (%zu bytes); "
				"was the filter killed?\n", path, truncated);
	if (fflush(stdout)) {
		perror("dpm dump: stdout");
		return 1;
	}
	return r < 0 ? 1 : 0;
}

int dump_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int csv = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'c') {
			csv = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	return dump_log(argv[optind], csv);
}

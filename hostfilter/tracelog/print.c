/*
 * hostfilter/tracelog/print.c - a filter log's records as text or as the
 * trace CSV, for `dpm dump` and for commands that keep a CSV beside a log
 * they were given (`dpm report`).
 *
 * Text: one record a line, the type's name then every kept field as
 * name=value in its display base, so the output greps and diffs well.
 * CSV: the interchange format of docs/trace-csv.md, which the analyses
 * read; which trace field fills which column depends on the trace type
 * (logcolumns.c, the map the analyses read a log by).  Only log.h's API
 * is used, as any log reader would.
 */
#include <stdio.h>

#include "print.h"
#include "log.h"
#include "logcolumns.h"
#include "logformat.h"
#include "kernel/abi/names.h"
#include "kernel/abi/trace.h"

/* ---- text ----------------------------------------------------------- */

void log_print_value(FILE *out, uint64_t v, unsigned base)
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
		log_print_value(out, rec->values[i], rec->bases[i]);
	}
	uint64_t reason;
	if (rec->trace_type == LOG_NOTE_TYPE && dpm_log_field(rec, "reason", &reason))
		fprintf(out, " (%s)", note_reason_name((uint32_t)reason));
	fputc('\n', out);
}

/* ---- CSV ------------------------------------------------------------ */

static const char csv_header[] = "machine,type,time_ns,cpu_ns,seq,load,task,src,dst,msg_id,"
				 "length,link,code,pass_link,queue_len,reason,count";


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
	const struct log_columns *m = log_columns_of(rec->type_name);
	if (rec->trace_type == LOG_NOTE_TYPE) {
		fputs("# note: ", out);
		print_record(out, rec);
		return;
	}
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
	cell(out, rec, m->reason, REASON);
	cell(out, rec, m->count, DECIMAL);
	fputc('\n', out);
}

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

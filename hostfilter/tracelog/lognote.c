/*
 * hostfilter/tracelog/lognote.c - the NOTE record: how the filter tells the log
 * that it rejected part of a connection's stream.
 *
 * It is described in the log's header like any trace type, so readers that
 * do not know NOTE still read past it; dump shows it, the CSV makes it a
 * comment line.
 */
#include <stddef.h>
#include <string.h>

#include "logformat.h"

static const struct format_field note_fields[] = {
	{ "conn", offsetof(struct log_note, conn), 4, 10 },
	{ "machine", offsetof(struct log_note, machine), 4, 10 },
	{ "reason", offsetof(struct log_note, reason), 4, 10 },
	{ "offset", offsetof(struct log_note, offset), 8, 10 },
	{ "bytes", offsetof(struct log_note, bytes), 8, 10 },
};

void log_note_format(struct format *f)
{
	memset(f, 0, sizeof *f);
	f->type = LOG_NOTE_TYPE;
	f->name = LOG_NOTE_NAME;
	f->nfields = sizeof note_fields / sizeof note_fields[0];
	memcpy(f->fields, note_fields, sizeof note_fields);
	f->min_size = sizeof(struct log_note);
}

static const char *const reason_names[NOTE_REASON_MAX + 1] = {
	[NOTE_BAD_MAGIC] = "bad magic",
	[NOTE_BAD_VERSION] = "bad version",
	[NOTE_BAD_BATCH_SIZE] = "bad batch size",
	[NOTE_BAD_RECORD_SIZE] = "bad record size",
	[NOTE_UNKNOWN_TYPE] = "unknown trace type",
	[NOTE_TRUNCATED] = "truncated batch",
	[NOTE_READ_ERROR] = "read error",
	[NOTE_FOREIGN_MACHINE] = "another node's traces",
	[NOTE_STALLED] = "stalled inside a batch",
};

const char *note_reason_name(uint32_t reason)
{
	return reason <= NOTE_REASON_MAX && reason_names[reason] ? reason_names[reason] : "?";
}

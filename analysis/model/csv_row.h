/*
 * analysis/model/csv_row.h - reading the plain CSV the analyses take as input
 * (trace CSV, delivery-time table): lines split in place at commas, columns
 * found by the header row's names.
 *
 * The formats forbid quoting (no field contains a comma), so a row is cut
 * in place without copying; this keeps a 10-million-row trace cheap.
 */
#ifndef DPM_ANALYSIS_MODEL_CSV_ROW_H
#define DPM_ANALYSIS_MODEL_CSV_ROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CSV_MAX_FIELDS 64

struct csv_reader {
	FILE *f;
	const char *path;
	unsigned long line;       /* number of the line last read */
	size_t len;               /* its length, line end stripped */
	char *buf;
	size_t bufcap;
	size_t nfields;
	char *fields[CSV_MAX_FIELDS];
	size_t nheader;
	char *header[CSV_MAX_FIELDS]; /* owned copies of the header names */
};

/* Open path and read its header row (skipping blank and `#` lines).
 * 0 ok; -1 with "path:line:col: what is wrong" in err.  Afterwards
 * r->line is the header's line. */
int csv_open(struct csv_reader *r, const char *path, char *err, size_t errlen);
void csv_close(struct csv_reader *r);

/* Index of the column called name, or -1. */
int csv_column(const struct csv_reader *r, const char *name);

/* Read the next data row into r->fields: 1 a row, 0 end of file, -1 error
 * (err filled).  Blank and `#` lines are skipped. */
int csv_next(struct csv_reader *r, char *err, size_t errlen);

/* Field `col` of the current row, "" when col < 0 or the row is short. */
const char *csv_field(const struct csv_reader *r, int col);

/* The 1-based character column where csv_field(r, col) starts, or just
 * past the end of the line when the row has no such field: the `col` of
 * a "path:line:col: what is wrong" message about that field. */
unsigned long csv_col(const struct csv_reader *r, int col);

/* Parse a whole field as an unsigned decimal or 0x-hex number.
 * 1 ok, 0 empty, -1 malformed. */
int csv_parse_u64(const char *s, uint64_t *out);

#endif

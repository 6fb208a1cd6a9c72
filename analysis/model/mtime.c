/*
 * analysis/model/mtime.c - reading the delivery-time table and evaluating
 * MTIME (see mtime.h and docs/mtime.md).
 */
#include "mtime.h"

#include <stdio.h>
#include <string.h>

#include "csv_row.h"

/* Thesis Fig. 5.11 (DEMOS/MP on VAX, seconds) with every millisecond read
 * as a microsecond: the shape (remote 2-3x local, growth with size) is
 * kept, the scale is that of a modern machine. */
static const double default_rows[][3] = {
	{ 1, 4200, 13000 },
	{ 10, 4300, 13000 },
	{ 100, 8000, 16000 },
	{ 1000, 12800, 35000 },
};

void mtime_default(struct mtime_table *m)
{
	memset(m, 0, sizeof *m);
	m->n = sizeof default_rows / sizeof default_rows[0];
	for (size_t i = 0; i < m->n; i++) {
		m->size[i] = default_rows[i][0];
		m->local[i] = default_rows[i][1];
		m->remote[i] = default_rows[i][2];
	}
}

void mtime_zero(struct mtime_table *m)
{
	memset(m, 0, sizeof *m);
	m->zero = 1;
}

/* Columns: the three required, then the optional ones (-1: absent,
 * read as 0). */
#define COLS 7
static const char *const col_names[COLS] = { "size_bytes", "local_ns", "remote_ns",
					      "remote_tx_ns", "remote_rx_ns", "remote_wire_ns",
					      "tick_ns" };

static int load_row(struct mtime_table *m, const struct csv_reader *r, const int col[COLS],
		    char *err, size_t errlen)
{
	double v[COLS] = { 0 };
	for (int i = 0; i < COLS; i++) {
		uint64_t u;
		if (col[i] < 0)
			continue;
		const char *s = csv_field(r, col[i]);
		if (csv_parse_u64(s, &u) <= 0) {
			snprintf(err, errlen, "%s:%lu:%lu: %s '%s' is not a whole number",
				 r->path, r->line, csv_col(r, col[i]), col_names[i], s);
			return -1;
		}
		v[i] = (double)u;
	}
	if (m->n == MTIME_MAX_ROWS) {
		snprintf(err, errlen, "%s:%lu:1: more than %d sizes", r->path, r->line, MTIME_MAX_ROWS);
		return -1;
	}
	if (m->n > 0 && v[0] <= m->size[m->n - 1]) {
		snprintf(err, errlen, "%s:%lu:%lu: size_bytes %.0f is not larger than the row before",
			 r->path, r->line, csv_col(r, col[0]), v[0]);
		return -1;
	}
	m->size[m->n] = v[0];
	m->local[m->n] = v[1];
	m->remote[m->n] = v[2];
	m->tx[m->n] = v[3];
	m->rx[m->n] = v[4];
	m->wire[m->n] = v[5];
	if (v[6] > m->tick_ns)
		m->tick_ns = v[6];
	m->n++;
	return 0;
}

void mtime_file_clock(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[256];
	out[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		char mode[16];
		if (line[0] != '#')
			continue;
		if (sscanf(line, "# clock=%15[a-z]", mode) == 1) {
			snprintf(out, size, "%s", mode);
			break;
		}
	}
	if (f)
		fclose(f);
}

int mtime_load(struct mtime_table *m, const char *path, char *err, size_t errlen)
{
	struct csv_reader r;
	memset(m, 0, sizeof *m);
	if (csv_open(&r, path, err, errlen) < 0)
		return -1;
	int col[COLS];
	for (int i = 0; i < COLS; i++)
		col[i] = csv_column(&r, col_names[i]);
	int rc = 0;
	for (int i = 0; i < 3 && rc == 0; i++)
		if (col[i] < 0) {
			snprintf(err, errlen, "%s:%lu:1: header lacks %s (want size_bytes,local_ns,remote_ns)",
				 path, r.line, i == 0 ? "size_bytes" : i == 1 ? "local_ns" : "remote_ns");
			rc = -1;
		}
	while (rc == 0 && (rc = csv_next(&r, err, errlen)) > 0)
		rc = load_row(m, &r, col, err, errlen);
	if (rc == 0 && m->n == 0) {
		snprintf(err, errlen, "%s:%lu:1: no rows", path, r.line + 1);
		rc = -1;
	}
	csv_close(&r);
	if (rc == 0)
		mtime_file_clock(path, m->clock, sizeof m->clock);
	return rc;
}

/* Column t at len bytes: interpolated, extrapolated past the last size. */
static double interpolate(const struct mtime_table *m, const double *t, uint32_t len)
{
	if (m->zero || m->n == 0)
		return 0;
	double x = len;
	if (m->n == 1 || x <= m->size[0])
		return t[0];
	size_t i = 1;
	while (i < m->n - 1 && x > m->size[i])
		i++;
	/* Segment [i-1, i]; beyond the last size this extrapolates. */
	double slope = (t[i] - t[i - 1]) / (m->size[i] - m->size[i - 1]);
	double v = t[i - 1] + slope * (x - m->size[i - 1]);
	return v > 0 ? v : 0;
}

double mtime(const struct mtime_table *m, uint32_t len, int same_machine)
{
	return interpolate(m, same_machine ? m->local : m->remote, len);
}

double mtime_transport(const struct mtime_table *m, uint32_t len, int receiving)
{
	return interpolate(m, receiving ? m->rx : m->tx, len);
}

double mtime_wire(const struct mtime_table *m, uint32_t len)
{
	return interpolate(m, m->wire, len);
}

/*
 * hostfilter/tracelog/print.h - a filter log's records as text or as the trace CSV
 * (docs/trace-csv.md), for `dpm dump` and for commands that keep a CSV
 * beside a log they were given (`dpm report`).
 */
#ifndef DPM_TRACELOG_PRINT_H
#define DPM_TRACELOG_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write every record of the log at path to out (csv: the interchange
 * format with its header row).  0 ok, with *truncated the bytes of an
 * incomplete last record that were ignored; -1 with "file: what is wrong"
 * in err. */
int dump_records(const char *path, int csv, FILE *out, char *err, size_t errlen,
		 size_t *truncated);

/* v as dump shows a field of display base `base`: 0x1f, 017, 0b101, 15. */
void log_print_value(FILE *out, uint64_t v, unsigned base);

#endif

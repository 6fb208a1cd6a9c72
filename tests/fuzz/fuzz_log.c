/*
 * tests/fuzz/fuzz_log.c - the log reader every host tool uses
 * (hostfilter/tracelog/log.h): the input is a whole log file, header of
 * descriptions then records.  Every record is read with its fields by
 * name and raw, then the log is printed as text and as the trace CSV the
 * way `dpm dump` does (hostfilter/tracelog/print.h).  A log may be
 * rejected, with a message; it may not crash a reader.
 */
#include <stdio.h>

#include "fuzz.h"
#include "hostfilter/tracelog/log.h"
#include "hostfilter/tracelog/print.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (!sink && !(sink = fopen("/dev/null", "w")))
		fuzz_fail("cannot open /dev/null");
	const char *path = fuzz_file(0, data, size);
	(void)dpm_log_sniff(path);
	struct dpm_log *log = dpm_log_open(path, err, sizeof err);
	if (log) {
		(void)dpm_log_header_size(log);
		struct dpm_log_record rec;
		uint8_t raw[512];
		while (dpm_log_next(log, &rec, err, sizeof err) == 1) {
			for (size_t i = 0; i < rec.nfields; i++) {
				uint64_t v;
				if (dpm_log_field(&rec, rec.names[i], &v) != 1)
					fuzz_fail("field %zu (%s) of a record is not found by name", i,
						  rec.names[i]);
				fprintf(sink, "%s=%llu/%u ", rec.names[i], (unsigned long long)v,
					rec.bases[i]);
			}
			fprintf(sink, "%s %u\n", rec.type_name, rec.trace_type);
			(void)dpm_log_last_raw(log, raw, sizeof raw);
		}
		(void)dpm_log_truncated(log);
		dpm_log_close(log);
	}
	size_t truncated;
	(void)dump_records(path, 0, sink, err, sizeof err, &truncated);
	(void)dump_records(path, 1, sink, err, sizeof err, &truncated);
	return 0;
}

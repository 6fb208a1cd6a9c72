/*
 * tests/fuzz/fuzz_meterstream.c - the meter stream as `dpm filter` reads it
 * from a node's connection (hostfilter/filter/meterstream.h), with the
 * built-in descriptions and the selection rules of its corpus's companion
 * (none: keep every trace).  The input is the stream's bytes, handed over
 * in pieces whose sizes come from the bytes themselves, the way reads
 * split a connection.  Whatever the stream, the log the filter wrote must
 * read back whole with the log reader: a filter log that its own reader
 * rejects is a finding.  Then the analyses run on that log
 * (fuzz_analyses.h), as they would on what any peer's batches became.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_analyses.h"
#include "hostfilter/filter/meterstream.h"
#include "hostfilter/filter/rules.h"
#include "hostfilter/tracelog/formats.h"
#include "hostfilter/tracelog/log.h"

static struct formats fm;
static int have_formats;

/* Read the log back: every record, every field by name. */
static void read_back(const char *path)
{
	char err[512];
	struct dpm_log *log = dpm_log_open(path, err, sizeof err);
	if (!log)
		fuzz_fail("the filter's log does not open: %s", err);
	struct dpm_log_record rec;
	int rc;
	uint8_t raw[4096];
	while ((rc = dpm_log_next(log, &rec, err, sizeof err)) == 1) {
		for (size_t i = 0; i < rec.nfields; i++) {
			uint64_t v;
			if (dpm_log_field(&rec, rec.names[i], &v) != 1 || v != rec.values[i])
				fuzz_fail("field %s of a %s record reads back wrong", rec.names[i],
					  rec.type_name);
		}
		(void)dpm_log_last_raw(log, raw, sizeof raw);
	}
	if (rc < 0)
		fuzz_fail("the filter's own log does not read back: %s", err);
	if (dpm_log_truncated(log))
		fuzz_fail("the filter's log ends inside a record");
	dpm_log_close(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (!have_formats) {
		if (formats_load(&fm, NULL, err, sizeof err))
			fuzz_fail("built-in descriptions: %s", err);
		have_formats = 1;
	}
	/* Rules, then the stream, when the input has both (fuzz.h). */
	const uint8_t *rtext, *stream;
	size_t rlen, len;
	fuzz_split(data, size, &rtext, &rlen, &stream, &len);
	struct rules rules;
	if (len == 0) {
		stream = data;
		len = size;
		if (rules_load(&rules, &fm, NULL, err, sizeof err))
			fuzz_fail("default rules: %s", err);
	} else if (rules_parse(&rules, &fm, "rules", (const char *)rtext, rlen, err, sizeof err)) {
		return 0;
	}
	const char *log_path = fuzz_file(0, "", 0);
	struct filter_core core;
	if (core_open(&core, &fm, &rules, log_path, err, sizeof err))
		fuzz_fail("core_open: %s", err);
	core.quiet = 1;
	struct meter_stream s;
	if (stream_open(&core, &s))
		fuzz_fail("stream_open failed");
	int rc = 0;
	size_t at = 0;
	while (at < len && rc == 0) {
		size_t room;
		uint8_t *space = stream_space(&s, &room);
		if (!space || room == 0)
			fuzz_fail("stream_space gave no room");
		/* A read of 1..256 bytes, or all the room, chosen by the data. */
		size_t want = (stream[at] & 0x80) ? room : 1 + (stream[at] & 0x7f) * 2u;
		size_t n = len - at < want ? len - at : want;
		n = n < room ? n : room;
		memcpy(space, stream + at, n);
		at += n;
		rc = stream_received(&core, &s, n);
	}
	if (rc < 0)
		fuzz_fail("the log could not be written: %s", core.err);
	if (rc == 0 && stream_end(&core, &s, 0) < 0)
		fuzz_fail("stream_end: %s", core.err);
	stream_free(&s);
	if (core_close(&core, err, sizeof err))
		fuzz_fail("core_close: %s", err);
	rules_free(&rules);
	read_back(log_path);
	fuzz_analyse(log_path);
	return 0;
}

/*
 * tests/unit/test_log.c - the self-describing log: what the filter writes
 * reads back through log.h with no other file (values, names, bases, kept
 * fields only), and damaged logs give clear answers, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hostfilter/tracelog/log.h"
#include "hostfilter/tracelog/logformat.h"
#include "hostfilter/tracelog/logwindow.h"
#include "test_filter_support.h"

static uint8_t stream[64 * 1024];

/* SEND, QUEUED, RECEIVE of one message from 1.3 to 2.3, then a TERMPROCESS. */
static size_t message_stream(void)
{
	return tf_message_batch(stream, 0);
}

static struct dpm_log *open_ok(const char *path)
{
	char err[512];
	struct dpm_log *log = dpm_log_open(path, err, sizeof err);
	if (!log)
		fail_msg("%s", err);
	return log;
}

static void test_round_trip_keeps_every_value(void **state)
{
	char err[512];
	struct dpm_log_record rec;
	uint64_t v;
	(void)state;
	tf_make_log(tf_path("all.log"), NULL, stream, message_stream());
	struct dpm_log *log = open_ok(tf_path("all.log"));
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_int_equal(rec.trace_type, TRACE_SEND);
	assert_string_equal(rec.type_name, "SEND");
	assert_int_equal(rec.nfields, 8 + 9);
	assert_string_equal(rec.names[0], "machine");
	assert_string_equal(rec.names[16], "passTask");
	assert_true(dpm_log_field(&rec, "time", &v));
	assert_int_equal(v, 10000);
	assert_true(dpm_log_field(&rec, "procTime", &v));
	assert_int_equal(v, 100);
	assert_true(dpm_log_field(&rec, "msgId", &v));
	assert_int_equal(v, (1ull << 48) | 42);
	assert_true(dpm_log_field(&rec, "toTask", &v));
	assert_int_equal(v, 0x20003);
	assert_true(dpm_log_field(&rec, "passLink", &v));
	assert_int_equal(v, NO_LINK);
	assert_false(dpm_log_field(&rec, "queueLen", &v));
	int i_to = 0;
	while (strcmp(rec.names[i_to], "toTask"))
		i_to++;
	assert_int_equal(rec.bases[i_to], 16);
	assert_int_equal(rec.bases[0], 10);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_string_equal(rec.type_name, "QUEUED");
	assert_true(dpm_log_field(&rec, "queueLen", &v));
	assert_int_equal(v, 1);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_string_equal(rec.type_name, "RECEIVE");
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_string_equal(rec.type_name, "TERMPROCESS");
	assert_true(dpm_log_field(&rec, "reason", &v));
	assert_int_equal(v, 2);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 0);
	assert_int_equal(dpm_log_truncated(log), 0);
	dpm_log_close(log);
}

static void test_discarded_fields_are_not_in_the_log(void **state)
{
	char err[512];
	struct dpm_log_record rec;
	uint64_t v;
	(void)state;
	tf_make_log(tf_path("some.log"), "traceType=SEND, time=#*, channel=#*, code=#*;\n",
		    stream, message_stream());
	struct dpm_log *log = open_ok(tf_path("some.log"));
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_string_equal(rec.type_name, "SEND");
	assert_int_equal(rec.nfields, 17 - 3);
	assert_false(dpm_log_field(&rec, "time", &v));
	assert_false(dpm_log_field(&rec, "channel", &v));
	assert_true(dpm_log_field(&rec, "procTime", &v));
	assert_int_equal(v, 100);
	assert_true(dpm_log_field(&rec, "length", &v));
	assert_int_equal(v, 100);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 0);
	dpm_log_close(log);
}

static void test_header_is_text_in_the_description_language(void **state)
{
	(void)state;
	tf_make_log(tf_path("hdr.log"), "traceType=QUEUED, seq=#*, load=#*;\n", stream,
		    message_stream());
	char *text = tf_read_file(tf_path("hdr.log"));
	assert_memory_equal(text, "DPMLOG 2\ndescriptions ", 22);
	assert_non_null(strstr(text, "\nQUEUED 4.\nmachine,0,4,10\ntraceType,4,4,10\ntime,8,8,10\n"
				     "procTime,16,8,10\ntask,24,4,16\nsize,28,4,10\nfromTask,32,4,16\n"));
	assert_non_null(strstr(text, "\nNOTE 256.\nconn,0,4,10\n"));
	assert_non_null(strstr(text, ";\nrecords\n"));
	free(text);
}

static void test_sniff_tells_a_log_from_other_files(void **state)
{
	(void)state;
	tf_make_log(tf_path("sniff.log"), NULL, stream, message_stream());
	tf_write_file(tf_path("trace.csv"), "machine,type,time_ns\n");
	assert_true(dpm_log_sniff(tf_path("sniff.log")));
	assert_false(dpm_log_sniff(tf_path("trace.csv")));
	assert_false(dpm_log_sniff("/nonexistent/log"));
}

static void test_sniff_tells_csv_log_and_neither(void **state)
{
	(void)state;
	tf_make_log(tf_path("k.log"), NULL, stream, message_stream());
	tf_write_file(tf_path("k.csv"), "# a comment, with a comma\nmachine,type\n1,SEND\n");
	tf_write_file(tf_path("k.txt"), "hello world\nno commas here\n");
	tf_write_file(tf_path("old.log"), "DPMLOG 1\ndescriptions 0\nrecords\n");
	static const uint8_t bin[] = { 'a', ',', 'b', 0, 1, 2, '\n' };
	tf_write_bytes(tf_path("k.bin"), bin, sizeof bin);
	assert_int_equal(dpm_trace_file_kind(tf_path("k.log")), DPM_FILE_LOG);
	assert_int_equal(dpm_trace_file_kind(tf_path("old.log")), DPM_FILE_LOG);
	assert_int_equal(dpm_trace_file_kind(tf_path("k.csv")), DPM_FILE_CSV);
	assert_int_equal(dpm_trace_file_kind(tf_path("k.txt")), DPM_FILE_NEITHER);
	assert_int_equal(dpm_trace_file_kind(tf_path("k.bin")), DPM_FILE_NEITHER);
	assert_int_equal(dpm_trace_file_kind(tf_path("nosuch")), DPM_FILE_UNREADABLE);
	assert_int_equal(dpm_trace_file_kind("-"), DPM_FILE_UNREADABLE);
}

/* Read to the end: the records read, and the message of a failure. */
static int read_all(const char *path, int *records, char *err, size_t errlen)
{
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(path, err, errlen);
	*records = 0;
	if (!log)
		return -2;
	int r;
	while ((r = dpm_log_next(log, &rec, err, errlen)) > 0)
		++*records;
	dpm_log_close(log);
	return r;
}

static void test_truncated_log_is_an_error_with_its_offset(void **state)
{
	char err[512];
	int n;
	(void)state;
	tf_make_log(tf_path("cut.log"), NULL, stream, message_stream());
	tf_truncate_by(tf_path("cut.log"), 5);
	assert_int_equal(read_all(tf_path("cut.log"), &n, err, sizeof err), -1);
	assert_int_equal(n, 0); /* one block, not whole: none of its records */
	assert_non_null(strstr(err, "cut.log: byte "));
	assert_non_null(strstr(err, ": log ends inside a block (16 + 292 bytes of block expected, "
				    "303 present): truncated log"));
	/* Cut inside a block header. */
	tf_make_log(tf_path("cut2.log"), NULL, stream, message_stream());
	tf_truncate_by(tf_path("cut2.log"), 292 + 6);
	assert_int_equal(read_all(tf_path("cut2.log"), &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "log ends inside a block (16 bytes of block header expected, "
				    "10 present): truncated log"));
}

static void test_following_reader_waits_for_a_whole_block(void **state)
{
	char err[512];
	struct dpm_log_record rec;
	(void)state;
	tf_make_log(tf_path("live.log"), NULL, stream, message_stream());
	char *whole = tf_read_file(tf_path("live.log"));
	size_t header = (size_t)(strstr(whole, "records\nDBLK") + 8 - whole);
	free(whole);
	tf_truncate_by(tf_path("live.log"), 5);
	struct dpm_log *log = open_ok(tf_path("live.log"));
	dpm_log_follow(log);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 0);
	assert_int_equal(dpm_log_truncated(log), 16 + 292 - 5);
	assert_int_equal(dpm_log_resume(log), 0);
	/* The filter finishes the block: the reader goes on from its start. */
	tf_make_log(tf_path("live2.log"), NULL, stream, message_stream());
	FILE *src = fopen(tf_path("live2.log"), "rb");
	uint8_t tail[5];
	assert_int_equal(fseek(src, -5, SEEK_END), 0);
	assert_int_equal(fread(tail, 1, 5, src), 5);
	fclose(src);
	FILE *dst = fopen(tf_path("live.log"), "ab");
	assert_int_equal(fwrite(tail, 1, 5, dst), 5);
	fclose(dst);
	int n = 0;
	while (dpm_log_next(log, &rec, err, sizeof err) > 0)
		n++;
	assert_int_equal(n, 4);
	assert_int_equal(dpm_log_truncated(log), 0);
	assert_int_equal(dpm_log_header_size(log), header);
	dpm_log_close(log);
}

static void test_overwritten_bytes_fail_the_checksum(void **state)
{
	char err[512];
	int n;
	(void)state;
	/* Four bytes of a record (the length field of a message) changed. */
	tf_make_log(tf_path("w.log"), NULL, stream, message_stream());
	uint64_t at = 0;
	{
		struct dpm_log *log = open_ok(tf_path("w.log"));
		at = dpm_log_header_size(log);
		dpm_log_close(log);
	}
	static const uint8_t ff[4] = { 0xff, 0xff, 0xff, 0x00 };
	tf_overwrite(tf_path("w.log"), (long)at + 16 + 40, ff, 4);
	assert_int_equal(read_all(tf_path("w.log"), &n, err, sizeof err), -1);
	assert_int_equal(n, 0);
	char want[160];
	snprintf(want, sizeof want, "w.log: byte %llu: the block of 292 bytes has checksum ",
		 (unsigned long long)at);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, ", its header says "));
	assert_non_null(strstr(err, "(corrupt log)"));
	/* ... of the block's header (its length). */
	tf_make_log(tf_path("h.log"), NULL, stream, message_stream());
	tf_overwrite(tf_path("h.log"), (long)at + 4, ff, 4);
	assert_int_equal(read_all(tf_path("h.log"), &n, err, sizeof err), -1);
	snprintf(want, sizeof want, "h.log: byte %llu: expected a block header (\"DBLK\"",
		 (unsigned long long)at);
	assert_non_null(strstr(err, want));
	/* ... of the descriptions. */
	tf_make_log(tf_path("d.log"), NULL, stream, message_stream());
	tf_overwrite(tf_path("d.log"), 60, "XXXX", 4);
	assert_int_equal(read_all(tf_path("d.log"), &n, err, sizeof err), -2);
	assert_non_null(strstr(err, "d.log: byte "));
	assert_non_null(strstr(err, ": the descriptions' checksum is "));
}

static void test_damaged_logs_give_messages(void **state)
{
	char err[512];
	struct dpm_log_record rec;
	(void)state;
	assert_null(dpm_log_open(tf_path("nosuch.log"), err, sizeof err));
	assert_non_null(strstr(err, "nosuch.log: No such file or directory"));

	tf_write_file(tf_path("csv.log"), "machine,type\n1,SEND\n");
	assert_null(dpm_log_open(tf_path("csv.log"), err, sizeof err));
	assert_non_null(strstr(err, "csv.log: a trace CSV, not a DPM log"));

	tf_write_file(tf_path("text.log"), "hello\n");
	assert_null(dpm_log_open(tf_path("text.log"), err, sizeof err));
	assert_non_null(strstr(err, "text.log: not a DPM log or trace CSV"));

	tf_write_file(tf_path("v1.log"), "DPMLOG 1\ndescriptions 9\nSEND 1.;\nrecords\n");
	assert_null(dpm_log_open(tf_path("v1.log"), err, sizeof err));
	assert_non_null(strstr(err, "v1.log: a DPM log of format 1, which this dpm does not read "
				    "(it reads format 2"));

	tf_write_file(tf_path("short.log"), "DPMLOG 2\ndescriptions 100 crc32 00000000\nSEND 1.;");
	assert_null(dpm_log_open(tf_path("short.log"), err, sizeof err));
	assert_non_null(strstr(err, "short.log: byte 41: log ends inside its descriptions (100 "
				    "bytes expected, 8 present): truncated log"));

	tf_write_log(tf_path("baddesc.log"), "SEND 1. ?", NULL, 0);
	assert_null(dpm_log_open(tf_path("baddesc.log"), err, sizeof err));
	assert_non_null(strstr(err, "baddesc.log:3:9: unexpected character '?'"));

	static const char recs[] = "\0\0\5\1\0\7";
	tf_write_log(tf_path("layout.log"), "SEND 1.\nx,0,1,10;\n", recs, sizeof recs - 1);
	struct dpm_log *log = open_ok(tf_path("layout.log"));
	uint64_t v;
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_true(dpm_log_field(&rec, "x", &v));
	assert_int_equal(v, 5);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), -1);
	assert_non_null(strstr(err, "layout.log: byte 85: record layout 1 is not described (corrupt log)"));
	dpm_log_close(log);

	static const char over[] = "\0\0\5\0\0";
	tf_write_log(tf_path("over.log"), "SEND 1.\nx,0,4,10;\n", over, sizeof over - 1);
	log = open_ok(tf_path("over.log"));
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), -1);
	assert_non_null(strstr(err, "over.log: byte 82: a record of layout 0 (6 bytes) overruns its "
				    "block, which has 5 left (corrupt log)"));
	dpm_log_close(log);
}

/* Machine m's batch: SENDs seq0.., with a MARK of `token` at position
 * at (or none when token is 0). */
static size_t marked_batch(uint8_t *out, uint32_t m, uint32_t seq0, unsigned sends,
			   uint32_t token, unsigned at)
{
	uint8_t recs[64 * TRACE_MAX_SIZE];
	size_t len = 0;
	unsigned count = 0;
	for (unsigned i = 0; i <= sends; i++) {
		if (token && i == at) {
			len += tf_mark(recs + len, m, seq0 + i + 100, token);
			count++;
		}
		if (i < sends) {
			len += tf_send(recs + len, m, seq0 + i, TASK_MAKE(m, 5), TASK_MAKE(m, 6), 0,
				       ((uint64_t)m << 48) | (seq0 + i));
			count++;
		}
	}
	return tf_batch(out, m, (uint16_t)count, recs, len);
}

static void test_window_between_marks_per_machine(void **state)
{
	(void)state;
	/* two nodes' streams interleaved; each node's window is its own */
	size_t n = 0;
	n += marked_batch(stream + n, 1, 0, 3, 0, 0);       /* before: dropped      */
	n += marked_batch(stream + n, 1, 10, 4, 111, 2);    /* 2 before, mark, 2 in */
	n += marked_batch(stream + n, 2, 0, 2, 111, 2);     /* 2 before, mark       */
	n += marked_batch(stream + n, 2, 20, 5, 0, 0);      /* 5 in                 */
	n += marked_batch(stream + n, 1, 30, 3, 222, 1);    /* 1 in, mark, 2 after  */
	n += marked_batch(stream + n, 2, 40, 1, 222, 0);    /* mark, 1 after        */
	n += marked_batch(stream + n, 1, 50, 2, 111, 0);    /* a later start: after */
	const char *log = tf_path("window-in.log"), *cut = tf_path("window-out.log");
	tf_make_log(log, NULL, stream, n);
	struct log_window_counts counts;
	char err[512];
	assert_int_equal(log_window_extract(log, cut, 111, 222, &counts, err, sizeof err), 0);
	assert_int_equal(counts.started, 2);
	assert_int_equal(counts.ended, 2);
	unsigned types[257] = { 0 };
	assert_int_equal(tf_count_log(cut, types), 2 + 5 + 1 + 4);
	assert_int_equal(types[TRACE_SEND], 2 + 5 + 1);
	assert_int_equal(types[TRACE_MARK], 4);
	assert_int_equal(counts.records, 12);
	/* the copy reads as a log of its own: the SENDs are the window's */
	struct dpm_log *l = open_ok(cut);
	struct dpm_log_record rec;
	uint64_t seq;
	while (dpm_log_next(l, &rec, err, sizeof err) > 0)
		if (rec.trace_type == TRACE_SEND) {
			assert_true(dpm_log_field(&rec, "seq", &seq));
			assert_true((seq >= 12 && seq <= 13) || (seq >= 20 && seq <= 24) || seq == 30);
		}
	dpm_log_close(l);
	/* errors: a missing input, an unwritable output */
	assert_int_equal(log_window_extract(tf_path("none.log"), cut, 1, 2, &counts, err, sizeof err), -1);
	assert_non_null(strstr(err, "none.log"));
	assert_int_equal(log_window_extract(log, "/nonexistent/dir/x.log", 1, 2, &counts, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/dir/x.log"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_keeps_every_value),
		cmocka_unit_test(test_discarded_fields_are_not_in_the_log),
		cmocka_unit_test(test_header_is_text_in_the_description_language),
		cmocka_unit_test(test_sniff_tells_a_log_from_other_files),
		cmocka_unit_test(test_sniff_tells_csv_log_and_neither),
		cmocka_unit_test(test_truncated_log_is_an_error_with_its_offset),
		cmocka_unit_test(test_following_reader_waits_for_a_whole_block),
		cmocka_unit_test(test_overwritten_bytes_fail_the_checksum),
		cmocka_unit_test(test_damaged_logs_give_messages),
		cmocka_unit_test(test_window_between_marks_per_machine),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

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
	assert_memory_equal(text, "DPMLOG 1\ndescriptions ", 22);
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

static void test_incomplete_last_record_is_reported_not_read(void **state)
{
	char err[512];
	struct dpm_log_record rec;
	(void)state;
	tf_make_log(tf_path("cut.log"), NULL, stream, message_stream());
	tf_truncate_by(tf_path("cut.log"), 5); /* TERMPROCESS: 2 + 56 bytes */
	struct dpm_log *log = open_ok(tf_path("cut.log"));
	int n = 0;
	while (dpm_log_next(log, &rec, err, sizeof err) > 0)
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(dpm_log_truncated(log), 2 + 56 - 5);
	dpm_log_close(log);
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
	assert_non_null(strstr(err, "csv.log: not a dpm filter log (bad magic line)"));

	tf_write_file(tf_path("short.log"), "DPMLOG 1\ndescriptions 100\nSEND 1.;");
	assert_null(dpm_log_open(tf_path("short.log"), err, sizeof err));
	assert_non_null(strstr(err, "short.log: log ends inside its descriptions"));

	tf_write_file(tf_path("baddesc.log"), "DPMLOG 1\ndescriptions 9\nSEND 1. ?records\n");
	assert_null(dpm_log_open(tf_path("baddesc.log"), err, sizeof err));
	assert_non_null(strstr(err, "baddesc.log:3:9: unexpected character '?'"));

	static const char layout_log[] =
		"DPMLOG 1\ndescriptions 18\nSEND 1.\nx,0,1,10;\nrecords\n\0\0\5\1\0\7";
	tf_write_bytes(tf_path("layout.log"), layout_log, sizeof layout_log - 1);
	struct dpm_log *log = open_ok(tf_path("layout.log"));
	uint64_t v;
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_true(dpm_log_field(&rec, "x", &v));
	assert_int_equal(v, 5);
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), -1);
	assert_non_null(strstr(err, "layout.log: byte 54: record layout 1 is not described (corrupt log)"));
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
		cmocka_unit_test(test_incomplete_last_record_is_reported_not_read),
		cmocka_unit_test(test_damaged_logs_give_messages),
		cmocka_unit_test(test_window_between_marks_per_machine),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

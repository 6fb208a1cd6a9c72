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

#include "log.h"
#include "logformat.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_keeps_every_value),
		cmocka_unit_test(test_discarded_fields_are_not_in_the_log),
		cmocka_unit_test(test_header_is_text_in_the_description_language),
		cmocka_unit_test(test_sniff_tells_a_log_from_other_files),
		cmocka_unit_test(test_incomplete_last_record_is_reported_not_read),
		cmocka_unit_test(test_damaged_logs_give_messages),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

/*
 * tests/unit/test_dump.c - `dpm dump`: the text form (every field in its
 * display base) and the CSV of docs/trace-csv.md, byte for byte, plus its
 * usage and error exits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qemu/dpm_commands.h"
#include "test_filter_support.h"

static uint8_t stream[64 * 1024];

/* One message 1.3 -> 2.3, a process ending by a memory fault, 3 traces
 * dropped by the kernel, then garbage (which makes a NOTE). */
static size_t sample_stream(void)
{
	size_t len = tf_message_batch(stream, 1);
	memcpy(stream + len, "JUNKJUNKJUNKJUNK", 16);
	return len + 16;
}

/* Run dump with args; returns its status, output in *out (malloc'd). */
static int dump(const char *a1, const char *a2, char **out, char **err)
{
	const char *argv[] = { "dump", a1, a2, NULL };
	int rc = tf_run(dump_main, argv, NULL, tf_path("dump.out"), tf_path("dump.err"));
	*out = tf_read_file(tf_path("dump.out"));
	*err = tf_read_file(tf_path("dump.err"));
	return rc;
}

static void test_text_shows_each_field_in_its_base(void **state)
{
	char *out, *err;
	(void)state;
	tf_make_log(tf_path("s.log"), NULL, stream, sample_stream());
	assert_int_equal(dump(tf_path("s.log"), NULL, &out, &err), 0);
	assert_string_equal(err, "");
	const char *want =
		"SEND machine=1 traceType=1 time=10000 procTime=100 seq=10 load=1 task=0x10003 "
		"size=80 fromTask=0x10003 toTask=0x20003 channel=6 code=7 sendLink=2 "
		"passLink=4294967295 msgId=0x100000000002a length=100 passTask=0x0\n"
		"QUEUED machine=1 traceType=4 time=11000 procTime=110 seq=11 load=1 task=0x20003 "
		"size=72 fromTask=0x10003 toTask=0x20003 msgId=0x100000000002a length=100 queueLen=1 "
		"channel=0 code=7\n";
	assert_memory_equal(out, want, strlen(want));
	assert_non_null(strstr(out, "\nDROPPED machine=1 traceType=12 time=14000 procTime=140 "
				    "seq=14 load=1 task=0x0 size=48 count=3\n"));
	assert_non_null(strstr(out, "\nNOTE conn=1 machine=1 reason=1 offset=352 bytes=16 (bad magic)\n"));
	free(out);
	free(err);
}

static void test_bases_two_and_eight(void **state)
{
	static const char recs[] = "\0\0\5\11\37\7\0\0\0\0\0\0";
	char *out, *err;
	(void)state;
	tf_write_log(tf_path("bases.log"), "X 1.\na,0,1,2\nb,1,1,8\nc,2,1,16\nd,3,1,10;\n", recs,
		     sizeof recs - 1);
	assert_int_equal(dump(tf_path("bases.log"), NULL, &out, &err), 0);
	assert_string_equal(out, "X a=0b101 b=011 c=0x1f d=7\nX a=0b0 b=0 c=0x0 d=0\n");
	free(out);
	free(err);
}

static void test_csv_is_the_interchange_format(void **state)
{
	char *out, *err;
	(void)state;
	tf_make_log(tf_path("c.log"), NULL, stream, sample_stream());
	assert_int_equal(dump("--csv", tf_path("c.log"), &out, &err), 0);
	assert_string_equal(
		out,
		"machine,type,time_ns,cpu_ns,seq,load,task,src,dst,msg_id,length,link,code,pass_link,"
		"queue_len,reason,count\n"
		"1,SEND,10000,100,10,1,1.3,1.3,2.3,0x100000000002a,100,2,7,,,,\n"
		"1,QUEUED,11000,110,11,1,2.3,1.3,2.3,0x100000000002a,100,,7,,1,,\n"
		"1,RECEIVE,12000,120,12,1,2.3,1.3,2.3,0x100000000002a,100,,7,,0,,\n"
		"1,TERMPROCESS,13000,130,13,1,1.3,,1.3,,,,,,,fault-memory,\n"
		"1,DROPPED,14000,140,14,1,0.0,,,,,,,,,,3\n"
		"# note: NOTE conn=1 machine=1 reason=1 offset=352 bytes=16 (bad magic)\n");
	free(out);
	free(err);
}

static void test_csv_leaves_discarded_fields_empty(void **state)
{
	char *out, *err;
	(void)state;
	tf_make_log(tf_path("d.log"), "traceType=SEND, time=#*, msgId=#*, code=#*;\n", stream,
		    sample_stream());
	assert_int_equal(dump("--csv", tf_path("d.log"), &out, &err), 0);
	assert_non_null(strstr(out, "\n1,SEND,,100,10,1,1.3,1.3,2.3,,100,2,,,,,\n"));
	free(out);
	free(err);
}

static void test_usage_and_errors(void **state)
{
	char *out, *err;
	(void)state;
	assert_int_equal(dump(NULL, NULL, &out, &err), 2);
	assert_non_null(strstr(err, "usage: dpm dump"));
	free(out);
	free(err);
	assert_int_equal(dump("--help", NULL, &out, &err), 0);
	assert_non_null(strstr(out, "usage: dpm dump [--csv] LOG"));
	free(out);
	free(err);
	assert_int_equal(dump("--bogus", "x", &out, &err), 2);
	free(out);
	free(err);
	assert_int_equal(dump(tf_path("none.log"), NULL, &out, &err), 2);
	assert_non_null(strstr(err, "none.log: No such file or directory\n"));
	free(out);
	free(err);
	/* A log cut inside its last block (the NOTE's): the blocks before it
	 * are printed, then the cut is an error of bad input, with its byte. */
	tf_make_log(tf_path("cut.log"), NULL, stream, sample_stream());
	tf_truncate_by(tf_path("cut.log"), 3);
	assert_int_equal(dump(tf_path("cut.log"), NULL, &out, &err), 2);
	assert_non_null(strstr(out, "\nDROPPED "));
	assert_null(strstr(out, "NOTE"));
	assert_non_null(strstr(err, "log ends inside a block (16 + 30 bytes of block expected, 43 "
				    "present): truncated log\n"));
	free(out);
	free(err);
	/* Random bytes: neither a log nor a CSV, said so. */
	uint8_t junk[300];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (uint8_t)(i * 167 + 13);
	tf_write_bytes(tf_path("junk.bin"), junk, sizeof junk);
	assert_int_equal(dump(tf_path("junk.bin"), NULL, &out, &err), 2);
	assert_non_null(strstr(err, "junk.bin: not a DPM log or trace CSV\n"));
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_shows_each_field_in_its_base),
		cmocka_unit_test(test_bases_two_and_eight),
		cmocka_unit_test(test_csv_is_the_interchange_format),
		cmocka_unit_test(test_csv_leaves_discarded_fields_empty),
		cmocka_unit_test(test_usage_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

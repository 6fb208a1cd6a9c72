/*
 * tests/unit/test_export.c - `dpm export`: the processes' states and the
 * message flows it derives (seen in the Chrome JSON, checked strictly by
 * tests/export/export_check.c against the dump), the CTF metadata's clocks,
 * streams and field names, and its usage and error exits (nothing written
 * on a bad log).  The real readers (babeltrace2, otf2-print) read the
 * exports in tests/export/export_test.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/tracelog/logformat.h"
#include "hostfilter/tracelog/print.h"
#include "tests/export/export_check.h"
#include "test_filter_support.h"

static uint8_t stream[64 * 1024];

static const uint64_t msg = (1ull << 48) | 42;

/* 2.3 blocks in a receive (seq 20), 1.3 sends it a message (node 1, seq
 * 10), 2.3 receives it (seq 21) and ends (seq 22); 2.4 asks without
 * blocking (seq 23); the kernel of node 2 drops 3 traces (seq 24). */
static size_t states_stream(void)
{
	uint8_t recs[16 * TRACE_MAX_SIZE];
	size_t n = 0, len = 0;
	n += tf_send(recs + n, 1, 10, TASK_MAKE(1, 3), TASK_MAKE(2, 3), 6, msg);
	len += tf_batch(stream + len, 1, 1, recs, n);
	n = 0;
	n += tf_receivecall(recs + n, 2, 20, TASK_MAKE(2, 3), 1);
	n += tf_receive(recs + n, 2, 21, TASK_MAKE(1, 3), TASK_MAKE(2, 3), msg);
	n += tf_term(recs + n, 2, 22, TASK_MAKE(2, 3), 0);
	n += tf_receivecall(recs + n, 2, 23, TASK_MAKE(2, 4), 0);
	n += tf_dropped(recs + n, 2, 24, 3);
	len += tf_batch(stream + len, 2, 5, recs, n);
	return len;
}

static int run_export(const char *format, const char *out, const char *log)
{
	const char *argv[] = { "export", "--format", format, "-o", out, log, NULL };
	return tf_run(export_main, argv, NULL, tf_path("export.out"), tf_path("export.err"));
}

/* The dump's text of a log, as the checks want it. */
static char *dump_text(const char *log)
{
	char err[256];
	size_t truncated;
	FILE *f = fopen(tf_path("dump.txt"), "w");
	assert_non_null(f);
	assert_int_equal(dump_records(log, 0, f, err, sizeof err, &truncated), 0);
	fclose(f);
	return tf_read_file(tf_path("dump.txt"));
}

/* The states stream as a log NAME.log (into log) exported in format to
 * NAME.FORMAT (into out); returns the export's text when it is one file. */
static char *export_states(const char *format, const char *name, char log[256], char out[256])
{
	snprintf(log, 256, "%s.log", tf_path(name));
	snprintf(out, 256, "%s.%s", tf_path(name), format);
	tf_make_log(log, NULL, stream, states_stream());
	assert_int_equal(run_export(format, out, log), 0);
	return strcmp(format, "chrome") ? NULL : tf_read_file(out);
}

/* The CTF metadata of the export in dir. */
static char *metadata(const char *dir)
{
	char path[300];
	snprintf(path, sizeof path, "%s/metadata", dir);
	return tf_read_file(path);
}

static void test_chrome_states_and_flows(void **state)
{
	(void)state;
	char log[256], out[256];
	char *json = export_states("chrome", "states", log, out);
	char *dump = dump_text(log);
	char summary[256], err[256];
	assert_int_equal(check_chrome(dump, json, summary, sizeof summary, err, sizeof err), 0);
	/* 2.3 runs from its first record, the blocking RECEIVECALL, where it
	 * blocks until the RECEIVE; runs again until its TERMPROCESS */
	assert_non_null(strstr(json, "{\"ph\":\"X\",\"name\":\"running\",\"cat\":\"state\",\"pid\":2,\"tid\":3,\"ts\":20.000,\"dur\":0.000}"));
	assert_non_null(strstr(json, "{\"ph\":\"X\",\"name\":\"blocked\",\"cat\":\"state\",\"pid\":2,\"tid\":3,\"ts\":20.000,\"dur\":1.000}"));
	assert_non_null(strstr(json, "{\"ph\":\"X\",\"name\":\"running\",\"cat\":\"state\",\"pid\":2,\"tid\":3,\"ts\":21.000,\"dur\":1.000}"));
	/* the non-blocking receive of 2.4 blocks nothing: it runs until its
	 * node's last time (the DROPPED at 24 us) */
	assert_null(strstr(json, "\"name\":\"blocked\",\"cat\":\"state\",\"pid\":2,\"tid\":4"));
	assert_non_null(strstr(json, "{\"ph\":\"X\",\"name\":\"running\",\"cat\":\"state\",\"pid\":2,\"tid\":4,\"ts\":23.000,\"dur\":1.000}"));
	/* the message's flow, from the sender's track to the receiver's */
	assert_non_null(strstr(json, "{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"message\",\"id\":\"0x100000000002a\",\"pid\":1,\"tid\":3,\"ts\":10.000}"));
	assert_non_null(strstr(json, "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"message\",\"cat\":\"message\",\"id\":\"0x100000000002a\",\"pid\":2,\"tid\":3,\"ts\":21.000}"));
	/* the kernel's DROPPED is on node 2's track 0, with its fields */
	assert_non_null(strstr(json, "\"name\":\"DROPPED\",\"cat\":\"trace\",\"pid\":2,\"tid\":0,\"ts\":24.000,\"args\":{\"machine\":2,"));
	assert_non_null(strstr(json, "\"count\":3}"));
	free(json);
	free(dump);
}

static void test_chrome_checks_fail_on_a_wrong_export(void **state)
{
	(void)state;
	char log[256], out[256];
	char *json = export_states("chrome", "wrong", log, out), *dump = dump_text(log);
	char err[256];
	/* a flow end lost */
	char *f = strstr(json, "{\"ph\":\"f\"");
	assert_non_null(f);
	f[7] = 'n';
	assert_int_equal(check_chrome(dump, json, NULL, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "flow ends"));
	f[7] = 'f';
	/* 2.3's first running slice made to overlap its blocked one */
	char *d = strstr(json, "\"dur\":0.000}");
	assert_non_null(d);
	d[6] = '9';
	assert_int_equal(check_chrome(dump, json, NULL, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "before the slice before it ends"));
	d[6] = '0';
	assert_int_equal(check_chrome(dump, json, NULL, 0, err, sizeof err), 0);
	/* not JSON any more: a trailing comma */
	char *end = strstr(json, "\n]}");
	assert_non_null(end);
	end[0] = ',';
	assert_int_equal(check_json(json, err, sizeof err), -1);
	free(json);
	free(dump);
}

static void test_strict_json(void **state)
{
	char err[128];
	(void)state;
	assert_int_equal(check_json("{\"a\":[1,-2.5e3,true,null,\"x\\u00e9\"]}", err, sizeof err), 0);
	assert_int_equal(check_json("{\"a\":01}", err, sizeof err), -1);
	assert_int_equal(check_json("{\"a\":1,}", err, sizeof err), -1);
	assert_int_equal(check_json("{'a':1}", err, sizeof err), -1);
	assert_int_equal(check_json("[1] x", err, sizeof err), -1);
	assert_int_equal(check_json("\"tab\there\"", err, sizeof err), -1);
	assert_int_equal(check_json("[NaN]", err, sizeof err), -1);
	assert_string_equal(err, "1:2: expected a value");
}

static void test_ctf_metadata_declares_node_clocks(void **state)
{
	(void)state;
	char log[256], dir[256], path[300];
	export_states("ctf", "c", log, dir);
	char *meta = metadata(dir);
	assert_memory_equal(meta, "/* CTF 1.8 */\n", 14);
	assert_non_null(strstr(meta, "clock {\n\tname = node1;"));
	assert_non_null(strstr(meta, "clock {\n\tname = node2;"));
	assert_non_null(strstr(meta, "map = clock.node2.value; } := node2_t;"));
	assert_non_null(strstr(meta, "event {\n\tname = \"SEND\";"));
	assert_non_null(strstr(meta, "integer { size = 64; align = 8; signed = false; base = 16; } msgId;"));
	free(meta);
	/* one stream file per node, each a packet starting with CTF's magic */
	snprintf(path, sizeof path, "%s/node2", dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t magic[4];
	assert_int_equal(fread(magic, 1, 4, f), 4);
	fclose(f);
	assert_int_equal(magic[0] | magic[1] << 8 | magic[2] << 16 | (uint32_t)magic[3] << 24, 0xc1fc1fc1u);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* CTF wants a stream's timestamps never to go back: a record whose time
 * did is stamped with the stream's latest and keeps its own in `time`. */
static void test_ctf_timestamps_never_go_back(void **state)
{
	(void)state;
	uint8_t recs[4 * TRACE_MAX_SIZE];
	size_t n = tf_dropped(recs, 1, 5, 1); /* time 5000 */
	n += tf_dropped(recs + n, 1, 3, 2);   /* time 3000 */
	size_t len = tf_batch(stream, 1, 2, recs, n);
	char log[256], dir[256], path[300];
	snprintf(log, sizeof log, "%s", tf_path("back.log"));
	snprintf(dir, sizeof dir, "%s", tf_path("back.ctf"));
	tf_make_log(log, NULL, stream, len);
	assert_int_equal(run_export("ctf", dir, log), 0);
	snprintf(path, sizeof path, "%s/node1", dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t b[256];
	/* header 24, context 32, then events of id 2 + timestamp 8 + the 44
	 * bytes of a DROPPED's fields (header 40, count 4) */
	assert_int_equal(fread(b, 1, sizeof b, f), 56 + 2 * 54);
	fclose(f);
	assert_int_equal(le64(b + 24), 5000); /* timestamp_begin */
	assert_int_equal(le64(b + 32), 5000); /* timestamp_end */
	assert_int_equal(le64(b + 40), (56 + 2 * 54) * 8); /* content_size, bits */
	assert_int_equal(le64(b + 56 + 2), 5000);
	assert_int_equal(le64(b + 56 + 54 + 2), 5000);     /* held, not 3000 */
	assert_int_equal(le64(b + 56 + 54 + 10 + 8), 3000); /* its time field */
}

static void test_ctf_keyword_field_is_escaped(void **state)
{
	(void)state;
	/* a log of one layout whose fields are named like TSDL keywords: the
	 * header with its descriptions' CRC, then one block of one record */
	static const char desc[] = "X 50.\nmachine,0,4,10\ntime,4,8,10\nevent,12,4,10\nstruct,16,1,2;\n";
	static const uint8_t rec[] = { 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 3 };
	char text[512];
	int n = snprintf(text, sizeof text, "DPMLOG 2\ndescriptions %zu crc32 %08x\n%srecords\n",
			 sizeof desc - 1, (unsigned)log_crc32(desc, sizeof desc - 1), desc);
	uint8_t head[LOG_BLOCK_HEADER];
	log_block_header(head, sizeof rec, log_crc32(rec, sizeof rec));
	memcpy(text + n, head, sizeof head);
	memcpy(text + n + sizeof head, rec, sizeof rec);
	char log[256];
	snprintf(log, sizeof log, "%s", tf_path("kw.log"));
	tf_write_bytes(log, text, (size_t)n + sizeof head + sizeof rec);
	char dir[256];
	snprintf(dir, sizeof dir, "%s", tf_path("kw.ctf"));
	assert_int_equal(run_export("ctf", dir, log), 0);
	char *meta = metadata(dir);
	assert_non_null(strstr(meta, "base = 10; } _event;"));
	assert_non_null(strstr(meta, "base = 2; } _struct;"));
	assert_non_null(strstr(meta, "} machine;"));
	free(meta);
}

static void test_usage_and_bad_logs(void **state)
{
	(void)state;
	char log[256], bad[256];
	snprintf(log, sizeof log, "%s", tf_path("u.log"));
	snprintf(bad, sizeof bad, "%s", tf_path("bad.log"));
	tf_make_log(log, NULL, stream, states_stream());
	const char *help[] = { "export", "--help", NULL };
	assert_int_equal(tf_run(export_main, help, NULL, tf_path("h.out"), tf_path("h.err")), 0);
	const char *no_out[] = { "export", "--format", "ctf", log, NULL };
	assert_int_equal(tf_run(export_main, no_out, NULL, tf_path("h.out"), tf_path("h.err")), 2);
	assert_int_equal(run_export("ctf", "-", log), 2);
	assert_int_equal(access("-", F_OK), -1);
	assert_int_equal(run_export("svg", tf_path("u.svg"), log), 2);
	char *err = tf_read_file(tf_path("export.err"));
	assert_non_null(strstr(err, "unknown format 'svg'"));
	free(err);

	/* a log cut inside a block after good ones: bad input, exit 2, and no
	 * OUT at all */
	char *good = tf_read_file(log);
	struct stat st;
	assert_int_equal(stat(log, &st), 0);
	FILE *f = fopen(bad, "wb");
	fwrite(good, 1, (size_t)st.st_size, f);
	fwrite("\xff\xff", 1, 2, f);
	fclose(f);
	free(good);
	static const char *const formats[] = { "ctf", "otf2", "chrome" };
	for (int i = 0; i < 3; i++) {
		char out[256];
		snprintf(out, sizeof out, "%s", tf_path(formats[i]));
		assert_int_equal(run_export(formats[i], out, bad), 2);
		assert_int_equal(access(out, F_OK), -1);
		err = tf_read_file(tf_path("export.err"));
		if (!strstr(err, "truncated log"))
			fail_msg("%s", err);
		free(err);
	}
	/* a log of no record: CTF and Chrome say so in their way, an OTF2
	 * archive of no location would not be readable */
	char empty[256];
	snprintf(empty, sizeof empty, "%s", tf_path("none.log"));
	tf_make_log(empty, NULL, stream, 0);
	char out[256];
	snprintf(out, sizeof out, "%s", tf_path("none.otf2"));
	assert_int_equal(run_export("otf2", out, empty), 1);
	assert_int_equal(access(out, F_OK), -1);
	snprintf(out, sizeof out, "%s", tf_path("none.json"));
	assert_int_equal(run_export("chrome", out, empty), 0);
	char *json = tf_read_file(out);
	assert_int_equal(check_json(json, NULL, 0), 0);
	assert_non_null(strstr(json, "\"traceEvents\":[\n]}"));
	free(json);
	/* a directory that holds files already is left as it was */
	char dir[256];
	snprintf(dir, sizeof dir, "%s", tf_path("full"));
	assert_int_equal(mkdir(dir, 0777), 0);
	char keep[300];
	snprintf(keep, sizeof keep, "%s/keep", dir);
	tf_write_file(keep, "mine");
	assert_int_equal(run_export("ctf", dir, log), 1);
	char *kept = tf_read_file(keep);
	assert_string_equal(kept, "mine");
	free(kept);
	/* an empty one is written into */
	snprintf(dir, sizeof dir, "%s", tf_path("empty"));
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(run_export("otf2", dir, log), 0);
	snprintf(keep, sizeof keep, "%s/trace.otf2", dir);
	assert_int_equal(access(keep, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chrome_states_and_flows),
		cmocka_unit_test(test_chrome_checks_fail_on_a_wrong_export),
		cmocka_unit_test(test_strict_json),
		cmocka_unit_test(test_ctf_metadata_declares_node_clocks),
		cmocka_unit_test(test_ctf_timestamps_never_go_back),
		cmocka_unit_test(test_ctf_keyword_field_is_escaped),
		cmocka_unit_test(test_usage_and_bad_logs),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

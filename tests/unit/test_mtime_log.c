/*
 * tests/unit/test_mtime_log.c - the delivery-time table an analysis of a
 * log uses (analysis/model/mtime_log.h): the given one, else LOG.mtime,
 * else the placeholder with its line on stderr; the `# clock=` a recorded
 * table carries; a broken table beside a log is an error, not a fallback.
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

#include "analysis/model/mtime_log.h"

static char dir[64], log_path[128], beside[160], given[128];
static char what[512], err[512];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* What mtime_for_log wrote on its warning stream. */
static const char *warned(FILE *w)
{
	static char buf[1024];
	rewind(w);
	size_t n = fread(buf, 1, sizeof buf - 1, w);
	buf[n] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/dpm-test-mtime-log-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(log_path, sizeof log_path, "%s/run.log", dir);
	snprintf(beside, sizeof beside, "%s/run.log.mtime", dir);
	snprintf(given, sizeof given, "%s/given.csv", dir);
	write_file(log_path, "not read here\n");
	write_file(given, "size_bytes,local_ns,remote_ns\n1,7,70\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(log_path);
	unlink(beside);
	unlink(given);
	rmdir(dir);
	return 0;
}

static void test_the_path_beside_a_log(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(mtime_log_path("a/b.log", out, sizeof out), 0);
	assert_string_equal(out, "a/b.log.mtime");
	assert_int_equal(mtime_log_path("a/b.log", out, 13), -1);
}

static void test_placeholder_is_said_on_the_warning_stream(void **state)
{
	(void)state;
	struct mtime_table m;
	FILE *w = tmpfile();
	unlink(beside);
	assert_int_equal(mtime_for_log(&m, NULL, log_path, "dpm parallel", "--mtime", w, what,
				       sizeof what, err, sizeof err), MTIME_PLACEHOLDER);
	char want[1024];
	snprintf(want, sizeof want, "dpm parallel: no delivery-time table for %s (no --mtime, no "
		 "%s.mtime beside it): using the placeholder of docs/mtime.md (thesis Fig. 5.11, "
		 "each ms read as a us), which is not this system's\n", log_path, log_path);
	assert_string_equal(warned(w), want);
	assert_float_equal(mtime(&m, 1000, 0), 35000, 1e-9); /* the placeholder's */
	assert_non_null(strstr(what, "placeholder"));
	fclose(w);
	/* standard input has nothing beside it */
	w = tmpfile();
	assert_int_equal(mtime_for_log(&m, NULL, "-", "dpm report", "mtime=", w, what, sizeof what,
				       err, sizeof err), MTIME_PLACEHOLDER);
	assert_non_null(strstr(warned(w), "dpm report: no delivery-time table for standard input "
					  "(no mtime=, no LOG.mtime beside it)"));
	fclose(w);
	/* no stream: nothing said (the caller does not use the table) */
	assert_int_equal(mtime_for_log(&m, NULL, log_path, "x", "y", NULL, what, sizeof what, err,
				       sizeof err), MTIME_PLACEHOLDER);
}

static void test_the_table_beside_the_log_is_used(void **state)
{
	(void)state;
	struct mtime_table m;
	FILE *w = tmpfile();
	write_file(beside, "# clock=virtual\n# computed by dpm cluster\n"
		   "size_bytes,local_ns,remote_ns\n1,100,2000\n1000,1100,3000\n");
	assert_int_equal(mtime_for_log(&m, NULL, log_path, "dpm parallel", "--mtime", w, what,
				       sizeof what, err, sizeof err), MTIME_BESIDE_LOG);
	assert_string_equal(warned(w), "");
	assert_float_equal(mtime(&m, 1000, 0), 3000, 1e-9);
	assert_string_equal(m.clock, "virtual");
	char want[256];
	snprintf(want, sizeof want, "%s (recorded with the log, clock=virtual)", beside);
	assert_string_equal(what, want);
	/* ... but one given on the command line wins */
	assert_int_equal(mtime_for_log(&m, given, log_path, "dpm parallel", "--mtime", w, what,
				       sizeof what, err, sizeof err), MTIME_GIVEN);
	assert_float_equal(mtime(&m, 1, 0), 70, 1e-9);
	assert_string_equal(m.clock, "");
	assert_string_equal(what, given);
	assert_string_equal(warned(w), "");
	fclose(w);
}

static void test_a_broken_table_beside_the_log_is_an_error(void **state)
{
	(void)state;
	struct mtime_table m;
	write_file(beside, "size_bytes,local_ns\n1,2\n");
	assert_int_equal(mtime_for_log(&m, NULL, log_path, "dpm parallel", "--mtime", NULL, what,
				       sizeof what, err, sizeof err), -1);
	assert_non_null(strstr(err, "header lacks remote_ns"));
	unlink(beside);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_path_beside_a_log),
		cmocka_unit_test(test_placeholder_is_said_on_the_warning_stream),
		cmocka_unit_test(test_the_table_beside_the_log_is_used),
		cmocka_unit_test(test_a_broken_table_beside_the_log_is_an_error),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

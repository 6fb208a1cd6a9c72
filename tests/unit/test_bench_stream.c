/*
 * tests/unit/test_bench_stream.c - the bench-filter workload is what the
 * benchmark says it is: the synthetic stream (hostfilter/bench/bench_stream.c)
 * is accepted whole by the filter, with every record of the documented
 * mix, and the typical rule set (hostfilter/bench/bench-rules.txt, the thesis's
 * queue-statistics rules) keeps exactly its four trace types.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hostfilter/bench/bench_stream.h"
#include "test_filter_support.h"

#define RECORDS 1000u /* 100 rounds of the ten-record mix */

/* The stream of `records` records in batches of `per_batch`, as bytes. */
static uint8_t *stream_of(uint64_t records, unsigned per_batch, size_t *len)
{
	const char *path = tf_path("stream.bin");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(bench_stream_write(fd, records, per_batch), 0);
	*len = (size_t)lseek(fd, 0, SEEK_CUR);
	close(fd);
	return (uint8_t *)tf_read_file(path);
}

static void test_no_rules_keep_the_whole_mix(void **state)
{
	(void)state;
	size_t len;
	uint8_t *s = stream_of(RECORDS, 32, &len);
	unsigned counts[257];
	tf_make_log(tf_path("all.log"), NULL, s, len);
	assert_int_equal(tf_count_log(tf_path("all.log"), counts), RECORDS);
	assert_int_equal(counts[TRACE_SEND], 200);
	assert_int_equal(counts[TRACE_QUEUED], 200);
	assert_int_equal(counts[TRACE_RECEIVECALL], 200);
	assert_int_equal(counts[TRACE_RECEIVE], 200);
	assert_int_equal(counts[TRACE_CREATELINK], 100);
	assert_int_equal(counts[TRACE_STARTPROCESS], 100);
	assert_int_equal(counts[256], 0); /* no NOTE: nothing was rejected */
	free(s);
}

static void test_typical_rules_keep_four_types(void **state)
{
	(void)state;
	size_t len;
	uint8_t *s = stream_of(RECORDS, 7, &len); /* batches that straddle the mix */
	char *rules = tf_read_file("hostfilter/bench/bench-rules.txt");
	unsigned counts[257];
	tf_make_log(tf_path("typical.log"), rules, s, len);
	assert_int_equal(tf_count_log(tf_path("typical.log"), counts), 800);
	assert_int_equal(counts[TRACE_SEND], 200);
	assert_int_equal(counts[TRACE_QUEUED], 200);
	assert_int_equal(counts[TRACE_RECEIVECALL], 200);
	assert_int_equal(counts[TRACE_RECEIVE], 200);
	assert_int_equal(counts[256], 0);
	free(rules);
	free(s);
}

static void test_bad_batch_sizes_are_refused(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(bench_stream_write(fd, 10, 0), -1);
	assert_int_equal(bench_stream_write(fd, 10, BENCH_STREAM_MAX_BATCH + 1), -1);
	assert_int_equal(bench_stream_write(fd, 10, BENCH_STREAM_MAX_BATCH), 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_rules_keep_the_whole_mix),
		cmocka_unit_test(test_typical_rules_keep_four_types),
		cmocka_unit_test(test_bad_batch_sizes_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

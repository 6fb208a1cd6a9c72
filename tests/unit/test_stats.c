/*
 * tests/unit/test_stats.c - message statistics against counts made by
 * hand: per process and per pair, local/remote, size buckets, CPU shares,
 * queue lengths (traced and rebuilt) and time in queue.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/model/stats.h"
#include "test_analysis_trace.h"

static void buckets_are_powers_of_two(void **state)
{
	(void)state;
	assert_int_equal(stats_bucket(0), 0);
	assert_int_equal(stats_bucket(1), 1);
	assert_int_equal(stats_bucket(2), 2);
	assert_int_equal(stats_bucket(3), 2);
	assert_int_equal(stats_bucket(4), 3);
	assert_int_equal(stats_bucket(1023), 10);
	assert_int_equal(stats_bucket(1024), 11);
	assert_int_equal(stats_bucket(UINT64_MAX), 64);
}

/*
 * 1.1 (node 1) sends 100 and 3 bytes to 2.1 (node 2), both queued then
 * received; 2.1 sends 0 bytes to 2.2 (node 2, local).  1.1's span is
 * 100..300 ns: 2 messages in 200 ns = 1e7 per second.
 */
static void build(struct trace *t)
{
	uint32_t a = tp(t, 1, 1), b = tp(t, 2, 1), c = tp(t, 2, 2);
	t_send(t, a, b, 100, 10, 1, 100);
	t_queued(t, b, a, 200, 1, 100, 1);
	t_send(t, a, b, 300, 20, 2, 3);
	t_queued(t, b, a, 400, 2, 3, 2);
	t_recv(t, b, a, 1400, 5, 1, 100);
	t_recv(t, b, a, 1500, 6, 2, 3);
	t_send(t, b, c, 1600, 30, 3, 0);
	t_recv(t, c, b, 1700, 40, 3, 0);
}

static void counts_match_hand_counts(void **state)
{
	(void)state;
	struct trace t;
	struct stats s;
	trace_init(&t, "hand");
	build(&t);
	assert_int_equal(stats_compute(&s, &t), 0);
	uint32_t a = tp(&t, 1, 1), b = tp(&t, 2, 1), c = tp(&t, 2, 2);
	assert_int_equal(s.total.sent, 3);
	assert_int_equal(s.total.sent_bytes, 103);
	assert_int_equal(s.total.recv, 3);
	assert_int_equal(s.total.local, 1);
	assert_int_equal(s.total.remote, 2);
	assert_int_equal(s.total.remote_bytes, 103);
	assert_int_equal(s.p[a].m.sent, 2);
	assert_int_equal(s.p[a].m.sent_bytes, 103);
	assert_int_equal(s.p[b].m.recv, 2);
	assert_int_equal(s.p[b].m.recv_bytes, 103);
	assert_int_equal(s.p[b].m.local, 1);
	assert_int_equal(s.p[c].m.recv, 1);
	/* CPU shares from the last PROCTIME: 20, 30, 40 of 90. */
	assert_int_equal(s.total_cpu, 90);
	assert_int_equal(s.p[b].cpu, 30);
	/* Sizes: 0, 3 (bucket 2..3), 100 (bucket 64..127). */
	assert_int_equal(s.total.size_hist[0], 1);
	assert_int_equal(s.total.size_hist[2], 1);
	assert_int_equal(s.total.size_hist[7], 1);
	assert_int_equal(s.p[a].m.size_hist[7], 1);
	/* Pairs: 1.1 -> 2.1 and 2.1 -> 2.2. */
	assert_int_equal(s.npairs, 2);
	assert_int_equal(s.pair[0].src, a);
	assert_int_equal(s.pair[0].dst, b);
	assert_int_equal(s.pair[0].m.sent, 2);
	assert_int_equal(s.pair[0].m.recv, 2);
	assert_int_equal(s.pair[1].m.sent, 1);
	assert_float_equal(stats_rate(&s, a, s.p[a].m.sent), 1e7, 1e-3);
	stats_free(&s);
	trace_free(&t);
}

static void queues_and_waits(void **state)
{
	(void)state;
	struct trace t;
	struct stats s;
	trace_init(&t, "hand");
	build(&t);
	assert_int_equal(stats_compute(&s, &t), 0);
	uint32_t b = tp(&t, 2, 1);
	/* Traced lengths 1, 2 at QUEUED; the RECEIVEs carry none, so the
	 * rebuilt 1, 0 are used: samples 1, 2, 1, 0. */
	assert_int_equal(s.p[b].q_max, 2);
	assert_int_equal(s.p[b].q_samples, 4);
	assert_int_equal(s.p[b].q_sum, 4);
	assert_true(s.queue_rebuilt);
	/* Waits: 1400-200 and 1500-400. */
	assert_int_equal(s.p[b].w.n, 2);
	assert_int_equal(s.p[b].w.min, 1100);
	assert_int_equal(s.p[b].w.max, 1200);
	assert_float_equal(s.p[b].w.sum, 2300, 1e-9);
	assert_int_equal(s.wait_hist[stats_bucket(1100)], 2);
	stats_free(&s);
	trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_are_powers_of_two),
		cmocka_unit_test(counts_match_hand_counts),
		cmocka_unit_test(queues_and_waits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * tests/unit/test_meter_batch.c - the meter's batching (meter/batch.c) on
 * the host, with a ship function that records each batch and answers what
 * the test says: a batch goes at its size; a backed-up path holds traces
 * until the buffer is full, then drops and counts them in one DROPPED
 * trace; a lost filter's batch is counted and told in the next batch;
 * a mark goes behind what is held.  Every drop must be accounted for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "meter/encode.h"
#include "test_meter_dest.h"

#define MACHINE 7

/* What the ship function answers, and what it has seen (decoded with the
 * shared decoder, kernel/abi/tracewire.c). */
static int32_t answer;
static int take_pages;          /* the ship function takes each page sent */
static int shipped;             /* batches that went (answer 0) */
static struct meter_batch_header last_hdr;
static uint32_t last_types[256], last_counts[256], last_seqs[256];
static uint32_t last_n;
static uint8_t *last_page;      /* the page of the last batch sent */
/* Pages of their own allocation each, so that AddressSanitizer (make
 * check-asan) sees any store past a page's end, the fast path's early
 * stores of a full page's included. */
#define PAGES (METER_DESTS + 8)
static uint8_t *pages[PAGES];
static int pages_given;

static void *page(void)
{
	if (pages_given == PAGES)
		return NULL;
	pages[pages_given] = malloc(MSG_MAX);
	return pages[pages_given++];
}

static int32_t ship(const struct link *to, uint8_t **pagep, uint32_t len)
{
	(void)to;
	if (answer != 0)
		return answer;
	const uint8_t *b = *pagep;
	memcpy(&last_hdr, b, sizeof last_hdr);
	assert_int_equal(last_hdr.version, METER_BATCH_COMPACT);
	assert_int_equal(len, sizeof last_hdr + last_hdr.bytes);
	static struct tw_decoder dec;
	assert_int_equal(tw_begin(&dec, b, len), 0);
	union tw_full r;
	int got;
	for (last_n = 0; (got = tw_next(&dec, &r)) == 1; last_n++) {
		assert_true(last_n < 256);
		last_types[last_n] = r.h.traceType;
		last_seqs[last_n] = r.h.seq;
		last_counts[last_n] = 0;
		if (r.h.traceType == TRACE_DROPPED)
			memcpy(&last_counts[last_n], r.bytes + TRACE_HEADER_SIZE, 4);
	}
	assert_int_equal(got, 0);
	assert_int_equal(last_n, last_hdr.count);
	last_page = *pagep;
	if (take_pages) { /* the batch leaves in its page: the meter gets another */
		uint8_t *fresh = page();
		assert_non_null(fresh);
		*pagep = fresh;
	}
	shipped++;
	return 0;
}

/* What encode.h reads of the kernel: the running process (none) and the
 * runnable count. */
struct proc *current;
uint32_t proc_runnable_count(void)
{
	return 1;
}
static const uint32_t one = 1;
const uint32_t *const proc_runnable = &one;

static struct proc traced = { .task = 0x10002 };
static struct meter_stamp header = { .time = 1000, .task = 0x10002, .load = 1, .ctx = &traced.meter_ctx };

static void put_sends(int d, uint32_t n)
{
	struct kmsg msg = { .from = traced.task, .to = 0x10003, .id = 1, .len = 64 };
	for (uint32_t i = 0; i < n; i++)
		enc_send(&traced, d, header.time, 4, &msg, -1);
}

static struct meter_stats stats_now(void)
{
	struct meter_stats s;
	batch_stats(&s);
	return s;
}

static int setup(void **state)
{
	(void)state;
	batch_init(MACHINE, ship, page);
	answer = 0;
	take_pages = 0;
	shipped = 0;
	return 0;
}

static void batch_goes_at_its_size(void **state)
{
	(void)state;
	int d = dest_for(1, 4);
	put_sends(d, 3);
	assert_int_equal(shipped, 0);
	put_sends(d, 1);
	assert_int_equal(shipped, 1);
	assert_int_equal(last_hdr.magic, METER_BATCH_MAGIC);
	assert_int_equal(last_hdr.machine, MACHINE);
	assert_int_equal(last_hdr.count, 4);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(last_types[i], TRACE_SEND);
	for (uint32_t i = 1; i < 4; i++)
		assert_int_equal(last_seqs[i], last_seqs[i - 1] + 1);
	assert_int_equal(stats_now().held, 0);
	batch_unuse(d);
}

static void full_buffer_drops_and_counts(void **state)
{
	(void)state;
	int d = dest_for(2, METER_BATCH_MAX);
	struct meter_stats before = stats_now();
	answer = E_QUEUEFULL;      /* the filter's queue is full */
	put_sends(d, 200);
	struct meter_stats mid = stats_now();
	uint32_t dropped = mid.dropped - before.dropped;
	assert_true(dropped > 0);  /* 200 traces cannot fit one page */
	assert_int_equal(mid.traces - before.traces, 200);
	/* held: the traces kept and the one DROPPED trace */
	assert_int_equal(mid.held - before.held, 200 - dropped + 1);
	assert_int_equal(shipped, 0);

	answer = 0;                /* the path clears */
	assert_int_equal(batch_ship(d), 0);
	assert_int_equal(shipped, 1);
	assert_int_equal(last_n, 200 - dropped + 1);
	for (uint32_t i = 0; i + 1 < last_n; i++)
		assert_int_equal(last_types[i], TRACE_SEND);
	assert_int_equal(last_types[last_n - 1], TRACE_DROPPED);
	assert_int_equal(last_counts[last_n - 1], dropped);
	assert_int_equal(stats_now().held, before.held);
	batch_unuse(d);
}

static void lost_filter_is_told_later(void **state)
{
	(void)state;
	int d = dest_for(3, 4);
	struct meter_stats before = stats_now();
	answer = E_DEAD;           /* the filter ended: its batch is lost */
	put_sends(d, 4);
	assert_int_equal(stats_now().dropped - before.dropped, 4);
	assert_int_equal(stats_now().held, before.held);

	answer = 0;
	put_sends(d, 1);
	assert_int_equal(batch_ship(d), 0);
	assert_int_equal(last_n, 2);
	assert_int_equal(last_types[0], TRACE_DROPPED);
	assert_int_equal(last_counts[0], 4);
	assert_int_equal(last_types[1], TRACE_SEND);
	batch_unuse(d);
}

static void lost_batch_with_drops_tells_them_all(void **state)
{
	(void)state;
	int d = dest_for(4, METER_BATCH_MAX);
	struct meter_stats before = stats_now();
	answer = E_QUEUEFULL;
	put_sends(d, 200);
	uint32_t dropped = stats_now().dropped - before.dropped;
	uint32_t kept = 200 - dropped;

	answer = E_NODEDOWN;       /* the held batch, DROPPED trace and all, is lost */
	assert_int_equal(batch_ship(d), E_NODEDOWN);
	assert_int_equal(stats_now().dropped - before.dropped, 200);

	answer = 0;
	put_sends(d, 1);
	assert_int_equal(batch_ship(d), 0);
	assert_int_equal(last_n, 2);
	assert_int_equal(last_types[0], TRACE_DROPPED);
	assert_int_equal(last_counts[0], dropped + kept);
	batch_unuse(d);
}

static void mark_goes_behind_held_traces(void **state)
{
	(void)state;
	int d = dest_for(5, 8);
	answer = E_QUEUEFULL;
	put_sends(d, 2);
	assert_int_equal(batch_mark(d, &header, 99), 0);   /* held, in order */
	assert_int_equal(shipped, 0);
	answer = 0;
	assert_int_equal(batch_ship(d), 0);
	assert_int_equal(last_n, 3);
	assert_int_equal(last_types[2], TRACE_MARK);
	answer = E_DEAD;
	assert_int_equal(batch_mark(d, &header, 100), E_DEAD);
	answer = 0;
	batch_unuse(d);
}

static void old_batches_go_on_the_tick(void **state)
{
	(void)state;
	int d = dest_for(6, 32);
	put_sends(d, 1);                       /* its time is header.time */
	batch_ship_older(header.time + 99, 100);
	assert_int_equal(shipped, 0);
	batch_ship_older(header.time + 100, 100);
	assert_int_equal(shipped, 1);
	assert_int_equal(last_n, 1);
	batch_unuse(d);
}

/* A full batch is handed on in its page, not copied: the ship function
 * gets the page the records were written in, keeps it, and the next
 * batch is written in the fresh page it gave back. */
static void batch_leaves_in_its_page(void **state)
{
	(void)state;
	int d = dest_for(7, 4);
	take_pages = 1;
	uint8_t *first = meter_dests[d].page;
	put_sends(d, 4);
	assert_int_equal(shipped, 1);
	assert_ptr_equal(last_page, first);
	assert_ptr_not_equal(meter_dests[d].page, first);
	uint8_t kept[MSG_MAX];
	memcpy(kept, first, sizeof kept);
	uint8_t *second = meter_dests[d].page;
	put_sends(d, 4);
	assert_int_equal(shipped, 2);
	assert_ptr_equal(last_page, second);
	assert_memory_equal(kept, first, sizeof kept); /* the first batch's page is the message's */
	batch_unuse(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(batch_goes_at_its_size, setup),
		cmocka_unit_test_setup(full_buffer_drops_and_counts, setup),
		cmocka_unit_test_setup(lost_filter_is_told_later, setup),
		cmocka_unit_test_setup(lost_batch_with_drops_tells_them_all, setup),
		cmocka_unit_test_setup(mark_goes_behind_held_traces, setup),
		cmocka_unit_test_setup(old_batches_go_on_the_tick, setup),
		cmocka_unit_test_setup(batch_leaves_in_its_page, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

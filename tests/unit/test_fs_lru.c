/*
 * tests/unit/test_fs_lru.c - the Buffer Manager's replacement policy
 * (servers/fs/lru.c): a miss evicts the least recently used block, not
 * the oldest filled one (FIFO) nor any other, checked by hand on a full
 * cache and against a reference LRU list over a long random run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "servers/fs/lru.h"

static struct lru c;

/* Whether some buffer holds `block`, without counting it as a use. */
static int holds(uint32_t block)
{
	for (int i = 0; i < LRU_NBUF; i++)
		if (c.buf[i].block == block)
			return 1;
	return 0;
}

/* What bm.c does for a request of `block`: 1 on a hit; a miss fills the
 * buffer it is given. */
static int use(uint32_t block)
{
	int slot;
	if (lru_lookup(&c, block, &slot))
		return 1;
	lru_fill(&c, slot, block);
	return 0;
}

static void test_a_miss_evicts_the_least_recently_used(void **state)
{
	(void)state;
	lru_init(&c);
	for (uint32_t b = 0; b < LRU_NBUF; b++)
		assert_int_equal(use(b), 0); /* the empty buffers are filled first */
	for (uint32_t b = 0; b < LRU_NBUF; b++)
		assert_true(holds(b));
	assert_int_equal(use(0), 1); /* block 0 is now the most recently used */
	int slot, slot_of_1 = -1;
	for (int i = 0; i < LRU_NBUF; i++)
		if (c.buf[i].block == 1)
			slot_of_1 = i;
	assert_int_equal(lru_lookup(&c, 64, &slot), 0);
	assert_int_equal(slot, slot_of_1); /* block 1's buffer: the oldest use, not the oldest fill */
	lru_fill(&c, slot, 64);
	assert_false(holds(1));
	assert_true(holds(0));
	assert_true(holds(64));
	/* the next misses take 2, then 3: each the least recently used left */
	assert_int_equal(use(65), 0);
	assert_false(holds(2));
	assert_int_equal(use(3), 1);
	assert_int_equal(use(66), 0);
	assert_true(holds(3));
	assert_false(holds(4));
	assert_int_equal(c.hits, 2);
	assert_int_equal(c.misses, 64 + 3);
}

static void test_a_forgotten_buffer_is_taken_first(void **state)
{
	(void)state;
	lru_init(&c);
	for (uint32_t b = 100; b < 100 + LRU_NBUF; b++)
		use(b);
	int slot, forgotten = -1;
	assert_int_equal(lru_lookup(&c, 140, &forgotten), 1);
	lru_forget(&c, forgotten); /* e.g. a failed write-through */
	assert_false(holds(140));
	assert_int_equal(use(140), 0); /* no longer a hit */
	assert_int_equal(lru_lookup(&c, 140, &slot), 1);
	assert_int_equal(slot, forgotten); /* it went back to the buffer that held nothing */
	assert_true(holds(100));     /* and the least recently used block stayed */
}

/* A reference LRU: blocks in order of use, most recent last. */
static uint32_t order[LRU_NBUF];
static int norder;

static uint32_t reference_use(uint32_t block, int *hit)
{
	uint32_t evicted = LRU_NO_BLOCK;
	int at = -1;
	for (int i = 0; i < norder; i++)
		if (order[i] == block)
			at = i;
	*hit = at >= 0;
	if (at < 0 && norder == LRU_NBUF) {
		evicted = order[0];
		at = 0;
	} else if (at < 0) {
		at = norder++;
	}
	for (int i = at; i < norder - 1; i++)
		order[i] = order[i + 1];
	order[norder - 1] = block;
	return evicted;
}

static void test_long_random_run_matches_a_reference_lru(void **state)
{
	(void)state;
	lru_init(&c);
	norder = 0;
	uint32_t x = 12345, hits = 0;
	for (int step = 0; step < 200000; step++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		/* three times in four one of 60 blocks, else one of 100 others */
		uint32_t r = x >> 4, block = r % 4 ? r / 4 % 60 : 1000 + r / 4 % 100;
		int hit;
		uint32_t evicted = reference_use(block, &hit);
		if (use(block) != hit)
			fail_msg("step %d: block %u: %s in the cache, %s in the reference", step, block,
				 hit ? "missed" : "hit", hit ? "hit" : "missed");
		if (evicted != LRU_NO_BLOCK && holds(evicted))
			fail_msg("step %d: block %u should have been evicted for %u", step, evicted, block);
		hits += (uint32_t)hit;
	}
	for (int i = 0; i < norder; i++)
		assert_true(holds(order[i]));
	assert_int_equal(c.hits, hits);
	assert_int_equal(c.misses, 200000 - hits);
	if (hits < 100000 || c.misses < 10000) /* both paths were taken often */
		fail_msg("%u hits, %u misses", hits, c.misses);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_miss_evicts_the_least_recently_used),
		cmocka_unit_test(test_a_forgotten_buffer_is_taken_first),
		cmocka_unit_test(test_long_random_run_matches_a_reference_lru),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * tests/unit/test_net_frame.c - the peer protocol's framing and the send
 * ring on the host: frames survive being cut at every byte boundary, bad
 * headers are refused, a full ring refuses a write whole, wrap-around
 * keeps the byte order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "kernel/net/frame.h"
#include "kernel/net/ring.h"

struct seen {
	uint32_t count;
	uint32_t types[16];
	uint32_t lens[16];
	uint8_t first_bytes[16];
	int stop_after;
};

static int record(void *ctx, uint32_t type, const uint8_t *payload, uint32_t len)
{
	struct seen *s = ctx;
	s->types[s->count] = type;
	s->lens[s->count] = len;
	s->first_bytes[s->count] = len ? payload[0] : 0;
	s->count++;
	return s->stop_after && s->count == (uint32_t)s->stop_after;
}

static struct frame_rx rx;

/* HELLO, HEARTBEAT, DATA(300 bytes of i*7) back to back. */
static uint32_t build_stream(uint8_t *out)
{
	uint32_t n = 0;
	frame_header_encode(out + n, FRAME_HELLO, 8);
	frame_put32(out + n + 4, FRAME_HELLO_MAGIC);
	frame_put32(out + n + 8, 3);
	n += 12;
	frame_header_encode(out + n, FRAME_HEARTBEAT, 0);
	n += 4;
	frame_header_encode(out + n, FRAME_DATA, 300);
	n += 4;
	for (uint32_t i = 0; i < 300; i++)
		out[n + i] = (uint8_t)(i * 7 + 1);
	return n + 300;
}

static void frames_come_out_whole_however_the_stream_is_cut(void **state)
{
	(void)state;
	uint8_t stream[400];
	uint32_t len = build_stream(stream);
	for (uint32_t cut = 1; cut <= len; cut++) {
		struct seen s = { 0 };
		frame_rx_reset(&rx);
		for (uint32_t at = 0; at < len; at += cut) {
			uint32_t n = len - at < cut ? len - at : cut;
			assert_int_equal(frame_rx_feed(&rx, stream + at, n, record, &s), 0);
		}
		assert_int_equal(s.count, 3);
		assert_int_equal(s.types[0], FRAME_HELLO);
		assert_int_equal(s.lens[0], 8);
		assert_int_equal(s.types[1], FRAME_HEARTBEAT);
		assert_int_equal(s.lens[1], 0);
		assert_int_equal(s.types[2], FRAME_DATA);
		assert_int_equal(s.lens[2], 300);
		assert_int_equal(s.first_bytes[2], 1);
		assert_memory_equal(rx.payload, stream + 20, 300);
	}
}

static void largest_frame_accepted_one_more_byte_refused(void **state)
{
	(void)state;
	uint8_t h[4];
	struct seen s = { 0 };
	frame_rx_reset(&rx);
	frame_header_encode(h, FRAME_DATA, FRAME_PAYLOAD_MAX);
	assert_int_equal(frame_rx_feed(&rx, h, 4, record, &s), 0);
	static uint8_t big[FRAME_PAYLOAD_MAX];
	memset(big, 0xab, sizeof big);
	assert_int_equal(frame_rx_feed(&rx, big, sizeof big, record, &s), 0);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.lens[0], FRAME_PAYLOAD_MAX);
	frame_header_encode(h, FRAME_DATA, FRAME_PAYLOAD_MAX + 1);
	assert_int_equal(frame_rx_feed(&rx, h, 4, record, &s), -1);
}

static void bad_headers_are_refused(void **state)
{
	(void)state;
	uint8_t h[4];
	struct seen s = { 0 };
	frame_rx_reset(&rx);
	frame_header_encode(h, 9, 0);             /* unknown type */
	assert_int_equal(frame_rx_feed(&rx, h, 4, record, &s), -1);
	frame_rx_reset(&rx);
	frame_header_encode(h, FRAME_HEARTBEAT, 1); /* heartbeats are empty */
	assert_int_equal(frame_rx_feed(&rx, h, 4, record, &s), -1);
	frame_rx_reset(&rx);
	frame_header_encode(h, FRAME_HELLO, 4);   /* hello is 8 bytes */
	assert_int_equal(frame_rx_feed(&rx, h, 4, record, &s), -1);
	assert_int_equal(s.count, 0);
}

static void handler_can_stop_the_decoder(void **state)
{
	(void)state;
	uint8_t stream[400];
	uint32_t len = build_stream(stream);
	struct seen s = { .stop_after = 1 };
	frame_rx_reset(&rx);
	assert_int_equal(frame_rx_feed(&rx, stream, len, record, &s), 1);
	assert_int_equal(s.count, 1);
}

static void ring_refuses_what_does_not_fit_whole(void **state)
{
	(void)state;
	uint8_t mem[10];
	struct ring r;
	ring_init(&r, mem, sizeof mem);
	assert_int_equal(ring_put(&r, "abcdefg", 7), 0);
	assert_int_equal(ring_space(&r), 3);
	assert_int_equal(ring_put(&r, "wxyz", 4), -1);
	assert_int_equal(ring_space(&r), 3);     /* nothing of it written */
	assert_int_equal(ring_put(&r, "xyz", 3), 0);
	assert_int_equal(ring_space(&r), 0);
}

static void ring_keeps_order_across_the_wrap(void **state)
{
	(void)state;
	uint8_t mem[8], out[16];
	struct ring r;
	uint32_t n, got = 0;
	ring_init(&r, mem, sizeof mem);
	assert_int_equal(ring_put(&r, "012345", 6), 0);
	ring_consume(&r, 5);
	assert_int_equal(ring_put(&r, "6789abc", 7), 0);   /* wraps */
	while (r.len) {
		const uint8_t *p = ring_peek(&r, &n);
		assert_true(n > 0);
		memcpy(out + got, p, n);
		got += n;
		ring_consume(&r, n);
	}
	assert_int_equal(got, 8);
	assert_memory_equal(out, "56789abc", 8);
	ring_clear(&r);
	assert_int_equal(ring_space(&r), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames_come_out_whole_however_the_stream_is_cut),
		cmocka_unit_test(largest_frame_accepted_one_more_byte_refused),
		cmocka_unit_test(bad_headers_are_refused),
		cmocka_unit_test(handler_can_stop_the_decoder),
		cmocka_unit_test(ring_refuses_what_does_not_fit_whole),
		cmocka_unit_test(ring_keeps_order_across_the_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

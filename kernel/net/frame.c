/*
 * kernel/net/frame.c - encoding and incremental decoding of peer frames.
 */
#include "frame.h"

#include <string.h>

void frame_header_encode(uint8_t out[FRAME_HDR_BYTES], uint32_t type, uint32_t len)
{
	frame_put32(out, type << 24 | (len & 0xffffffu));
}

void frame_rx_reset(struct frame_rx *rx)
{
	rx->have = 0;
}

static int header_valid(uint32_t type, uint32_t len)
{
	switch (type) {
	case FRAME_HELLO: return len == 8;
	case FRAME_HEARTBEAT: return len == 0;
	case FRAME_DATA: return len <= FRAME_PAYLOAD_MAX;
	case FRAME_VTIME: return len <= FRAME_VTIME_MAX;
	default: return 0;
	}
}

int frame_rx_feed(struct frame_rx *rx, const uint8_t *p, uint32_t n, frame_handler h, void *ctx)
{
	while (n > 0) {
		if (rx->have < FRAME_HDR_BYTES) {
			rx->hdr[rx->have++] = *p++;
			n--;
			if (rx->have < FRAME_HDR_BYTES)
				continue;
			uint32_t w = frame_get32(rx->hdr);
			rx->type = w >> 24;
			rx->len = w & 0xffffffu;
			if (!header_valid(rx->type, rx->len))
				return -1;
		} else {
			uint32_t want = FRAME_HDR_BYTES + rx->len - rx->have;
			uint32_t take = n < want ? n : want;
			memcpy(rx->payload + (rx->have - FRAME_HDR_BYTES), p, take);
			rx->have += take;
			p += take;
			n -= take;
		}
		if (rx->have == FRAME_HDR_BYTES + rx->len) {
			rx->have = 0;
			if (h(ctx, rx->type, rx->payload, rx->len))
				return 1;
		}
	}
	return 0;
}

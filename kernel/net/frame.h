/*
 * kernel/net/frame.h - the peer protocol's framing (docs/network.md): a
 * 4-byte big-endian header, type in the top 8 bits and payload length in
 * the low 24, then the payload.  The decoder takes a TCP byte stream in
 * pieces of any size and hands out whole frames.  Pure, host-tested.
 */
#ifndef DPM_FRAME_H
#define DPM_FRAME_H
#include <stdint.h>

#define FRAME_HDR_BYTES 4
#define FRAME_PAYLOAD_MAX (8192 + 256 + FRAME_STAMP_MAX) /* 8 KiB data + header + stamp */
#define FRAME_STAMP_MAX 32             /* virtual time's prefix of a data frame */
#define FRAME_VTIME_MAX 256            /* a time report                         */

enum frame_type {
	FRAME_HELLO = 1,      /* u32 magic, u32 node id; first frame each way */
	FRAME_HEARTBEAT = 2,  /* empty; every second each way                 */
	FRAME_DATA = 3,       /* one peer_send: its hdr then its data         */
	FRAME_VTIME = 4,      /* virtual time: a node's report (vsync.h)      */
};

#define FRAME_HELLO_MAGIC 0x44504d31u  /* "DPM1" */

void frame_header_encode(uint8_t out[FRAME_HDR_BYTES], uint32_t type, uint32_t len);

struct frame_rx {
	uint8_t hdr[FRAME_HDR_BYTES];
	uint32_t have;        /* bytes of the current frame seen (header included) */
	uint32_t type, len;
	uint8_t payload[FRAME_PAYLOAD_MAX];
};

/* Called for each complete frame; a non-zero return stops the decoder. */
typedef int (*frame_handler)(void *ctx, uint32_t type, const uint8_t *payload, uint32_t len);

void frame_rx_reset(struct frame_rx *rx);
/* Feed n bytes: 0 all consumed, 1 the handler asked to stop, -1 a header
 * that is not a valid frame (unknown type or too long). */
int frame_rx_feed(struct frame_rx *rx, const uint8_t *p, uint32_t n, frame_handler h, void *ctx);

static inline uint32_t frame_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void frame_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
#endif

/*
 * kernel/net/stream.h - one TCP connection with a bounded send ring, the
 * piece the peer transport and the host links share.  Bytes are queued in
 * the ring by the owner and moved into lwIP as its send buffer allows
 * (now, and again each time the other side acknowledges).  Received bytes
 * and the end of the connection are reported to the owner through ops.
 * Runs on the network stack (net_run) only.
 */
#ifndef DPM_STREAM_H
#define DPM_STREAM_H
#include <stdint.h>
#include "ring.h"

struct tcp_pcb;

struct stream_ops {
	void (*connected)(void *owner);                 /* outgoing connect done */
	/* Received bytes; non-zero: the owner dropped the stream meanwhile. */
	int (*data)(void *owner, const uint8_t *p, uint32_t n);
	void (*lost)(void *owner, const char *why);     /* reset, closed, failed */
};

struct stream {
	struct tcp_pcb *pcb;          /* NULL: no connection                  */
	int established;
	struct ring tx;
	const struct stream_ops *ops;
	void *owner;
	int manual_window;            /* received bytes are acknowledged to
	                                 TCP only by stream_recved(), so the
	                                 other side stays at most a window
	                                 (TCP_WND) ahead of the owner */
	int ack_now;                  /* acknowledge every segment at once
	                                 (no delayed ACK) */
	int finished;                 /* our end said (FIN): stream_finish */
};

void stream_init(struct stream *s, uint8_t *ring_buf, uint32_t ring_size,
		 const struct stream_ops *ops, void *owner);
/* Start connecting (ips in network byte order); -1 when lwIP refuses. */
int stream_connect(struct stream *s, uint32_t local_ip, uint32_t ip, uint16_t port);
/* Take over a connection a listener accepted. */
void stream_adopt(struct stream *s, struct tcp_pcb *pcb);
/* Move queued bytes into TCP as far as it takes them. */
void stream_flush(struct stream *s);
/* Write n bytes ahead of the ring (HELLO); -1 when TCP has no room. */
int stream_write_direct(struct stream *s, const void *p, uint32_t n);
/* The owner has taken n received bytes (manual_window streams). */
void stream_recved(struct stream *s, uint32_t n);
/* Abort the connection without calling the owner back. */
void stream_drop(struct stream *s);
/* Everything queued has left the ring and been acknowledged. */
int stream_drained(const struct stream *s);
/* On the network's stack: say our end (a FIN after every byte queued),
 * once every byte has gone to lwIP.  1 when said (or nothing to say it
 * on), 0 not yet: call again. */
int stream_finish(struct stream *s);
#endif

/*
 * qemu/control/ctl_wire.h - the control protocol's frames (kernel/abi/control.h)
 * over a non-blocking socket on the host: what the control hub and the
 * controllers share.  A ctl_wire gathers received bytes into whole frames
 * and queues outgoing frames, so neither end ever blocks on the other.
 */
#ifndef DPM_CTL_WIRE_H
#define DPM_CTL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/abi/control.h"

struct ctl_wire {
	int fd;
	uint8_t *rx;
	size_t rx_len, rx_cap;
	size_t rx_taken;       /* bytes of the frame handed out last */
	uint8_t *tx;
	size_t tx_len, tx_cap;
	size_t tx_limit;       /* queue no more than this (0: no limit) */
};

/* Take over fd (made non-blocking).  0, or -1 out of memory. */
int ctl_wire_init(struct ctl_wire *w, int fd, size_t tx_limit);
/* Close the socket and free the buffers. */
void ctl_wire_close(struct ctl_wire *w);

/* Read what the socket has.  1 read something, 0 nothing there yet, -1
 * the other end closed or the read failed. */
int ctl_wire_read(struct ctl_wire *w);
/* The next whole frame received: 1 and *f with payload (valid until the
 * next call), 0 none yet, -1 malformed (bad magic or length): the stream
 * cannot be trusted any more. */
int ctl_wire_next(struct ctl_wire *w, struct ctl_frame *f, const uint8_t **payload);

/* Bytes outside the frames (node authentication, kernel/abi/hostauth.h):
 * take the first n bytes received into buf (1; 0 not that many yet), or
 * queue n bytes to send (0, or -1 as ctl_wire_send). */
int ctl_wire_take_raw(struct ctl_wire *w, void *buf, size_t n);
int ctl_wire_send_raw(struct ctl_wire *w, const void *data, size_t n);

/* Queue a frame (f->len payload bytes).  0, or -1 when the queue would
 * pass its limit, memory is short, or f->len is set without a payload. */
int ctl_wire_send(struct ctl_wire *w, const struct ctl_frame *f, const void *payload);
/* Write what is queued as far as the socket takes it.  0, or -1 when the
 * connection failed. */
int ctl_wire_flush(struct ctl_wire *w);
/* Bytes still queued. */
size_t ctl_wire_pending(const struct ctl_wire *w);

/* Virtual time's envelopes (kernel/abi/control.h), on a timed agent's
 * connection.  The next whole envelope received: 1 and *e with payload
 * (e->len bytes, valid until the next call), 0 none yet, -1 malformed. */
int ctl_wire_next_envelope(struct ctl_wire *w, struct ctl_envelope *e, const uint8_t **payload);
/* Queue an envelope of kind at time carrying frame f (NULL: none).  0 or -1
 * as ctl_wire_send. */
int ctl_wire_send_envelope(struct ctl_wire *w, uint32_t kind, uint64_t time,
			   const struct ctl_frame *f, const void *payload);
/* Add bytes to what was received, as if read (a wire with no socket that
 * gathers the frames carried in envelopes).  0, or -1 out of memory. */
int ctl_wire_feed(struct ctl_wire *w, const void *data, size_t n);

/* A frame with the magic set. */
struct ctl_frame ctl_frame_make(uint32_t type, uint32_t id, uint32_t node, uint32_t task);

#endif

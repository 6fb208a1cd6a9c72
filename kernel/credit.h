/*
 * kernel/credit.h - flow control of asynchronous remote SENDs in virtual
 * time (docs/virtual-time.md §2.5, docs/remote.md): counts only, no kernel
 * state, so it is tested on the host (tests/unit/test_kernel_credit.c).
 *
 * Each node grants every peer `grant` messages: that many of its message
 * headers are held back for the peer's messages (msgqueue.c's reserve), so
 * a credited message always finds one.  The sender's side counts what it
 * sent and the "consumed up to n" count it last heard from the receiver;
 * sent - heard is in flight, and a SEND with `grant` in flight waits.  The
 * receiver's side counts what arrived, what was consumed (its header given
 * back: received, or discarded), and the consumed count it last told the
 * peer.  Every count is a 32-bit counter compared by difference, so it
 * may wrap.
 */
#ifndef DPM_CREDIT_H
#define DPM_CREDIT_H
#include <stdint.h>

#define CREDIT_MAX_PEERS 8   /* as NET_MAX_PEERS */

struct credit_peer {
	uint32_t node;
	uint32_t sent;      /* credited messages sent to it                  */
	uint32_t heard;     /* its latest "consumed up to" count             */
	uint32_t arrived;   /* credited messages from it taken in            */
	uint32_t consumed;  /* ... of which given back                       */
	uint32_t told;      /* the consumed count last sent to it            */
};

struct credits {
	uint32_t grant;
	uint32_t npeers;
	struct credit_peer peers[CREDIT_MAX_PEERS];
};

/* peers[] may list self (left out).  0, or -1: too many peers, grant 0. */
int credit_init(struct credits *c, uint32_t self, const uint32_t *peers, uint32_t npeers,
		uint32_t grant);
/* The sender's side.  Whether a message to `node` may go now (1) or must
 * wait for credit (0); -1 for a node that is not a peer. */
int credit_may_send(const struct credits *c, uint32_t node);
/* One message to `node` leaves: 0, or -1 (no credit left, not a peer). */
int credit_sent(struct credits *c, uint32_t node);
/* `node` says it has consumed `consumed` of our messages: the credits this
 * gives back (0 or more), or -1 when the count cannot be true (more than
 * was sent, or lower than before); a refused count changes nothing. */
int credit_heard(struct credits *c, uint32_t node, uint32_t consumed);
/* The receiver's side.  A credited message from `node` is taken in: 0, or
 * -1 when `node` has more than its grant in flight (it broke the protocol)
 * or is not a peer; refused, it is not counted. */
int credit_arrived(struct credits *c, uint32_t node);
/* A credited message from `node` gave its header back: 0, or -1 (none of
 * its messages is held). */
int credit_consumed(struct credits *c, uint32_t node);
/* The count to send `node` in the next frame, now told. */
uint32_t credit_tell(struct credits *c, uint32_t node);
/* Whether `node` should be told now: at least `threshold` consumed since
 * it was last told (threshold 0: any at all). */
int credit_due(const struct credits *c, uint32_t node, uint32_t threshold);
#endif

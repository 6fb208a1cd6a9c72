/*
 * kernel/net/peer.h - the kernel-to-kernel transport (docs/network.md):
 * reliable, ordered, framed messages between the kernels of the cluster,
 * one TCP connection per pair of nodes.  This is the whole API the remote
 * IPC layer builds on.
 *
 * Nodes and states.  The peers are the node ids of the `peers=` key, this
 * node excepted.  Each is CONNECTING from boot until the first connection
 * to it is made (frames sent meanwhile are queued), then UP, and DOWN once
 * its connection fails, it stays silent for `peertimeout` ms (default
 * 3000; every node sends a heartbeat each second; in virtual time silence
 * is judged in host time instead, kernel/net/vwatch.c), or it does not come up
 * within `peerwait` ms of boot (default 20000).  Going DOWN discards what
 * was queued for it and calls the node_down upcall exactly once.  A DOWN
 * node that reconnects (it was restarted) becomes UP again: it is a new
 * incarnation, none of its earlier processes exist; node_down is called
 * again should it fail again.  A node that restarts while still UP here is
 * seen DOWN (one node_down) and then UP.
 *
 * Context.  peer_send() may be called from any kernel code (kernel calls,
 * the callbacks below).  The callbacks run on the network stack from an
 * interrupt or the timer (interrupts off, never inside other kernel code);
 * they must not block.
 */
#ifndef DPM_PEER_H
#define DPM_PEER_H
#include <stdint.h>

#include "kernel/capacities.h" /* PEER_SNDBUF: bytes queued per peer */

#define PEER_FRAME_MAX (8192 + 256) /* hdr_len + data_len of one frame      */

enum peer_state {
	PEER_DOWN = 0,       /* dead, or not a peer: peer_send gives E_NODEDOWN */
	PEER_CONNECTING = 1, /* not yet connected since boot: frames are queued */
	PEER_UP = 2,
};

/* Queue one frame, hdr followed by data, for `node`.  Returns
 *   0           queued; it will be delivered in order unless the node goes down
 *   E_NODEDOWN  the node is DOWN, is not in peers=, or is this node
 *   E_NOMEM     the send buffer for that node is full (backpressure: the
 *               caller retries later or gives up; nothing was queued)
 *   E_TOOBIG    hdr_len + data_len > PEER_FRAME_MAX */
int peer_send(uint32_t node, const void *hdr, uint32_t hdr_len, const void *data, uint32_t data_len);
/* enum peer_state of `node` (PEER_DOWN for a node that is not a peer). */
int peer_state(uint32_t node);
/* 1 when everything queued for `node` has been acknowledged by it. */
int peer_drained(uint32_t node);
/* Bytes that can still be queued for `node` (0 when it is DOWN). */
uint32_t peer_send_space(uint32_t node);
/* How many times bytes came from `node` (any frame, heartbeats included):
 * a count that changes when the node is heard. */
uint32_t peer_heard(uint32_t node);
/* `node` (UP) is DOWN from now on, for `why`: the failure path of a
 * connection lost (queued frames discarded, node_down called).  Virtual
 * time's host-time failure detection (kernel/net/vwatch.c). */
void peer_declare_down(uint32_t node, const char *why);

/* The transport's two upcalls: a frame from `from_node` (valid only
 * during the call), and a node gone DOWN.  The remote IPC layer (kernel/
 * remote.c) gives its own at boot, so this layer names nothing above it;
 * the self-test replaces them.  NULL (and before any are given): the frame
 * or the node's end is only printed. */
void peer_set_upcalls(void (*deliver)(uint32_t, const uint8_t *, uint32_t), void (*down)(uint32_t));
/* A layer sitting in between (kernel/net/vlink.c): the deliver upcall
 * becomes `deliver`; the one it replaces is returned, to pass frames on. */
void (*peer_interpose(void (*deliver)(uint32_t, const uint8_t *, uint32_t)))(uint32_t, const uint8_t *, uint32_t);

/* Virtual time (kernel/net/vlink.c): stamp(node, len, out) writes
 * `stamp_len` bytes that go before every data frame to `node` (len: the
 * frame's bytes without them), made when the frame is queued, so the
 * deliver upcall then sees them first; report(node, p, len) gets a
 * FRAME_VTIME.  peer_send_vtime queues one (0, E_NODEDOWN, E_NOMEM). */
void peer_set_vtime(uint32_t stamp_len, void (*stamp)(uint32_t, uint32_t, uint8_t *),
		    void (*report)(uint32_t, const uint8_t *, uint32_t));
int peer_send_vtime(uint32_t node, const uint8_t *p, uint32_t len);
#endif

/*
 * kernel/net/vsync.h - one node's state in the cluster's conservative
 * (Chandy-Misra-Bryant) time synchronisation, docs/virtual-time.md §2.3-2.4:
 * the network model that turns a frame's send time and size into its
 * delivery time, what each peer has promised (its earliest output time,
 * EOT), the horizon this node may not run past, the promise this node makes
 * in turn, and the idle-cycle rule that lets a cluster with nothing to do
 * jump to its next event.  Pure arithmetic on virtual nanoseconds, no
 * kernel or lwIP state, so it is tested on the host; the wire layouts of
 * the time report (FRAME_VTIME) and of a data frame's stamp live here too.
 */
#ifndef DPM_VSYNC_H
#define DPM_VSYNC_H
#include <stdint.h>

#define VSYNC_MAX_PEERS 8          /* as NET_MAX_PEERS                    */
#define VSYNC_MAX_NODES (VSYNC_MAX_PEERS + 1)
#define VSYNC_NEVER UINT64_MAX     /* no event / no bound                 */
#define VSYNC_MIN_FRAME 64         /* bytes of the least Ethernet frame   */

/* The network and transport model of one cluster (cluster-file attributes). */
struct vnet_model {
	uint64_t latency_ns;        /* one way, wire and switch             */
	uint64_t bandwidth_bps;     /* bits per second, > 0                 */
	uint64_t tx_fixed_ns;       /* sending kernel's path per frame      */
	uint64_t tx_per_kbyte_ns;   /* ... and per 1000 bytes               */
	uint64_t rx_fixed_ns;       /* receiving kernel's path per frame    */
	uint64_t rx_per_kbyte_ns;
};

/* Time on the wire of a frame of `bytes` bytes, rounded up to a ns. */
uint64_t vnet_wire_ns(const struct vnet_model *m, uint32_t bytes);
/* The least time from a send to its delivery: the lookahead L. */
uint64_t vnet_lookahead(const struct vnet_model *m);

/* What a FRAME_VTIME carries: a node's promise and its idle state, with its
 * counts of data frames sent to and received from each node. */
struct vsync_report {
	uint32_t node;
	uint32_t idle;              /* nothing runnable, nothing queued     */
	uint64_t eot;               /* no frame of mine delivered before    */
	uint64_t next_event;        /* my next local event, or VSYNC_NEVER  */
	uint32_t n;                 /* entries below                        */
	uint32_t ids[VSYNC_MAX_NODES];
	uint32_t sent[VSYNC_MAX_NODES];
	uint32_t received[VSYNC_MAX_NODES];
};

#define VSYNC_REPORT_FIXED 28u
#define VSYNC_REPORT_MAX (VSYNC_REPORT_FIXED + 12u * VSYNC_MAX_NODES)
#define VSYNC_STAMP_BYTES 16u     /* a data frame's prefix: delivery, EOT */
#define VSYNC_WIRE_BYTES 58u      /* Ethernet (with FCS), IPv4, TCP headers */

struct vsync_peer {
	uint32_t node;
	uint64_t eot;               /* the largest promise heard            */
	uint64_t last_delivery;     /* the latest data frame's delivery     */
	uint64_t last_out;          /* the latest delivery of ours to it    */
	uint32_t sent, received;    /* data frames to / from it             */
	int have_report;
	struct vsync_report report; /* its latest report                    */
	int gone;                   /* declared DOWN (vsync_peer_gone)      */
};

struct vsync {
	struct vnet_model model;
	uint64_t lookahead;
	uint32_t self;
	uint32_t npeers;
	struct vsync_peer peers[VSYNC_MAX_PEERS];
	uint64_t tx_free;           /* this node's link is busy until       */
	int promises_only;          /* bounds are the promises alone        */
	uint64_t floor;             /* the highest horizon known (held)     */
};

/* peers[] may list self; it is left out.  0, or -1 (too many peers, a
 * bandwidth of 0). */
int vsync_init(struct vsync *v, uint32_t self, const uint32_t *peers, uint32_t npeers,
	       const struct vnet_model *m);

/* A data frame of `bytes` bytes leaves for `to` at virtual time `now`:
 * its delivery time (the sender's link serialises its frames, and one
 * sender's frames to one peer are delivered in order).  Counts it.
 * VSYNC_NEVER for an unknown peer. */
uint64_t vsync_send(struct vsync *v, uint32_t to, uint64_t now, uint32_t bytes);

/* A data frame from `from` stamped (delivery, eot): 0, or -1 when it breaks
 * the protocol (unknown peer, delivered before a promise or an earlier
 * frame of the same sender). */
int vsync_heard_data(struct vsync *v, uint32_t from, uint64_t delivery, uint64_t eot);
/* A report: 0, or -1 (unknown node, a promise going backwards). */
int vsync_heard_report(struct vsync *v, const struct vsync_report *r);
/* `node` is DOWN: it leaves the horizon (it promises nothing more, as if
 * for ever) and the idle rule (its counts and reports no longer matter);
 * what it says afterwards is refused.  0, 1 when it was gone already, -1
 * for an unknown node. */
int vsync_peer_gone(struct vsync *v, uint32_t node);

/* T*: when this node is idle with next event `self_next` and every peer's
 * latest report is idle with counts that match pairwise (no frame in
 * flight anywhere), the least next event of all; else VSYNC_NEVER. */
uint64_t vsync_idle_until(const struct vsync *v, int self_idle, uint64_t self_next);
/* Each peer's bound into out[i] (for peers[i]): no frame of it can be
 * delivered before, by its promise and, when its latest report is idle
 * with nothing in flight to it, by its next event and the others' bounds
 * (promises_only: the promise alone); the return is this node's own bound
 * on the same terms. */
uint64_t vsync_bounds(const struct vsync *v, int self_idle, uint64_t self_next, uint64_t *out);
/* The peers that hold this node at t, as a flag each into held[]: a bound
 * that does not pass t; for an idle peer with nothing in flight to it,
 * only when its own next event (or this node's frames) is what keeps it
 * there, not the other peers' bounds it follows (those hold the node
 * themselves, its fresh report could say no more, and the least bound is
 * always its peer's own, L being positive).  Returns how many. */
uint32_t vsync_holding(const struct vsync *v, int self_idle, uint64_t self_next, uint64_t t,
		       int *held);
/* The horizon: no frame can be delivered to this node before it (the
 * least bound). */
uint64_t vsync_horizon(const struct vsync *v, int self_idle, uint64_t self_next);
/* The horizon the node runs by (vlink): vsync_horizon, never lower than
 * before, and no further than `grant` (the hub's: input may come there).
 * A bound once known stays true only while what it assumed of this node
 * holds: idle, it assumed no frame of this node before its next event, so
 * the next event is taken as no later than the grant, at which the hub
 * may hand the node input that makes it send (an idle node's horizon
 * worked out on its next local event, past the grant, let it run past a
 * peer's reply to what the input made it send, under a loaded host where
 * the grant came late). */
uint64_t vsync_horizon_held(struct vsync *v, int self_idle, uint64_t self_next, uint64_t grant);
/* This node's report at `now`; `next_event` is `now` while a process is
 * runnable, else the next alarm or queued delivery (VSYNC_NEVER: none). */
void vsync_report_make(const struct vsync *v, uint64_t now, int idle, uint64_t next_event,
		       struct vsync_report *r);

/* Wire layouts, little-endian.  Encode returns the bytes written (the
 * buffer holds VSYNC_REPORT_MAX); decode returns 0 or -1 (short, or more
 * nodes than fit). */
uint32_t vsync_report_encode(const struct vsync_report *r, uint8_t *out);
int vsync_report_decode(const uint8_t *p, uint32_t len, struct vsync_report *r);
void vsync_stamp_encode(uint8_t out[VSYNC_STAMP_BYTES], uint64_t delivery, uint64_t eot);
void vsync_stamp_decode(const uint8_t in[VSYNC_STAMP_BYTES], uint64_t *delivery, uint64_t *eot);
#endif

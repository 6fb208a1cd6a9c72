/*
 * kernel/net/vlink.c - the synchronisation of vlink.h, on the pure core of
 * vsync.c (delivery times, promises, horizon, idle rule) and vqueue.c (the
 * delivery order).
 *
 * Sending: peer_send calls stamp() as a data frame is queued; its stamp is
 * the frame's delivery time (the network model of vtime_config.net) and
 * this node's promise (now + the lookahead: anything it sends later is
 * delivered no sooner).  Receiving: a data frame is copied into a slot of
 * the delivery queue; a FRAME_VTIME report moves the sender's promise on.
 *
 * When frames are taken.  A stop whose timing the host decides (one at the
 * horizon, say) would count its trap's entry and exit at host-chosen
 * instructions, so a busy node stops only at multiples of QUANTUM_NS of
 * its clock (vtime_next_deadline) and at its ticks: at a stop t it waits,
 * clock standing still, until every peer has promised beyond t (so every
 * frame due at or before t is here), then delivers those in (delivery,
 * sender, arrival) order.  A frame due between two stops of a busy node is
 * thus taken at the next one (at most QUANTUM_NS late).  A node with
 * nothing runnable jumps instead: to its next local event or the earliest
 * delivery, whichever comes first, once nothing earlier can still come,
 * and takes the frame exactly at its delivery time.  Every delivery and
 * send then happens at a node time that depends only on the node's own
 * instructions and the stamps it received, not on the host.
 *
 * Reports (rule 5): a node stalled (at a stop or idle) sends its report to
 * every peer whenever it differs from the last one sent; a peer's report
 * is a request, answered at every stop while this node's promise is short
 * of what that peer waits for (its report's next event).
 *
 * Stalled, the node waits in vwatch_wait (the host-time watchdog: lost
 * frames sent again, silent peers declared DOWN); a peer DOWN, however
 * found, leaves the horizon (forget_down).
 */
#include "kernel/kernel.h"
#include "kernel/vtime.h"
#include "kernel/vtime_config.h"
#include "net.h"
#include "peer.h"
#include "frame.h"
#include "vsync.h"
#include "vqueue.h"
#include "vlink.h"
#include "kernel/hostin.h"
#include "vwatch.h"

#define QUANTUM_NS 100000u   /* a busy node's stops: every 100 us         */
#define SLOTS 64             /* frames received, not yet delivered        */

static struct vsync vs;
static struct vqueue queue;
static struct vqueue_entry entries[SLOTS];
static uint8_t slot_data[SLOTS][PEER_FRAME_MAX];
static uint32_t slot_len[SLOTS];
static uint32_t free_slots[SLOTS], nfree;
static uint32_t arrivals[VSYNC_MAX_PEERS];
static int want[VSYNC_MAX_PEERS];
static int have_sent[VSYNC_MAX_PEERS];
static struct vsync_report last_sent[VSYNC_MAX_PEERS];
static void (*deliver_up)(uint32_t, const uint8_t *, uint32_t);
static uint64_t h_floor;     /* the highest horizon known             */
static uint64_t promised;    /* the highest promise made              */

static int peer_index(uint32_t node)
{
	for (uint32_t i = 0; i < vs.npeers; i++)
		if (vs.peers[i].node == node)
			return (int)i;
	return -1;
}

static void stamp(uint32_t node, uint32_t len, uint8_t *out)
{
	uint64_t now = vtime_now();
	uint32_t bytes = len + FRAME_HDR_BYTES + VSYNC_STAMP_BYTES + VSYNC_WIRE_BYTES;
	uint64_t d = vsync_send(&vs, node, now, bytes);
	vsync_stamp_encode(out, d, now + vs.lookahead);
}

static void frame_in(uint32_t from, const uint8_t *p, uint32_t len)
{
	int i = peer_index(from);
	if (i >= 0 && vs.peers[i].gone)
		return;   /* declared DOWN: what it sent is the host's timing */
	if (i < 0 || len < VSYNC_STAMP_BYTES) {
		kprintf("vlink: a frame from node %u without a stamp; dropped\n", from);
		return;
	}
	uint64_t d, eot;
	vsync_stamp_decode(p, &d, &eot);
	if (vsync_heard_data(&vs, from, d, eot) < 0)
		kprintf("vlink: node %u's frame due at %llu breaks its promise\n", from,
			(unsigned long long)d);
	if (!nfree) {
		kprintf("vlink: delivery queue full; a frame from node %u lost\n", from);
		return;
	}
	uint32_t s = free_slots[--nfree];
	slot_len[s] = len - VSYNC_STAMP_BYTES;
	memcpy(slot_data[s], p + VSYNC_STAMP_BYTES, slot_len[s]);
	struct vqueue_entry e = { .delivery = d, .src = from, .seq = arrivals[i]++, .handle = s };
	vqueue_push(&queue, &e);
}

static void report_in(uint32_t from, const uint8_t *p, uint32_t len)
{
	struct vsync_report r;
	int i = peer_index(from);
	if (i < 0 || vsync_report_decode(p, len, &r) < 0 || r.node != from) {
		kprintf("vlink: a bad time report from node %u\n", from);
		return;
	}
	uint64_t before = vs.peers[i].report.eot;
	if (vsync_heard_report(&vs, &r) < 0) {
		kprintf("vlink: a bad time report from node %u: promise %llu after %llu (idle %u next %llu)\n",
			from, (unsigned long long)r.eot, (unsigned long long)before, r.idle,
			(unsigned long long)r.next_event);
		return;
	}
	want[i] = 1;
}

/* The horizon, never lower than before: a bound once known stays true
 * (a peer's report made before the idle rule applied can lower the least
 * promise heard below what the rule gave). */
static uint64_t horizon(int idle, uint64_t next)
{
	uint64_t h = vsync_horizon(&vs, idle, next), g = hostin_grant();
	if (h > h_floor)
		h_floor = h;
	return g < h_floor ? g : h_floor; /* and the hub's grant (hostin.h) */
}

/* Reports to the peers that asked (or, stalled, to every peer) when they
 * would say something new.  The promise is vsync's, on the horizon above,
 * and never lower than one made before (which stays true). */
static void send_reports(uint64_t now, int idle, uint64_t next, int stalled)
{
	struct vsync_report r;
	vsync_report_make(&vs, now, idle, next, &r);
	uint64_t h = horizon(idle, next), at = idle && next < h ? next : h;
	if (!idle || at < now)
		at = now;
	if (at + vs.lookahead > r.eot)
		r.eot = at + vs.lookahead;
	if (r.eot < promised)
		r.eot = promised;
	promised = r.eot;
	hostin_report(at, stalled);
	uint8_t buf[VSYNC_REPORT_MAX];
	uint32_t n = vsync_report_encode(&r, buf);
	for (uint32_t i = 0; i < vs.npeers; i++) {
		if (!stalled && !want[i])
			continue;
		if (have_sent[i] && !memcmp(&r, &last_sent[i], sizeof r))
			continue;
		if (peer_send_vtime(vs.peers[i].node, buf, n) != 0)
			continue;
		last_sent[i] = r;
		have_sent[i] = 1;
		if (r.eot > vs.peers[i].report.next_event)
			want[i] = 0;
	}
}

/* The clock runs while a frame is taken in (the receiving kernel's work);
 * not while the queue is searched, since its shape depends on the frames
 * not yet due that have already arrived, which is the host's doing.  The
 * hub's input due (hostin.h) is looked for in the same stretch, so it
 * costs the clock nothing when there is none. */
static int deliver_due(uint64_t now)
{
	struct vqueue_entry e;
	int n = 0;
	for (;;) {
		vtime_exclude_begin();
		int due = vqueue_pop_due(&queue, now, &e);
		int host = !due && hostin_due(now);
		vtime_exclude_end();
		if (host && !hostin_take())
			return n;
		if (!due && !host)
			return n;
		if (due) {
			deliver_up(e.src, slot_data[e.handle], slot_len[e.handle]);
			free_slots[nfree++] = e.handle;
		}
		n++;
	}
}

/* Peers DOWN (a connection lost, or the watchdog's verdict) leave the
 * horizon: the cluster runs on without them. */
static void forget_down(void)
{
	for (uint32_t i = 0; i < vs.npeers; i++)
		if (peer_state(vs.peers[i].node) == PEER_DOWN && vsync_peer_gone(&vs, vs.peers[i].node) == 0)
			kprintf("vlink: node %u is down; the horizon goes on without it\n",
				vs.peers[i].node);
}

/* Stalled until something comes; `t` is what the node waits to pass, so
 * the peers whose promises do not reach it hold the node. */
static void stall(uint64_t t)
{
	uint32_t held[VSYNC_MAX_PEERS], n = 0;
	for (uint32_t i = 0; i < vs.npeers; i++)
		if (vs.peers[i].eot <= t)
			held[n++] = vs.peers[i].node;
	vwatch_wait(held, n);
}

/* At a stop (clock standing still at now). */
static void wait(uint64_t now)
{
	for (;;) {
		net_tick();
		forget_down();
		send_reports(now, 0, now, 0);
		if (horizon(0, now) > now)
			break;
		send_reports(now, 0, now, 1);
		stall(now);
	}
}

/* Nothing runnable at now, the next local event at next. */
static uint64_t idle(uint64_t now, uint64_t next)
{
	for (;;) {
		net_tick();
		forget_down();
		uint64_t target = vqueue_next(&queue), in = hostin_next(), g = hostin_grant();
		if (target > next)
			target = next;
		if (target > in)
			target = in;
		if (target < now)
			target = now;
		/* peers hear of no event past the hub's grant: input may come there */
		uint64_t ev = target < g ? target : g < now ? now : g;
		send_reports(now, 1, ev, 0);
		if (horizon(1, target) > target) {
			vtime_advance_to(target);
			return target;
		}
		send_reports(now, 1, ev, 1);
		stall(target);
	}
}

static const struct vtime_sync sync_ops = { QUANTUM_NS, wait, idle, deliver_due };

/* Boot's wait for every peer, with the clock standing still: 1 once all
 * are UP, 0 once one is DOWN (it did not come up within peerwait).  The
 * node halts between looks (vwatch_wait, which credits the host time its
 * watchdog counts to the transport clock), so peerwait and the connection
 * retries run in host time: a busy poll's own instructions would run them
 * out instead, in a few host milliseconds at the 1984 preset's shift=10
 * (1 us an instruction), long before the other nodes have booted. */
static int boot_wait(void)
{
	vtime_exclude_begin();
	int state = PEER_CONNECTING;
	while (state == PEER_CONNECTING) {
		net_tick();
		state = PEER_UP;
		for (uint32_t i = 0; i < net_config.npeers; i++) {
			uint32_t node = net_config.peers[i];
			int s = node == node_id ? PEER_UP : peer_state(node);
			if (s == PEER_DOWN || (s == PEER_CONNECTING && state == PEER_UP))
				state = s;
		}
		if (state == PEER_CONNECTING)
			vwatch_wait(NULL, 0);
	}
	vtime_exclude_end();
	return state == PEER_UP;
}

void vlink_start(void)
{
	if (!vtime_on || net_config.npeers < 2)
		return;
	if (vsync_init(&vs, node_id, net_config.peers, net_config.npeers, &vtime_config.net) < 0)
		panic("vlink: cannot synchronise %u peers", net_config.npeers);
	if (vs.npeers == 0)
		return;
	vqueue_init(&queue, entries, SLOTS);
	for (uint32_t s = 0; s < SLOTS; s++)
		free_slots[nfree++] = SLOTS - 1 - s;
	/* Stamps from the first frame on; the peers' HELLOs carry none. */
	peer_set_vtime(VSYNC_STAMP_BYTES, stamp, report_in);
	deliver_up = peer_interpose(frame_in);
	if (!boot_wait())
		panic("vlink: not every peer came up; no common epoch");
	vtime_set_sync(&sync_ops);
	kprintf("vlink: %u peers up, lookahead %llu ns, stops every %u ns\n", vs.npeers,
		(unsigned long long)vs.lookahead, QUANTUM_NS);
}

static int reports_gone(void *unused)
{
	(void)unused;
	for (uint32_t i = 0; i < vs.npeers; i++)
		if (peer_state(vs.peers[i].node) == PEER_UP && !peer_drained(vs.peers[i].node))
			return 0;
	return 1;
}

void vlink_leave(void)
{
	if (!deliver_up)
		return;
	struct vsync_report r;
	vsync_report_make(&vs, vtime_now(), 1, VSYNC_NEVER, &r);
	r.eot = r.next_event = VSYNC_NEVER;
	uint8_t buf[VSYNC_REPORT_MAX];
	uint32_t n = vsync_report_encode(&r, buf);
	for (uint32_t i = 0; i < vs.npeers; i++)
		peer_send_vtime(vs.peers[i].node, buf, n);
	net_wait_until(reports_gone, NULL);
}

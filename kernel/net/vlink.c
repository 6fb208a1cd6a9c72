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
 * instructions, so a busy node stops only at multiples of the stop
 * spacing (vtime_config.stop_ns, the cluster file's `stops=`) of its clock (vtime_next_deadline) and at its ticks: at a stop t it waits,
 * clock standing still, until every peer has promised beyond t (so every
 * frame due at or before t is here), then delivers those in (delivery,
 * sender, arrival) order.  A frame due between two stops of a busy node is
 * thus taken at the next one (at most one spacing late).  A node with
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
static uint64_t promised;    /* the highest promise made              */

/* What the synchronisation did, for its host cost (printed when a peer or
 * this node leaves; docs/virtual-time.md §2.10): host-dependent counts,
 * kept and printed while the clock stands still, so they cost it nothing. */
static struct {
	uint32_t stops, stop_stalls, idles, idle_stalls, halts;
	uint32_t reports_out, reports_in;
} count;
static int stats_printed;

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
	else if (d < vs.floor) /* the horizon said no such frame could come */
		kprintf("vlink: node %u's frame due at %llu breaks the horizon %llu\n", from,
			(unsigned long long)d, (unsigned long long)vs.floor);
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

static void print_stats(const char *when)
{
	if (stats_printed)
		return;
	stats_printed = 1;
	uint32_t sent = 0, got = 0;
	for (uint32_t i = 0; i < vs.npeers; i++) {
		sent += vs.peers[i].sent;
		got += vs.peers[i].received;
	}
	kprintf("vlink: stats (%s) at %llu ns: stops %u (stalled %u), idle %u (stalled %u), "
		"halts %u, reports out %u in %u, frames out %u in %u\n", when,
		(unsigned long long)vtime_now(), count.stops, count.stop_stalls, count.idles,
		count.idle_stalls, count.halts, count.reports_out, count.reports_in, sent, got);
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
	count.reports_in++;
	/* a request unless the promise last sent it already passes what it
	 * waits for (an answer to this node's own request, say) */
	want[i] = vs.promises_only || !have_sent[i] || last_sent[i].eot <= r.next_event;
	if (r.eot == VSYNC_NEVER)
		print_stats("a peer left");
}

/* The horizon, never lower than before (a peer's report made before the
 * idle rule applied can lower the least promise heard below what the rule
 * gave) and never past the hub's grant (hostin.h): vsync_horizon_held. */
static uint64_t horizon(int idle, uint64_t next)
{
	return vsync_horizon_held(&vs, idle, next, hostin_grant());
}

/* Whether report a says what b said but for a (higher) promise (no copy
 * of a report on the stack: see send_reports). */
static int only_promise_moved(const struct vsync_report *a, const struct vsync_report *b)
{
	return a->node == b->node && a->idle == b->idle && a->next_event == b->next_event &&
	       a->n == b->n && !memcmp(a->ids, b->ids, sizeof a->ids) &&
	       !memcmp(a->sent, b->sent, sizeof a->sent) &&
	       !memcmp(a->received, b->received, sizeof a->received);
}

/* The peers whose bounds do not pass t, the ones this node waits on, into
 * held[] (VSYNC_MAX_PEERS) as a flag per peer; their number. */
static uint32_t holding(int idle, uint64_t next, uint64_t t, int *held)
{
	return vsync_holding(&vs, idle, next, t, held);
}

/* Reports: the answer to each peer that asked, while this node's promise
 * does not pass what that peer waits for (its report's next event); and,
 * stalled at t, the request to each peer that holds it (its bound does
 * not pass t), when the report says something new to it other than a
 * higher promise.  A report to every peer, as before (vbounds=0), made
 * every idle node pass on every move of its promise, which follows the
 * others', to every other: N² reports a round, most to peers that could
 * work the bound out themselves or were not waiting (docs/virtual-time.md
 * §2.10).  The promise is vsync's, on the horizon above, and never lower
 * than one made before (which stays true).  The report, its bytes and the
 * flags are static: this runs on the kernel stack of whatever process the
 * stop interrupted (one page), with lwIP's send path below it, and is
 * never entered twice (interrupts stay masked but in the stall's wait). */
static void send_reports(uint64_t now, int idle, uint64_t next, int stalled, uint64_t t)
{
	static int held[VSYNC_MAX_PEERS];
	static struct vsync_report r;
	static uint8_t buf[VSYNC_REPORT_MAX];
	memset(held, 0, sizeof held);
	if (stalled)
		holding(idle, next, t, held);
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
	uint32_t n = vsync_report_encode(&r, buf);
	for (uint32_t i = 0; i < vs.npeers; i++) {
		if (have_sent[i] && !memcmp(&r, &last_sent[i], sizeof r))
			continue;
		int request = stalled && (vs.promises_only || (held[i] && !(have_sent[i] &&
					  only_promise_moved(&r, &last_sent[i]))));
		if (!want[i] && !request)
			continue;
		if (peer_send_vtime(vs.peers[i].node, buf, n) != 0)
			continue;
		last_sent[i] = r;
		have_sent[i] = 1;
		count.reports_out++;
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

/* Stalled until something comes; `t` is what the node waits to pass (its
 * bounds worked out as idle or not, next event `next`), so the peers whose
 * bounds do not pass it hold the node. */
static void stall(int idle, uint64_t next, uint64_t t)
{
	static int held[VSYNC_MAX_PEERS];   /* static: as in send_reports */
	static uint32_t nodes[VSYNC_MAX_PEERS];
	uint32_t n = 0;
	holding(idle, next, t, held);
	for (uint32_t i = 0; i < vs.npeers; i++)
		if (held[i])
			nodes[n++] = vs.peers[i].node;
	count.halts++;
	/* Halted for a watchdog period of host time with no frame to end it:
	 * a report this node sent to a peer that holds it may never have been
	 * taken (one sent while that peer was still booting, seen: every node
	 * of a 4-node cluster waiting on another for ever after "peers up",
	 * the last to boot never having heard the first's promise).  The next
	 * reports to those peers go again, as requests, even unchanged. */
	if (vwatch_wait(nodes, n))
		for (uint32_t i = 0; i < vs.npeers; i++)
			if (held[i])
				have_sent[i] = 0;
}

/* At a stop (clock standing still at now). */
static void wait(uint64_t now)
{
	count.stops++;
	for (int stalled = 0;; stalled = 1) {
		net_tick();
		forget_down();
		send_reports(now, 0, now, 0, now);
		if (horizon(0, now) > now)
			break;
		if (!stalled)
			count.stop_stalls++;
		send_reports(now, 0, now, 1, now);
		stall(0, now, now);
	}
}

/* Nothing runnable at now, the next local event at next. */
static uint64_t idle(uint64_t now, uint64_t next)
{
	count.idles++;
	for (int stalled = 0;; stalled = 1) {
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
		send_reports(now, 1, ev, 0, target);
		if (horizon(1, target) > target) {
			vtime_advance_to(target);
			return target;
		}
		if (!stalled)
			count.idle_stalls++;
		send_reports(now, 1, ev, 1, target);
		stall(1, target, target);
	}
}

/* Whether deliver_due has anything to take at now (the clock standing). */
static int pending(uint64_t now)
{
	return vqueue_next(&queue) <= now || hostin_due(now);
}

static struct vtime_sync sync_ops = { 0, wait, idle, pending, deliver_due };

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
	vs.promises_only = vtime_config.idle_bounds == 0;
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
	sync_ops.quantum = vtime_config.stop_ns;
	vtime_set_sync(&sync_ops);
	kprintf("vlink: %u peers up, lookahead %llu ns, stops every %llu ns\n", vs.npeers,
		(unsigned long long)vs.lookahead, (unsigned long long)sync_ops.quantum);
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
	print_stats("this node leaves");
}

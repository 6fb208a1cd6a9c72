/*
 * kernel/net/peer_selftest.c - the peer transport's self-test, enabled by
 * `selftest=peer` or `selftest=peerkill` (tests/cluster/peer_selftest.sh
 * boots the nodes).  Node 1 drives; every other node echoes.
 *
 * selftest=peer, node 1, in phases:
 *   up     wait until every peer is UP
 *   echo   send ECHO_FRAMES numbered frames of 0..8192 data bytes (+ a
 *          64-byte header) to every peer, at most WINDOW unanswered each;
 *          every echo must come back in order with the same bytes
 *   flood  queue 1000-byte frames to the first peer until peer_send says
 *          E_NOMEM (which must happen within the send buffer's size), then
 *          ask it how many arrived: all of them, in order
 *   rtt    RTT_ROUNDS ping-pongs of a small frame with the first peer,
 *          timed on the node clock
 *   finish tell every peer to power off, wait until that is delivered
 * selftest=peerkill, node 1: wait until all are UP, print the line the
 * script waits for, and ping every peer continuously; node 2 is killed by
 * the script; remote_node_down(2) must come within peertimeout + 2 s of
 * its last echo, after which peer_send(2) gives E_NODEDOWN, and the other
 * peers must go on answering.
 * Success powers off with 0x20 (QEMU exits 65), failure with 0x21 (67).
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "net_lwip.h"
#include "peer.h"

#define ECHO_FRAMES 300
#define WINDOW 4
#define RTT_ROUNDS 200
#define RTT_DATA 32
#define SINK_DATA 1000
#define AFTER_DOWN_ECHOES 20
#define DEADLINE_AFTER_WAIT_MS 100000  /* the test's bound: peerwait + this */
#define TCP_SND_BUF_BYTES (16 * 1460)   /* lwipopts.h's TCP_SND_BUF */
#define EXIT_OK 0x20
#define EXIT_FAIL 0x21

enum kind { ST_PING = 1, ST_ECHO, ST_SINK, ST_COUNT, ST_COUNT_REPLY, ST_FINISH };

struct st_hdr {
	uint32_t kind, seq, data_len, sum;
	uint32_t pad[12];   /* a 64-byte header, like the IPC layer's */
};

enum phase { PH_OFF, PH_UP, PH_ECHO, PH_FLOOD, PH_FLOOD_WAIT, PH_RTT, PH_KILL, PH_FINISH, PH_ECHOER };

struct target {
	uint32_t node;
	uint32_t sent, echoed;           /* echo phase / ping counters       */
	uint32_t echoes_after_down;
	uint32_t last_echo_ms;
	int finished;                    /* confirmed the end of the test    */
};

static enum phase phase;
static int kill_mode;
static struct target targets[NET_MAX_PEERS];
static uint32_t ntargets;
static uint32_t start_ms, finish_ms, killed_node_down_ms;
static uint32_t sinks_queued, sinks_received, sink_order_ok = 1;
static uint64_t rtt_sent_ns, rtt_min = ~0ull, rtt_max, rtt_sum;
static uint32_t rtt_done;
static uint8_t frame_data[8192];

static void finish(int ok, const char *why)
{
	kprintf("peer selftest: node %u: %s: %s\n", node_id, ok ? "PASS" : "FAIL", why);
	arch_poweroff(ok ? EXIT_OK : EXIT_FAIL);
}

static uint8_t pattern(uint32_t seq, uint32_t i) { return (uint8_t)(seq * 31u + i * 7u + (i >> 8)); }

static uint32_t checksum(const uint8_t *p, uint32_t n)
{
	uint32_t a = 1, b = 0;
	for (uint32_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return b << 16 | a;
}

static uint32_t echo_size(uint32_t seq) { return seq == 1 ? 8192 : (seq * 2731u) % 8193u; }

static int send_kind(uint32_t node, uint32_t kind, uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		frame_data[i] = pattern(seq, i);
	struct st_hdr h = { .kind = kind, .seq = seq, .data_len = len, .sum = checksum(frame_data, len) };
	return peer_send(node, &h, sizeof h, frame_data, len);
}

static struct target *target_of(uint32_t node)
{
	for (uint32_t i = 0; i < ntargets; i++)
		if (targets[i].node == node)
			return &targets[i];
	return NULL;
}

/* ---- node 1 ---- */

static void top_up_echo(void)
{
	int all_done = 1;
	for (uint32_t i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];
		while (t->sent < ECHO_FRAMES && t->sent - t->echoed < WINDOW) {
			int r = send_kind(t->node, ST_PING, t->sent, echo_size(t->sent));
			if (r == E_NOMEM)
				break;
			if (r < 0)
				finish(0, "peer_send failed in the echo phase");
			t->sent++;
		}
		all_done &= t->echoed == ECHO_FRAMES;
	}
	if (all_done) {
		kprintf("peer selftest: %u frames echoed in order by each of %u peers\n", ECHO_FRAMES, ntargets);
		phase = PH_FLOOD;
	}
}

static void flood(void)
{
	/* What a node buffers for one peer: its ring plus lwIP's send buffer. */
	uint32_t bound = (PEER_SNDBUF + TCP_SND_BUF_BYTES) / (SINK_DATA + sizeof(struct st_hdr)) + 1;
	while (send_kind(targets[0].node, ST_SINK, sinks_queued, SINK_DATA) == 0) {
		if (++sinks_queued > bound)
			finish(0, "peer_send never reported a full send buffer");
	}
	kprintf("peer selftest: backpressure: E_NOMEM after %u frames of %u bytes\n", sinks_queued, SINK_DATA);
	phase = PH_FLOOD_WAIT;
}

static void ask_count(void)
{
	static int asked;
	if (!asked && send_kind(targets[0].node, ST_COUNT, 0, 0) == 0)
		asked = 1;
}

static void rtt_ping(void)
{
	rtt_sent_ns = arch_clock_ns();
	if (send_kind(targets[0].node, ST_PING, rtt_done, RTT_DATA) < 0)
		finish(0, "peer_send failed in the rtt phase");
}

/* Done once every peer still UP has confirmed the end. */
static void finish_if_confirmed(void)
{
	for (uint32_t i = 0; i < ntargets; i++)
		if (!targets[i].finished && peer_state(targets[i].node) == PEER_UP)
			return;
	finish(1, kill_mode ? "node failure detected, the others unaffected" :
			      "frames, order, backpressure, rtt");
}

static void start_finish(void)
{
	for (uint32_t i = 0; i < ntargets; i++)
		if (peer_state(targets[i].node) == PEER_UP)
			send_kind(targets[i].node, ST_FINISH, 0, 0);
	finish_ms = net_now_ms();
	phase = PH_FINISH;
	finish_if_confirmed();
}

static void rtt_echo(void)
{
	uint64_t d = arch_clock_ns() - rtt_sent_ns;
	rtt_sum += d;
	rtt_min = d < rtt_min ? d : rtt_min;
	rtt_max = d > rtt_max ? d : rtt_max;
	if (++rtt_done < RTT_ROUNDS) {
		rtt_ping();
		return;
	}
	kprintf("peer selftest: rtt node %u <-> node %u, %u bytes + 64 header, %u rounds: "
		"min %llu us, mean %llu us, max %llu us\n", node_id, targets[0].node, RTT_DATA, RTT_ROUNDS,
		rtt_min / 1000, rtt_sum / RTT_ROUNDS / 1000, rtt_max / 1000);
	start_finish();
}

static int echo_valid(const struct st_hdr *h, const uint8_t *data, uint32_t data_len, uint32_t want_seq)
{
	if (h->seq != want_seq || h->data_len != data_len || checksum(data, data_len) != h->sum)
		return 0;
	for (uint32_t i = 0; i < data_len; i++)
		if (data[i] != pattern(h->seq, i))
			return 0;
	return 1;
}

static void driver_echo(struct target *t, const struct st_hdr *h, const uint8_t *data, uint32_t n)
{
	if (phase == PH_ECHO) {
		if (!echo_valid(h, data, n, t->echoed))
			finish(0, "an echo came back out of order or changed");
		t->echoed++;
		top_up_echo();
	} else if (phase == PH_RTT) {
		if (!echo_valid(h, data, n, rtt_done))
			finish(0, "an rtt echo came back out of order or changed");
		rtt_echo();
	} else if (phase == PH_KILL) {
		t->echoed++;
		t->last_echo_ms = net_now_ms();
		if (killed_node_down_ms)
			t->echoes_after_down++;
		send_kind(t->node, ST_PING, t->echoed, RTT_DATA);
	}
}

static void driver_deliver(uint32_t from, const uint8_t *frame, uint32_t len)
{
	const struct st_hdr *h = (const struct st_hdr *)frame;
	struct target *t = target_of(from);
	if (!t || len < sizeof *h || len - sizeof *h != h->data_len)
		finish(0, "a frame of the wrong size or from an unknown node");
	if (h->kind == ST_FINISH && phase == PH_FINISH) {
		t->finished = 1;
		finish_if_confirmed();
	} else if (h->kind == ST_ECHO) {
		driver_echo(t, h, frame + sizeof *h, h->data_len);
	} else if (h->kind == ST_COUNT_REPLY && phase == PH_FLOOD_WAIT) {
		if (h->seq != sinks_queued || !h->sum)
			finish(0, "the flooded frames did not all arrive in order");
		kprintf("peer selftest: all %u flooded frames arrived in order\n", sinks_queued);
		phase = PH_RTT;
		rtt_ping();
	}
}

static void driver_node_down(uint32_t node)
{
	if (phase == PH_FINISH)
		return;   /* peers power off once they have confirmed */
	if (!kill_mode || node != 2 || phase != PH_KILL)
		finish(0, "a peer went down unexpectedly");
	struct target *t = target_of(node);
	killed_node_down_ms = net_now_ms();
	uint32_t silent = killed_node_down_ms - t->last_echo_ms;
	kprintf("peer selftest: node 2 declared down %u ms after its last echo\n", silent);
	if (silent > net_config.peer_timeout_ms + 2000)
		finish(0, "node 2 was declared down too late");
	if (peer_send(2, "x", 1, NULL, 0) != E_NODEDOWN || peer_state(2) != PEER_DOWN)
		finish(0, "peer_send to a down node did not give E_NODEDOWN");
	kprintf("peer selftest: peer_send to node 2 now gives E_NODEDOWN\n");
}

static void kill_tick(void)
{
	if (!killed_node_down_ms)
		return;
	for (uint32_t i = 0; i < ntargets; i++)
		if (targets[i].node != 2 && targets[i].echoes_after_down < AFTER_DOWN_ECHOES)
			return;
	kprintf("peer selftest: the other %u peers went on answering\n", ntargets - 1);
	start_finish();
}

static int all_up(void)
{
	for (uint32_t i = 0; i < ntargets; i++)
		if (peer_state(targets[i].node) != PEER_UP)
			return 0;
	return 1;
}

static void leave_up_phase(void)
{
	kprintf("peer selftest: all %u peers up after %u ms\n", ntargets, net_now_ms() - start_ms);
	if (!kill_mode) {
		phase = PH_ECHO;
		top_up_echo();
		return;
	}
	if (!target_of(2))
		finish(0, "selftest=peerkill needs node 2 among the peers");
	kprintf("peer selftest: kill node 2 now\n");
	phase = PH_KILL;
	for (uint32_t i = 0; i < ntargets; i++) {
		targets[i].last_echo_ms = net_now_ms();
		send_kind(targets[i].node, ST_PING, 0, RTT_DATA);
	}
}

static void driver_tick(void)
{
	if (net_now_ms() - start_ms > net_config.peer_wait_ms + DEADLINE_AFTER_WAIT_MS)
		finish(0, "did not finish in time");
	switch (phase) {
	case PH_UP: if (all_up()) leave_up_phase(); break;
	case PH_ECHO: top_up_echo(); break;
	case PH_FLOOD: flood(); break;
	case PH_FLOOD_WAIT: ask_count(); break;
	case PH_KILL: kill_tick(); break;
	case PH_FINISH:
		if (net_now_ms() - finish_ms > 5000)
			finish(0, "the peers did not confirm the end of the test");
		break;
	default: break;
	}
}

/* ---- every other node ---- */

static uint32_t finishing_ms;

static void echoer_deliver(uint32_t from, const uint8_t *frame, uint32_t len)
{
	const struct st_hdr *h = (const struct st_hdr *)frame;
	if (len < sizeof *h)
		finish(0, "a frame shorter than the test header");
	struct st_hdr reply = *h;
	switch (h->kind) {
	case ST_PING:
		reply.kind = ST_ECHO;
		if (peer_send(from, &reply, sizeof reply, frame + sizeof *h, len - (uint32_t)sizeof *h) < 0)
			finish(0, "could not send an echo");
		break;
	case ST_SINK:
		sink_order_ok &= h->seq == sinks_received;
		sinks_received++;
		break;
	case ST_COUNT:
		reply = (struct st_hdr){ .kind = ST_COUNT_REPLY, .seq = sinks_received, .sum = sink_order_ok };
		if (peer_send(from, &reply, sizeof reply, NULL, 0) < 0)
			finish(0, "could not send the count");
		break;
	case ST_FINISH:   /* confirm, and power off a little later */
		reply = (struct st_hdr){ .kind = ST_FINISH };
		peer_send(from, &reply, sizeof reply, NULL, 0);
		finishing_ms = net_now_ms();
		break;
	}
}

static void echoer_node_down(uint32_t node)
{
	if (node == 1)
		finish(0, "node 1 went down before the test ended");
}

/* ---- entry points ---- */

void peer_selftest_start(void)
{
	if (!net_config.selftest[0])
		return;
	kill_mode = !strcmp(net_config.selftest, "peerkill");
	start_ms = net_now_ms();
	if (node_id != 1) {
		phase = PH_ECHOER;
		peer_set_upcalls(echoer_deliver, echoer_node_down);
		return;
	}
	for (uint32_t i = 0; i < net_config.npeers; i++)
		if (net_config.peers[i] != node_id && ntargets < NET_MAX_PEERS)
			targets[ntargets++].node = net_config.peers[i];
	if (ntargets == 0)
		finish(0, "selftest needs peers= with at least one other node");
	phase = PH_UP;
	peer_set_upcalls(driver_deliver, driver_node_down);
	kprintf("peer selftest: %s, node 1 driving %u peers\n", net_config.selftest, ntargets);
}

void peer_selftest_tick(void)
{
	if (phase == PH_ECHOER && finishing_ms && net_now_ms() - finishing_ms > 200)
		finish(1, "echoed everything node 1 sent");
	else if (phase != PH_OFF && phase != PH_ECHOER)
		driver_tick();
}

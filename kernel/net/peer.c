/*
 * kernel/net/peer.c - the peer transport of peer.h.  One stream (stream.c)
 * per peer over the cluster LAN, port NET_PEER_PORT: the node with the
 * lower id connects, the higher one accepts, so there is one connection
 * per pair; the connecting side retries every 250 ms, whether the peer is
 * CONNECTING or DOWN (a restarted node is found again quickly), and gives
 * up on an attempt after a second.  Each side's first frame is HELLO (magic, node id); a
 * peer is UP when its HELLO has arrived.  A heartbeat each second keeps
 * silence meaningful.  All state changes happen on the network stack.
 * In virtual time silence on the transport clock is not failure (a peer
 * stalled at its horizon is merely slow in host time): the stalled node's
 * watchdog (vwatch.c) judges it in host time and calls peer_declare_down;
 * and received segments are acknowledged at once, not at lwIP's next fast
 * timer, which a stalled node's transport clock may take long to reach.
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "net_lwip.h"
#include "peer.h"
#include "frame.h"
#include "stream.h"
#include "lwip/tcp.h"
#include "kernel/vtime.h"

#define RETRY_MS 250
#define ATTEMPT_MS 1000
#define HEARTBEAT_MS 1000

struct peer {
	uint32_t node;
	enum peer_state state;
	int we_connect;
	struct stream stream;
	struct frame_rx rx;
	uint32_t attempt_start_ms;   /* connect in progress since          */
	uint32_t next_attempt_ms;
	uint32_t last_rx_ms;
	uint32_t last_heartbeat_ms;
	uint32_t wait_until_ms;      /* CONNECTING: down after this        */
	uint32_t heard;              /* receptions counted (peer_heard)    */
	uint8_t ring[PEER_SNDBUF];
};

static struct peer peers[NET_MAX_PEERS];
static uint32_t npeers;
static struct tcp_pcb *listener;
static uint32_t local_ip;

/* The upcalls until the remote IPC layer gives its own: only print. */
static void print_frame(uint32_t from_node, const uint8_t *frame, uint32_t len)
{
	(void)frame;
	kprintf("peer: frame of %u bytes from node %u (no remote IPC layer; dropped)\n", len, from_node);
}

static void print_down(uint32_t node)
{
	kprintf("peer: node %u is down (no remote IPC layer to tell)\n", node);
}

static void (*deliver_fn)(uint32_t, const uint8_t *, uint32_t) = print_frame;
static void (*down_fn)(uint32_t) = print_down;

static struct peer *find(uint32_t node)
{
	for (uint32_t i = 0; i < npeers; i++)
		if (peers[i].node == node)
			return &peers[i];
	return NULL;
}

void peer_set_upcalls(void (*deliver)(uint32_t, const uint8_t *, uint32_t), void (*down)(uint32_t))
{
	deliver_fn = deliver ? deliver : print_frame;
	down_fn = down ? down : print_down;
}

void (*peer_interpose(void (*deliver)(uint32_t, const uint8_t *, uint32_t)))(uint32_t, const uint8_t *, uint32_t)
{
	void (*was)(uint32_t, const uint8_t *, uint32_t) = deliver_fn;
	deliver_fn = deliver;
	return was;
}

static uint32_t stamp_bytes;
static void (*stamp_fn)(uint32_t, uint32_t, uint8_t *);
static void (*report_fn)(uint32_t, const uint8_t *, uint32_t);

void peer_set_vtime(uint32_t stamp_len, void (*stamp)(uint32_t, uint32_t, uint8_t *),
		    void (*report)(uint32_t, const uint8_t *, uint32_t))
{
	stamp_bytes = stamp && stamp_len <= FRAME_STAMP_MAX ? stamp_len : 0;
	stamp = stamp_bytes ? stamp : NULL;
	stamp_fn = stamp;
	report_fn = report;
	for (uint32_t i = 0; i < npeers; i++)
		peers[i].stream.ack_now = stamp != NULL;
}

static void declare_down(struct peer *p, const char *why)
{
	stream_drop(&p->stream);
	ring_clear(&p->stream.tx);
	frame_rx_reset(&p->rx);
	if (p->state == PEER_DOWN)
		return;
	p->state = PEER_DOWN;
	p->next_attempt_ms = net_now_ms() + RETRY_MS;
	kprintf("peer: node %u down: %s\n", p->node, why);
	down_fn(p->node);
}

/* A connection (not yet UP) that failed: try again, or give up at boot. */
static void attempt_failed(struct peer *p)
{
	stream_drop(&p->stream);
	frame_rx_reset(&p->rx);
	p->next_attempt_ms = net_now_ms() + RETRY_MS;
}

static void send_hello(struct peer *p)
{
	uint8_t f[FRAME_HDR_BYTES + 8];
	frame_header_encode(f, FRAME_HELLO, 8);
	frame_put32(f + 4, FRAME_HELLO_MAGIC);
	frame_put32(f + 8, node_id);
	if (stream_write_direct(&p->stream, f, sizeof f) < 0)
		attempt_failed(p);
}

static void hello_received(struct peer *p, const uint8_t *payload)
{
	if (frame_get32(payload) != FRAME_HELLO_MAGIC || frame_get32(payload + 4) != p->node) {
		kprintf("peer: connection claiming to be node %u says it is node %u; closed\n",
			p->node, frame_get32(payload + 4));
		attempt_failed(p);
		return;
	}
	if (p->state != PEER_UP)
		kprintf("peer: node %u up\n", p->node);
	p->state = PEER_UP;
	p->last_heartbeat_ms = net_now_ms();
	stream_flush(&p->stream);
}

static int on_frame(void *ctx, uint32_t type, const uint8_t *payload, uint32_t len)
{
	struct peer *p = ctx;
	if (type == FRAME_HELLO) {
		hello_received(p, payload);
	} else if (p->state != PEER_UP) {
		kprintf("peer: node %u sent a frame before HELLO; closed\n", p->node);
		attempt_failed(p);
	} else if (type == FRAME_DATA) {
		deliver_fn(p->node, payload, len);
	} else if (type == FRAME_VTIME && report_fn) {
		report_fn(p->node, payload, len);
	}
	return p->stream.pcb == NULL;   /* stop if the connection was dropped */
}

static int on_data(void *owner, const uint8_t *data, uint32_t n)
{
	struct peer *p = owner;
	p->last_rx_ms = net_now_ms();
	p->heard++;
	int r = frame_rx_feed(&p->rx, data, n, on_frame, p);
	if (r < 0) {
		if (p->state == PEER_UP)
			declare_down(p, "malformed frame");
		else
			attempt_failed(p);
		return 1;
	}
	return p->stream.pcb == NULL;
}

static void on_connected(void *owner)
{
	struct peer *p = owner;
	p->last_rx_ms = net_now_ms();
	send_hello(p);
}

static void on_lost(void *owner, const char *why)
{
	struct peer *p = owner;
	if (p->state == PEER_UP)
		declare_down(p, why);
	else
		attempt_failed(p);
}

static const struct stream_ops peer_stream_ops = { on_connected, on_data, on_lost };

static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void)arg;
	if (err != ERR_OK || !pcb)
		return ERR_VAL;
	struct peer *p = find(net_cluster_node(ip4_addr_get_u32(ip_2_ip4(&pcb->remote_ip))));
	if (!p || p->we_connect) {
		tcp_abort(pcb);   /* not a peer, or one that should wait for us */
		return ERR_ABRT;
	}
	if (p->state == PEER_UP)
		declare_down(p, "it connected again (restarted)");
	frame_rx_reset(&p->rx);
	stream_adopt(&p->stream, pcb);
	p->last_rx_ms = net_now_ms();
	send_hello(p);
	return ERR_OK;
}

static void start_attempt(struct peer *p, uint32_t now)
{
	p->attempt_start_ms = now;
	frame_rx_reset(&p->rx);
	if (stream_connect(&p->stream, local_ip, net_cluster_ip(p->node), NET_PEER_PORT) < 0)
		attempt_failed(p);
}

static void tick_one(struct peer *p, uint32_t now)
{
	if (p->state == PEER_CONNECTING && (int32_t)(now - p->wait_until_ms) > 0) {
		declare_down(p, "did not come up in time (peerwait)");
		return;
	}
	if (p->state == PEER_UP) {
		if (!stamp_fn && (int32_t)(now - p->last_rx_ms) > (int32_t)net_config.peer_timeout_ms) {
			declare_down(p, "silent for longer than peertimeout");
			return;
		}
		if (now - p->last_heartbeat_ms >= HEARTBEAT_MS) {
			uint8_t hb[FRAME_HDR_BYTES];
			frame_header_encode(hb, FRAME_HEARTBEAT, 0);
			ring_put(&p->stream.tx, hb, sizeof hb);  /* a full ring means traffic anyway */
			p->last_heartbeat_ms = now;
		}
		stream_flush(&p->stream);
		return;
	}
	if (!p->we_connect)
		return;
	if (p->stream.pcb && !p->stream.established && now - p->attempt_start_ms > ATTEMPT_MS)
		attempt_failed(p);
	if (!p->stream.pcb && (int32_t)(now - p->next_attempt_ms) >= 0)
		start_attempt(p, now);
}

void peer_tick(void)
{
	uint32_t now = net_now_ms();
	for (uint32_t i = 0; i < npeers; i++)
		tick_one(&peers[i], now);
}

static int listen_for_peers(void)
{
	struct tcp_pcb *pcb = tcp_new();
	ip_addr_t ip;
	ip_addr_set_ip4_u32(&ip, local_ip);
	if (!pcb || tcp_bind(pcb, &ip, NET_PEER_PORT) != ERR_OK)
		return -1;
	listener = tcp_listen(pcb);
	if (!listener)
		return -1;
	tcp_accept(listener, on_accept);
	return 0;
}

void peer_init(void)
{
	struct netif *lan = net_find_role(NET_ROLE_CLUSTER);
	uint32_t now = net_now_ms();
	for (uint32_t i = 0; i < net_config.npeers && npeers < NET_MAX_PEERS; i++) {
		if (net_config.peers[i] == node_id)
			continue;
		struct peer *p = &peers[npeers++];
		p->node = net_config.peers[i];
		p->we_connect = node_id < p->node;
		p->state = lan ? PEER_CONNECTING : PEER_DOWN;
		p->wait_until_ms = now + net_config.peer_wait_ms;
		p->next_attempt_ms = now;
		stream_init(&p->stream, p->ring, net_config.peer_sndbuf ? net_config.peer_sndbuf : sizeof p->ring,
			    &peer_stream_ops, p);
	}
	if (!lan) {
		if (npeers)
			kprintf("peer: no cluster network card; all %u peers are down\n", npeers);
		return;
	}
	local_ip = ip4_addr_get_u32(netif_ip4_addr(lan));
	if (listen_for_peers() < 0)
		panic("peer: cannot listen on port %u", NET_PEER_PORT);
	if (npeers)
		kprintf("peer: node %u, %u peers, listening on port %u\n", node_id, npeers, NET_PEER_PORT);
}

/* ---- the API ---- */


static void flush_on_net_stack(void *arg)
{
	stream_flush(&((struct peer *)arg)->stream);
}

static int queue_data(uint32_t node, const void *hdr, uint32_t hdr_len, const void *data, uint32_t data_len);

/* In virtual time the whole of it is left out of the node clock: how the
 * ring wraps depends on the heartbeats and time reports queued before,
 * whose number is the host's doing. */
int peer_send(uint32_t node, const void *hdr, uint32_t hdr_len, const void *data, uint32_t data_len)
{
	if (!stamp_fn)
		return queue_data(node, hdr, hdr_len, data, data_len);
	vtime_exclude_begin();
	int r = queue_data(node, hdr, hdr_len, data, data_len);
	vtime_exclude_end();
	return r;
}

static int queue_data(uint32_t node, const void *hdr, uint32_t hdr_len, const void *data, uint32_t data_len)
{
	struct peer *p = find(node);
	if (!p || p->state == PEER_DOWN)
		return E_NODEDOWN;
	if (hdr_len > PEER_FRAME_MAX || data_len > PEER_FRAME_MAX - hdr_len)
		return E_TOOBIG;
	uint32_t len = hdr_len + data_len;
	if (ring_space(&p->stream.tx) < FRAME_HDR_BYTES + stamp_bytes + len)
		return E_NOMEM;
	uint8_t h[FRAME_HDR_BYTES + FRAME_STAMP_MAX];
	frame_header_encode(h, FRAME_DATA, stamp_bytes + len);
	if (stamp_fn) /* virtual time: its delivery time, the sender's promise */
		stamp_fn(node, len, h + FRAME_HDR_BYTES);
	ring_put(&p->stream.tx, h, FRAME_HDR_BYTES + stamp_bytes);
	ring_put(&p->stream.tx, hdr, hdr_len);
	ring_put(&p->stream.tx, data, data_len);
	if (p->state == PEER_UP)
		net_run(flush_on_net_stack, p);
	return 0;
}

int peer_state(uint32_t node)
{
	struct peer *p = find(node);
	return p ? (int)p->state : PEER_DOWN;
}

uint32_t peer_heard(uint32_t node)
{
	struct peer *p = find(node);
	return p ? p->heard : 0;
}

struct down_request {
	struct peer *p;
	const char *why;
};

static void down_on_net_stack(void *arg)
{
	struct down_request *r = arg;
	declare_down(r->p, r->why);
}

void peer_declare_down(uint32_t node, const char *why)
{
	struct peer *p = find(node);
	if (!p || p->state != PEER_UP)
		return;
	struct down_request r = { p, why };
	net_run(down_on_net_stack, &r);
}

int peer_drained(uint32_t node)
{
	struct peer *p = find(node);
	return p && p->state == PEER_UP && stream_drained(&p->stream);
}

uint32_t peer_send_space(uint32_t node)
{
	struct peer *p = find(node);
	return p && p->state != PEER_DOWN ? ring_space(&p->stream.tx) : 0;
}

int peer_send_vtime(uint32_t node, const uint8_t *payload, uint32_t len)
{
	struct peer *p = find(node);
	if (!p || p->state == PEER_DOWN)
		return E_NODEDOWN;
	if (ring_space(&p->stream.tx) < FRAME_HDR_BYTES + len)
		return E_NOMEM;
	uint8_t h[FRAME_HDR_BYTES];
	frame_header_encode(h, FRAME_VTIME, len);
	ring_put(&p->stream.tx, h, sizeof h);
	ring_put(&p->stream.tx, payload, len);
	if (p->state == PEER_UP)
		net_run(flush_on_net_stack, p);
	return 0;
}

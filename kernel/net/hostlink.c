/*
 * kernel/net/hostlink.c - the host links of hostlink.h: a stream each,
 * connected once (retrying every 250 ms until it is made or peerwait
 * passes), never reconnected behind the owner's back.
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "net_lwip.h"
#include "hostlink.h"
#include "peer.h"
#include "stream.h"

#define RETRY_MS 250
#define ATTEMPT_MS 1000

struct hostlink {
	int in_use;
	enum peer_state state;
	uint16_t port;
	struct hostlink_callbacks cb;
	struct stream stream;
	uint32_t deadline_ms, attempt_start_ms, next_attempt_ms;
	uint8_t ring[HOSTLINK_SNDBUF];
};

static struct hostlink links[HOSTLINK_MAX];

static int number(const struct hostlink *h) { return (int)(h - links); }

static struct hostlink *link_of(int n)
{
	return n >= 0 && n < HOSTLINK_MAX && links[n].in_use ? &links[n] : NULL;
}

uint16_t hostlink_port(const char *name)
{
	for (uint32_t i = 0; i < net_config.nhost; i++)
		if (!strcmp(net_config.host[i].name, name))
			return net_config.host[i].port;
	return 0;
}

static void go_down(struct hostlink *h, const char *why)
{
	stream_drop(&h->stream);
	ring_clear(&h->stream.tx);
	if (h->state == PEER_DOWN)
		return;
	h->state = PEER_DOWN;
	kprintf("hostlink: port %u down: %s\n", h->port, why);
	if (h->cb.down)
		h->cb.down(number(h), h->cb.arg);
}

static void on_connected(void *owner)
{
	struct hostlink *h = owner;
	h->state = PEER_UP;
	stream_flush(&h->stream);
}

static int on_data(void *owner, const uint8_t *p, uint32_t n)
{
	struct hostlink *h = owner;
	if (h->cb.recv)
		h->cb.recv(number(h), p, n, h->cb.arg);
	return h->stream.pcb == NULL;
}

static void on_lost(void *owner, const char *why)
{
	struct hostlink *h = owner;
	if (h->state == PEER_UP)
		go_down(h, why);
	else
		h->next_attempt_ms = net_now_ms() + RETRY_MS;   /* not up yet: retry */
}

static const struct stream_ops hostlink_ops = { on_connected, on_data, on_lost };

/* Whether the service on port is reached through QEMU's guestfwd. */
static int through_fwd(uint16_t port)
{
	for (uint32_t i = 0; i < net_config.nhost; i++)
		if (net_config.host[i].port == port)
			return net_config.host[i].fwd;
	return 0;
}

static void attempt(struct hostlink *h, uint32_t now)
{
	struct netif *nif = net_find_role(NET_ROLE_HOST);
	h->attempt_start_ms = now;
	if (stream_connect(&h->stream, ip4_addr_get_u32(netif_ip4_addr(nif)),
			   net_host_service_ip(through_fwd(h->port)), h->port) < 0)
		h->next_attempt_ms = now + RETRY_MS;
}

void hostlink_tick(void)
{
	uint32_t now = net_now_ms();
	for (int i = 0; i < HOSTLINK_MAX; i++) {
		struct hostlink *h = &links[i];
		if (!h->in_use || h->state == PEER_DOWN)
			continue;
		if (h->state == PEER_UP) {
			stream_flush(&h->stream);
			continue;
		}
		if ((int32_t)(now - h->deadline_ms) > 0) {
			go_down(h, "no connection within peerwait");
			continue;
		}
		if (h->stream.pcb && !h->stream.established && now - h->attempt_start_ms > ATTEMPT_MS)
			stream_drop(&h->stream);
		if (!h->stream.pcb && (int32_t)(now - h->next_attempt_ms) >= 0)
			attempt(h, now);
	}
}

struct open_args {
	const char *name;
	const struct hostlink_callbacks *cb;
	int result;
};

static void open_on_net_stack(void *arg)
{
	struct open_args *a = arg;
	uint16_t port = hostlink_port(a->name);
	if (!port) {
		a->result = E_NONAME;
		return;
	}
	if (!net_find_role(NET_ROLE_HOST)) {
		a->result = E_NODEDOWN;
		return;
	}
	for (int i = 0; i < HOSTLINK_MAX; i++) {
		struct hostlink *h = &links[i];
		if (h->in_use)
			continue;
		h->in_use = 1;
		h->state = PEER_CONNECTING;
		h->port = port;
		h->cb = a->cb ? *a->cb : (struct hostlink_callbacks){ 0 };
		stream_init(&h->stream, h->ring, sizeof h->ring, &hostlink_ops, h);
		h->stream.manual_window = h->cb.manual_window;
		uint32_t now = net_now_ms();
		h->deadline_ms = now + net_config.peer_wait_ms;
		attempt(h, now);
		a->result = i;
		return;
	}
	a->result = E_NOSPACE;
}

int hostlink_open(const char *name, const struct hostlink_callbacks *cb)
{
	struct open_args a = { name, cb, E_NODEDOWN };
	net_run(open_on_net_stack, &a);
	return a.result;
}

static void flush_on_net_stack(void *arg)
{
	stream_flush(&((struct hostlink *)arg)->stream);
}

int hostlink_send(int n, const void *data, uint32_t len)
{
	struct hostlink *h = link_of(n);
	if (!h)
		return E_INVAL;
	if (h->state == PEER_DOWN)
		return E_NODEDOWN;
	if (ring_put(&h->stream.tx, data, len) < 0)
		return E_NOMEM;
	if (h->state == PEER_UP)
		net_run(flush_on_net_stack, h);
	return 0;
}

int hostlink_state(int n)
{
	struct hostlink *h = link_of(n);
	return h ? (int)h->state : PEER_DOWN;
}

int hostlink_drained(int n)
{
	struct hostlink *h = link_of(n);
	return h && h->state == PEER_UP && stream_drained(&h->stream);
}

struct consumed_args {
	struct hostlink *h;
	uint32_t n;
};

static void consumed_on_net_stack(void *arg)
{
	struct consumed_args *a = arg;
	stream_recved(&a->h->stream, a->n);
}

void hostlink_consumed(int n, uint32_t bytes)
{
	struct consumed_args a = { link_of(n), bytes };
	if (a.h && bytes)
		net_run(consumed_on_net_stack, &a);
}

static void close_on_net_stack(void *arg)
{
	struct hostlink *h = arg;
	stream_drop(&h->stream);
	h->in_use = 0;
}

void hostlink_close(int n)
{
	struct hostlink *h = link_of(n);
	if (h)
		net_run(close_on_net_stack, h);
}

int hostlink_all_drained(void *unused)
{
	(void)unused;
	for (int i = 0; i < (int)net_config.nhost; i++)
		if (hostlink_state(i) == PEER_UP && !hostlink_drained(i))
			return 0;
	return 1;
}

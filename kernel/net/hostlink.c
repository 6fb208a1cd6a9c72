/*
 * kernel/net/hostlink.c - the host links of hostlink.h: a stream each,
 * connected once (retrying every 250 ms until it is made or peerwait
 * passes), never reconnected behind the owner's back.
 *
 * A link to a service named in hostauth= first answers the service's
 * challenge with the cluster's secret (kernel/abi/hostauth.h; the secret
 * from QEMU's fw_cfg, kernel/fwcfg.c) and is UP only then; what its owner
 * queued meanwhile waits.  Such links are opened at boot ("standing"):
 * QEMU carries every connection a node makes to a service over the one
 * host connection it dialled when the node started, so the node proves
 * itself once, at boot, within the service's handshake timeout, and the
 * first owner to open the service (the meter, ctld's gate) takes the
 * authenticated link over; closing it only gives it back.
 */
#include "kernel/kernel.h"
#include "kernel/abi/hostauth.h"
#include "hostauth_mac.h"
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
	int auth;             /* hostauth= names the service */
	int authing;          /* connected, gathering the challenge */
	int owned;            /* opened by an owner (else standing, from boot) */
	uint32_t chal_len;
	uint8_t chal[HOSTAUTH_CHALLENGE_SIZE];
	uint8_t ring[HOSTLINK_SNDBUF];
};

static struct hostlink links[HOSTLINK_MAX];

/* The cluster's secret: 0 not read yet, 1 read, -1 none (no fw_cfg file). */
static int key_state;
static uint8_t key[HOSTAUTH_KEY_LEN];

static int have_key(void)
{
	if (key_state == 0) {
		int32_t n = fwcfg_file(HOSTAUTH_FWCFG_NAME, key, sizeof key);
		key_state = n >= (int32_t)HOSTAUTH_KEY_LEN ? 1 : -1;
		if (key_state < 0)
			kprintf("hostlink: no cluster secret (fw_cfg %s); cannot authenticate\n",
				HOSTAUTH_FWCFG_NAME);
	}
	return key_state > 0;
}

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
	if (h->auth) { /* UP once the challenge is answered (on_data) */
		h->authing = 1;
		h->chal_len = 0;
		return;
	}
	h->state = PEER_UP;
	stream_flush(&h->stream);
}

/* Gather the challenge; once whole, answer it ahead of everything queued.
 * Returns the bytes of p it took. */
static uint32_t take_challenge(struct hostlink *h, const uint8_t *p, uint32_t n)
{
	uint32_t k = HOSTAUTH_CHALLENGE_SIZE - h->chal_len;
	if (k > n)
		k = n;
	memcpy(h->chal + h->chal_len, p, k);
	h->chal_len += k;
	if (h->chal_len < HOSTAUTH_CHALLENGE_SIZE)
		return k;
	struct hostauth_challenge c;
	struct hostauth_answer a;
	memcpy(&c, h->chal, sizeof c);
	h->authing = 0;
	if (c.magic != HOSTAUTH_CHALLENGE_MAGIC || c.version != HOSTAUTH_VERSION) {
		go_down(h, "the service sent no authentication challenge");
		return k;
	}
	if (!have_key()) {
		go_down(h, "no cluster secret to authenticate with");
		return k;
	}
	hostauth_answer_make(key, h->chal, node_id, &a);
	if (stream_write_direct(&h->stream, &a, sizeof a) < 0) {
		go_down(h, "cannot send the authentication answer");
		return k;
	}
	h->state = PEER_UP;
	stream_flush(&h->stream);
	return k;
}

static int on_data(void *owner, const uint8_t *p, uint32_t n)
{
	struct hostlink *h = owner;
	if (h->authing) {
		uint32_t k = take_challenge(h, p, n);
		if (h->stream.manual_window) /* the challenge is ours: its owner never sees it */
			stream_recved(&h->stream, k);
		p += k;
		n -= k;
		if (h->stream.pcb == NULL || n == 0)
			return h->stream.pcb == NULL;
	}
	if (h->cb.recv)
		h->cb.recv(number(h), p, n, h->cb.arg);
	return h->stream.pcb == NULL;
}

static void on_lost(void *owner, const char *why)
{
	struct hostlink *h = owner;
	h->authing = 0;
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

static void start_link(struct hostlink *h, uint16_t port, const char *name,
		       const struct hostlink_callbacks *cb)
{
	h->in_use = 1;
	h->state = PEER_CONNECTING;
	h->port = port;
	h->auth = net_config_host_auth(&net_config, name);
	h->authing = 0;
	h->owned = cb != NULL;
	h->cb = cb ? *cb : (struct hostlink_callbacks){ 0 };
	stream_init(&h->stream, h->ring, sizeof h->ring, &hostlink_ops, h);
	h->stream.manual_window = h->cb.manual_window;
	uint32_t now = net_now_ms();
	h->deadline_ms = now + net_config.peer_wait_ms;
	attempt(h, now);
}

/* The standing link to port nobody owns yet, or NULL. */
static struct hostlink *standing(uint16_t port)
{
	for (int i = 0; i < HOSTLINK_MAX; i++)
		if (links[i].in_use && !links[i].owned && links[i].port == port)
			return &links[i];
	return NULL;
}

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
	static const struct hostlink_callbacks none;
	const struct hostlink_callbacks *cb = a->cb ? a->cb : &none;
	struct hostlink *h = standing(port);
	if (h && h->state != PEER_DOWN) { /* taken over, authenticated or on the way */
		h->owned = 1;
		h->cb = *cb;
		h->stream.manual_window = cb->manual_window;
		a->result = number(h);
		return;
	}
	if (h) { /* it went down: start again */
		start_link(h, port, a->name, cb);
		a->result = number(h);
		return;
	}
	for (int i = 0; i < HOSTLINK_MAX; i++) {
		if (links[i].in_use)
			continue;
		start_link(&links[i], port, a->name, cb);
		a->result = i;
		return;
	}
	a->result = E_NOSPACE;
}

void hostlink_start(void)
{
	if (!net_find_role(NET_ROLE_HOST))
		return;
	for (uint32_t i = 0; i < net_config.nhost; i++) {
		const char *name = net_config.host[i].name;
		if (!net_config_host_auth(&net_config, name) || standing(net_config.host[i].port))
			continue;
		for (int k = 0; k < HOSTLINK_MAX; k++)
			if (!links[k].in_use) {
				start_link(&links[k], net_config.host[i].port, name, NULL);
				break;
			}
	}
}

int hostlink_standing_settled(void *unused)
{
	(void)unused;
	for (int k = 0; k < HOSTLINK_MAX; k++)
		if (links[k].in_use && !links[k].owned && links[k].state == PEER_CONNECTING)
			return 0;
	return 1;
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
	if (h->auth && h->state != PEER_DOWN) { /* given back, still authenticated */
		h->owned = 0;
		h->cb = (struct hostlink_callbacks){ 0 };
		h->stream.manual_window = 0;
		return;
	}
	stream_drop(&h->stream);
	h->in_use = 0;
}

void hostlink_close(int n)
{
	struct hostlink *h = link_of(n);
	if (h)
		net_run(close_on_net_stack, h);
}

/* Every UP link says its end after its last byte; 1 in *all while one is
 * still UP (its host has not closed it yet). */
static void finish_on_net_stack(void *arg)
{
	int *open = arg;
	for (int i = 0; i < HOSTLINK_MAX; i++) {
		struct hostlink *h = &links[i];
		if (!h->in_use || h->state != PEER_UP)
			continue;
		stream_finish(&h->stream);
		*open = 1;
	}
}

int hostlink_all_finished(void *unused)
{
	(void)unused;
	int open = 0;
	net_run(finish_on_net_stack, &open);
	return !open;
}

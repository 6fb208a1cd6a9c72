/*
 * kernel/net/netconfig.c - the network's command-line keys (docs/network.md):
 *   peers=1,2,3,4           node ids of the cluster (1..254)
 *   host=meter:7001,...     host services reachable through the host link
 *                           (NAME:PORT:fwd: through QEMU's guestfwd)
 *   hostauth=meter,ctl      the host services the node authenticates to with
 *                           the cluster's secret (kernel/abi/hostauth.h)
 *   peertimeout=MS          silence after which a peer is down (default 3000)
 *   peerwait=MS             how long a peer may take to come up (default 20000)
 *   vdown=MS                virtual time: host time a stalled node waits on a
 *                           silent peer before it is down (default 10000)
 *   vdrop=N                 virtual time, a test's: the cluster card drops the
 *                           Nth TCP segment with data it receives, once
 *   peerbuf=BYTES           a test's: the send buffer to each peer holds
 *                           BYTES (8192..PEER_SNDBUF) instead of PEER_SNDBUF,
 *                           so that senders wait for room in it
 *   selftest=peer|peerkill|hostlink  run a transport's self-test
 * Parsing is pure (no globals but the one net_cmdline_option fills) so the
 * host unit tests can run it.
 */
#include "kernel/kernel.h"
#include "netconfig.h"

#define PEER_TIMEOUT_DEFAULT_MS 3000
#define PEER_WAIT_DEFAULT_MS 20000
#define VDOWN_DEFAULT_MS 10000

struct net_config net_config = {
	.peer_timeout_ms = PEER_TIMEOUT_DEFAULT_MS,
	.peer_wait_ms = PEER_WAIT_DEFAULT_MS,
	.vdown_ms = VDOWN_DEFAULT_MS,
};

void net_config_defaults(struct net_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->peer_timeout_ms = PEER_TIMEOUT_DEFAULT_MS;
	cfg->peer_wait_ms = PEER_WAIT_DEFAULT_MS;
	cfg->vdown_ms = VDOWN_DEFAULT_MS;
}

/* A decimal number in [lo, hi] spanning exactly s[0..n). */
static int parse_number(const char *s, uint32_t n, uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint32_t v = 0;
	if (n == 0 || n > 9)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static uint32_t item_len(const char *s, uint32_t n)
{
	uint32_t i = 0;
	while (i < n && s[i] != ',')
		i++;
	return i;
}

static int parse_peers(struct net_config *cfg, const char *v, uint32_t n, const char **msg)
{
	struct net_config c = *cfg;
	c.npeers = 0;
	for (uint32_t at = 0; at <= n;) {
		uint32_t len = item_len(v + at, n - at), id;
		if (parse_number(v + at, len, 1, 254, &id) < 0)
			return *msg = "peers: node ids are numbers from 1 to 254, separated by commas", -1;
		for (uint32_t i = 0; i < c.npeers; i++)
			if (c.peers[i] == id)
				return *msg = "peers: a node id is listed twice", -1;
		if (c.npeers == NET_MAX_PEERS + 1)
			return *msg = "peers: more than 9 nodes", -1;
		c.peers[c.npeers++] = id;
		at += len + 1;
	}
	*cfg = c;
	return 1;
}

static int parse_host(struct net_config *cfg, const char *v, uint32_t n, const char **msg)
{
	struct net_config c = *cfg;
	c.nhost = 0;
	for (uint32_t at = 0; at <= n;) {
		uint32_t len = item_len(v + at, n - at), colon = 0, port, fwd = 0;
		while (colon < len && v[at + colon] != ':')
			colon++;
		if (colon == 0 || colon >= NET_NAME_MAX || colon == len)
			return *msg = "host: each service is NAME:PORT[:fwd], NAME 1 to 11 characters", -1;
		if (len - colon > 4 && !strncmp(v + at + len - 4, ":fwd", 4)) {
			fwd = 1;
			len -= 4;
		}
		if (parse_number(v + at + colon + 1, len - colon - 1, 1, 65535, &port) < 0)
			return *msg = "host: a port is a number from 1 to 65535", -1;
		if (c.nhost == NET_MAX_HOST_SERVICES)
			return *msg = "host: more than 4 services", -1;
		memcpy(c.host[c.nhost].name, v + at, colon);
		c.host[c.nhost].name[colon] = '\0';
		c.host[c.nhost].port = (uint16_t)port;
		c.host[c.nhost].fwd = (uint8_t)fwd;
		c.nhost++;
		at += len + 4 * fwd + 1;
	}
	*cfg = c;
	return 1;
}

static int parse_hostauth(struct net_config *cfg, const char *v, uint32_t n, const char **msg)
{
	struct net_config c = *cfg;
	c.nhostauth = 0;
	for (uint32_t at = 0; at <= n;) {
		uint32_t len = item_len(v + at, n - at);
		if (len == 0 || len >= NET_NAME_MAX)
			return *msg = "hostauth: service names of 1 to 11 characters, separated by commas", -1;
		if (c.nhostauth == NET_MAX_HOST_SERVICES)
			return *msg = "hostauth: more than 4 services", -1;
		memcpy(c.hostauth[c.nhostauth], v + at, len);
		c.hostauth[c.nhostauth][len] = '\0';
		c.nhostauth++;
		at += len + 1;
	}
	*cfg = c;
	return 1;
}

int net_config_host_auth(const struct net_config *cfg, const char *name)
{
	for (uint32_t i = 0; i < cfg->nhostauth; i++)
		if (!strcmp(cfg->hostauth[i], name))
			return 1;
	return 0;
}

static int key_is(const char *w, uint32_t n, const char *key, const char **value, uint32_t *vlen)
{
	uint32_t k = (uint32_t)strlen(key);
	if (n <= k || strncmp(w, key, k) != 0 || w[k] != '=')
		return 0;
	*value = w + k + 1;
	*vlen = n - k - 1;
	return 1;
}

/* The keys whose value is one number in a range. */
static const struct number_key {
	const char *key;
	uint32_t lo, hi;
	size_t offset;       /* of its uint32_t in struct net_config */
	const char *range;   /* the message for a bad value */
} number_keys[] = {
	{ "peertimeout", 100, 3600000, offsetof(struct net_config, peer_timeout_ms),
	  "peertimeout: milliseconds from 100 to 3600000" },
	{ "peerwait", 100, 3600000, offsetof(struct net_config, peer_wait_ms),
	  "peerwait: milliseconds from 100 to 3600000" },
	{ "vdown", 1000, 3600000, offsetof(struct net_config, vdown_ms),
	  "vdown: milliseconds from 1000 to 3600000" },
	{ "vdrop", 1, 100000000, offsetof(struct net_config, drop_segment),
	  "vdrop: a segment number from 1 to 100000000" },
	{ "peerbuf", 8192, PEER_SNDBUF, offsetof(struct net_config, peer_sndbuf),
	  "peerbuf: bytes from 8192 to the kernel's PEER_SNDBUF" },
};

int net_config_parse(struct net_config *cfg, const char *w, uint32_t n, const char **msg)
{
	const char *v;
	uint32_t vn, num;
	if (key_is(w, n, "peers", &v, &vn))
		return parse_peers(cfg, v, vn, msg);
	if (key_is(w, n, "host", &v, &vn))
		return parse_host(cfg, v, vn, msg);
	if (key_is(w, n, "hostauth", &v, &vn))
		return parse_hostauth(cfg, v, vn, msg);
	for (uint32_t i = 0; i < sizeof number_keys / sizeof *number_keys; i++) {
		const struct number_key *k = &number_keys[i];
		if (!key_is(w, n, k->key, &v, &vn))
			continue;
		if (parse_number(v, vn, k->lo, k->hi, &num) < 0)
			return *msg = k->range, -1;
		*(uint32_t *)((char *)cfg + k->offset) = num;
		return 1;
	}
	if (key_is(w, n, "selftest", &v, &vn)) {
		static const char *const tests[] = { "peer", "peerkill", "hostlink" };
		int known = 0;
		for (uint32_t i = 0; i < sizeof tests / sizeof *tests; i++)
			known |= vn == strlen(tests[i]) && !strncmp(v, tests[i], vn);
		if (!known)
			return *msg = "selftest: peer, peerkill or hostlink", -1;
		memcpy(cfg->selftest, v, vn);
		cfg->selftest[vn] = '\0';
		return 1;
	}
	return 0;
}

int net_cmdline_option(const char *word, uint32_t len)
{
	const char *msg = "";
	int r = net_config_parse(&net_config, word, len, &msg);
	if (r < 0)
		kprintf("kernel: command line: %s; ignored\n", msg);
	return r != 0;
}

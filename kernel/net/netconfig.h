/*
 * kernel/net/netconfig.h - the network's settings from the kernel command
 * line (docs/network.md): the cluster's node ids, the host services, the
 * peer transport's timeouts.  The bottom of kernel/net: every transport
 * reads it, it reads nothing of theirs; parsing (netconfig.c) is pure so
 * the host unit tests run it.
 */
#ifndef DPM_NETCONFIG_H
#define DPM_NETCONFIG_H
#include <stdint.h>

#include "kernel/capacities.h" /* NET_MAX_PEERS, NET_MAX_HOST_SERVICES */

#define NET_NAME_MAX 12

/* The cluster and host-link settings the command line gave. */
struct net_config {
	uint32_t peers[NET_MAX_PEERS + 1]; /* node ids from peers=, this one included */
	uint32_t npeers;
	struct {
		char name[NET_NAME_MAX];
		uint16_t port;
		uint8_t fwd;       /* NAME:PORT:fwd, reached through QEMU's guestfwd */
	} host[NET_MAX_HOST_SERVICES];
	uint32_t nhost;
	char hostauth[NET_MAX_HOST_SERVICES][NET_NAME_MAX]; /* hostauth=: services the node
	                                   authenticates to (kernel/abi/hostauth.h) */
	uint32_t nhostauth;
	uint32_t peer_timeout_ms;  /* peertimeout=: silence before a peer is down */
	uint32_t peer_wait_ms;     /* peerwait=: time a peer has to come up at boot */
	uint32_t vdown_ms;         /* vdown=: virtual time, host-time silence before down */
	uint32_t drop_segment;     /* vdrop=: virtual time, the data segment to drop (0: none) */
	uint32_t peer_sndbuf;      /* peerbuf=: a test's, bytes of the send buffer to each peer
	                              (0: PEER_SNDBUF) */
	char selftest[NET_NAME_MAX]; /* selftest=: peer, peerkill, hostlink or "" */
};

extern struct net_config net_config;

/* The kernel's command-line parser offers every key=value word here first:
 * 1 when it is a network key (taken, even if its value is bad: a warning
 * is printed and the default kept), 0 when it is not ours. */
int net_cmdline_option(const char *word, uint32_t len);
/* Parse one key=value word into cfg: 1 taken and valid, 0 not a network
 * key, -1 a network key with a bad value (msg says why). */
int net_config_parse(struct net_config *cfg, const char *word, uint32_t len, const char **msg);
void net_config_defaults(struct net_config *cfg);
/* Whether hostauth= names the service `name`. */
int net_config_host_auth(const struct net_config *cfg, const char *name);
#endif

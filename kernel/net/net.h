/*
 * kernel/net/net.h - the node's network as the rest of the kernel sees it
 * (docs/network.md): configuration from the command line, bring-up, the
 * timer hook, and the rule that all network work runs on one dedicated
 * stack (net_run).  Nothing here exposes lwIP.
 */
#ifndef DPM_NET_H
#define DPM_NET_H
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
	} host[NET_MAX_HOST_SERVICES];
	uint32_t nhost;
	uint32_t peer_timeout_ms;  /* peertimeout=: silence before a peer is down */
	uint32_t peer_wait_ms;     /* peerwait=: time a peer has to come up at boot */
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

/* Find the devices, bring up lwIP and the peer transport (a node without
 * a network card boots on without them). */
void net_init(void);
/* 100 Hz, from kernel_timer_tick(). */
void net_tick(void);
/* `poll` is called after each network interrupt and timer tick, off the
 * network stack: send buffers may have room again (the remote IPC layer
 * sends what waited for it and wakes its blocked senders; it gives its
 * remote_poll at boot, so this layer names nothing above it). */
void net_set_poll(void (*poll)(void));
/* Run fn(arg) on the network stack (directly when already on it).  Every
 * call into lwIP goes through here. */
void net_run(void (*fn)(void *), void *arg);
uint32_t net_random(void);
/* Milliseconds since boot, the clock of every network timeout. */
uint32_t net_now_ms(void);
#endif

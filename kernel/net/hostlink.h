/*
 * kernel/net/hostlink.h - TCP byte streams from the kernel to services on
 * the host (the meter's filter, the controller), through the second
 * network card (QEMU user networking) to 10.0.2.2:PORT, which QEMU's NAT
 * turns into 127.0.0.1:PORT on the host without ever blocking on it (or,
 * for NAME:PORT:fwd, a service QEMU runs a command for, to 10.0.2.100:PORT,
 * its guestfwd).  Services are named in the `host=NAME:PORT,...` key
 * (docs/network.md).
 *
 * Semantics follow the peer transport: a link is CONNECTING until the
 * connection is made (bytes sent meanwhile are queued), then UP; it is
 * DOWN for good once the connection fails, the host closes it, or it does
 * not come up within `peerwait` ms; then `down` is called once and sends
 * return E_NODEDOWN.  Sends are all-or-nothing into a 64 KiB buffer
 * (E_NOMEM when full).  Open again to reconnect.  Unframed: the bytes are
 * the service's protocol.  Same calling context rules as peer.h.
 *
 * A service named in `hostauth=` is first answered its authentication
 * challenge (kernel/abi/hostauth.h); the link is UP only after that.
 * Those links are opened at boot (hostlink_start) and taken over by the
 * first hostlink_open of the service; hostlink_close gives such a link
 * back instead of closing it.
 */
#ifndef DPM_HOSTLINK_H
#define DPM_HOSTLINK_H
#include <stdint.h>

#include "kernel/capacities.h" /* HOSTLINK_MAX, HOSTLINK_SNDBUF */

struct hostlink_callbacks {
	/* Bytes from the host service (may be NULL: they are discarded). */
	void (*recv)(int link, const uint8_t *data, uint32_t len, void *arg);
	/* The link went DOWN (may be NULL). */
	void (*down)(int link, void *arg);
	void *arg;
	/* 1: bytes received are acknowledged to the host only as the owner
	 * calls hostlink_consumed(), so the host can be at most TCP_WND bytes
	 * ahead of the owner (flow control for a slow reader). */
	int manual_window;
};

/* Port of the service named `name` in host=, or 0. */
uint16_t hostlink_port(const char *name);
/* Start connecting to the named service: a link number >= 0, or
 * E_NONAME (not in host=), E_NODEDOWN (no host-link network card),
 * E_NOSPACE (HOSTLINK_MAX links open). */
int hostlink_open(const char *name, const struct hostlink_callbacks *cb);
/* 0 queued, E_NOMEM buffer full, E_NODEDOWN link down, E_INVAL no such link. */
int hostlink_send(int link, const void *data, uint32_t len);
/* enum peer_state values: PEER_DOWN, PEER_CONNECTING, PEER_UP. */
int hostlink_state(int link);
/* 1 when everything sent has been acknowledged by the host. */
int hostlink_drained(int link);
/* Before power-off (a condition for net_wait_until): every UP link says
 * its end after its last byte, and this is 1 once the host has closed
 * each (dpm filter and the hub close a connection whose end they read,
 * having read everything before it).  An acknowledgement from QEMU is not
 * enough: its NAT acknowledges bytes it has yet to write to the host, and
 * a node that powered off then lost its last batches. */
int hostlink_all_finished(void *unused);
/* The owner has passed on n bytes it received (manual_window links). */
void hostlink_consumed(int link, uint32_t n);
/* At boot, on the network's stack: open the links to the hostauth=
 * services, so the node authenticates to each at once. */
void hostlink_start(void);
/* Every link hostlink_start opened is UP (authenticated) or DOWN: the
 * condition boot waits for in virtual time (net_init, with the node clock
 * standing), so
 * that when a node's first process may use a link does not depend on how
 * soon the host answered.  Through QEMU's NAT the service's challenge
 * comes a host-dependent while after the node dials; waited for by a
 * process, in virtual time that while became node time (the hub's input
 * times, and every later trace, moved by ~1 ms between a quiet and a busy
 * host: cluster_test_vtime_record, x86 with ARM). */
int hostlink_standing_settled(void *unused);
/* Close (what is still queued is discarded) and free the link number. */
void hostlink_close(int link);
#endif

/*
 * kernel/net/addrplan.h - the address plan (docs/network.md): which role a
 * network card plays, told by its MAC address, and the IPv4 addresses that
 * go with it.  Pure functions, tested on the host.
 */
#ifndef DPM_ADDRPLAN_H
#define DPM_ADDRPLAN_H
#include <stdint.h>

enum net_role {
	NET_ROLE_NONE = 0,
	NET_ROLE_CLUSTER,   /* 52:54:00:00:00:NN, 10.77.0.N/24                */
	NET_ROLE_HOST,      /* 52:54:00:00:01:NN, 10.0.2.15/24 via 10.0.2.2   */
};

#define NET_PEER_PORT 7700          /* every node listens here on the LAN */
#define NET_HOST_FWD_ADDR "10.0.2.100" /* QEMU's guestfwd address (cmd= services) */
#define NET_HOST_NAT_ADDR "10.0.2.2"   /* QEMU's alias of the host's 127.0.0.1   */

enum net_role net_role_of_mac(const uint8_t mac[6]);
/* Addresses in network byte order, as lwIP's ip4_addr_t holds them. */
void net_role_address(enum net_role role, uint32_t node, uint32_t *ip, uint32_t *mask, uint32_t *gw);
/* 10.77.0.N for node N; and back (0 when ip is not a cluster address). */
uint32_t net_cluster_ip(uint32_t node);
uint32_t net_cluster_node(uint32_t ip);
/* Where a host service is dialled: through QEMU's user-mode NAT at
 * 10.0.2.2 (the host's 127.0.0.1; QEMU reads and writes the host socket
 * without blocking, so a service that stops reading closes the TCP window
 * and nothing else), or, for a service QEMU runs a command for on each
 * connection (fwd), its guestfwd address 10.0.2.100. */
uint32_t net_host_service_ip(int fwd);
#endif

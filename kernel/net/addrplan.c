/*
 * kernel/net/addrplan.c - the address plan: MAC prefix 52:54:00 (QEMU's),
 * fourth byte 00, fifth byte the role (00 cluster, 01 host link), sixth
 * the node id.  Addresses are built in network byte order by hand so this
 * file needs no lwIP header and runs unchanged in the host unit tests.
 */
#include "addrplan.h"

/* a.b.c.d in network byte order on a little-endian machine. */
static uint32_t ipv4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return a | b << 8 | c << 16 | d << 24;
}

enum net_role net_role_of_mac(const uint8_t mac[6])
{
	if (mac[0] != 0x52 || mac[1] != 0x54 || mac[2] != 0x00 || mac[3] != 0x00)
		return NET_ROLE_NONE;
	if (mac[5] == 0 || mac[5] == 255)
		return NET_ROLE_NONE;
	switch (mac[4]) {
	case 0: return NET_ROLE_CLUSTER;
	case 1: return NET_ROLE_HOST;
	default: return NET_ROLE_NONE;
	}
}

uint32_t net_cluster_ip(uint32_t node) { return ipv4(10, 77, 0, node & 0xff); }
uint32_t net_host_service_ip(int fwd) { return fwd ? ipv4(10, 0, 2, 100) : ipv4(10, 0, 2, 2); }

uint32_t net_cluster_node(uint32_t ip)
{
	if ((ip & 0x00ffffffu) != ipv4(10, 77, 0, 0))
		return 0;
	uint32_t n = ip >> 24;
	return n == 0 || n == 255 ? 0 : n;
}

void net_role_address(enum net_role role, uint32_t node, uint32_t *ip, uint32_t *mask, uint32_t *gw)
{
	*mask = ipv4(255, 255, 255, 0);
	if (role == NET_ROLE_HOST) {
		*ip = ipv4(10, 0, 2, 15);
		*gw = ipv4(10, 0, 2, 2);
	} else {
		*ip = net_cluster_ip(node);
		*gw = 0;
	}
}

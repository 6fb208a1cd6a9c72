/*
 * kernel/net/netif.c - Ethernet devices as lwIP interfaces.  A device's
 * role comes from its MAC address (docs/network.md):
 *   52:54:00:00:00:NN  the cluster LAN   10.77.0.N/24 (N = node id)
 *   52:54:00:00:01:NN  the host link     10.0.2.15/24, QEMU user networking
 * Anything else is left unconfigured.  Frames are copied between the
 * driver's buffers and lwIP's pbufs in both directions: simple, and the
 * frames are small.  In virtual time a test can have the cluster card
 * lose one received segment (vdrop=), as vde_switch does on a full socket.
 */
#include "kernel/kernel.h"
#include "kernel/vtime.h"
#include "netconfig.h"
#include "netstack.h"
#include "vwatch.h"
#include "addrplan.h"
#include "net_lwip.h"
#include "ethdev.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/etharp.h"
#include "netif/ethernet.h"


struct net_if {
	struct netif netif;
	struct ethdev *eth;
	enum net_role role;
};

static struct net_if ifs[NET_MAX_IFS];
static uint32_t nifs;

static err_t link_output(struct netif *netif, struct pbuf *p)
{
	struct net_if *nif = netif->state;
	struct ethdev *e = nif->eth;
	if (p->tot_len > ETH_FRAME_MAX)
		return ERR_VAL;
	uint8_t *buf = e->tx_buffer(e);
	if (!buf) {
		e->poll(e);
		buf = e->tx_buffer(e);
	}
	if (!buf)
		return ERR_MEM;   /* TCP sends it again later */
	pbuf_copy_partial(p, buf, p->tot_len, 0);
	e->tx_send(e, buf, p->tot_len);
	return ERR_OK;
}

/* An IPv4 TCP segment that carries data (not a bare ACK, SYN or FIN). */
static int tcp_data_segment(const uint8_t *f, uint32_t len)
{
	if (len < 14 + 40 || f[12] != 0x08 || f[13] != 0x00)
		return 0;
	const uint8_t *ip = f + 14;
	uint32_t ihl = (ip[0] & 15u) * 4u, total = (uint32_t)ip[2] << 8 | ip[3];
	if (ip[9] != 6 || ihl < 20 || total > len - 14 || total < ihl + 20)
		return 0;
	return total > ihl + (ip[ihl + 12] >> 4) * 4u;
}

/* vdrop=N, virtual time only: the Nth data segment the cluster card takes
 * while this node is stalled (halted in vwatch_wait: a segment it waits
 * for, most likely) is lost, once (docs/network.md;
 * tests/cluster/cluster_test_vtime_loss.sh).  Counting only those puts
 * the loss where the peers have nothing more to send, so TCP's fast
 * retransmit (three duplicate ACKs) cannot repair it: only its timer. */
static int dropped_for_test(const struct net_if *nif, const uint8_t *frame, uint32_t len)
{
	static uint32_t seen;
	if (!vtime_on || !net_config.drop_segment || nif->role != NET_ROLE_CLUSTER ||
	    !vwatch_halted() || !tcp_data_segment(frame, len) || ++seen != net_config.drop_segment)
		return 0;
	kprintf("net: vdrop=%u: this data segment is dropped\n", seen);
	return 1;
}

static void frame_input(struct ethdev *e, const uint8_t *frame, uint32_t len)
{
	struct net_if *nif = e->stack;
	if (dropped_for_test(nif, frame, len))
		return;
	struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);
	if (!p)
		return;   /* dropped; TCP recovers */
	pbuf_take(p, frame, (u16_t)len);
	if (nif->netif.input(p, &nif->netif) != ERR_OK)
		pbuf_free(p);
}

static err_t netif_setup(struct netif *netif)
{
	struct net_if *nif = netif->state;
	netif->hwaddr_len = 6;
	memcpy(netif->hwaddr, nif->eth->mac, 6);
	netif->mtu = 1500;
	netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET | NETIF_FLAG_LINK_UP;
	netif->output = etharp_output;
	netif->linkoutput = link_output;
	netif->name[0] = nif->role == NET_ROLE_CLUSTER ? 'c' : 'h';
	netif->name[1] = 'l';
	return ERR_OK;
}

static void print_mac(const uint8_t *m)
{
	kprintf("%x%x:%x%x:%x%x:%x%x:%x%x:%x%x", m[0] >> 4, m[0] & 15, m[1] >> 4, m[1] & 15, m[2] >> 4,
		m[2] & 15, m[3] >> 4, m[3] & 15, m[4] >> 4, m[4] & 15, m[5] >> 4, m[5] & 15);
}

void ethdev_register(struct ethdev *e)
{
	enum net_role role = net_role_of_mac(e->mac);
	kprintf("net: %s ", e->driver_name);
	print_mac(e->mac);
	if (role == NET_ROLE_NONE || nifs == NET_MAX_IFS || net_find_role(role)) {
		kprintf(": not a DPM address (or a second card of its kind); left unconfigured\n");
		return;
	}
	struct net_if *nif = &ifs[nifs++];
	nif->eth = e;
	nif->role = role;
	e->stack = nif;
	e->input = frame_input;
	ip4_addr_t ip, mask, gw;
	net_role_address(role, node_id, &ip.addr, &mask.addr, &gw.addr);
	netif_add(&nif->netif, &ip, &mask, &gw, nif, netif_setup, ethernet_input);
	if (role == NET_ROLE_CLUSTER)
		netif_set_default(&nif->netif);
	netif_set_up(&nif->netif);
	kprintf(" -> %s %u.%u.%u.%u/24\n", role == NET_ROLE_CLUSTER ? "cluster" : "host link",
		ip4_addr1(&ip), ip4_addr2(&ip), ip4_addr3(&ip), ip4_addr4(&ip));
	if (role == NET_ROLE_CLUSTER && e->mac[5] != node_id)
		kprintf("net: warning: cluster MAC ends in %u but this is node %u\n", e->mac[5], node_id);
}

struct netif *net_find_role(enum net_role role)
{
	for (uint32_t i = 0; i < nifs; i++)
		if (ifs[i].role == role)
			return &ifs[i].netif;
	return NULL;
}

void net_poll_devices(void)
{
	for (uint32_t i = 0; i < nifs; i++)
		ifs[i].eth->poll(ifs[i].eth);
}

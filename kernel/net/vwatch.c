/*
 * kernel/net/vwatch.c - the stalled node's host-time watchdog (vwatch.h,
 * docs/virtual-time.md §2.8), the policy over the port's host-clock
 * interrupt (arch_wait_for_device: x86's RTC, ARM's PL031).
 *
 * A node stalled at its horizon has no virtual timer armed, so its clock,
 * and lwIP's timers on it, stand still: a frame vde_switch lost would be
 * sent again only when a stalled sender's transport clock crept to TCP's
 * retransmission timeout, maybe never.  So the host time the watchdog
 * counts while stalled is credited to the transport clock (net_credit_ms),
 * never to the node clock, and the caller's loop runs lwIP's timeouts
 * (net_tick): TCP retransmits and heartbeats go out, and a loss costs host
 * time only.  Silence is judged on the same host time: a peer this node
 * waits on that is heard from by nothing for `vdown` ms of it is declared
 * DOWN (peer_declare_down: node_down, E_NODEDOWN to waiters), and vlink
 * takes it out of the horizon.  A live peer is never silent that long: a
 * busy one answers a stalled node's report at its next stop, a stalled one
 * sends heartbeats on its own credited transport clock.
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "peer.h"
#include "vwatch.h"

static uint32_t heard[NET_MAX_PEERS + 1];
static uint32_t silent_ms[NET_MAX_PEERS + 1];

static int is_held(uint32_t node, const uint32_t *held, uint32_t nheld)
{
	for (uint32_t i = 0; i < nheld; i++)
		if (held[i] == node)
			return 1;
	return 0;
}

void vwatch_wait(const uint32_t *held, uint32_t nheld)
{
	uint32_t ms = arch_wait_for_device();
	if (ms)
		net_credit_ms(ms);
	for (uint32_t i = 0; i < net_config.npeers; i++) {
		uint32_t node = net_config.peers[i], h = peer_heard(node);
		if (node == node_id)
			continue;
		if (h != heard[i] || !is_held(node, held, nheld) || peer_state(node) != PEER_UP) {
			heard[i] = h;
			silent_ms[i] = 0;
			continue;
		}
		silent_ms[i] += ms;
		if (silent_ms[i] >= net_config.vdown_ms) {
			kprintf("vwatch: node %u silent for %u ms of host time while this node waited on it\n",
				node, silent_ms[i]);
			silent_ms[i] = 0;
			peer_declare_down(node, "silent for vdown ms of host time (virtual time)");
		}
	}
}

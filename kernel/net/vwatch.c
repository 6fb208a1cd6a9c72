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
 * never to the node clock, in steps of lwIP's TCP timer with its timeouts
 * run after each (net_tick): TCP retransmits and heartbeats go out at the
 * rate they would on a real clock, and a loss costs host time only.  Silence is judged on the same host time: a peer this node
 * waits on that is heard from by nothing for `vdown` ms of it is declared
 * DOWN (peer_declare_down: node_down, E_NODEDOWN to waiters), and vlink
 * takes it out of the horizon.  A live peer is never silent that long: a
 * busy one answers a stalled node's report at its next stop, a stalled one
 * sends heartbeats on its own credited transport clock.
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "net.h"
#include "peer.h"
#include "vwatch.h"

/* lwIP's TCP timer (TCP_TMR_INTERVAL): credits go in steps of it, each
 * followed by lwIP's timeouts, since a cyclic timer that fell behind runs
 * once, not once per interval missed (docs/virtual-time.md §1c). */
#define STEP_MS 250

static int halted;
static uint32_t heard[NET_MAX_PEERS + 1];
static uint32_t silent_ms[NET_MAX_PEERS + 1];

static int is_held(uint32_t node, const uint32_t *held, uint32_t nheld)
{
	for (uint32_t i = 0; i < nheld; i++)
		if (held[i] == node)
			return 1;
	return 0;
}

int vwatch_halted(void)
{
	return halted;
}

uint32_t vwatch_wait(const uint32_t *held, uint32_t nheld)
{
	halted = 1;
	uint32_t ms = arch_wait_for_device();
	halted = 0;
	for (uint32_t step = 0; step < ms; step += STEP_MS) {
		net_credit_ms(ms - step < STEP_MS ? ms - step : STEP_MS);
		net_tick();
	}
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
	return ms;
}

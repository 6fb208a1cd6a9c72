/*
 * kernel/net/net.c - bringing the network up and keeping it running: the
 * devices' interrupts and the 100 Hz tick drive lwIP and the transports,
 * all on the network's own stack (netstack.c).
 */
#include "kernel/kernel.h"
#include "net.h"
#include "net_lwip.h"
#include "ethdev.h"
#include "peer.h"
#include "kernel/vtime.h"
#include "lwip/init.h"
#include "lwip/timeouts.h"

static int net_running;

static void (*poll_fn)(void); /* remote.c's remote_poll (net_set_poll) */

void net_set_poll(void (*poll)(void))
{
	poll_fn = poll;
}

static void poll_device(void *arg)
{
	struct ethdev *e = arg;
	e->poll(e);
}

void ethdev_interrupt(struct ethdev *e)
{
	if (net_running) {
		net_run(poll_device, e);
		if (poll_fn)
			poll_fn();
	}
}

static void tick(void *unused)
{
	(void)unused;
	net_poll_devices();
	sys_check_timeouts();
	peer_tick();
	hostlink_tick();
	peer_selftest_tick();
	hostlink_selftest_tick();
}

void net_tick(void)
{
	if (net_running) {
		net_run(tick, NULL);
		if (poll_fn)
			poll_fn();
	}
}

static void start(void *unused)
{
	(void)unused;
	lwip_init();
	arch_devices_init();
	if (!net_find_role(NET_ROLE_CLUSTER) && !net_find_role(NET_ROLE_HOST)) {
		if (net_config.selftest[0]) {
			kprintf("net: selftest=%s needs a network card; failed\n", net_config.selftest);
			arch_poweroff(0x21);
		}
		if (net_config.npeers > 1 || net_config.nhost)
			kprintf("net: no network card; peers and host links are unreachable\n");
		return;
	}
	net_running = 1;
	peer_init();
	hostlink_start();
	peer_selftest_start();
	hostlink_selftest_start();
}

/* Virtual time: output that cannot go yet (a full path to the host) waits
 * here with the node clock standing still instead of being dropped, until
 * done(arg) or, the host gone, 30 s of instructions. */
#define WAIT_LIMIT_NS 30000000000ull

int net_wait_until(int (*done)(void *), void *arg)
{
	return net_wait_until_for(done, arg, WAIT_LIMIT_NS);
}

int net_wait_until_for(int (*done)(void *), void *arg, uint64_t limit_ns)
{
	vtime_exclude_begin();
	uint64_t start = arch_clock_ns(); /* runs on while excluding */
	int ok;
	while (!(ok = done(arg)) && arch_clock_ns() - start < limit_ns)
		net_tick();
	vtime_exclude_end();
	return ok;
}

void net_init(void)
{
	net_run(start, NULL);
	/* Virtual time: the boot-time host links answered (hostlink.h), with
	 * the clock standing.  Not in the other clocks: there a peer that
	 * sees this node's transport up may ask its process manager for work
	 * at once (cluster_test_fs's creations failed with E_DEAD while the
	 * node waited for the hub's challenge). */
	if (net_running && vtime_on)
		net_wait_until(hostlink_standing_settled, NULL);
}

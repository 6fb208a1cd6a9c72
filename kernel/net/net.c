/*
 * kernel/net/net.c - bringing the network up and keeping it running.
 * lwIP is not reentrant and the kernel has no threads, so every entry into
 * it (a device interrupt, the 100 Hz timer, peer_send from a kernel call)
 * goes through net_run(), which also moves the work onto a 16 KiB stack of
 * its own: a process's kernel stack is one page, too small for TCP input
 * plus the delivery callbacks it makes.  Interrupts are off whenever
 * kernel code runs, so net_run() is never entered twice at once except by
 * nesting (a callback calling peer_send), which runs in place.
 */
#include "kernel/kernel.h"
#include "net.h"
#include "net_lwip.h"
#include "ethdev.h"
#include "peer.h"
#include "kernel/vtime.h"
#include "lwip/init.h"
#include "lwip/timeouts.h"

#define NET_STACK_BYTES 16384

static uint8_t net_stack[NET_STACK_BYTES] __attribute__((aligned(16)));
static int on_net_stack;
static int net_running;

void net_run(void (*fn)(void *), void *arg)
{
	if (on_net_stack) {
		fn(arg);
		return;
	}
	on_net_stack = 1;
	vtime_exclude_begin(); /* the stack's work is the host's timing: docs/virtual-time.md */
	arch_call_on_stack(fn, arg, net_stack + NET_STACK_BYTES);
	vtime_exclude_end();
	on_net_stack = 0;
}

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
	peer_selftest_start();
	hostlink_selftest_start();
}

void net_init(void)
{
	net_run(start, NULL);
}

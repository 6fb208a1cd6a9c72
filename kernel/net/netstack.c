/*
 * kernel/net/netstack.c - the network's own stack.  lwIP is not reentrant
 * and the kernel has no threads, so every entry into it (a device
 * interrupt, the 100 Hz timer, peer_send from a kernel call) goes through
 * net_run(), which also moves the work onto a 16 KiB stack of its own: a
 * process's kernel stack is one page, too small for TCP input plus the
 * delivery callbacks it makes.  Interrupts are off whenever kernel code
 * runs, so net_run() is never entered twice at once except by nesting (a
 * callback calling peer_send), which runs in place.  In virtual time the
 * stack's work is left out of the node clock: how much of it there is
 * depends on the host (docs/virtual-time.md).
 */
#include "kernel/kernel.h"
#include "netstack.h"
#include "kernel/vtime.h"

#define NET_STACK_BYTES 16384

static uint8_t net_stack[NET_STACK_BYTES] __attribute__((aligned(16)));
static int on_net_stack;

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

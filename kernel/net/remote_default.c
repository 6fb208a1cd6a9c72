/*
 * kernel/net/remote_default.c - weak stand-ins for the remote IPC layer's
 * callbacks, so a kernel without it still links and says what arrived.
 */
#include "kernel/kernel.h"
#include "peer.h"

__attribute__((weak)) void remote_deliver(uint32_t from_node, const uint8_t *frame, uint32_t len)
{
	(void)frame;
	kprintf("peer: frame of %u bytes from node %u (no remote IPC layer; dropped)\n", len, from_node);
}

__attribute__((weak)) void remote_node_down(uint32_t node)
{
	kprintf("peer: node %u is down (no remote IPC layer to tell)\n", node);
}

__attribute__((weak)) void remote_poll(void)
{
}

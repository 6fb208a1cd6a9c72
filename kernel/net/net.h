/*
 * kernel/net/net.h - the node's network as the rest of the kernel sees it
 * (docs/network.md): bring-up, the timer hook, and waiting on the network
 * with the node clock stopped.  It sits above the transports (it starts
 * and ticks them); the settings (netconfig.h) and the stack all network
 * work runs on (netstack.h) are below them, included here for the kernel's
 * convenience.  Nothing here exposes lwIP.
 */
#ifndef DPM_NET_H
#define DPM_NET_H
#include <stdint.h>

#include "netconfig.h"
#include "netstack.h"

/* Find the devices, bring up lwIP and the peer transport (a node without
 * a network card boots on without them). */
void net_init(void);
/* 100 Hz, from kernel_timer_tick(). */
void net_tick(void);
/* `poll` is called after each network interrupt and timer tick, off the
 * network stack: send buffers may have room again (the remote IPC layer
 * sends what waited for it and wakes its blocked senders; it gives its
 * remote_poll at boot, so this layer names nothing above it). */
void net_set_poll(void (*poll)(void));
/* Run the network (its devices, timers and transports) until done(arg) is
 * true or a long limit passes, with the node clock stopped (virtual time:
 * what the host does meanwhile is not the node's time).  1 when done. */
int net_wait_until(int (*done)(void *), void *arg);
/* The same with a limit of limit_ns (of the clock that runs while the
 * node clock stands still: instructions in virtual time, the host's time
 * otherwise). */
int net_wait_until_for(int (*done)(void *), void *arg, uint64_t limit_ns);
#endif

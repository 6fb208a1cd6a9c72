/*
 * kernel/net/netstack.h - where and when network work runs: every entry
 * into lwIP goes through net_run() onto one dedicated stack (netstack.c),
 * and every network timeout reads net_now_ms().  Below the transports
 * (peer, host links), which call it; it calls nothing of theirs.
 */
#ifndef DPM_NETSTACK_H
#define DPM_NETSTACK_H
#include <stdint.h>

/* Run fn(arg) on the network stack (directly when already on it).  Every
 * call into lwIP goes through here. */
void net_run(void (*fn)(void *), void *arg);
uint32_t net_random(void);
/* The transport clock, of every network timeout: milliseconds since boot
 * of the node clock, plus the credits below. */
uint32_t net_now_ms(void);
/* Virtual time: host time a stalled node's watchdog counted (kernel/net/
 * vwatch.c) moves the transport clock on, never the node clock. */
void net_credit_ms(uint32_t ms);
#endif

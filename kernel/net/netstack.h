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
/* Milliseconds since boot, the clock of every network timeout. */
uint32_t net_now_ms(void);
#endif

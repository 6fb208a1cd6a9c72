/*
 * kernel/net/vwatch.h - the host-time watchdog of a node stalled in
 * virtual time (docs/virtual-time.md §2.8): loss recovery and failure
 * detection that cost host time only, never node time.
 */
#ifndef DPM_VWATCH_H
#define DPM_VWATCH_H
#include <stdint.h>

/* Stalled (node clock standing still, inside an excluded stretch): halt
 * until a card's interrupt or the watchdog.  Host time the watchdog
 * counted moves the transport clock on (TCP retransmits, heartbeats go
 * out); a peer in held[] (the peers this node waits on) heard from by
 * nothing for `vdown` ms of such host time is declared DOWN.  Returns the
 * ms of host time the watchdog counted (0: a frame ended the wait first). */
uint32_t vwatch_wait(const uint32_t *held, uint32_t nheld);
/* 1 while halted in vwatch_wait (frames taken then arrived while this node
 * was stalled: what vdrop= counts, kernel/net/netif.c). */
int vwatch_halted(void);
#endif

/*
 * kernel/net/net_lwip.h - what the files of kernel/net that speak lwIP
 * share among themselves (never included outside kernel/net).
 */
#ifndef DPM_NET_LWIP_H
#define DPM_NET_LWIP_H
#include "addrplan.h"
#include "lwip/netif.h"

/* The configured interface playing `role`, or NULL. */
struct netif *net_find_role(enum net_role role);
/* Hand every frame received so far to lwIP (timer tick and interrupts). */
void net_poll_devices(void);

/* The transports' timer work, 100 Hz, on the network stack. */
void peer_init(void);
void peer_tick(void);
void hostlink_tick(void);
void hostlink_start(void);   /* hostlink.h */
int hostlink_standing_settled(void *unused); /* hostlink.h */
void peer_selftest_start(void);
void peer_selftest_tick(void);
void hostlink_selftest_start(void);
void hostlink_selftest_tick(void);
#endif

/*
 * kernel/net/port/stdlib.h - the one <stdlib.h> function lwIP uses
 * (netif.c: atoi, to parse interface names), provided by
 * kernel/net/lwip_port.c.
 */
#ifndef DPM_LWIP_PORT_STDLIB_H
#define DPM_LWIP_PORT_STDLIB_H
int atoi(const char *s);
#endif

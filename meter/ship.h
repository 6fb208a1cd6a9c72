/*
 * meter/ship.h - the meter's way out (ship.c): sending batches over the
 * kernel's messages or a host link, and meter links to host services.
 */
#ifndef DPM_METER_SHIP_H
#define DPM_METER_SHIP_H
#include "kernel/kernel.h"

/* At boot, once node_id is known: batches start to go out. */
void meter_ship_init(void);
/* A meter link to host service `name` (a filter on the host, reached
 * through the node's host link): a kernel link whose code is the
 * service's index in host=.  0, or E_NONAME. */
int32_t meter_host_link(const char *name, struct link *out);
#endif

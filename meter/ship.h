/*
 * meter/ship.h - the meter's way out (ship.c): sending batches over the
 * kernel's messages or a host link.
 */
#ifndef DPM_METER_SHIP_H
#define DPM_METER_SHIP_H
#include "kernel/kernel.h"

/* At boot, once node_id is known: batches start to go out. */
void meter_ship_init(void);
#endif

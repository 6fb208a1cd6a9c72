/*
 * kernel/hostin.h - host input at virtual times (docs/virtual-time.md
 * §2.6): on a node in virtual time with peers, the host gate to the
 * control hub (service `ctl`) is "timed".  What the node sends on it goes
 * out in envelopes stamped with the node clock, and the node tells the hub
 * when it will send nothing before some time (promises); what the hub
 * sends comes in envelopes stamped with the node time at which it must be
 * taken, and with grants, the time up to which the node may run.  The
 * cluster's synchronisation (kernel/net/vlink.c) stops the node at the
 * grant, takes the hub's bytes at their times, and reports promises.
 * At most one timed gate per node (the agent's).
 */
#ifndef DPM_HOSTIN_H
#define DPM_HOSTIN_H
#include <stdint.h>

/* Whether a gate to host service `name` is to be timed. */
int hostin_timed(const char *name);
/* The timed gate is hostlink `link`; bytes due are handed to take(),
 * which takes them all (1) or none (0: no room; asked again later).  No
 * input before the node's time now until the hub grants more. */
void hostin_open(int link, uint32_t (*take)(const uint8_t *, uint32_t, void *), void *arg);
void hostin_close(void);
/* Bytes from the hub (envelopes; network context).  0, or -1 when they do
 * not fit (the hub went past the window) or are not envelopes. */
int hostin_recv(const uint8_t *data, uint32_t len);
/* Send bytes to the hub stamped with the node clock; a full link is waited
 * for with the clock standing still (output never moves virtual time). */
int32_t hostin_send(const void *data, uint32_t len);

/* For the synchronisation: the hub's grant (VTIME_NEVER without a timed
 * gate); the time of the earliest input held (VTIME_NEVER: none); whether
 * an input is due at or before now (with the clock standing: it is made
 * ready), then hand it over (with the clock running; 0: the gate had no
 * room, it stays); tell the hub this node sends nothing before `at` (sent
 * when the node stalls on the grant, or when it has moved on by half the
 * hub's lookahead). */
uint64_t hostin_grant(void);
uint64_t hostin_next(void);
int hostin_due(uint64_t now);
int hostin_take(void);
void hostin_report(uint64_t at, int stalled);
#endif

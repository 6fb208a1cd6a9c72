/*
 * kernel/hostgate.h - the host gateway: a process opens a byte stream to a
 * host service of its node's `host=` list (the controller's `ctl`) and
 * speaks that service's protocol over it (docs/control.md).  Requests
 * KR_HOSTOPEN/KR_HOSTSEND/KR_HOSTCLOSE over a plain kernel link; bytes from
 * the host come to the process as messages with code KR_HOSTGATE_DATA(g),
 * the connection's end as an empty message with code KR_HOSTGATE_END(g).
 */
#ifndef DPM_HOSTGATE_H
#define DPM_HOSTGATE_H
#include <stdint.h>

#include "kernel.h"

/* HOSTGATE_MAX gates, each with a HOSTGATE_INBOX: kernel/capacities.h */

/* Kinds KR_HOSTGATE_FIRST..KR_HOSTGATE_LAST, routed by kdevice_service();
 * same contract as kservice(). */
int32_t hostgate_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
			 uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
			 struct link *reply_link);
/* Every clock tick: hand held bytes to owners whose queues have room. */
void hostgate_tick(void);
#endif

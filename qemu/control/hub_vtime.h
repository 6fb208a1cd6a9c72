/*
 * qemu/control/hub_vtime.h - the control hub as one more participant of a
 * cluster's virtual time (docs/virtual-time.md §2.6): the pure part, with
 * no sockets, so that it can be tested alone.
 *
 * Members are the timed agents' connections (index = the hub's connection
 * slot).  Each tells the hub its promises (nothing sent before t) and
 * sends frames stamped with node times; the hub hands those frames on
 * (events) in (time, node, arrival) order, and only once no member can
 * still send an earlier one.  A scripted controller that receives an event
 * is "thinking" until it says CTL_IDLE; its commands meanwhile are taken by
 * their node at the event's time + CTL_VT_LOOKAHEAD_NS, and no node is let
 * past that time (the grant) before it says so.  So what a scripted
 * controller does, and when the nodes take it, depends only on what the
 * nodes sent, never on host timing.
 *
 * Hold: a cluster booted for a controller stands still after boot until
 * one comes: member i is let run to HUB_VT_HOLD_NS past its first word to
 * the hub, and the first controller's commands are taken at the latest of
 * those, once every expected agent has spoken.
 */
#ifndef DPM_HUB_VTIME_H
#define DPM_HUB_VTIME_H

#include <stdint.h>

#include "kernel/abi/control.h"

#define HUB_VT_MEMBERS 48
#define HUB_VT_NEVER UINT64_MAX
#define HUB_VT_HOLD_NS 100000000ull /* 100 ms of node time: more than boots differ */

struct hub_vt_event {
	uint64_t time;
	uint32_t node;
	uint64_t seq;          /* arrival order */
	uint32_t member;
	struct ctl_frame f;
	uint8_t *payload;      /* f.len bytes, malloc'd; the taker frees it */
};

struct hub_vt_member {
	int in_use;
	uint32_t node;         /* 0 until its HELLO */
	uint64_t first;        /* the time of its first envelope */
	uint64_t promise;      /* it sends nothing before this */
	uint64_t granted;      /* the highest grant sent to it */
};

struct hub_vt {
	int hold;              /* holding after boot for the first controller */
	uint32_t expected;     /* agents that must speak before a hold ends  */
	struct hub_vt_member m[HUB_VT_MEMBERS];
	struct hub_vt_event *ev;   /* sorted by (time, node, seq)             */
	uint32_t nev, cap;
	uint64_t seq;
	int thinking;          /* a scripted controller has an event to react to */
	uint32_t thinker;      /* its serial */
	uint64_t stamp;        /* the time its commands are taken (the last
	                          event handed on + the lookahead)          */
};

void hub_vt_init(struct hub_vt *vt, uint32_t expected, int hold);
/* The events not handed on, and their payloads, freed. */
void hub_vt_free(struct hub_vt *vt);
/* A member's envelope (its first makes it one): a promise, or a data
 * envelope's time.  Promises never go back. */
void hub_vt_heard(struct hub_vt *vt, uint32_t member, uint64_t time);
void hub_vt_named(struct hub_vt *vt, uint32_t member, uint32_t node);
void hub_vt_leave(struct hub_vt *vt, uint32_t member);
/* A frame a member completed at `time` (payload copied).  0, or -1 out of
 * memory. */
int hub_vt_push(struct hub_vt *vt, uint32_t member, uint64_t time, const struct ctl_frame *f,
		const uint8_t *payload);
/* The next event to hand on: 1 and *e (the caller frees e->payload), or 0
 * (none yet, or a controller is thinking). */
int hub_vt_next(struct hub_vt *vt, struct hub_vt_event *e);
/* After handing e on to a scripted controller (serial). */
void hub_vt_think(struct hub_vt *vt, uint32_t controller, uint64_t time);
/* That controller has reacted (CTL_IDLE matching all it was sent). */
void hub_vt_idle(struct hub_vt *vt, uint32_t controller);
/* Whether a hold may end now (every expected member has spoken): 1, and
 * the hold is over (the caller then lets its controller think at
 * hub_vt_start_time). */
int hub_vt_end_hold(struct hub_vt *vt);
uint64_t hub_vt_start_time(const struct hub_vt *vt);
/* The node time at which a command for member's node is taken. */
uint64_t hub_vt_stamp(const struct hub_vt *vt, uint32_t member);
/* The grant member may have now; HUB_VT_NEVER when not a member. */
uint64_t hub_vt_grant(const struct hub_vt *vt, uint32_t member);
#endif

/*
 * qemu/control/hub_vtime.c - the hub's part of virtual time (hub_vtime.h):
 * promises, the event queue in (time, node, arrival) order, the thinking
 * controller, the hold after boot, and the grants that follow from them.
 *
 * A grant G may go to every member: no command the hub will stamp can be
 * due before G.  Commands are stamped with the event their controller
 * reacts to + the lookahead L, and events are handed on in time order, so
 * G = L + the least of: the event being thought about, the earliest event
 * queued, every member's promise (a later event is no earlier); under a
 * hold, also no more than the member's own hold point.
 */
#include "hub_vtime.h"

#include <stdlib.h>
#include <string.h>

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

void hub_vt_init(struct hub_vt *vt, uint32_t expected, int hold)
{
	memset(vt, 0, sizeof *vt);
	vt->expected = expected;
	vt->hold = hold;
}

void hub_vt_free(struct hub_vt *vt)
{
	for (uint32_t i = 0; i < vt->nev; i++)
		free(vt->ev[i].payload);
	free(vt->ev);
	vt->ev = NULL;
	vt->nev = vt->cap = 0;
}

void hub_vt_heard(struct hub_vt *vt, uint32_t member, uint64_t time)
{
	if (member >= HUB_VT_MEMBERS)
		return;
	struct hub_vt_member *m = &vt->m[member];
	if (!m->in_use) {
		*m = (struct hub_vt_member){ .in_use = 1, .first = time, .promise = time,
					     .granted = time };
		return;
	}
	if (time > m->promise)
		m->promise = time;
}

void hub_vt_named(struct hub_vt *vt, uint32_t member, uint32_t node)
{
	if (member < HUB_VT_MEMBERS && vt->m[member].in_use)
		vt->m[member].node = node;
}

void hub_vt_leave(struct hub_vt *vt, uint32_t member)
{
	if (member < HUB_VT_MEMBERS)
		vt->m[member].in_use = 0;
}

static int before(const struct hub_vt_event *a, const struct hub_vt_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->node != b->node)
		return a->node < b->node;
	return a->seq < b->seq;
}

int hub_vt_push(struct hub_vt *vt, uint32_t member, uint64_t time, const struct ctl_frame *f,
		const uint8_t *payload)
{
	if (vt->nev == vt->cap) {
		uint32_t cap = vt->cap ? vt->cap * 2 : 64;
		struct hub_vt_event *bigger = realloc(vt->ev, cap * sizeof *bigger);
		if (!bigger)
			return -1;
		vt->ev = bigger;
		vt->cap = cap;
	}
	struct hub_vt_event e = { .time = time, .node = member < HUB_VT_MEMBERS ? vt->m[member].node : 0,
				  .seq = ++vt->seq, .member = member, .f = *f };
	if (f->len) {
		if (!(e.payload = malloc(f->len)))
			return -1;
		memcpy(e.payload, payload, f->len);
	}
	uint32_t i = vt->nev;
	while (i > 0 && before(&e, &vt->ev[i - 1])) {
		vt->ev[i] = vt->ev[i - 1];
		i--;
	}
	vt->ev[i] = e;
	vt->nev++;
	hub_vt_heard(vt, member, time);
	return 0;
}

/* No member but e's own can still send anything ordered before e. */
static int settled(const struct hub_vt *vt, const struct hub_vt_event *e)
{
	for (uint32_t j = 0; j < HUB_VT_MEMBERS; j++) {
		const struct hub_vt_member *m = &vt->m[j];
		if (!m->in_use || j == e->member)
			continue;
		if (m->promise < e->time || (m->promise == e->time && m->node <= e->node))
			return 0;
	}
	return 1;
}

int hub_vt_next(struct hub_vt *vt, struct hub_vt_event *e)
{
	if (vt->thinking || !vt->nev || !settled(vt, &vt->ev[0]))
		return 0;
	*e = vt->ev[0];
	memmove(vt->ev, vt->ev + 1, (vt->nev - 1) * sizeof *vt->ev);
	vt->nev--;
	return 1;
}

void hub_vt_think(struct hub_vt *vt, uint32_t controller, uint64_t time)
{
	vt->thinking = 1;
	vt->thinker = controller;
	if (time + CTL_VT_LOOKAHEAD_NS > vt->stamp)
		vt->stamp = time + CTL_VT_LOOKAHEAD_NS;
}

void hub_vt_idle(struct hub_vt *vt, uint32_t controller)
{
	if (vt->thinking && vt->thinker == controller)
		vt->thinking = 0;
}

uint64_t hub_vt_start_time(const struct hub_vt *vt)
{
	uint64_t t = 0;
	for (uint32_t j = 0; j < HUB_VT_MEMBERS; j++)
		if (vt->m[j].in_use && vt->m[j].first + HUB_VT_HOLD_NS > t)
			t = vt->m[j].first + HUB_VT_HOLD_NS;
	return t;
}

int hub_vt_end_hold(struct hub_vt *vt)
{
	uint32_t named = 0;
	if (!vt->hold)
		return 0;
	for (uint32_t j = 0; j < HUB_VT_MEMBERS; j++)
		named += vt->m[j].in_use && vt->m[j].node;
	if (named < vt->expected)
		return 0;
	vt->hold = 0;
	/* commands of the first controller are taken at the start time */
	uint64_t start = hub_vt_start_time(vt);
	if (start > vt->stamp)
		vt->stamp = start;
	return 1;
}

uint64_t hub_vt_stamp(const struct hub_vt *vt, uint32_t member)
{
	uint64_t g = member < HUB_VT_MEMBERS ? vt->m[member].granted : 0;
	return g > vt->stamp ? g : vt->stamp;
}

uint64_t hub_vt_grant(const struct hub_vt *vt, uint32_t member)
{
	if (member >= HUB_VT_MEMBERS || !vt->m[member].in_use)
		return HUB_VT_NEVER;
	uint64_t least = vt->thinking ? vt->stamp - CTL_VT_LOOKAHEAD_NS : HUB_VT_NEVER;
	if (vt->nev)
		least = min64(least, vt->ev[0].time);
	for (uint32_t j = 0; j < HUB_VT_MEMBERS; j++)
		if (vt->m[j].in_use)
			least = min64(least, vt->m[j].promise);
	uint64_t g = least == HUB_VT_NEVER ? HUB_VT_NEVER : least + CTL_VT_LOOKAHEAD_NS;
	if (vt->hold)
		g = min64(g, vt->m[member].first + HUB_VT_HOLD_NS);
	return g > vt->m[member].granted ? g : vt->m[member].granted;
}

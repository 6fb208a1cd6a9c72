/*
 * kernel/hostin.c - host input at virtual times (hostin.h).  The envelope
 * format is kernel/abi/control.h's.  Received bytes are kept as they came
 * in one buffer: grants are taken out (and acknowledged to the host) as
 * soon as they are whole, since they only let the node run on; data
 * envelopes stay, in the hub's order (their times never decrease), until
 * the node clock reaches their time at a stop of the synchronisation, when
 * their bytes go to the gate (and only then are acknowledged, so the hub
 * is never more than a TCP window ahead and the buffer never overflows).
 * Everything here but the handing over runs with the clock standing still.
 */
#include "kernel.h"
#include "vtime.h"
#include "hostin.h"
#include "kernel/abi/control.h"
#include "kernel/net/hostlink.h"
#include "kernel/net/net.h"
#include "kernel/net/peer.h"

static int link = -1;
static uint32_t (*take)(const uint8_t *, uint32_t, void *);
static void *take_arg;
static uint64_t grant;
static uint64_t promised;       /* the last promise sent           */
static int promised_any;
static uint8_t rx[HOSTGATE_INBOX];
static uint32_t rx_len;
static uint8_t tx[CTL_ENV_SIZE + MSG_MAX];
static uint8_t out[HOSTGATE_INBOX];

int hostin_timed(const char *name)
{
	return vtime_on && vtime_synced() && !strcmp(name, "ctl");
}

void hostin_open(int l, uint32_t (*t)(const uint8_t *, uint32_t, void *), void *arg)
{
	link = l;
	take = t;
	take_arg = arg;
	grant = vtime_now();
	rx_len = 0;
	promised_any = 0;
}

void hostin_close(void)
{
	link = -1;
	rx_len = 0;
}

static struct ctl_envelope envelope_at(uint32_t off)
{
	struct ctl_envelope e;
	memcpy(&e, rx + off, CTL_ENV_SIZE);
	return e;
}

/* Take the grants out of rx; -1 when something is not an envelope. */
static int take_grants(void)
{
	uint32_t off = 0;
	while (rx_len - off >= CTL_ENV_SIZE) {
		struct ctl_envelope e = envelope_at(off);
		if (e.magic != CTL_ENV_MAGIC || (e.kind != CTL_ENV_DATA && e.kind != CTL_ENV_GRANT) ||
		    e.len > sizeof rx - CTL_ENV_SIZE)
			return -1;
		if (e.kind == CTL_ENV_DATA) {
			off += CTL_ENV_SIZE + e.len;
			continue;
		}
		if (e.time > grant)
			grant = e.time;
		memmove(rx + off, rx + off + CTL_ENV_SIZE, rx_len - off - CTL_ENV_SIZE);
		rx_len -= CTL_ENV_SIZE;
		hostlink_consumed(link, CTL_ENV_SIZE);
	}
	return 0;
}

int hostin_recv(const uint8_t *data, uint32_t len)
{
	if (len > sizeof rx - rx_len)
		return -1;
	memcpy(rx + rx_len, data, len);
	rx_len += len;
	return take_grants();
}

/* The first data envelope, whole: 1 and *e, or 0. */
static int first(struct ctl_envelope *e)
{
	if (link < 0 || rx_len < CTL_ENV_SIZE)
		return 0;
	*e = envelope_at(0);
	return e->kind == CTL_ENV_DATA && rx_len >= CTL_ENV_SIZE + e->len;
}

uint64_t hostin_grant(void)
{
	return link < 0 ? VTIME_NEVER : grant;
}

uint64_t hostin_next(void)
{
	struct ctl_envelope e;
	return first(&e) ? e.time : VTIME_NEVER;
}

/* The search and the buffer's moves depend on what else the host has sent
 * already: off the clock (hostin_due is called with it standing); the
 * hand-over to the gate is on it. */
static uint32_t staged;         /* bytes of the envelope hostin_due found */

int hostin_due(uint64_t now)
{
	struct ctl_envelope e;
	if (!first(&e) || e.time > now)
		return 0;
	memcpy(out, rx + CTL_ENV_SIZE, e.len);
	staged = e.len;
	return 1;
}

int hostin_take(void)
{
	if (!take(out, staged, take_arg))
		return 0;
	vtime_exclude_begin();
	memmove(rx, rx + CTL_ENV_SIZE + staged, rx_len - CTL_ENV_SIZE - staged);
	rx_len -= CTL_ENV_SIZE + staged;
	hostlink_consumed(link, CTL_ENV_SIZE);
	vtime_exclude_end();
	return 1;
}

static int32_t send_envelope(uint32_t kind, uint64_t time, const void *data, uint32_t len)
{
	struct ctl_envelope e = { CTL_ENV_MAGIC, kind, len, 0, time };
	memcpy(tx, &e, CTL_ENV_SIZE);
	if (len)
		memcpy(tx + CTL_ENV_SIZE, data, len);
	return hostlink_send(link, tx, CTL_ENV_SIZE + len);
}

static int room_or_down(void *unused)
{
	(void)unused;
	return hostlink_drained(link) || hostlink_state(link) != PEER_UP;
}

int32_t hostin_send(const void *data, uint32_t len)
{
	if (len > MSG_MAX)
		return E_TOOBIG;
	uint64_t now = vtime_now();
	int32_t r;
	vtime_exclude_begin();
	while ((r = send_envelope(CTL_ENV_DATA, now, data, len)) == E_NOMEM &&
	       net_wait_until(room_or_down, NULL))
		;
	vtime_exclude_end();
	if (r == 0 && now > promised)
		promised = now;
	return r;
}

void hostin_report(uint64_t at, int stalled)
{
	if (link < 0 || (promised_any && at <= promised))
		return;
	/* at once when the node waits on the hub's grant; else every half
	 * lookahead (the hub needs promises only to hand on events and move
	 * grants, and every host-link frame costs a trip through QEMU) */
	int urgent = stalled && at >= grant;
	if (promised_any && !urgent && at < promised + CTL_VT_LOOKAHEAD_NS / 2)
		return;
	if (send_envelope(CTL_ENV_PROMISE, at, NULL, 0) == 0) {
		promised = at;
		promised_any = 1;
	}
}

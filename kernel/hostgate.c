/*
 * kernel/hostgate.c - the host gateway of hostgate.h.  A gate is a host
 * link (kernel/net/hostlink.h) owned by one process: only the process that
 * opened it may send on it or close it.  Bytes from the host are handed to
 * the owner as kernel messages of at most MSG_MAX bytes, in order; when
 * the owner's queue is full they wait in the gate's inbox.  Bytes are
 * acknowledged to the host only once handed over (the link's manual
 * window), so the host is never more than a TCP window ahead and the
 * inbox, larger than the window, never overflows: nothing is dropped.  A gate whose owner has ended is closed the
 * next time the gateway runs (on any request, bytes in, or clock tick).
 * Only a kernel link with LINK_KHOST opens gates: every gate to a service
 * shares the node's one connection to it, so one process (ctld) speaks
 * for the node.  In virtual time with peers the gate to the control hub is
 * timed (hostin.h): its bytes are enveloped with node times both ways, and
 * the hub's reach the inbox only when the node clock reaches their time.
 */
#include "kernel.h"
#include "hostgate.h"
#include "hostin.h"
#include "vtime.h"
#include "kernel/net/hostlink.h"

struct gate {
	int in_use;
	int hostlink;
	uint32_t owner;            /* task of the process that opened it */
	int down;                  /* the connection ended; end notice owed */
	int timed;                 /* hostin.h's gate                      */
	uint32_t held;             /* bytes in inbox                       */
	uint8_t inbox[HOSTGATE_INBOX];
};

static struct gate gates[HOSTGATE_MAX];

static uint32_t word(const uint8_t *req, int i)
{
	uint32_t v;
	memcpy(&v, req + 4 * i, 4);
	return v;
}

static int owner_alive(const struct gate *g)
{
	struct proc *p = proc_by_task(g->owner);
	return p && p->state != P_ZOMBIE && p->state != P_FREE;
}

static void untime(struct gate *g);

static void close_gate(struct gate *g)
{
	untime(g);
	hostlink_close(g->hostlink);
	g->in_use = 0;
}

/* Hand held bytes (then the end notice) to the owner while it takes them. */
static void deliver(struct gate *g)
{
	int n = (int)(g - gates);
	struct link to = { .in_use = 1, .task = g->owner, .code = KR_HOSTGATE_DATA(n) };
	struct proc *owner = proc_by_task(g->owner);
	uint32_t off = 0;
	while (owner && off < g->held) {
		uint32_t chunk = g->held - off < MSG_MAX ? g->held - off : MSG_MAX;
		/* charged to the owner: a process that never takes its gate's
		 * bytes fills its own quota, then the bytes wait here and the
		 * host is held back by the unacknowledged window */
		if (ipc_kernel_send_for(owner, &to, g->inbox + off, chunk) < 0)
			break;
		off += chunk;
	}
	memmove(g->inbox, g->inbox + off, g->held - off);
	g->held -= off;
	hostlink_consumed(g->hostlink, off); /* the host may send that much more */
	if (g->down && g->held == 0) {
		to.code = KR_HOSTGATE_END(n);
		if (ipc_kernel_send(&to, NULL, 0, 0) == 0)
			close_gate(g);
	}
}

/* Close the gates of ended owners; deliver what waits for live ones. */
static void tend_gates(void)
{
	for (int i = 0; i < HOSTGATE_MAX; i++) {
		if (!gates[i].in_use)
			continue;
		if (!owner_alive(&gates[i]))
			close_gate(&gates[i]);
		else
			deliver(&gates[i]);
	}
}

void hostgate_tick(void)
{
	tend_gates();
}

/* hostin's hand-over of bytes due: into the inbox, then to the owner. */
static uint32_t take_due(const uint8_t *data, uint32_t len, void *arg)
{
	struct gate *g = arg;
	if (len > HOSTGATE_INBOX - g->held)
		return 0;
	memcpy(g->inbox + g->held, data, len);
	g->held += len;
	deliver(g);
	return 1;
}

static void on_recv(int hostlink, const uint8_t *data, uint32_t len, void *arg)
{
	(void)hostlink;
	struct gate *g = arg;
	if (g->timed) { /* held until due: nothing reaches the owner at host-chosen times */
		if (hostin_recv(data, len) < 0 && !g->down) {
			kprintf("hostgate: the hub's bytes are not timed envelopes or pass the window; "
				"gate %d ends\n", (int)(g - gates));
			g->down = 1;
			untime(g);
		}
		return;
	}
	uint32_t room = HOSTGATE_INBOX - g->held;
	uint32_t take = len < room ? len : room;
	memcpy(g->inbox + g->held, data, take);
	g->held += take;
	if (len > take && !g->down) {
		/* the host went past the TCP window: its stream cannot be trusted */
		kprintf("hostgate: %u bytes beyond the window; gate %d ends\n",
			(unsigned)(len - take), (int)(g - gates));
		g->down = 1;
	}
	tend_gates();
}

/* A timed gate that ends no longer holds the node at the hub's grant. */
static void untime(struct gate *g)
{
	if (g->timed)
		hostin_close();
	g->timed = 0;
}

static void on_down(int hostlink, void *arg)
{
	(void)hostlink;
	struct gate *g = arg;
	g->down = 1;
	untime(g);
	tend_gates();
}

static int32_t gate_open(struct proc *p, const uint8_t *req, uint32_t len, uint8_t *reply, uint32_t *reply_len)
{
	char name[13] = { 0 };
	if (len < 5)
		return E_BADREQ;
	memcpy(name, req + 4, len - 4 < 12 ? len - 4 : 12);
	for (int32_t i = 0; i < HOSTGATE_MAX; i++) {
		struct gate *g = &gates[i];
		if (g->in_use)
			continue;
		*g = (struct gate){ .in_use = 1, .owner = p->task };
		struct hostlink_callbacks cb = { .recv = on_recv, .down = on_down, .arg = g,
						 .manual_window = 1 };
		int h = hostlink_open(name, &cb);
		if (h < 0) {
			g->in_use = 0;
			return h;
		}
		g->hostlink = h;
		if (hostin_timed(name) && hostin_grant() == VTIME_NEVER) {
			g->timed = 1;
			hostin_open(h, take_due, g);
		}
		memcpy(reply, &i, 4);
		*reply_len = 4;
		return 0;
	}
	return E_NOSPACE;
}

/* The caller's own gate named in word 1 of req, or NULL with *err. */
static struct gate *own_gate(struct proc *p, const uint8_t *req, uint32_t len, int32_t *err)
{
	uint32_t n = len >= 8 ? word(req, 1) : (uint32_t)-1;
	*err = len < 8 ? E_BADREQ : E_INVAL;
	if (n >= HOSTGATE_MAX || !gates[n].in_use)
		return NULL;
	if (gates[n].owner != p->task) {
		*err = E_RIGHTS;
		return NULL;
	}
	return &gates[n];
}

int32_t hostgate_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
			 uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
			 struct link *reply_link)
{
	(void)passed; (void)reply_link;
	int32_t err;
	struct gate *g;
	if (!(via->rights & LINK_KHOST))
		return E_RIGHTS;
	tend_gates();
	switch (kind) {
	case KR_HOSTOPEN:
		return gate_open(p, req, len, reply, reply_len);
	case KR_HOSTSEND:
		if (!(g = own_gate(p, req, len, &err)))
			return err;
		if (g->down)
			return E_NODEDOWN;
		return g->timed ? hostin_send(req + 8, len - 8) : hostlink_send(g->hostlink, req + 8, len - 8);
	case KR_HOSTCLOSE:
		if (!(g = own_gate(p, req, len, &err)))
			return err;
		close_gate(g);
		return 0;
	}
	return E_BADREQ;
}

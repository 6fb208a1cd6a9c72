/*
 * qemu/commands/cluster_hub.c - `dpm cluster hub`: the cluster's control hub, the
 * host service `ctl` that `dpm cluster up` starts for every cluster
 * (docs/control.md).
 *
 * The nodes' agents (ctld) reach it through their host links, which QEMU
 * forwards to 127.0.0.1:PORT; controllers (`dpm control`, `dpm record`)
 * connect to the same port and must first show the cluster's secret
 * (DIR/secret, which only its owner can read).  The hub passes each
 * controller's requests on to the node they name, renumbered so that the
 * replies find their way back, and sends each controller the reports
 * (output, ends) of the processes it created or acquired; only that
 * controller may control them.  When a node's agent goes away, the
 * requests waiting on it fail with E_NODEDOWN and its processes are
 * reported ended (node down).  A connection that neither says HELLO nor
 * shows the right secret is refused, and the refusal logged on stderr,
 * which the cluster keeps in DIR/ctl.service.log.
 *
 * Every connection is greeted with a challenge (kernel/abi/hostauth.h):
 * a node's kernel answers it with the cluster's secret before its agent
 * says anything, and a HELLO is taken only for the node id so proven, one
 * agent per node; a controller skips the challenge and shows the secret.
 * So a peer without the secret can neither pose as a node nor report on
 * any process, and a node reports only on its own processes.
 *
 * In virtual time (docs/virtual-time.md §2.6) an agent whose kernel times
 * its gate speaks in envelopes (kernel/abi/control.h): its frames carry
 * node times, and the hub hands them on in time order, stamps every
 * command with the node time at which it is to be taken and grants the
 * nodes the time they may run to (qemu/control/hub_vtime.h holds that
 * logic).  With --hold N a cluster booted for a controller stands still
 * after boot until N agents have spoken and a controller has come.
 *
 * One poll loop; every socket non-blocking; every table fixed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kernel/abi/calls.h"
#include "qemu/cluster/cluster_dir.h"
#include "cluster_commands.h"
#include "qemu/control/ctl_wire.h"
#include "qemu/control/hub_vtime.h"
#include "hostfilter/filter/nodeauth.h"
#include "hostfilter/filter/shed.h"

#define HUB_MAX_CONNS 48
#define HUB_BACKLOG 64
/* A connection that has not said who it is after this long is closed.  Long,
 * since QEMU opens a node's connection (its guestfwd) when the node starts,
 * and the agent says HELLO only once the node has booted, on a busy host
 * many seconds later; --hello-timeout changes it (the tests use 2). */
#define HUB_HELLO_SECONDS 60
#define HUB_MAX_PENDING 512
#define HUB_MAX_OWNED 512
#define CONTROLLER_TX_LIMIT (16u << 20) /* a controller that stops reading is dropped */

enum conn_kind { CONN_NEW, CONN_NODE, CONN_CONTROLLER, CONN_CLOSING };

struct conn {
	int in_use;
	enum conn_kind kind;
	struct ctl_wire w;
	uint32_t serial;      /* unique per connection, so a reused slot is not mistaken */
	uint32_t node;        /* CONN_NODE: its id */
	char peer[32];        /* 127.0.0.1:PORT, for the log */
	struct timespec since; /* accepted at (monotonic) */
	/* virtual time */
	int timed;            /* an agent speaking in envelopes */
	struct ctl_wire frames; /* timed: the frames its envelopes carry */
	uint32_t sent;        /* controller: frames sent to it */
	int scripted;         /* controller: CTL_AUTH_SCRIPTED */
	int auth_waits;       /* controller: its AUTH is answered when a hold ends */
	uint32_t auth_id;
	struct nodeauth auth; /* CONN_NEW: the challenge sent, the answer so far */
	uint32_t proven;      /* the node id its answer proved (0: none) */
};

/* A request forwarded to a node, waiting for its reply. */
struct pending {
	int in_use;
	uint32_t hub_id;      /* the id the node sees */
	uint32_t id;          /* the controller's own id */
	uint32_t controller;  /* serial of the controller that asked */
	uint32_t node, type;
};

/* A process a controller created or acquired. */
struct owned {
	int in_use;
	uint32_t task;
	uint32_t controller;  /* serial */
};

struct hub {
	int listener;
	int spare;            /* a descriptor held to take and close one
	                         connection when the process has none left */
	int at_cap;           /* every place taken (said once per time) */
	int listener_failed;  /* accept() says the listener is unusable */
	unsigned long capped; /* connections closed for want of a place */
	char secret[CTL_SECRET_HEX + 1];
	struct nodeauth_key key;  /* the same secret, as the nodes' HMAC key */
	struct conn conns[HUB_MAX_CONNS];
	struct pending pending[HUB_MAX_PENDING];
	struct owned owned[HUB_MAX_OWNED];
	uint32_t next_serial, next_id;
	long hello_seconds;
	struct hub_vt vt;
	uint32_t fed;         /* serial of the scripted controller sent something last */
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void logf_hub(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void logf_hub(const char *fmt, ...)
{
	va_list ap;
	fputs("dpm cluster hub: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* ---- tables ---------------------------------------------------------------- */

static struct conn *by_serial(struct hub *h, uint32_t serial)
{
	for (int i = 0; i < HUB_MAX_CONNS; i++)
		if (h->conns[i].in_use && h->conns[i].serial == serial)
			return &h->conns[i];
	return NULL;
}

static struct conn *node_conn(struct hub *h, uint32_t node)
{
	for (int i = 0; i < HUB_MAX_CONNS; i++)
		if (h->conns[i].in_use && h->conns[i].kind == CONN_NODE && h->conns[i].node == node)
			return &h->conns[i];
	return NULL;
}

static struct owned *owner_of(struct hub *h, uint32_t task)
{
	for (int i = 0; i < HUB_MAX_OWNED; i++)
		if (h->owned[i].in_use && h->owned[i].task == task)
			return &h->owned[i];
	return NULL;
}

static int own(struct hub *h, uint32_t task, uint32_t controller)
{
	for (int i = 0; i < HUB_MAX_OWNED; i++)
		if (!h->owned[i].in_use) {
			h->owned[i] = (struct owned){ 1, task, controller };
			return 0;
		}
	return -1;
}

/* ---- sending --------------------------------------------------------------- */

static void close_conn(struct hub *h, struct conn *c, const char *why);

static uint32_t member(const struct hub *h, const struct conn *c)
{
	return (uint32_t)(c - h->conns);
}

/* To a timed agent: a command stamped with the node time it is taken at. */
static void send_timed(struct hub *h, struct conn *c, const struct ctl_frame *f, const void *payload)
{
	uint64_t at = hub_vt_stamp(&h->vt, member(h, c));
	if (ctl_wire_send_envelope(&c->w, CTL_ENV_DATA, at, f, payload) < 0)
		close_conn(h, c, "it does not read what it is sent");
}

static void send_to(struct hub *h, struct conn *c, const struct ctl_frame *f, const void *payload)
{
	if (c->kind == CONN_CLOSING)
		return;
	if (c->kind == CONN_CONTROLLER) {
		c->sent++;
		if (c->scripted)
			h->fed = c->serial;
	}
	if (c->kind == CONN_NODE && c->timed)
		send_timed(h, c, f, payload);
	else if (ctl_wire_send(&c->w, f, payload) < 0)
		close_conn(h, c, "it does not read what it is sent");
}

static void reply_to(struct hub *h, struct conn *c, uint32_t id, int32_t status, uint32_t task)
{
	struct ctl_frame f = ctl_frame_make(CTL_REPLY, id, 0, task);
	f.a = (uint32_t)status;
	send_to(h, c, &f, NULL);
}

/* ---- a node's agent going away ---------------------------------------------- */

static void node_gone(struct hub *h, uint32_t node)
{
	for (int i = 0; i < HUB_MAX_PENDING; i++) {
		struct pending *p = &h->pending[i];
		if (!p->in_use || p->node != node)
			continue;
		struct conn *c = by_serial(h, p->controller);
		if (c)
			reply_to(h, c, p->id, E_NODEDOWN, 0);
		p->in_use = 0;
	}
	for (int i = 0; i < HUB_MAX_OWNED; i++) {
		struct owned *o = &h->owned[i];
		if (!o->in_use || (o->task >> 16) != node)
			continue;
		struct conn *c = by_serial(h, o->controller);
		if (c) {
			struct ctl_frame f = ctl_frame_make(CTL_END, 0, node, o->task);
			f.a = EXIT_NODE_DOWN;
			send_to(h, c, &f, NULL);
		}
		o->in_use = 0;
	}
}

static void controller_gone(struct hub *h, uint32_t serial)
{
	for (int i = 0; i < HUB_MAX_PENDING; i++)
		if (h->pending[i].in_use && h->pending[i].controller == serial)
			h->pending[i].in_use = 0; /* its replies are dropped when they come */
	for (int i = 0; i < HUB_MAX_OWNED; i++)
		if (h->owned[i].in_use && h->owned[i].controller == serial)
			h->owned[i].in_use = 0;
}

static void close_conn(struct hub *h, struct conn *c, const char *why)
{
	if (c->kind == CONN_CLOSING)
		return;
	if (c->timed)
		hub_vt_leave(&h->vt, member(h, c));
	if (c->kind == CONN_NODE) {
		logf_hub("node %u's agent (%s) left: %s", (unsigned)c->node, c->peer, why);
		node_gone(h, c->node);
	} else if (c->kind == CONN_CONTROLLER) {
		logf_hub("controller %s left: %s", c->peer, why);
		hub_vt_idle(&h->vt, c->serial);
		controller_gone(h, c->serial);
	} else if (why) {
		logf_hub("connection from %s closed: %s", c->peer, why);
	}
	c->kind = CONN_CLOSING; /* freed after this round, its last bytes sent */
}

static void refuse(struct hub *h, struct conn *c, uint32_t id, int32_t status, const char *why)
{
	logf_hub("refused the connection from %s: %s", c->peer, why);
	reply_to(h, c, id, status, 0);
	ctl_wire_flush(&c->w);
	c->kind = CONN_CLOSING;
}

/* ---- frames from new connections --------------------------------------------- */

static int secret_matches(const struct hub *h, const uint8_t *payload, uint32_t len)
{
	unsigned diff = len != CTL_SECRET_HEX;
	for (uint32_t i = 0; i < CTL_SECRET_HEX; i++)
		diff |= (unsigned)(i < len ? payload[i] : 0) ^ (unsigned char)h->secret[i];
	return diff == 0;
}

static void hello(struct hub *h, struct conn *c, const struct ctl_frame *f)
{
	struct conn *other = node_conn(h, f->node);
	if (f->node == 0 || f->node > 0xff) {
		refuse(h, c, 0, E_INVAL, "HELLO from an impossible node id");
		return;
	}
	if (f->node != c->proven) {
		char why[96];
		if (c->proven)
			snprintf(why, sizeof why, "HELLO as node %u from node %u", (unsigned)f->node,
				 (unsigned)c->proven);
		else
			snprintf(why, sizeof why, "HELLO as node %u without authenticating",
				 (unsigned)f->node);
		refuse(h, c, 0, E_RIGHTS, why);
		return;
	}
	if (other && other != c) {
		char why[96];
		snprintf(why, sizeof why, "node %u already has an agent (%s)", (unsigned)f->node,
			 other->peer);
		refuse(h, c, 0, E_STATE, why);
		return;
	}
	if (c->kind == CONN_NODE) /* the agent started again: what it had is gone */
		node_gone(h, c->node);
	c->kind = CONN_NODE;
	c->node = f->node;
	if (c->timed)
		hub_vt_named(&h->vt, member(h, c), f->node);
	logf_hub("node %u's agent connected (%s)%s", (unsigned)f->node, c->peer,
		 c->timed ? " in virtual time" : "");
}

static void first_frame(struct hub *h, struct conn *c, const struct ctl_frame *f, const uint8_t *payload)
{
	if (f->type == CTL_HELLO) {
		hello(h, c, f);
	} else if (f->type == CTL_AUTH && secret_matches(h, payload, f->len)) {
		c->kind = CONN_CONTROLLER;
		c->scripted = (f->a & CTL_AUTH_SCRIPTED) != 0;
		logf_hub("controller %s connected%s%s", c->peer, c->scripted ? " (scripted)" : "",
			 h->vt.hold ? "; the nodes hold for it" : "");
		if (h->vt.hold) { /* answered when the hold ends: hold_ends() */
			c->auth_waits = 1;
			c->auth_id = f->id;
		} else {
			reply_to(h, c, f->id, 0, 0);
		}
	} else if (f->type == CTL_AUTH) {
		refuse(h, c, f->id, E_RIGHTS, "a controller without the cluster's secret");
	} else {
		char why[64];
		snprintf(why, sizeof why, "it began with frame type %u", (unsigned)f->type);
		refuse(h, c, f->id, E_BADREQ, why);
	}
}

/* ---- frames from nodes --------------------------------------------------------- */

static void node_reply(struct hub *h, struct conn *node, const struct ctl_frame *f,
		       const uint8_t *payload)
{
	for (int i = 0; i < HUB_MAX_PENDING; i++) {
		struct pending *p = &h->pending[i];
		if (!p->in_use || p->hub_id != f->id || p->node != node->node)
			continue;
		p->in_use = 0;
		struct conn *c = by_serial(h, p->controller);
		if (!c)
			return;
		int32_t status = (int32_t)f->a;
		if (status == 0 && (p->type == CTL_CREATE || p->type == CTL_ACQUIRE) &&
		    own(h, f->task, c->serial) < 0) {
			logf_hub("too many processes under control; %u.%u is not reported",
				 (unsigned)(f->task >> 16), (unsigned)(f->task & 0xffff));
		}
		struct ctl_frame r = *f;
		r.id = p->id;
		send_to(h, c, &r, payload); /* with what it carries */
		return;
	}
}

static void node_report(struct hub *h, const struct ctl_frame *f, const uint8_t *payload)
{
	struct owned *o = owner_of(h, f->task);
	struct conn *c = o ? by_serial(h, o->controller) : NULL;
	if (c)
		send_to(h, c, f, payload);
	if (o && f->type == CTL_END)
		o->in_use = 0;
}

static void node_frame(struct hub *h, struct conn *c, const struct ctl_frame *f, const uint8_t *payload)
{
	switch (f->type) {
	case CTL_HELLO:
		hello(h, c, f);
		break;
	case CTL_REPLY:
		node_reply(h, c, f, payload);
		break;
	case CTL_END:
	case CTL_OUTPUT:
		if (f->task >> 16 != c->node) { /* only its own processes: no forged ends */
			logf_hub("node %u reported on process %u.%u of another node; ignored",
				 (unsigned)c->node, (unsigned)(f->task >> 16), (unsigned)(f->task & 0xffff));
			break;
		}
		node_report(h, f, payload);
		break;
	default:
		logf_hub("node %u sent frame type %u; ignored", (unsigned)c->node, (unsigned)f->type);
	}
}

/* ---- frames from controllers ----------------------------------------------------- */

/* The ids of the nodes whose agents are connected, in increasing order,
 * not in the order they connected: that is the host's doing (each node
 * dials the hub as it boots), and what a controller does node after node
 * (the marks of `dpm record`, each answered before the next) must not
 * take it, or in virtual time a node's mark lands ~1 ms earlier or later
 * between two runs of one job (cluster_test_vtime_record). */
static void list_nodes(struct hub *h, struct conn *c, const struct ctl_frame *f)
{
	uint8_t ids[HUB_MAX_CONNS];
	uint32_t n = 0;
	for (uint32_t id = 1; id <= 0xff && n < HUB_MAX_CONNS; id++)
		if (node_conn(h, id))
			ids[n++] = (uint8_t)id;
	struct ctl_frame r = ctl_frame_make(CTL_REPLY, f->id, 0, 0);
	r.len = n;
	send_to(h, c, &r, ids);
}

/* Whether controller c may send f: requests about a process are for the
 * controller that created or acquired it; a process has one controller. */
static int32_t allowed(struct hub *h, const struct conn *c, const struct ctl_frame *f)
{
	struct owned *o;
	switch (f->type) {
	case CTL_CREATE:
	case CTL_MARK:
	case CTL_NAME: /* a program's name: anyone may ask */
		return 0;
	case CTL_ACQUIRE:
		o = owner_of(h, (f->node << 16) | (f->a & 0xffff));
		return o ? E_STATE : 0;
	case CTL_SETMETER:
	case CTL_START:
	case CTL_STOP:
	case CTL_KILL:
	case CTL_INPUT:
	case CTL_INPUT_END:
		o = owner_of(h, f->task);
		return o && o->controller == c->serial ? 0 : o ? E_RIGHTS : E_DEAD;
	default:
		return E_BADREQ;
	}
}

static void controller_frame(struct hub *h, struct conn *c, const struct ctl_frame *f,
			     const uint8_t *payload)
{
	if (f->type == CTL_NODES) {
		list_nodes(h, c, f);
		return;
	}
	if (f->type == CTL_IDLE) { /* it has reacted to everything it was sent */
		if (f->a == c->sent)
			hub_vt_idle(&h->vt, c->serial);
		return;
	}
	int32_t refused = allowed(h, c, f);
	struct conn *node = node_conn(h, f->node);
	if (!refused && !node)
		refused = E_NODEDOWN;
	struct pending *p = NULL;
	for (int i = 0; i < HUB_MAX_PENDING && !p && !refused; i++)
		if (!h->pending[i].in_use)
			p = &h->pending[i];
	if (!refused && !p)
		refused = E_NOSPACE;
	if (refused) {
		reply_to(h, c, f->id, refused, 0);
		return;
	}
	*p = (struct pending){ .in_use = 1, .hub_id = ++h->next_id, .id = f->id,
			       .controller = c->serial, .node = f->node, .type = f->type };
	struct ctl_frame fwd = *f;
	fwd.id = p->hub_id;
	send_to(h, node, &fwd, payload);
}

/* ---- the loop -------------------------------------------------------------------- */

/* A timed agent's envelopes: promises, and frames stamped with node times,
 * queued to be handed on in time order (a HELLO is taken at once). */
static int take_envelopes(struct hub *h, struct conn *c)
{
	struct ctl_envelope e;
	const uint8_t *data;
	int r = 0;
	uint32_t m = member(h, c);
	while (c->kind != CONN_CLOSING && (r = ctl_wire_next_envelope(&c->w, &e, &data)) > 0) {
		if (e.kind != CTL_ENV_DATA && e.kind != CTL_ENV_PROMISE)
			return -1;
		hub_vt_heard(&h->vt, m, e.time);
		if (e.kind == CTL_ENV_PROMISE)
			continue;
		if (ctl_wire_feed(&c->frames, data, e.len) < 0)
			return -1;
		struct ctl_frame f;
		const uint8_t *payload;
		while (c->kind != CONN_CLOSING && (r = ctl_wire_next(&c->frames, &f, &payload)) > 0) {
			if (c->kind == CONN_NEW && f.type != CTL_HELLO)
				return -1;
			if (f.type == CTL_HELLO)
				hello(h, c, &f);
			else if (hub_vt_push(&h->vt, m, e.time, &f, payload) < 0)
				return -1;
		}
		if (r < 0)
			return -1;
	}
	return r;
}

static int starts_with_envelope(const struct ctl_wire *w)
{
	uint32_t magic;
	if (w->rx_len < 4)
		return 0;
	memcpy(&magic, w->rx, 4);
	return magic == CTL_ENV_MAGIC;
}

/* A new connection that begins with a node's answer to its challenge:
 * 1 proven (or not an answer: frames follow), 0 wait for more, -1 refused. */
static int take_answer(struct hub *h, struct conn *c)
{
	uint32_t magic;
	if (c->kind != CONN_NEW || c->proven || c->timed || c->w.rx_taken)
		return 1;
	if (c->w.rx_len < 4)
		return 0;
	memcpy(&magic, c->w.rx, 4);
	if (magic != HOSTAUTH_ANSWER_MAGIC)
		return 1;
	uint8_t answer[HOSTAUTH_ANSWER_SIZE];
	if (!ctl_wire_take_raw(&c->w, answer, sizeof answer))
		return 0;
	const char *why = "";
	if (nodeauth_feed(&c->auth, &h->key, answer, sizeof answer, &why) != 1) {
		refuse(h, c, 0, E_RIGHTS, why);
		return -1;
	}
	c->proven = c->auth.node;
	logf_hub("node %u authenticated (%s)", (unsigned)c->proven, c->peer);
	return 1;
}

static void take_frames(struct hub *h, struct conn *c)
{
	struct ctl_frame f;
	const uint8_t *payload;
	int r = 0;
	if (take_answer(h, c) <= 0)
		return;
	if (c->kind == CONN_NEW && !c->timed && starts_with_envelope(&c->w)) {
		if (ctl_wire_init(&c->frames, -1, 0) < 0) {
			close_conn(h, c, "out of memory");
			return;
		}
		c->timed = 1;
	}
	if (c->timed) {
		if (take_envelopes(h, c) < 0 && c->kind != CONN_CLOSING)
			close_conn(h, c, "malformed envelopes");
		return;
	}
	while (c->kind != CONN_CLOSING && (r = ctl_wire_next(&c->w, &f, &payload)) > 0) {
		if (c->kind == CONN_NEW)
			first_frame(h, c, &f, payload);
		else if (c->kind == CONN_NODE)
			node_frame(h, c, &f, payload);
		else
			controller_frame(h, c, &f, payload);
	}
	if (c->kind != CONN_CLOSING && r < 0)
		close_conn(h, c, "malformed frames");
}

/* Take one waiting connection: 1 taken (or closed at the cap), 0 none
 * waits or it cannot be taken now. */
static int accept_conn(struct hub *h)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof peer;
	int fd = accept4(h->listener, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		if (accept_shed(h->listener, &h->spare, err) && h->capped++ % 100 == 0)
			logf_hub("cannot take a connection (%s); closed %lu so far, the others go on",
				 strerror(err), h->capped);
		if (accept_failure(err) == ACCEPT_BROKEN && !h->listener_failed) {
			logf_hub("the listening socket failed (%s); the connections held go on",
				 strerror(err));
			h->listener_failed = 1; /* polled no more */
		}
		return 0; /* else: none waits, one that went, or a passing error */
	}
	struct conn *c = NULL;
	for (int i = 0; i < HUB_MAX_CONNS && !c; i++)
		if (!h->conns[i].in_use)
			c = &h->conns[i];
	if (!c) {
		if (!h->at_cap)
			logf_hub("connection cap reached (%d connections); closing new connections until "
				 "a place is free", HUB_MAX_CONNS);
		h->at_cap = 1;
		h->capped++;
		close(fd);
		return 1;
	}
	if (h->at_cap) {
		logf_hub("a place is free again; %lu connections were closed at the cap", h->capped);
		h->at_cap = 0;
	}
	if (ctl_wire_init(&c->w, fd, 0) < 0) {
		logf_hub("refused a connection: out of memory");
		close(fd);
		return 1;
	}
	if (nodeauth_begin(&c->auth) < 0 || ctl_wire_send_raw(&c->w, &c->auth.chal, sizeof c->auth.chal) < 0) {
		logf_hub("refused a connection: no challenge could be made (%s)", strerror(errno));
		ctl_wire_close(&c->w);
		return 1;
	}
	c->in_use = 1;
	c->kind = CONN_NEW;
	c->proven = 0;
	c->timed = c->scripted = c->auth_waits = 0;
	c->sent = 0;
	c->serial = ++h->next_serial;
	clock_gettime(CLOCK_MONOTONIC, &c->since);
	snprintf(c->peer, sizeof c->peer, "%s:%u", inet_ntoa(peer.sin_addr), ntohs(peer.sin_port));
	return 1;
}

/* A connection that has said neither HELLO nor AUTH in time holds a place
 * a node or a controller may need: closed. */
static void close_silent(struct hub *h)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (int i = 0; i < HUB_MAX_CONNS; i++) {
		struct conn *c = &h->conns[i];
		if (c->in_use && c->kind == CONN_NEW && now.tv_sec - c->since.tv_sec >= h->hello_seconds)
			close_conn(h, c, "it said nothing in time");
	}
}

/* ---- virtual time ------------------------------------------------------------------ */

/* A hold ends once every expected agent has spoken and a controller waits:
 * its AUTH is answered, and a scripted one thinks from the start time. */
static void hold_ends(struct hub *h)
{
	int waiting = 0;
	for (int i = 0; i < HUB_MAX_CONNS; i++)
		waiting |= h->conns[i].in_use && h->conns[i].kind == CONN_CONTROLLER &&
			   h->conns[i].auth_waits;
	if (!waiting || !hub_vt_end_hold(&h->vt))
		return;
	uint64_t start = hub_vt_start_time(&h->vt);
	logf_hub("the hold ends: the first commands are taken at node time %llu ns",
		 (unsigned long long)start);
	for (int i = 0; i < HUB_MAX_CONNS; i++) {
		struct conn *c = &h->conns[i];
		if (!c->in_use || c->kind != CONN_CONTROLLER || !c->auth_waits)
			continue;
		c->auth_waits = 0;
		reply_to(h, c, c->auth_id, 0, 0);
		if (c->scripted && !h->vt.thinking)
			hub_vt_think(&h->vt, c->serial, start - CTL_VT_LOOKAHEAD_NS);
	}
}

/* Hand on the events whose time has come, then grant the timed agents
 * what they may now run to. */
static void vt_step(struct hub *h)
{
	struct hub_vt_event e;
	if (h->vt.hold)
		hold_ends(h);
	while (hub_vt_next(&h->vt, &e)) {
		struct conn *c = &h->conns[e.member];
		h->fed = 0;
		if (c->in_use && c->kind == CONN_NODE && c->timed)
			node_frame(h, c, &e.f, e.payload);
		if (h->fed)
			hub_vt_think(&h->vt, h->fed, e.time);
		free(e.payload);
	}
	for (int i = 0; i < HUB_MAX_CONNS; i++) {
		struct conn *c = &h->conns[i];
		if (!c->in_use || !c->timed || c->kind == CONN_CLOSING)
			continue;
		uint64_t g = hub_vt_grant(&h->vt, (uint32_t)i);
		if (g == HUB_VT_NEVER || g <= h->vt.m[i].granted)
			continue;
		if (ctl_wire_send_envelope(&c->w, CTL_ENV_GRANT, g, NULL, NULL) < 0)
			close_conn(h, c, "it does not read what it is sent");
		h->vt.m[i].granted = g;
	}
}

static void serve(struct hub *h)
{
	struct pollfd fds[HUB_MAX_CONNS + 1];
	struct conn *of[HUB_MAX_CONNS + 1];
	while (!stop_signal) {
		close_silent(h);
		vt_step(h);
		int n = 0;
		fds[n++] = (struct pollfd){ .fd = h->listener_failed ? -1 : h->listener, .events = POLLIN };
		for (int i = 0; i < HUB_MAX_CONNS; i++) {
			struct conn *c = &h->conns[i];
			if (!c->in_use)
				continue;
			if (c->kind == CONN_CONTROLLER)
				c->w.tx_limit = CONTROLLER_TX_LIMIT;
			if (ctl_wire_flush(&c->w) < 0 || (c->kind == CONN_CLOSING && !ctl_wire_pending(&c->w))) {
				close_conn(h, c, "the connection failed");
				ctl_wire_close(&c->w);
				if (c->timed)
					ctl_wire_close(&c->frames);
				c->in_use = 0;
				continue;
			}
			of[n] = c;
			fds[n++] = (struct pollfd){ .fd = c->w.fd,
						    .events = (short)(POLLIN | (ctl_wire_pending(&c->w) ? POLLOUT : 0)) };
		}
		if (poll(fds, (nfds_t)n, 1000) < 0 && errno != EINTR)
			break;
		/* every waiting connection, so a flood meets the cap at once rather
		 * than waiting in the backlog (bounded: the backlog's length) */
		for (int k = 0; (fds[0].revents & POLLIN) && k < HUB_BACKLOG && accept_conn(h); k++)
			;
		for (int i = 1; i < n; i++) {
			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int r = ctl_wire_read(&of[i]->w);
			if (r > 0)
				take_frames(h, of[i]);
			else if (r < 0) {
				close_conn(h, of[i], "closed");
				of[i]->w.tx_len = 0; /* nobody is left to read it */
			}
		}
	}
}

/* ---- start-up ---------------------------------------------------------------------- */

static int read_secret(struct hub *h, const char *dir)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, STATE_SECRET);
	FILE *f = fopen(path, "r");
	if (!f) {
		logf_hub("cannot read the cluster's secret %s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(h->secret, 1, CTL_SECRET_HEX, f);
	fclose(f);
	h->secret[n] = '\0';
	if (n != CTL_SECRET_HEX) {
		logf_hub("%s holds no secret of %u hex digits", path, CTL_SECRET_HEX);
		return -1;
	}
	char err[4300];
	if (nodeauth_load(&h->key, path, err, sizeof err) < 0) {
		logf_hub("%s", err);
		return -1;
	}
	return 0;
}

static int listen_on(struct hub *h, int port)
{
	h->listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int one = 1;
	setsockopt(h->listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (h->listener < 0 || bind(h->listener, (struct sockaddr *)&a, sizeof a) < 0 ||
	    listen(h->listener, HUB_BACKLOG) < 0) {
		logf_hub("cannot listen on 127.0.0.1:%d: %s", port, strerror(errno));
		return -1;
	}
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: dpm cluster hub --port PORT --dir DIR [--hello-timeout SECONDS] [--hold N]\n\n"
		     "The cluster's control hub (host service 'ctl'), started by 'dpm cluster up':\n"
		     "it joins the nodes' agents and the controllers (dpm control, dpm record) on\n"
		     "127.0.0.1:PORT.  Controllers must show DIR/secret.  A connection that says\n"
		     "neither HELLO nor AUTH within --hello-timeout seconds (default 60) is closed.\n"
		     "In virtual time, --hold N keeps the nodes standing after boot until N agents\n"
		     "have spoken and a controller has come (docs/virtual-time.md 2.6).\n"
		     "Not for use by hand.\n");
}

int cluster_hub_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'd' },
		{ "hello-timeout", required_argument, NULL, 't' },
		{ "hold", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	int port = 0, c;
	long hello = HUB_HELLO_SECONDS, hold = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': port = atoi(optarg); break;
		case 'd': dir = optarg; break;
		case 't': hello = atol(optarg); break;
		case 'H': hold = atol(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || !dir || port <= 0 || port > 65535 || hello <= 0 || hold < 0 ||
	    hold > HUB_VT_MEMBERS) {
		usage(stderr);
		return 2;
	}
	static struct hub h;
	h.hello_seconds = hello;
	h.spare = spare_open();
	hub_vt_init(&h.vt, (uint32_t)hold, hold > 0);
	if (read_secret(&h, dir) < 0 || listen_on(&h, port) < 0)
		return 1;
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	logf_hub("listening on 127.0.0.1:%d", port);
	serve(&h);
	hub_vt_free(&h.vt);
	logf_hub("stopped");
	return 0;
}

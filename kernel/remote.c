/*
 * kernel/remote.c - links that name a process on another node behave as
 * local ones: same semantics, order and error codes.
 *
 * A send to a remote process is one RM_MSG frame to that node's kernel,
 * which queues it exactly as a local send would and answers RM_ACK with
 * the result; the sender waits for that answer, so it gets E_DEAD,
 * E_QUEUEFULL, ... as locally, and its messages over one link arrive in
 * order.  The kernel's own messages (notices, error replies, trace batches)
 * are posted without waiting.  MOVEDATA moves areas on other nodes in
 * chunks of one page (RM_READ / RM_WRITE).  A node that goes down wakes
 * every process waiting on it with E_NODEDOWN, CALLers included, so no
 * sender waits forever.  A CALLer is woken when the node that holds its
 * reply link goes down; when a kernel passes a reply link to another node
 * it tells the caller's kernel (RM_REPLYMOVED, with the link's count of
 * moves so that notices overtaken by later ones are ignored).
 *
 * A full send buffer (PEER_SNDBUF per peer) never wedges the node and never
 * loses an answer.  A process whose request does not fit blocks (P_REMOTE,
 * remote_need set) and is woken by remote_poll(), which the network's
 * interrupt and timer paths call, once the buffer has room.  Answers and
 * the kernel's posts that do not fit wait in a FIFO per node (deferred
 * below) that remote_poll() sends first; while a node has deferred frames,
 * new requests and posts to it queue behind them.  The FIFO holds at most
 * one answer per process waiting on each peer and one post per message
 * header, so its pool is sized to never run out.
 *
 * In virtual time with peers (remote_credit_start) a SEND is asynchronous
 * instead: the frame goes out on a credit (kernel/credit.c; REMOTE_CREDIT
 * headers the receiving node holds back for this one), no RM_ACK is
 * awaited, the receiving kernel discards and counts what it cannot deliver
 * (a CALL's request gets an error reply), every frame carries the count
 * of the receiver's credited messages consumed here, and a sender with no
 * credit waits (P_REMOTE, remote_credit) until one comes back.
 *
 * Layering: this file is below ipc.c.  ipc.c calls it (remote.h) for a
 * message, a post or a MOVEDATA half whose other end is on another node;
 * it makes and releases messages through message.c and never calls ipc.c
 * by name.  What goes up (a message from another node for a process here,
 * a node's end for the process manager) goes through the upcalls
 * kernel_main gives remote_init at boot (ipc_deliver, ipc_notify_node_down,
 * and ipc_reply_error for a discarded CALL).
 * It is this way round because ipc.c decides, per message, whether a
 * destination is local; remote.c is a transport under that decision, as
 * the peer transport (net/peer.c) is under remote.c, which gives it its
 * upcalls (a frame, a node's end, room in a send buffer) at boot as well.
 */
#include "remote.h"
#include "kernel/net/peer.h"
#include "kernel/net/net.h"
#include "kernel/net/frame.h"
#include "kernel/net/netconfig.h"
#include "meter/meter.h"
#include "credit.h"
#include "vtime.h"

#define CHUNK 4096u

/* Virtual time: a full send buffer is the host's doing (how soon the peer
 * acknowledged), so a frame that does not fit waits for room with the node
 * clock standing still (net_wait_until) instead of blocking its sender or
 * being deferred, which would put it out at a host-chosen node time. */
struct room {
	uint32_t node, need;
};

static int has_room(void *arg)
{
	const struct room *r = arg;
	return peer_state(r->node) == PEER_DOWN || peer_send_space(r->node) >= r->need;
}

/* Asynchronous SENDs in virtual time (remote_credit_start): the counts
 * (credit.h) and whether they are in use. */
static struct credits credits;
static int credit_on;

/* Every frame carries the count of the receiver's credited messages
 * consumed here (0 and unread outside virtual time). */
static int32_t send_frame(uint32_t node, struct rm_frame *f, const void *data, uint32_t len)
{
	const uint32_t hdr_len = (uint32_t)sizeof *f;
	f->credit = credit_on ? credit_tell(&credits, node) : 0;
	if (!vtime_on)
		return peer_send(node, f, hdr_len, data, len);
	vtime_exclude_begin(); /* whether it fits is the host's doing */
	int32_t r = peer_send(node, f, hdr_len, data, len);
	if (r == E_NOMEM) {
		struct room room = { node, FRAME_HDR_BYTES + FRAME_STAMP_MAX + hdr_len + len };
		if (net_wait_until(has_room, &room))
			r = peer_send(node, f, hdr_len, data, len);
	}
	vtime_exclude_end();
	return r;
}

static uint32_t next_req = 1;
static struct remote_upcalls up;

static void remote_deliver(uint32_t from_node, const uint8_t *frame, uint32_t len);
static void remote_node_down(uint32_t node);
static void remote_poll(void);

void remote_init(const struct remote_upcalls *upcalls)
{
	up = *upcalls;
	peer_set_upcalls(remote_deliver, remote_node_down);
	net_set_poll(remote_poll);
}

/* A frame that found its node's send buffer full: a post (m), a reply
 * link's move (moved_to, the new holder, set) or an answer (req, status;
 * for an RM_READ that succeeded, where to read when sent). */
struct deferred {
	struct deferred *next;
	uint32_t node;
	struct kmsg *m;
	uint32_t moved_to;
	struct rm_link moved;
	uint32_t req;
	int32_t status;
	uint32_t read_task, read_addr, read_len;
};
static struct deferred deferred_pool[NDEFERRED];
static struct deferred *deferred_free, *deferred_head, *deferred_tail;
static uint16_t ndeferred[256];        /* per node id (1..254)               */

static void link_to_wire(struct rm_link *w, const struct link *l)
{
	*w = (struct rm_link){ l->task, l->code, l->rights, l->data, l->data_len, l->reply_id, l->hops };
}

static void link_from_wire(struct link *l, const struct rm_link *w)
{
	*l = (struct link){ .in_use = 1, .task = w->task, .code = w->code, .rights = w->rights,
			    .data = w->data, .data_len = w->data_len, .reply_id = w->reply_id,
			    .hops = w->hops };
}

static void frame_of_msg(struct rm_frame *f, const struct kmsg *m)
{
	*f = (struct rm_frame){
		.kind = RM_MSG, .status = m->status, .from = m->from, .to = m->to, .code = m->code,
		.len = m->len, .reply_id = m->reply_id, .id_lo = (uint32_t)m->id,
		.id_hi = (uint32_t)(m->id >> 32),
		.flags = (m->has_link ? RM_F_LINK : 0) | (m->has_reply ? RM_F_REPLY : 0) |
			 (m->is_meter ? RM_F_METER : 0),
	};
	if (m->has_link)
		link_to_wire(&f->link, &m->link);
	if (m->has_reply)
		link_to_wire(&f->reply, &m->reply);
}

/* Send request frame f (with data) to `node` as p and wait for its RM_ACK
 * or the node's end.  The wait is registered before the frame goes out:
 * the transport may take in the answer while it sends.  While the node's
 * send buffer is full (or has deferred frames), p blocks until
 * remote_poll() finds room.  The answer's data, if any, lands in
 * p->remote_buf. */
/* Whether a process may be blocked in request() for room in a send
 * buffer: set before one blocks so, cleared by remote_poll's scan when it
 * finds none still waiting, so that the scan of every process slot runs
 * only while one may wait (it ran on every network poll, 3,700
 * instructions a remote round trip). */
static int room_waiters;

static int32_t request(struct proc *p, uint32_t node, struct rm_frame *f, const void *data, uint32_t len)
{
	f->req = next_req++;
	if (next_req == 0)
		next_req = 1;
	p->remote_req = f->req;
	p->remote_node = node;
	p->remote_done = 0;
	int32_t r;
	for (;;) {
		r = ndeferred[node & 255] ? E_NOMEM : send_frame(node, f, data, len);
		if (r != E_NOMEM)
			break;
		p->remote_need = FRAME_HDR_BYTES + (uint32_t)sizeof *f + len;
		proc_set_state(p, P_REMOTE);
		room_waiters = 1;   /* after the state: a poll sees both or neither */
		static int told;    /* the first wait of the boot is said, once */
		if (!told) {
			told = 1;
			kprintf("remote: a send to node %u waits for room in its send buffer\n", node);
		}
		proc_block();
		p->remote_need = 0;
		if (p->remote_done) {   /* the node went down meanwhile */
			p->remote_req = 0;
			return p->wake_result;
		}
	}
	if (r == 0 && !p->remote_done) {
		proc_set_state(p, P_REMOTE);
		proc_block();
	}
	p->remote_req = 0;
	return r < 0 ? r : p->wake_result;
}

static void reply_moved(const struct rm_link *reply, uint32_t holder);

/* Virtual time: the credits consumed here go back to `node` in an
 * RM_CREDIT of their own (any frame to it carries them as well).  Transport
 * work: the node's, not the process that happens to run. */
static void send_credit(uint32_t node)
{
	uint64_t began = proc_interrupt_begin();
	struct rm_frame f = { .kind = RM_CREDIT };
	send_frame(node, &f, NULL, 0);
	proc_interrupt_end(began);
}

/* A credited message from `node` gave its header back (msgqueue.c's
 * credit_back): received, or discarded.  Half the grant goes back at once;
 * less waits for a frame to `node` or the next tick (remote_tick). */
static void credit_back(uint32_t node)
{
	if (credit_consumed(&credits, node) < 0) {
		kprintf("[node %u] remote: a credit of node %u given back twice\n", node_id, node);
		return;
	}
	if (credit_due(&credits, node, REMOTE_CREDIT / 2))
		send_credit(node);
}

void remote_credit_start(void)
{
	if (!vtime_on || net_config.npeers < 2)
		return;
	if (credit_init(&credits, node_id, net_config.peers, net_config.npeers, REMOTE_CREDIT) < 0 ||
	    msgpool_reserve(&msgpool, REMOTE_CREDIT * credits.npeers) < 0)
		panic("remote: cannot grant %u credits to %u peers", REMOTE_CREDIT, net_config.npeers);
	msgpool.credit_back = credit_back;
	credit_on = 1;
}

void remote_tick(void)
{
	for (uint32_t i = 0; credit_on && i < credits.npeers; i++)
		if (credit_due(&credits, credits.peers[i].node, 0) && remote_node_alive(credits.peers[i].node))
			send_credit(credits.peers[i].node);
}

/* Whether a process may wait for a credit (wait_credit): set once one
 * blocks so, cleared by credit_heard_from's scan when it finds none still
 * waiting, so that the scan of every process slot runs only while one may
 * wait (every frame of a message exchange gives a credit back: it ran on
 * each, 320 instructions of a remote message's taking-in). */
static int credit_waiters;

/* `node` gave credits back (deterministically: frames are delivered at
 * their virtual times): wake who waits for one, in process-table order;
 * each looks again. */
static void credit_heard_from(uint32_t node, uint32_t consumed)
{
	int back = credit_heard(&credits, node, consumed);
	if (back < 0)
		kprintf("[node %u] remote: node %u gave back credits never given\n", node_id, node);
	if (back <= 0 || !credit_waiters)
		return;
	int waiting = 0;
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &proctab[i];
		if (p->state != P_REMOTE || !p->remote_credit)
			continue;
		if (p->remote_node == node)
			proc_set_state(p, P_RUNNABLE);
		else
			waiting = 1;
	}
	credit_waiters = waiting;
}

/* Virtual time: wait (P_REMOTE, remote_credit) until a message to `node`
 * has a credit; 0, or E_NODEDOWN (the node is, or goes, down). */
static int32_t wait_credit(struct proc *p, uint32_t node)
{
	while (credit_may_send(&credits, node) == 0) {
		if (!remote_node_alive(node))
			return E_NODEDOWN;
		p->remote_node = node;
		p->remote_done = 0;
		p->remote_credit = 1;
		proc_set_state(p, P_REMOTE);
		credit_waiters = 1;   /* after the state: a scan sees both or neither */
		proc_block();
		p->remote_credit = 0;
		if (p->remote_done)
			return p->wake_result;
	}
	return 0;
}

/* m's frame, and whether it passes a reply link on (which then moves to
 * another node: one more hop). */
static int frame_for(struct rm_frame *f, const struct kmsg *m)
{
	frame_of_msg(f, m);
	int passes_reply = m->has_link && (m->link.rights & LINK_REPLY);
	if (passes_reply)
		f->link.hops++;
	return passes_reply;
}

/* Virtual time: m's frame out on a credit, no answer awaited.  All of it
 * (but the wait for a credit, which is no CPU) is the transport's, charged
 * to the node, not to p's CPU time (proc_interrupt_begin/end): a SEND
 * costs its sender what a local one costs but the local queueing, which
 * the receiving kernel does instead (docs/remote.md). */
static int32_t send_credited(struct proc *p, struct kmsg *m)
{
	uint32_t node = TASK_NODE(m->to);
	int32_t r = 0;
	uint64_t began = proc_interrupt_begin();
	if (credit_may_send(&credits, node) == 0) {   /* a wait is no CPU at all */
		proc_interrupt_end(began);
		p->remote_msg = m;   /* released at p's end should it be killed waiting */
		r = wait_credit(p, node);
		p->remote_msg = NULL;
		began = proc_interrupt_begin();
	}
	if (r == 0) {
		struct rm_frame f;
		int passes_reply = frame_for(&f, m);
		int credited = credit_may_send(&credits, node) == 1;
		if (credited)
			f.flags |= RM_F_CREDIT;
		r = send_frame(node, &f, m->data, m->len);
		if (r == 0 && credited)
			credit_sent(&credits, node);
		if (r == 0 && passes_reply)
			reply_moved(&f.link, m->to);
	}
	msg_release(m);
	proc_interrupt_end(began);
	return r;
}

int32_t remote_send_msg(struct proc *sender, struct kmsg *m)
{
	if (credit_on)
		return send_credited(sender, m);
	struct rm_frame f;
	int passes_reply = frame_for(&f, m);
	/* the message page stays ours while the frame is being queued; it is
	 * released at the sender's end should it be killed meanwhile */
	sender->remote_msg = m;
	int32_t r = request(sender, TASK_NODE(m->to), &f, m->data, m->len);
	sender->remote_msg = NULL;
	if (r >= 0 && passes_reply)
		reply_moved(&f.link, m->to);
	msg_release(m);
	return r;
}

/* Queue d at the end of the deferred FIFO, or drop it (the pool cannot run
 * out while peers behave: see the top of this file). */
static int defer(struct deferred d)
{
	static int ready;
	if (!ready) {
		for (int i = 0; i < NDEFERRED; i++)
			deferred_pool[i].next = i + 1 < NDEFERRED ? &deferred_pool[i + 1] : NULL;
		deferred_free = deferred_pool;
		ready = 1;
	}
	struct deferred *e = deferred_free;
	if (!e) {
		kprintf("[node %u] remote: no room to defer a frame to node %u; lost\n", node_id, d.node);
		return E_NOMEM;
	}
	deferred_free = e->next;
	*e = d;
	e->next = NULL;
	if (deferred_tail)
		deferred_tail->next = e;
	else
		deferred_head = e;
	deferred_tail = e;
	ndeferred[d.node & 255]++;
	return 0;
}

static int32_t send_post(const struct kmsg *m)
{
	struct rm_frame f;
	frame_of_msg(&f, m);
	f.flags |= RM_F_FORCE * !m->is_meter;
	return send_frame(TASK_NODE(m->to), &f, m->data, m->len);
}

/* Posts are never refused for a full send buffer: they wait their turn.
 * Trace batches are the exception: the meter holds and retries them. */
int32_t remote_post(struct kmsg *m)
{
	uint32_t node = TASK_NODE(m->to);
	int32_t r = ndeferred[node & 255] ? E_NOMEM : send_post(m);
	if (r == E_NOMEM && !m->is_meter && defer((struct deferred){ .node = node, .m = m }) == 0)
		return 0;
	msg_release(m);
	return r;
}

/* Wake p, blocked in CALL, with E_NODEDOWN: its reply link's node is down. */
static void call_node_down(struct proc *p)
{
	p->wake_result = E_NODEDOWN;
	p->wait_reply = 0;
	proc_set_state(p, P_RUNNABLE);
}

/* The caller's end of RM_REPLYMOVED: its reply link is now held by task
 * f->from.  A notice about another CALL, or one overtaken by a later move
 * (no more hops than the last applied), changes nothing; a holder's node already down ends the
 * CALL at once. */
static void follow_reply(const struct rm_frame *f)
{
	struct proc *p = proc_by_task(f->to);
	if (!p || !p->wait_reply || p->wait_reply != f->link.reply_id || f->link.hops <= p->call_hops)
		return;
	p->call_node = TASK_NODE(f->from);
	p->call_hops = f->link.hops;
	if (p->state == P_RECEIVING && !remote_node_alive(p->call_node))
		call_node_down(p);
}

static int32_t send_reply_moved(const struct rm_link *reply, uint32_t holder)
{
	struct rm_frame f = { .kind = RM_REPLYMOVED, .from = holder, .to = reply->task, .link = *reply };
	if (TASK_NODE(reply->task) != node_id)
		return send_frame(TASK_NODE(reply->task), &f, NULL, 0);
	follow_reply(&f);
	return 0;
}

/* Reply link `reply` (hops counted) was just passed to task `holder` on
 * another node: tell the caller's kernel, never refused for a full send
 * buffer (it waits its turn, as posts do). */
static void reply_moved(const struct rm_link *reply, uint32_t holder)
{
	uint32_t node = TASK_NODE(reply->task);
	int32_t r = ndeferred[node & 255] ? E_NOMEM : send_reply_moved(reply, holder);
	if (r == E_NOMEM)
		defer((struct deferred){ .node = node, .moved_to = holder, .moved = *reply });
}

int remote_node_alive(uint32_t node)
{
	return node == node_id || peer_state(node) != PEER_DOWN;
}

static int32_t remote_buf(struct proc *p)
{
	if (!p->remote_buf)
		p->remote_buf = palloc_unzeroed();
	return p->remote_buf ? 0 : E_NOMEM;
}

int32_t remote_read(struct proc *caller, const struct link *area, uint32_t off, uint8_t *buf, uint32_t n)
{
	int32_t r = remote_buf(caller);
	if (r < 0)
		return r;
	struct rm_frame f = { .kind = RM_READ, .from = caller->task, .to = area->task,
			      .addr = area->data + off, .len = n };
	r = request(caller, TASK_NODE(area->task), &f, NULL, 0);
	if (r == 0)
		memcpy(buf, caller->remote_buf, n);
	return r;
}

int32_t remote_write(struct proc *caller, const struct link *area, uint32_t off, const uint8_t *buf, uint32_t n)
{
	struct rm_frame f = { .kind = RM_WRITE, .from = caller->task, .to = area->task,
			      .addr = area->data + off, .len = n };
	return request(caller, TASK_NODE(area->task), &f, buf, n);
}

/* ---- the receiving side: called by the peer transport ---- */

static int32_t send_answer(uint32_t node, uint32_t req, int32_t status, const void *data, uint32_t len)
{
	struct rm_frame a = { .kind = RM_ACK, .req = req, .status = status, .len = len };
	return send_frame(node, &a, data, len);
}

/* Answer request req of `node`; one that does not fit now is deferred
 * (an RM_READ's bytes are then read when it goes out). */
static void answer(uint32_t node, uint32_t req, int32_t status, const void *data, uint32_t len,
		   const struct rm_frame *read)
{
	if (!req)
		return;
	int32_t r = ndeferred[node & 255] ? E_NOMEM : send_answer(node, req, status, data, len);
	if (r == E_NOMEM) {
		struct deferred d = { .node = node, .req = req, .status = status };
		if (read && status == 0)
			d.read_task = read->to, d.read_addr = read->addr, d.read_len = read->len;
		r = defer(d);
	}
	if (r < 0 && r != E_NODEDOWN)
		kprintf("[node %u] remote: answer %u to node %u lost: %d\n", node_id, req, node, r);
}

/* Queue f's message (credit_from: a credited message from that node, its
 * header from the reserve and admitted past QUEUE_MAX, as the credit bounds
 * it).  The result a local send would give. */
static int32_t take_msg(const struct rm_frame *f, const uint8_t *data, uint32_t credit_from)
{
	/* a credited message takes its header first: given back on any
	 * refusal below, it gives its credit back with it */
	if (TASK_NODE(f->to) != node_id || (!credit_from && !proc_by_task(f->to)))
		return E_DEAD;
	/* another node's process's message: like a local one, not from the
	 * kernel's reserve (replies and kernel notices, forced, may) */
	if (!credit_from && !(f->flags & RM_F_FORCE) && !f->reply_id && !msgpool_room(&msgpool))
		return E_NOMEM;
	int32_t err;
	struct kmsg *m = credit_from ? msg_make_credited(credit_from, f->from, f->to, data, f->len, &err)
				     : msg_make(f->from, f->to, data, f->len, &err);
	if (!m)
		return err;
	m->code = f->code;
	m->reply_id = f->reply_id;
	m->status = f->status;
	m->id = ((uint64_t)f->id_hi << 32) | f->id_lo;
	m->is_meter = (f->flags & RM_F_METER) != 0;
	if (f->flags & RM_F_LINK) {
		m->has_link = 1;
		link_from_wire(&m->link, &f->link);
	}
	if (f->flags & RM_F_REPLY) {
		m->has_reply = 1;
		link_from_wire(&m->reply, &f->reply);
	}
	return up.deliver(NULL, m, (f->flags & RM_F_FORCE) || credit_from);
}

/* A credited message from `node`: queued, or discarded here (its receiver
 * is gone, no page for its data) and counted (meter_discarded), a CALL's
 * request answered with an error reply so its caller learns it; never
 * answered otherwise.  Its credit comes back when its header does. */
static void take_credited(uint32_t node, const struct rm_frame *f, const uint8_t *data)
{
	if (!credit_on || !msgpool.reserve || credit_arrived(&credits, node) < 0) {
		kprintf("[node %u] remote: node %u sent past its credit; message lost\n", node_id, node);
		meter_discarded();
		return;
	}
	int32_t r;
	if (TASK_NODE(f->to) != node_id) {
		credit_back(node);   /* no header taken: the credit comes back now */
		r = E_DEAD;
	} else {
		r = take_msg(f, data, node);
	}
	if (r == 0)
		return;
	if (f->flags & RM_F_REPLY) {
		struct link reply;
		link_from_wire(&reply, &f->reply);
		up.reply_error(&reply, r);
	}
	if (f->flags & RM_F_LINK) {   /* a reply link passed inside it is answered too */
		struct link passed;
		link_from_wire(&passed, &f->link);
		if (passed.rights & LINK_REPLY)
			up.reply_error(&passed, E_DEAD);
	}
	meter_discarded();
}

/* Copy between a local owner's memory and buf (the RM_READ/RM_WRITE end). */
static int32_t owner_copy(uint32_t task, uint32_t addr, uint8_t *buf, uint32_t n, int write)
{
	struct proc *owner = proc_by_task(task);
	if (!owner)
		return E_DEAD;
	return write ? copy_to_user(owner, addr, buf, n) : copy_from_user(owner, buf, addr, n);
}

static void wake_waiter(uint32_t node, const struct rm_frame *f, const uint8_t *data)
{
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &proctab[i];
		if (p->state == P_FREE || p->remote_req != f->req || p->remote_node != node ||
		    p->remote_done || p->remote_need || p->remote_credit)
			continue;
		if (f->len && p->remote_buf && f->len <= CHUNK)
			memcpy(p->remote_buf, data, f->len);
		p->wake_result = f->status;
		p->remote_done = 1;
		if (p->state == P_REMOTE)
			proc_set_state(p, P_RUNNABLE);
		return;
	}
}

static void remote_deliver(uint32_t from_node, const uint8_t *frame, uint32_t len)
{
	static uint8_t chunk[CHUNK];
	struct rm_frame f;
	if (len < sizeof f)
		return;
	memcpy(&f, frame, sizeof f);
	const uint8_t *data = frame + sizeof f;
	uint32_t data_len = len - (uint32_t)sizeof f;
	if (credit_on)
		credit_heard_from(from_node, f.credit);
	switch (f.kind) {
	case RM_MSG:
		if (f.len == data_len && f.len <= MSG_MAX && (f.flags & RM_F_CREDIT))
			take_credited(from_node, &f, data);
		else if (f.len == data_len && f.len <= MSG_MAX)
			answer(from_node, f.req, take_msg(&f, data, 0), NULL, 0, NULL);
		break;
	case RM_ACK:
		if (f.len == data_len)
			wake_waiter(from_node, &f, data);
		break;
	case RM_REPLYMOVED:
		if (TASK_NODE(f.to) == node_id)
			follow_reply(&f);
		break;
	case RM_READ:
		if (f.len <= CHUNK) {
			int32_t r = owner_copy(f.to, f.addr, chunk, f.len, 0);
			answer(from_node, f.req, r, chunk, r < 0 ? 0 : f.len, &f);
		}
		break;
	case RM_WRITE:
		if (f.len == data_len && f.len <= CHUNK) {
			memcpy(chunk, data, f.len);
			answer(from_node, f.req, owner_copy(f.to, f.addr, chunk, f.len, 1), NULL, 0, NULL);
		}
		break;
	}
}

/* Take e (whose predecessor is prev) off the deferred FIFO. */
static void undefer(struct deferred *prev, struct deferred *e)
{
	if (prev)
		prev->next = e->next;
	else
		deferred_head = e->next;
	if (deferred_tail == e)
		deferred_tail = prev;
	ndeferred[e->node & 255]--;
	if (e->m)
		msg_release(e->m);
	e->next = deferred_free;
	deferred_free = e;
}

static int32_t send_deferred(const struct deferred *d)
{
	static uint8_t chunk[CHUNK];
	if (d->m)
		return send_post(d->m);
	if (d->moved_to)
		return send_reply_moved(&d->moved, d->moved_to);
	if (!d->read_len)
		return send_answer(d->node, d->req, d->status, NULL, 0);
	int32_t r = owner_copy(d->read_task, d->read_addr, chunk, d->read_len, 0);
	return send_answer(d->node, d->req, r, chunk, r < 0 ? 0 : d->read_len);
}

/* Called from the network's interrupt and timer paths: send the deferred
 * frames that now fit, in order per node, then wake the processes whose
 * request now fits. */
static void remote_poll(void)
{
	static uint32_t full[256 / 32];   /* nodes whose buffer filled up again */
	if (deferred_head)
		memset(full, 0, sizeof full);
	for (struct deferred *prev = NULL, *e = deferred_head, *next; e; e = next) {
		next = e->next;
		uint32_t n = e->node & 255;
		if (full[n / 32] & (1u << (n % 32)) || send_deferred(e) == E_NOMEM) {
			full[n / 32] |= 1u << (n % 32);
			prev = e;
			continue;
		}
		undefer(prev, e);   /* sent, or its node is down */
	}
	if (!room_waiters)
		return;
	int waiting = 0;
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &proctab[i];
		if (p->state != P_REMOTE || !p->remote_need)
			continue;
		if (!ndeferred[p->remote_node & 255] && peer_send_space(p->remote_node) >= p->remote_need)
			proc_set_state(p, P_RUNNABLE);
		else
			waiting = 1;
	}
	room_waiters = waiting;
}

static void remote_node_down(uint32_t node)
{
	kprintf("[node %u] node %u is down\n", node_id, node);
	for (struct deferred *prev = NULL, *e = deferred_head, *next; e; e = next) {
		next = e->next;
		if (e->node == node)
			undefer(prev, e);
		else
			prev = e;
	}
	/* the process manager tells creators of processes there */
	up.node_down(node);
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &proctab[i];
		if (p->state == P_REMOTE && p->remote_node == node)
			p->remote_done = 1;
		if ((p->state == P_REMOTE && p->remote_node == node) ||
		    (p->state == P_RECEIVING && p->wait_reply && p->call_node == node))
			call_node_down(p);
	}
}

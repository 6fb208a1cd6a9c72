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
 * sender waits forever.
 */
#include "remote.h"
#include "meter.h"
#include "net/peer.h"

#define CHUNK 4096u

static uint32_t next_req = 1;

static void link_to_wire(struct rm_link *w, const struct link *l)
{
	*w = (struct rm_link){ l->task, l->code, l->rights, l->data, l->data_len, l->reply_id };
}

static void link_from_wire(struct link *l, const struct rm_link *w)
{
	*l = (struct link){ .in_use = 1, .task = w->task, .code = w->code, .rights = w->rights,
			    .data = w->data, .data_len = w->data_len, .reply_id = w->reply_id };
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
 * send buffer is full, p yields and tries again.  The answer's data, if
 * any, lands in p->remote_buf. */
static int32_t request(struct proc *p, uint32_t node, struct rm_frame *f, const void *data, uint32_t len)
{
	f->req = next_req++;
	if (next_req == 0)
		next_req = 1;
	p->remote_req = f->req;
	p->remote_node = node;
	p->remote_done = 0;
	int32_t r;
	while ((r = peer_send(node, f, sizeof *f, data, len)) == E_NOMEM)
		proc_yield();
	if (r == 0 && !p->remote_done) {
		p->state = P_REMOTE;
		proc_block();
	}
	p->remote_req = 0;
	return r < 0 ? r : p->wake_result;
}

int32_t remote_send_msg(struct proc *sender, struct kmsg *m)
{
	struct rm_frame f;
	frame_of_msg(&f, m);
	uint32_t node = TASK_NODE(m->to);
	/* the message page stays ours while the frame is being queued */
	int32_t r = request(sender, node, &f, m->data, m->len);
	msg_release(m);
	return r;
}

int32_t remote_post(struct kmsg *m)
{
	struct rm_frame f;
	frame_of_msg(&f, m);
	f.flags |= RM_F_FORCE * !m->is_meter;
	int32_t r = peer_send(TASK_NODE(m->to), &f, sizeof f, m->data, m->len);
	msg_release(m);
	return r;
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

static void answer(uint32_t node, uint32_t req, int32_t status, const void *data, uint32_t len)
{
	if (!req)
		return;
	struct rm_frame a = { .kind = RM_ACK, .req = req, .status = status, .len = len };
	int32_t r = peer_send(node, &a, sizeof a, data, len);
	if (r < 0)
		kprintf("[node %u] remote: answer %u to node %u lost: %d\n", node_id, req, node, r);
}

static int32_t take_msg(const struct rm_frame *f, const uint8_t *data)
{
	struct proc *to = proc_by_task(f->to);
	if (TASK_NODE(f->to) != node_id || !to)
		return E_DEAD;
	int32_t err;
	struct kmsg *m = msg_make(f->from, f->to, data, f->len, &err);
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
	return ipc_deliver(NULL, m, (f->flags & RM_F_FORCE) != 0);
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
		if (p->state == P_FREE || p->remote_req != f->req || p->remote_node != node || p->remote_done)
			continue;
		if (f->len && p->remote_buf && f->len <= CHUNK)
			memcpy(p->remote_buf, data, f->len);
		p->wake_result = f->status;
		p->remote_done = 1;
		if (p->state == P_REMOTE)
			p->state = P_RUNNABLE;
		return;
	}
}

void remote_deliver(uint32_t from_node, const uint8_t *frame, uint32_t len)
{
	static uint8_t chunk[CHUNK];
	struct rm_frame f;
	if (len < sizeof f)
		return;
	memcpy(&f, frame, sizeof f);
	const uint8_t *data = frame + sizeof f;
	uint32_t data_len = len - (uint32_t)sizeof f;
	switch (f.kind) {
	case RM_MSG:
		if (f.len == data_len && f.len <= MSG_MAX)
			answer(from_node, f.req, take_msg(&f, data), NULL, 0);
		break;
	case RM_ACK:
		if (f.len == data_len)
			wake_waiter(from_node, &f, data);
		break;
	case RM_READ:
		if (f.len <= CHUNK) {
			int32_t r = owner_copy(f.to, f.addr, chunk, f.len, 0);
			answer(from_node, f.req, r, chunk, r < 0 ? 0 : f.len);
		}
		break;
	case RM_WRITE:
		if (f.len == data_len && f.len <= CHUNK) {
			memcpy(chunk, data, f.len);
			answer(from_node, f.req, owner_copy(f.to, f.addr, chunk, f.len, 1), NULL, 0);
		}
		break;
	}
}

void remote_node_down(uint32_t node)
{
	kprintf("[node %u] node %u is down\n", node_id, node);
	/* the process manager tells creators of processes there */
	struct kr_node_down down = { .kind = KR_NODE_DOWN, .node = node };
	if (kernel_notify_link.in_use)
		ipc_kernel_send(&kernel_notify_link, &down, sizeof down, 0);
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &proctab[i];
		if (p->state == P_REMOTE && p->remote_node == node)
			p->remote_done = 1;
		if ((p->state == P_REMOTE && p->remote_node == node) ||
		    (p->state == P_RECEIVING && p->wait_reply && p->call_node == node)) {
			p->wake_result = E_NODEDOWN;
			p->wait_reply = 0;
			p->state = P_RUNNABLE;
		}
	}
}

/*
 * kernel/fastpath.c - the local message fast path: a CALL whose server on
 * this node already waits in a receive, and a REPLYRECEIVE whose caller
 * already waits for that reply, done straight through, in seL4's spirit
 * (its fastpath beside its general path); and the SENDMESSAGE and
 * RECEIVEMESSAGE of the common local cases (a message to oneself, or to a
 * receiver that waits for it; a receive that finds a plain message, or
 * nothing and waits), one function a call (fastpath_calls, kernel.h's
 * fastpath_try).
 *
 * It owns only the common case of those calls: neither process
 * metered (their traces stay the general path's, exactly), no link passed,
 * the partner waiting for this very message, nothing queued for a
 * REPLYRECEIVE's own receive, no copying model (virtual time's 1984
 * machine, vtime_copy_rate), and every check the general path makes passed
 * (quotas, reserve, readable and writable buffers, a free slot for the
 * reply link).  Anything else returns 0 before changing anything, and the
 * general path (ipc.c, unchanged) does the call; so every result, error
 * code and received word is the general path's (docs/kernel-calls.md).
 *
 * Why shaped so: the general path goes through the scheduler twice a
 * round trip (a switch to its context and out again, the CPU accounting's
 * two clock reads at each), makes the receiver's charge with two more
 * clock reads per message, and walks every call's argument checks in
 * layers.  Here the message is written into the partner's call words (and
 * its bytes copied once, user to user), the caller blocks, and the CPU
 * goes straight to the partner: one clock read splits the CPU time (what
 * came before is the caller's, the hand-over and the switch are the
 * partner's, as the general path charges a message's queueing and
 * hand-over to its receiver), and the kernel stack switch is direct
 * (arch_switch_direct), not through the scheduler.  The partner runs on
 * what is left of the caller's turn (the scheduler's cursor does not
 * move), so a pair calling each other cannot keep others from their
 * turns: at the next tick the pick goes on from where the scheduler left
 * it.  A process blocked here is resumed by either path (the scheduler's
 * switch and the direct one load the same saved context), and one blocked
 * on the general path is resumed here the same way.  A SENDMESSAGE does
 * not block its sender, here as there: the receiver it wakes waits for
 * its turn; a receive that waits gives the CPU to the scheduler's own
 * next pick (block_direct), so who runs when is the general path's.
 */
#include "kernel.h"
#include "vtime.h"

_Static_assert(NLINK == 64 && LINK_FIRST_FREE < 32, "the reply link's slot is a search of two words");

/* The buffers the general path checks (check_send, check_recv).  The
 * receive buffer p's last receive named passed those checks (check_recv
 * and this path keep only one that did), and mappings only grow while a
 * process lives, so the same buffer again, a server's or a client's loop,
 * is two compares. */
static inline int recv_buffer_ok(struct proc *p, uint32_t rbuf, uint32_t rbuf_len)
{
	if ((rbuf == p->recv_buf && rbuf_len == p->recv_buf_len) || !rbuf_len)
		return 1;
	return user_range_ok(rbuf, rbuf_len) && user_writable(p, rbuf, rbuf_len < MSG_MAX ? rbuf_len : MSG_MAX) == 0;
}

static inline int buffers_ok(struct proc *p, uint32_t buf, uint32_t len, uint32_t rbuf, uint32_t rbuf_len)
{
	if (len && user_readable(p, buf, len) < 0)
		return 0;
	return recv_buffer_ok(p, rbuf, rbuf_len);
}

/* p hands len bytes at buf to `to` with code and reply slot (-1: none),
 * then waits in a receive into rbuf, and the CPU goes to `to`.  The result
 * of p's call once it is woken (by either path). */
static inline __attribute__((always_inline)) int32_t
hand_over_and_wait(struct proc *p, struct proc *to, uint32_t code, uint32_t buf, uint32_t len, int32_t reply_slot,
		   uint32_t reply_id, uint32_t rbuf, uint32_t rbuf_len, uint32_t *w)
{
	/* p's time ends here; the hand-over and the switch are to's */
	uint64_t now = arch_clock_ns();
	p->cpu_ns += now - p->run_start;
	to->run_start = now;
	msg_skip_id(); /* the identity the general path's message would use */
	uint32_t n = len < to->recv_buf_len ? len : to->recv_buf_len;
	int32_t result = n < len ? E_TRUNC : (int32_t)len;
	if (n && copy_user_to_user(p, buf, to, to->recv_buf, n) < 0) {
		/* cannot happen (both buffers were found mapped and mappings
		 * only grow); as the general path: the receiver is told
		 * E_BADADDR and gets no link, a CALL's caller E_DEAD */
		to->wake_result = E_BADADDR;
		if (reply_slot >= 0) { /* p goes on, its time again; to wakes */
			p->run_start = now;
			proc_set_state(to, P_RUNNABLE);
			return E_DEAD;
		}               /* a reply: p waits and to runs, as below */
	} else {
		put_received(to->recv_out, len, code, -1, reply_slot, p->task);
		if (reply_slot >= 0)
			link_put_reply(&to->links, reply_slot, p->task, reply_id);
		to->wake_result = result;
	}
	p->wait_reply = reply_id;
	p->recv_out = w;
	p->recv_buf = rbuf;
	p->recv_buf_len = rbuf_len;
	proc_pass_cpu(p, to);
	/* woken, by this path or the general one, and switched back in */
	p->wait_reply = 0;
	return p->wake_result;
}

/* Whether the fast path may serve p at all: p runs, so it is in the run
 * set, unless it was stopped while running (then the general path,
 * proc_pass_cpu's count); the node has no copying model.  (Not metered:
 * fastpath_try.) */
static inline int fast_ok(const struct proc *p)
{
	return p->on_runq && !vtime_copy_rate;
}

/* CALL (w: link, buf, len, passlink, rbuf, rbuf_len). */
static FASTPATH_CC unsigned fast_call(struct proc *p, uint32_t *w)
{
	uint32_t link = w[0], buf = w[1], len = w[2], rbuf = w[4], rbuf_len = w[5];
	if (!fast_ok(p) || link >= NLINK || w[3] != (uint32_t)-1 || len > MSG_MAX)
		return 0;
	const struct link *l = &p->links.slot[link];
	if (!l->in_use || (l->rights & LINK_REPLY))
		return 0;
	/* a kernel link's task is no process; p's own is no partner (p
	 * runs: it waits in no receive) */
	struct proc *to = proc_waiting_unmetered(l->task, 0);
	if (!to || to->queue.len >= QUEUE_MAX)
		return 0;
	/* the first free slot from LINK_FIRST_FREE on (link_free_slot) */
	uint32_t lo = ~(uint32_t)to->links.used & (~0u << LINK_FIRST_FREE), hi = ~(uint32_t)(to->links.used >> 32);
	int32_t slot = lo ? __builtin_ctz(lo) : hi ? 32 + __builtin_ctz(hi) : -1;
	if (slot < 0 || p->use_msgs >= PROC_MSG_QUOTA || !msgpool_room(&msgpool) || (len && !palloc_room()) ||
	    !buffers_ok(p, buf, len, rbuf, rbuf_len))
		return 0;
	p->call_node = node_id;
	p->call_hops = 0;
	w[0] = (uint32_t)hand_over_and_wait(p, to, l->code, buf, len, slot, ipc_new_reply_id(),
					    rbuf, rbuf_len, w);
	return KCALL_WORDS;
}

/* REPLYRECEIVE (the same words, link a reply link). */
static FASTPATH_CC unsigned fast_replyreceive(struct proc *p, uint32_t *w)
{
	uint32_t link = w[0], buf = w[1], len = w[2], rbuf = w[4], rbuf_len = w[5];
	if (!fast_ok(p) || link >= NLINK || w[3] != (uint32_t)-1 || len > MSG_MAX || p->queue.len)
		return 0;
	struct link *l = &p->links.slot[link];
	if (!l->in_use || !(l->rights & LINK_REPLY))
		return 0;
	struct proc *to = proc_waiting_unmetered(l->task, l->reply_id); /* not p: it runs */
	/* a reply is exempt from the quotas but needs a header and a page */
	if (!to || !msgpool.free || (len && !palloc_free_pages()) || !buffers_ok(p, buf, len, rbuf, rbuf_len))
		return 0;
	uint32_t code = l->code;
	link_free_used(&p->links, (int32_t)link); /* one use only */
	w[0] = (uint32_t)hand_over_and_wait(p, to, code, buf, len, -1, 0, rbuf, rbuf_len, w);
	return KCALL_WORDS;
}

/* SENDMESSAGE to p itself (l: p's link to itself, not a reply link): the
 * message is made and queued as the general path makes and queues it
 * (msg_over, enqueue): a header charged to p, its bytes in a page, the
 * next identity; p runs, so it waits in no receive and nothing is woken.
 * The bytes are copied before anything is counted: a copy that fails
 * (a buffer not readable) gives the page back and leaves the call to the
 * general path, which answers E_BADADDR. */
static unsigned fast_send_self(struct proc *p, const struct link *l, uint32_t buf, uint32_t len, uint32_t *w)
{
	if (p->queue.len >= QUEUE_MAX || p->use_msgs >= PROC_MSG_QUOTA || !msgpool_room(&msgpool) ||
	    (len && (!palloc_room() || !user_range_ok(buf, len))))
		return 0;
	uint8_t *data = NULL;
	if (len) {
		data = palloc_unzeroed(); /* there is room: never NULL */
		if (copy_from_user(p, data, buf, len) < 0) {
			pfree(data);
			return 0;
		}
	}
	/* taken after the copy, so that the compiler can drop the clearing
	 * of the fields written here */
	struct kmsg *m = msgpool_get(&msgpool); /* there is room: never NULL */
	m->data = data;
	m->from = m->to = p->task;
	m->len = len;
	m->id = ((uint64_t)node_id << 48) | next_msg_id++; /* msg_new_id */
	msg_charge(m, p);
	m->code = l->code;
	msgq_push(&p->queue, m);
	w[0] = 0;
	return 1;
}

/* SENDMESSAGE (w: link, buf, len, passlink): to p itself (queued), or to
 * a process on this node waiting in a receive that takes this message at
 * once (ipc.c's fast_send, the same checks): its bytes copied once into
 * the receiver's buffer and the receiver woken; p goes on, its turn its
 * own, as on the general path (a SEND does not block: the scheduler's
 * order is not changed).  The hand-over is the receiver's CPU time (the
 * general path's queueing charge: the stretch between two clock reads). */
static FASTPATH_CC unsigned fast_send(struct proc *p, uint32_t *w)
{
	uint32_t link = w[0], buf = w[1], len = w[2];
	if (!fast_ok(p) || link >= NLINK || w[3] != (uint32_t)-1 || len > MSG_MAX)
		return 0;
	struct link *l = &p->links.slot[link];
	if (!l->in_use)
		return 0;
	int reply = (l->rights & LINK_REPLY) != 0;
	if (l->task == p->task)
		return reply ? 0 : fast_send_self(p, l, buf, len, w);
	struct proc *to = proc_waiting_unmetered(l->task, reply ? l->reply_id : 0); /* a kernel link's task is no process */
	if (!to)
		return 0;
	/* a reply is exempt from the quotas but needs a header and a page */
	if (reply ? !msgpool.free || (len && !palloc_free_pages())
		  : to->queue.len >= QUEUE_MAX || p->use_msgs >= PROC_MSG_QUOTA || !msgpool_room(&msgpool) ||
			    (len && !palloc_room()))
		return 0;
	if (len && user_readable(p, buf, len) < 0)
		return 0;
	uint64_t began = arch_clock_ns();
	msg_skip_id(); /* the identity the general path's message would use */
	uint32_t n = len < to->recv_buf_len ? len : to->recv_buf_len;
	int32_t result = n < len ? E_TRUNC : (int32_t)len;
	if (n && copy_user_to_user(p, buf, to, to->recv_buf, n) < 0) {
		result = E_BADADDR; /* cannot happen (found mapped, mappings only grow) */
	} else {
		put_received(to->recv_out, len, l->code, -1, -1, p->task);
	}
	to->wake_result = result;
	to->state = P_RUNNABLE; /* proc_set_state: it waited, not stopped, so it joins the run set */
	proc_runq_change(to, 1);
	uint64_t spent = arch_clock_ns() - began;
	to->cpu_ns += spent;
	p->run_start += spent; /* not p's (proc_interrupt_end_for) */
	if (reply)
		link_free_used(&p->links, (int32_t)link); /* one use only */
	w[0] = 0;
	return 1;
}

/* current (from), set waiting (so out of the run set), gives the CPU
 * straight to the process the scheduler's loop would run next (proc.c's
 * pick_next: the first runnable slot after the cursor, the cursor moved
 * to it), without going through that loop: one kernel-stack switch, one
 * clock read splits the CPU time (before it from's, after it the next
 * one's).  When nothing else may run, or a hand-over is pending, from
 * blocks the general way.  Returns when from runs again. */
static inline void block_direct(struct proc *from)
{
	int i = runq_next(&proc_runq, proc_sched_cursor);
	if (i < 0 || proc_handoff) {
		arch_switch_away(from);
		return;
	}
	proc_sched_cursor = (uint32_t)i;
	struct proc *to = &proctab[i];
	uint64_t now = arch_clock_ns();
	from->cpu_ns += now - from->run_start;
	to->run_start = now;
	current = to;
	if (vtime_on) /* never, so far: a kernel call in virtual time takes the general path */
		vtime_user_resumes();
	arch_switch_direct(from, to);
}

/* RECEIVEMESSAGE (w: buf, buf_len) with nothing queued: p waits, and the
 * process the scheduler would pick next runs (block_direct, straight
 * from p: the same choice as the general path's block and pick, the
 * scheduler's loop left out).  Whoever wakes p (either path) writes what
 * it received into w[1..5] and its result. */
static unsigned receive_and_wait(struct proc *p, uint32_t *w)
{
	p->state = P_RECEIVING; /* proc_set_state: p ran, so it leaves the run set (fast_ok) */
	proc_runq_change(p, 0);
	block_direct(p);
	w[0] = (uint32_t)p->wake_result;
	return KCALL_WORDS;
}

/* RECEIVEMESSAGE (w: buf, buf_len) that finds nothing queued (it waits:
 * receive_and_wait) or at the head of p's queue a message it takes (not
 * a reply to a CALL, no link carried, no error in it): taken, its bytes
 * copied into the buffer, what was received in w[1..5], as the general
 * path's receive (check_recv, take_waiting, deliver_into).  Anything
 * else goes the general way. */
static FASTPATH_CC unsigned fast_receive(struct proc *p, uint32_t *w)
{
	uint32_t rbuf = w[0], rbuf_len = w[1];
	struct kmsg *m = p->queue.head;
	if (!fast_ok(p) || (m && (m->reply_id || m->has_link || m->has_reply || m->status < 0)) || !recv_buffer_ok(p, rbuf, rbuf_len))
		return 0;
	p->recv_out = w;
	p->recv_buf = rbuf;
	p->recv_buf_len = rbuf_len;
	p->wait_reply = 0;
	if (!m)
		return receive_and_wait(p, w);
	if (!(p->queue.head = m->next))
		p->queue.tail = NULL;
	p->queue.len--;
	uint32_t n = m->len < rbuf_len ? m->len : rbuf_len;
	int32_t result = n < m->len ? E_TRUNC : (int32_t)m->len;
	if (n && copy_to_user(p, rbuf, m->data, n) < 0) {
		result = E_BADADDR; /* cannot happen (found writable); discarded, as there */
	} else {
		put_received(w, m->len, m->code, -1, -1, m->from);
	}
	msg_release(m);
	w[0] = (uint32_t)result;
	return KCALL_WORDS;
}

const fastpath_fn fastpath_calls[FASTPATH_NR] = {
	[K_SENDMESSAGE] = fast_send,
	[K_RECEIVEMESSAGE] = fast_receive,
	[K_CALL] = fast_call,
	[K_REPLYRECEIVE] = fast_replyreceive,
};

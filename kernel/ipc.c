/*
 * kernel/ipc.c - the message kernel calls: CREATELINK, DESTROYLINK,
 * SENDMESSAGE, RECEIVEMESSAGE, ARECEIVEMESSAGE, CALL, MOVEDATA and
 * REPLYRECEIVE.
 *
 * A message is copied out of the sender at once (the sender continues), kept
 * in a kernel page while queued, and copied into the receiver when it
 * receives.  A CALL passes a one-time reply link and waits only for the
 * message sent back over it; other messages stay queued meanwhile.  Every
 * argument is checked before anything changes, so a failed call has no
 * effect.  Messages addressed to a kernel link are served at once by
 * kservice.c (a disk request in virtual time blocks its sender until the
 * disk model's completion time: kernel/disk.c).  docs/kernel-calls.md is the contract this file implements.
 *
 * Layers: below this file are the process table (proc.c), messages as
 * objects (message.c), user memory (uaccess.c), the meter's probes
 * (meter/meter.h, which never send) and links to other nodes (remote.c).
 * Above it, calling down into it: kservice.c (reached through the function
 * given to ipc_init at boot), lifecycle.c, alarm.c and the meter's ship.c.
 */
#include "kernel.h"
#include "kernel/abi/names.h"
#include "meter/meter.h"
#include "remote.h"
#include "vtime.h"

struct link kernel_notify_link;
static kservice_fn kernel_service; /* kservice, above this file (ipc_init) */
uint32_t ipc_next_reply_id = 1; /* ipc_new_reply_id (kernel.h) */
static uint8_t request_buf[MSG_MAX];
static uint8_t reply_buf[MSG_MAX];

static int is_kernel_link(const struct link *l)
{
	return TASK_PID(l->task) == KERNEL_PID;
}

/* The meter's probes are tested once a kernel call, not once a probe
 * site (docs/kernel-calls.md, "Cost"): the bodies below that hold probe
 * sites are inline with a constant `probe` (0: the caller found the
 * process not metered, so the body is the one DPM_NO_METER builds) and
 * instantiated for each case. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Copy m into p, which receives into the buffer p->recv_buf,
 * p->recv_buf_len (given in registers, checked when the call began):
 * what the receive call returns.  The links m carries are placed only
 * once the data is written and their slots found, with the slots in the
 * received words, so a process is never left holding a link it was not
 * told of; on E_BADADDR or E_NOSPACE none is placed (hand_over then
 * answers the reply links among them).  m stays the caller's.  `probe`:
 * 1 to trace the RECEIVE when p is metered, 0 when the caller found p not
 * metered. */
ALWAYS_INLINE int32_t deliver_body(struct proc *p, const struct kmsg *m, int probe)
{
	if (m->status < 0)
		return m->status;
	uint32_t n = m->len;
	int32_t result = (int32_t)m->len;
	if (n > p->recv_buf_len) {
		n = p->recv_buf_len;
		result = E_TRUNC;
	}
	if (n && copy_to_user(p, p->recv_buf, m->data, n) < 0)
		return E_BADADDR;
	if (!m->is_meter)
		p->copy_owed_ns += vtime_copy_ns(n); /* paid in p's time (syscall.c) */
	int32_t passed = -1, reply = -1;
	if (m->has_link && (passed = link_free_slot(&p->links, LINK_FIRST_FREE)) < 0)
		return E_NOSPACE;
	if (m->has_reply &&
	    (reply = link_free_slot(&p->links, passed < 0 ? LINK_FIRST_FREE : passed + 1)) < 0)
		return E_NOSPACE;
	put_received(p->recv_out, m->len, m->code, passed, reply, m->from);
	if (passed >= 0)   /* free slots: found above */
		link_put(&p->links, passed, &m->link, NULL);
	if (reply >= 0)
		link_put(&p->links, reply, &m->reply, NULL);
	if (probe && METERED(p, TRACE_RECEIVE))
		meter_receive(p, m, passed); /* it leaves out a batch (m->is_meter) */
	return result;
}

static int32_t deliver_into(struct proc *p, const struct kmsg *m)
{
	return deliver_body(p, m, 1);
}

/* The same, consuming m: a message that could not be delivered is
 * discarded with its reply links answered. */
ALWAYS_INLINE int32_t hand_over(struct proc *p, struct kmsg *m, int probe)
{
	int32_t result = deliver_body(p, m, probe);
	if (result == E_BADADDR || result == E_NOSPACE)
		ipc_discard(m);
	else
		msg_release(m);
	return result;
}

/* m, which p waits for, taken: 1 and *result set (E_NOSPACE when p has
 * no room for the links it carries).  `probe` as deliver_body's. */
ALWAYS_INLINE int take_body(struct proc *p, struct kmsg *m, int32_t *result, int probe)
{
	if ((m->has_link || m->has_reply) && m->has_link + m->has_reply > link_free_count(&p->links, LINK_FIRST_FREE)) {
		*result = E_NOSPACE;
		return 1;
	}
	m = msgq_take(&p->queue, p->wait_reply);
	*result = hand_over(p, m, probe);
	return 1;
}

static __attribute__((noinline)) int take_found(struct proc *p, struct kmsg *m, int32_t *result)
{
	return take_body(p, m, result, 1);
}

static __attribute__((noinline)) int take_found_unmetered(struct proc *p, struct kmsg *m, int32_t *result)
{
	return take_body(p, m, result, 0);
}

/* Take the message p waits for, if it is there: 1 and *result set, or 0
 * (nothing to take).  The search is inline in the callers and the taking
 * called, so a receive that finds nothing pays the search alone. */
ALWAYS_INLINE int take_waiting_body(struct proc *p, int32_t *result, int probe)
{
	struct kmsg *m;
	for (m = p->queue.head; m && m->reply_id != p->wait_reply; m = m->next)
		;
	if (!m)
		return 0;
	return probe ? take_found(p, m, result) : take_found_unmetered(p, m, result);
}

static int take_waiting(struct proc *p, int32_t *result)
{
	return take_waiting_body(p, result, 1);
}

ALWAYS_INLINE int take_waiting_unmetered(struct proc *p, int32_t *result)
{
	return take_waiting_body(p, result, 0);
}

/* Put m on its receiver's queue and wake the receiver if it waits for it.
 * QUEUE_MAX bounds ordinary messages only: a reply to a CALL is always
 * admitted (there is at most one per blocked caller, so the queue stays
 * bounded), or a full queue would leave its caller waiting forever.
 * `force` admits kernel notices the same way.
 * The queueing, its QUEUED trace and the hand-over to a receiver waiting
 * in RECEIVE are the receiver's CPU time, not that of whoever runs (the
 * sender of a local message, or nobody: the kernel delivering a remote
 * one), or a process's time would depend on where its partner runs: the
 * file-system study's T was 16 % lower with its servers on four machines
 * than on one, and its placement predictions up to 33 % off.
 * queue_and_wake_body is the queueing and waking, `probe` as
 * deliver_body's for `to`; enqueue the whole. */
ALWAYS_INLINE void queue_and_wake_body(struct proc *to, struct kmsg *m, int probe)
{
	msgq_push(&to->queue, m);
	if (probe && METERED(to, TRACE_QUEUED))
		meter_queued(to, m); /* it leaves out a batch (m->is_meter) */
	if (to->state == P_RECEIVING && take_waiting_body(to, &to->wake_result, probe))
		proc_set_state(to, P_RUNNABLE);
}

ALWAYS_INLINE void queue_and_wake(struct proc *to, struct kmsg *m)
{
	if (METERED_ANY(to)) { /* one test for its QUEUED and RECEIVE */
		uint32_t was = meter_call_open(); /* one clock reading for both */
		queue_and_wake_body(to, m, 1);
		meter_call_close(was);
	} else {
		queue_and_wake_body(to, m, 0);
	}
}

/* `self_unmetered`: the caller found current (the sender: kernel calls
 * run for current) not metered, so a message to itself needs no test
 * (one test a SENDMESSAGE: send_checked). */
ALWAYS_INLINE int32_t enqueue(struct kmsg *m, int force, int self_unmetered)
{
	struct proc *to = proc_by_task(m->to);
	if (!to)
		return E_DEAD;
	if (to->queue.len >= QUEUE_MAX && !force && m->reply_id == 0)
		return E_QUEUEFULL;
	/* a message to oneself: the charge would move the time from the
	 * process to itself, so the clock is not read for it (two paths, so
	 * that the probe's test does not make the compiler test `to !=
	 * current` twice) */
	if (to == current) {
		if (self_unmetered)
			queue_and_wake_body(to, m, 0);
		else
			queue_and_wake(to, m);
		return 0;
	}
	uint64_t began = proc_interrupt_begin();
	queue_and_wake(to, m);
	proc_interrupt_end_for(to, began);
	return 0;
}

ALWAYS_INLINE int32_t deliver_body_to(struct proc *sender, struct kmsg *m, int force, int self_unmetered)
{
	if (TASK_NODE(m->to) != node_id)
		return sender ? remote_send_msg(sender, m) : remote_post(m);
	int32_t r = enqueue(m, force, self_unmetered);
	if (r < 0)
		msg_release(m);
	return r;
}

int32_t ipc_deliver(struct proc *sender, struct kmsg *m, int force)
{
	return deliver_body_to(sender, m, force, 0);
}

/* ipc_deliver(sender, m, 0) of a message from current (sender), which is
 * not metered */
static int32_t deliver_from_unmetered(struct proc *sender, struct kmsg *m)
{
	return deliver_body_to(sender, m, 0, 1);
}

void ipc_reply_error(const struct link *reply, int32_t status)
{
	int32_t err;
	struct kmsg *m = msg_new(NULL, TASK_OF(node_id, KERNEL_PID), reply->task, NULL, 0, &err);
	if (!m)
		return;
	m->reply_id = reply->reply_id;
	m->status = status;
	ipc_deliver(NULL, m, 1);
}

int32_t ipc_kernel_send(const struct link *to, const void *data, uint32_t len, int is_meter)
{
	int32_t err;
	if (TASK_PID(to->task) == KERNEL_PID)
		return E_NODEDOWN; /* kernel destinations: the host path (meter.c) */
	if (is_meter && TASK_NODE(to->task) == node_id) {
		/* a backed-up filter: refuse before copying the batch */
		struct proc *dest = proc_by_task(to->task);
		if (!dest)
			return E_DEAD;
		if (dest->queue.len >= QUEUE_MAX)
			return E_QUEUEFULL;
	}
	if (is_meter && !msgpool_room(&msgpool))
		return E_NOMEM;   /* trace batches are not the reserve's traffic */
	struct kmsg *m = msg_new(NULL, TASK_OF(node_id, KERNEL_PID), to->task, data, len, &err);
	if (!m)
		return err;
	m->code = to->code;
	m->is_meter = is_meter;
	return ipc_deliver(NULL, m, !is_meter);
}

int32_t ipc_kernel_send_for(struct proc *payer, const struct link *to, const void *data, uint32_t len)
{
	if (payer->use_msgs >= PROC_MSG_QUOTA)
		return E_NOMEM;
	int32_t err;
	struct kmsg *m = msg_new(NULL, TASK_OF(node_id, KERNEL_PID), to->task, data, len, &err);
	if (!m)
		return err;
	msg_charge(m, payer);
	m->code = to->code;
	return ipc_deliver(NULL, m, 1);
}

void ipc_discard(struct kmsg *m)
{
	if (m->has_reply)
		ipc_reply_error(&m->reply, E_DEAD);
	if (m->has_link && (m->link.rights & LINK_REPLY))
		ipc_reply_error(&m->link, E_DEAD);
	msg_release(m);
}

void ipc_release_process(struct proc *p)
{
	struct kmsg *m;
	while ((m = p->queue.head)) {
		p->queue.head = m->next;
		ipc_discard(m);
	}
	p->queue.tail = NULL;
	p->queue.len = 0;
	for (int i = 0; i < NLINK; i++)
		if (p->links.slot[i].in_use && (p->links.slot[i].rights & LINK_REPLY))
			ipc_reply_error(&p->links.slot[i], E_DEAD);
	link_clear(&p->links);
}

void ipc_notify_node_down(uint32_t node)
{
	struct kr_node_down down = { .kind = KR_NODE_DOWN, .node = node };
	if (kernel_notify_link.in_use)
		ipc_kernel_send(&kernel_notify_link, &down, sizeof down, 0);
}

void ipc_notify_exit(const struct kr_exit_notice *notice)
{
	if (!kernel_notify_link.in_use || kernel_notify_link.task == notice->task ||
	    ipc_kernel_send(&kernel_notify_link, notice, sizeof *notice, 0) < 0)
		kprintf("[node %u] process %u ended: %s, status %d\n", node_id, TASK_PID(notice->task),
			abi_exit_reason_name(notice->reason), notice->status);
}

void ipc_init(kservice_fn serve)
{
	kernel_service = serve;
}

/* ---- the kernel calls ---- */

int32_t sys_createlink(struct proc *p, uint32_t uargs)
{
	struct createlink_args a;
	if (copy_from_user(p, &a, uargs, sizeof a) < 0)
		return E_BADADDR;
	if (a.rights & ~(LINK_READ | LINK_WRITE))
		return E_INVAL;
	if (a.data_len == 0 && (a.rights || a.data))
		return E_INVAL;
	if (a.data_len && !user_range_ok(a.data, a.data_len))
		return E_BADADDR;
	struct link l = {
		.task = p->task, .code = a.code, .rights = a.rights,
		.data = a.data, .data_len = a.data_len,
	};
	int32_t index = link_alloc(&p->links, &l, LINK_FIRST_FREE);
	if (index >= 0 && METERED(p, TRACE_CREATELINK))
		meter_link(p, TRACE_CREATELINK, index, &l);
	return index;
}

int32_t sys_destroylink(struct proc *p, int32_t link)
{
	struct link *l = link_get(&p->links, link);
	if (!l)
		return E_BADLINK;
	if (l->rights & LINK_REPLY)
		ipc_reply_error(l, E_DEAD);
	if (METERED(p, TRACE_DESTROYLINK))
		meter_link(p, TRACE_DESTROYLINK, link, l);
	return link_free(&p->links, link);
}

/* Checks shared by SENDMESSAGE and CALL. */
static int32_t check_send(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink,
			  struct link **lp, struct link **plp)
{
	*lp = link_get(&p->links, link);
	if (!*lp)
		return E_BADLINK;
	if (len > MSG_MAX)
		return E_TOOBIG;
	if (len && !user_range_ok(buf, len))
		return E_BADADDR;
	*plp = NULL;
	if (passlink != -1) {
		*plp = link_get(&p->links, passlink);
		if (!*plp)
			return E_BADLINK;
		if (passlink == link)
			return E_INVAL;
	}
	return 0;
}

/* A request over a kernel link (index `link`): served now.  With
 * `receives` (a CALL), the reply is received as a message (into the
 * buffer check_recv kept).  A metered sender's
 * request is traced as a SEND to the kernel (node.0), as the thesis's
 * traces show the disk interface sending to its kernel: the kernel leaves
 * no events of its own, so the analyses see the time until the reply as
 * an external wait, not as the process's CPU. */
static int32_t kernel_request(struct proc *p, int32_t link, struct link *l, uint32_t buf,
			      uint32_t len, int32_t passlink, struct link *pl, int receives)
{
	if (TASK_NODE(l->task) != node_id)
		return E_NODEDOWN;
	if (len && copy_from_user(p, request_buf, buf, len) < 0)
		return E_BADADDR;
	if (METERED(p, TRACE_SEND)) {
		struct kmsg request = { .from = p->task, .to = l->task, .code = l->code, .len = len,
					.id = msg_new_id(), .has_link = pl != NULL };
		if (pl)
			request.link = *pl;
		meter_send(p, link, &request, passlink);
	}
	/* The reply needs no header or page (it is copied straight from
	 * reply_buf) and the caller's buffer was found writable
	 * (check_recv), so a request that took effect is always answered; a
	 * request whose reply would carry a link is given no reply_link when
	 * the caller has no free slot for it, and refuses with E_NOSPACE
	 * before taking effect. */
	uint32_t reply_len = 0;
	struct link reply_link = { 0 };
	int room = !receives || link_free_slot(&p->links, LINK_FIRST_FREE) >= 0;
	int32_t r = kernel_service(p, l, request_buf, len, pl, reply_buf, &reply_len, room ? &reply_link : NULL);
	if (r >= 0 && pl && (pl->rights & LINK_REPLY))
		link_free(&p->links, passlink);   /* moved (KR_GIVELINK, the only taker) */
	if (!receives || r < 0)
		return r;
	struct kmsg m = { .from = l->task, .to = p->task, .code = l->code, .len = reply_len,
			  .data = reply_buf, .has_link = reply_link.in_use != 0, .link = reply_link };
	return deliver_into(p, &m); /* into the buffer check_recv kept */
}

/* The message p sends over link l, passing pl: copied in and addressed
 * (its SEND is traced by the caller: send_checked, or with the wait that
 * follows, sent_and_waits).  Shared by SENDMESSAGE, REPLYRECEIVE and CALL,
 * which then attaches its reply link. */
ALWAYS_INLINE struct kmsg *msg_over_body(struct proc *p, const struct link *l, const struct link *pl,
					 uint32_t buf, uint32_t len, int32_t *err)
{
	/* p's quota and the kernel's reserve; a reply over a reply link is
	 * exempt (one per blocked caller: it may take the reserve) */
	if (!(l->rights & LINK_REPLY) &&
	    (p->use_msgs >= PROC_MSG_QUOTA || !msgpool_room(&msgpool) || (len && !palloc_room()))) {
		*err = E_NOMEM;
		return NULL;
	}
	struct kmsg *m = msg_new(p, p->task, l->task, (const void *)(uintptr_t)buf, len, err);
	if (!m)
		return NULL;
	msg_charge(m, p);
	m->code = l->code;
	if (l->rights & LINK_REPLY)
		m->reply_id = l->reply_id;
	if (pl) {
		m->has_link = 1;
		m->link = *pl;
	}
	return m;
}

/* The same, called (CALL's general path); SENDMESSAGE inlines it. */
static struct kmsg *msg_over(struct proc *p, const struct link *l, const struct link *pl, uint32_t buf,
			     uint32_t len, int32_t *err)
{
	return msg_over_body(p, l, pl, buf, len, err);
}

/* A call that sends m and then waits (CALL, REPLYRECEIVE): its SEND and
 * RECEIVECALL traces, stamped when both are written and before m is
 * handed on, so that the message leaves when its sender has done its part
 * (docs/metering.md, "When a message leaves"); 1 when they were written
 * (the receive then writes no RECEIVECALL of its own). */
static inline __attribute__((always_inline)) int sent_and_waits(struct proc *p, int32_t link,
								const struct kmsg *m, int32_t passlink)
{
	if (!METERED(p, TRACE_SEND) && !METERED(p, TRACE_RECEIVECALL))
		return 0;
	meter_send_waits(p, link, m, passlink);
	return 1;
}

/* ---- the fast path ----
 * A message the general path would hand over at once (its receiver on
 * this node already waits for it) goes straight from the sender's memory
 * into the receiver's, in one copy, with no header, page or queue: when
 * neither process is metered, no link is passed, the receiver is not
 * stopped and, for a CALL, has a free slot for the reply link.  Anything
 * else, and anything the general path would refuse (quotas, a full queue,
 * a sender's buffer it cannot read), takes the general path, which gives
 * the same answer as before; so does everything the receiver sees: the
 * bytes, its received words, the reply link in the same slot, the result
 * (E_TRUNC included).  The handing over is the receiver's CPU time, as
 * the general path's queueing and hand-over are.  A message identity is
 * used up as the general path's message would, so later ones keep theirs.
 * A CALL taken here also runs its receiver at once on the caller's turn
 * (proc_block_handoff); a SEND's sender goes on, as always.  A CALL or
 * REPLYRECEIVE whose partner waits is first tried by kernel/fastpath.c,
 * from the trap, with no scheduler at all; what it declines (the copying
 * model, a server's queued messages, ...) comes here. */

/* The process link l names when it waits in a receive that would take a
 * message with reply_id (0: a plain receive) at once, and neither it nor
 * p is metered; else NULL. */
static struct proc *fast_receiver(struct proc *p, const struct link *l, uint32_t reply_id)
{
	if (l->task == p->task || p->meter_flags || TASK_NODE(l->task) != node_id)
		return NULL; /* p runs: it does not wait in a receive */
	struct proc *to = proc_waiting_unmetered(l->task, reply_id);
	if (!to)
		return NULL;
	if (!reply_id && to->queue.len >= QUEUE_MAX)
		return NULL; /* the general path's E_QUEUEFULL */
	return to;
}

/* What the general path checks before it makes a message p sends over an
 * ordinary link (msg_over), and p's bytes readable: without these the
 * general path answers. */
static int fast_sender_ok(struct proc *p, uint32_t buf, uint32_t len)
{
	return p->use_msgs < PROC_MSG_QUOTA && msgpool_room(&msgpool) && (!len || palloc_room()) &&
	       user_readable(p, buf, len) == 0;
}

/* Hand len bytes at buf in p over to `to` (fast_receiver's), with the
 * reply link `reply` (a CALL; NULL: none) in to's slot `reply_slot`, and
 * wake it with what its receive returns.  The copy cannot fail: p's bytes
 * were found readable, to's buffer writable when it began to wait
 * (check_recv) and mappings only grow; should it fail all the same, the
 * receiver gets E_BADADDR and no link, and a CALL's caller E_DEAD, as on
 * the general path (the return value: 0, or E_DEAD for a CALL). */
static int32_t fast_hand_over(struct proc *p, struct proc *to, uint32_t code, uint32_t buf,
			      uint32_t len, const struct link *reply, int32_t reply_slot)
{
	vtime_spin(vtime_copy_ns(len)); /* p's copy in, as the general path's (message.c) */
	uint64_t began = proc_interrupt_begin();
	(void)msg_new_id();
	uint32_t n = len < to->recv_buf_len ? len : to->recv_buf_len;
	int32_t result = n < len ? E_TRUNC : (int32_t)len, r = 0;
	if (n && copy_user_to_user(p, buf, to, to->recv_buf, n) < 0) {
		result = E_BADADDR;
		r = reply ? E_DEAD : 0;
	} else {
		put_received(to->recv_out, len, code, -1, reply ? reply_slot : -1, p->task);
		if (reply)
			link_put(&to->links, reply_slot, reply, NULL);
	}
	if (result != E_BADADDR)
		to->copy_owed_ns += vtime_copy_ns(n); /* its copy out, as deliver_into's */
	to->wake_result = result;
	proc_set_state(to, P_RUNNABLE);
	proc_interrupt_end_for(to, began);
	return r;
}

/* SENDMESSAGE on the fast path, over link l (index `link`, no link
 * passed): 1 when sent (the call returns 0), 0 for the general path. */
static inline __attribute__((always_inline)) int fast_send(struct proc *p, int32_t link, const struct link *l,
							   uint32_t buf, uint32_t len)
{
	int reply = (l->rights & LINK_REPLY) != 0;
	struct proc *to = fast_receiver(p, l, reply ? l->reply_id : 0);
	if (!to)
		return 0;
	/* a reply is exempt from the quotas (msg_over) but needs a header
	 * and a page all the same */
	if (reply ? !msgpool.free || (len && !palloc_free_pages()) || user_readable(p, buf, len) < 0
		  : !fast_sender_ok(p, buf, len))
		return 0;
	fast_hand_over(p, to, l->code, buf, len, NULL, -1);
	if (reply)
		link_free(&p->links, link); /* one use only */
	return 1;
}

/* How deliver_sent hands a message on: ipc_deliver; or, p (current) not
 * metered, deliver_from_unmetered; or ipc_deliver's body in line (a
 * metered SENDMESSAGE, out of the unmetered path: send_metered). */
enum { SENT_CALL, SENT_UNMETERED, SENT_INLINE };

/* m, made for p's send over l (index `link`, passing pl), handed on
 * (`how`), and the reply links it used freed. */
ALWAYS_INLINE int32_t deliver_sent(struct proc *p, int32_t link, const struct link *l, struct kmsg *m,
				   int32_t passlink, const struct link *pl, int how)
{
	/* remote: p may sleep, so the links are looked up again afterwards */
	uint32_t reply_link = l->rights & LINK_REPLY, reply_pass = pl && (pl->rights & LINK_REPLY);
	int32_t r = how == SENT_UNMETERED ? deliver_from_unmetered(p, m)
		    : how == SENT_INLINE  ? deliver_body_to(p, m, 0, 0)
					  : ipc_deliver(p, m, 0);
	if (r == 0 && reply_pass)
		link_free(&p->links, passlink); /* reply links move, never copy */
	if ((r == 0 || r == E_DEAD || r == E_NODEDOWN) && reply_link)
		link_free(&p->links, link);     /* one use only */
	return r;
}

/* SENDMESSAGE's rest for a metered sender, out of the unmetered path. */
static __attribute__((noinline)) int32_t send_metered(struct proc *p, int32_t link, const struct link *l,
							     struct kmsg *m, int32_t passlink, const struct link *pl)
{
	/* its SEND, the QUEUED and any RECEIVE at one clock reading */
	meter_call_open_top();
	if (METERED(p, TRACE_SEND))
		meter_send(p, link, m, passlink);
	if (TASK_NODE(m->to) != node_id)
		meter_call_close(0); /* to another node: p may sleep on the way */
	int32_t r = deliver_sent(p, link, l, m, passlink, pl, SENT_INLINE);
	meter_call_close(0);
	return r;
}

/* SENDMESSAGE once its arguments have passed check_send (l and pl are
 * its links): shared with REPLYRECEIVE, and inlined in both (a call
 * would cost SENDMESSAGE instructions). */
static inline __attribute__((always_inline)) int32_t send_checked(struct proc *p, int32_t link, struct link *l,
								  uint32_t buf, uint32_t len, int32_t passlink,
								  struct link *pl, int *traced_wait)
{
	int32_t r;
	if (is_kernel_link(l))
		return kernel_request(p, link, l, buf, len, passlink, pl, 0);
	if (!pl && fast_send(p, link, l, buf, len))
		return 0;
	struct kmsg *m = msg_over_body(p, l, pl, buf, len, &r);
	if (!m)
		return r;
	if (traced_wait)
		*traced_wait = sent_and_waits(p, link, m, passlink);
	else if (METERED_ANY(p)) /* one test for its SEND and, sent to itself, its QUEUED */
		return send_metered(p, link, l, m, passlink, pl);
	return deliver_sent(p, link, l, m, passlink, pl, traced_wait ? SENT_CALL : SENT_UNMETERED);
}

int32_t sys_sendmessage(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink)
{
	struct link *l, *pl;
	int32_t r = check_send(p, link, buf, len, passlink, &l, &pl);
	return r < 0 ? r : send_checked(p, link, l, buf, len, passlink, pl, NULL);
}

/* A receive's buffer (given in registers), checked before anything is
 * taken or sent: in user space and writable for as much of it as a
 * message can fill (MSG_MAX).  Mappings only grow while a process lives,
 * so what passes here still holds when the message comes.  The buffer and
 * w, the call's words that take what is received, are kept for the
 * delivery (p->recv_*). */
static inline __attribute__((always_inline)) int32_t check_recv(struct proc *p, uint32_t buf, uint32_t buf_len,
								 uint32_t *w)
{
	if (buf_len && (!user_range_ok(buf, buf_len) ||
			user_writable(p, buf, buf_len < MSG_MAX ? buf_len : MSG_MAX) < 0))
		return E_BADADDR;
	p->recv_out = w;
	p->recv_buf = buf;
	p->recv_buf_len = buf_len;
	return 0;
}

/* RECEIVEMESSAGE (ARECEIVEMESSAGE: !blocking) once its buffer has passed
 * check_recv: shared with REPLYRECEIVE, inlined in both. */
static inline __attribute__((always_inline)) int32_t receive_checked(struct proc *p, int blocking, int traced)
{
	int32_t r;
	p->wait_reply = 0;
	int taken;
	if (METERED_ANY(p)) { /* one test for its RECEIVECALL and RECEIVE */
		meter_call_open_top(); /* one clock reading for both */
		if (!traced && METERED(p, TRACE_RECEIVECALL))
			meter_receivecall(p, blocking);
		taken = take_waiting(p, &r);
		meter_call_close(0);
	} else {
		taken = take_waiting_unmetered(p, &r);
	}
	if (taken)
		return r;
	if (!blocking)
		return E_WOULDBLOCK;
	proc_set_state(p, P_RECEIVING);
	proc_block();
	return p->wake_result;
}

int32_t sys_receive(struct proc *p, uint32_t rbuf, uint32_t rbuf_len, uint32_t *w, int blocking)
{
	int32_t r = check_recv(p, rbuf, rbuf_len, w);
	return r < 0 ? r : receive_checked(p, blocking, 0);
}

/* REPLYRECEIVE: SENDMESSAGE, then, only if it sent, a blocking
 * RECEIVEMESSAGE, in one kernel call (after seL4's ReplyRecv), for a
 * server's loop.  Both halves' arguments are checked before either takes
 * effect, so a bad one changes nothing; a send that fails is the result,
 * with nothing received.  Each half is the call it stands for, traces
 * included (SEND, then RECEIVECALL, then RECEIVE). */
int32_t sys_replyreceive(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink,
			 uint32_t rbuf, uint32_t rbuf_len, uint32_t *w)
{
	struct link *l, *pl;
	int32_t r = check_send(p, link, buf, len, passlink, &l, &pl);
	if (r == 0)
		r = check_recv(p, rbuf, rbuf_len, w);
	int traced = 0;
	if (r == 0)
		r = send_checked(p, link, l, buf, len, passlink, pl, &traced);
	return r < 0 ? r : receive_checked(p, 1, traced);
}

/* CALL on the fast path: its request handed over to `to`, which then runs
 * on p's turn while p waits for the reply (which may come either way). */
static int32_t fast_call(struct proc *p, const struct link *l, struct proc *to, int32_t slot,
			 uint32_t buf, uint32_t len)
{
	uint32_t reply_id = ipc_new_reply_id();
	struct link reply = { .in_use = 1, .task = p->task, .rights = LINK_REPLY, .reply_id = reply_id };
	p->wait_reply = reply_id;
	p->call_node = node_id;
	p->call_hops = 0;
	int32_t r = fast_hand_over(p, to, l->code, buf, len, &reply, slot);
	if (r < 0) {
		p->wait_reply = 0;
		return r;
	}
	proc_set_state(p, P_RECEIVING);
	proc_block_handoff(to);
	p->wait_reply = 0;
	return p->wake_result;
}

int32_t sys_call(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink, uint32_t rbuf,
		 uint32_t rbuf_len, uint32_t *w)
{
	struct link *l, *pl;
	int32_t r = check_send(p, link, buf, len, passlink, &l, &pl);
	if (r == 0)
		r = check_recv(p, rbuf, rbuf_len, w);
	if (r < 0)
		return r;
	if (is_kernel_link(l))
		return kernel_request(p, link, l, buf, len, passlink, pl, 1);
	struct proc *to;
	int32_t slot;
	if (!pl && !(l->rights & LINK_REPLY) && (to = fast_receiver(p, l, 0)) &&
	    (slot = link_free_slot(&to->links, LINK_FIRST_FREE)) >= 0 && fast_sender_ok(p, buf, len))
		return fast_call(p, l, to, slot, buf, len);
	uint32_t reply_id = ipc_new_reply_id();
	struct link reply = { .in_use = 1, .task = p->task, .rights = LINK_REPLY, .reply_id = reply_id };
	struct kmsg *m = msg_over(p, l, pl, buf, len, &r);
	if (!m)
		return r;
	m->has_reply = 1;
	m->reply = reply;
	int traced = sent_and_waits(p, link, m, passlink);
	uint32_t reply_link = l->rights & LINK_REPLY, reply_pass = pl && (pl->rights & LINK_REPLY);
	/* Awaited from now on: the server's kernel may say where the reply
	 * link went (remote.c) before our request's acknowledgement is read. */
	p->wait_reply = reply_id;
	p->call_node = TASK_NODE(l->task);
	p->call_hops = 0;
	r = ipc_deliver(p, m, 0);
	if (r < 0) {
		p->wait_reply = 0;
		return r;
	}
	if (reply_pass)
		link_free(&p->links, passlink);
	if (reply_link)
		link_free(&p->links, link);
	if (!traced && METERED(p, TRACE_RECEIVECALL))
		meter_receivecall(p, 1);
	if (take_waiting(p, &r)) { /* a remote reply may beat us here */
		p->wait_reply = 0;
		return r;
	}
	if (p->call_node != node_id && !remote_node_alive(p->call_node)) {
		/* the node its reply link went to died meanwhile */
		p->wait_reply = 0;
		return E_NODEDOWN;
	}
	proc_set_state(p, P_RECEIVING);
	proc_block();
	p->wait_reply = 0;
	return p->wake_result;
}

/* MOVEDATA with an area on another node: page-sized chunks through a
 * kernel page, each read from the source and written to the destination
 * (locally, or by RM_READ / RM_WRITE to the owner's node). */
static int32_t move_remote(struct proc *p, const struct link *from, uint32_t from_off,
			   const struct link *to, uint32_t to_off, uint32_t len)
{
	uint8_t *chunk = palloc_unzeroed();
	if (!chunk)
		return E_NOMEM;
	p->move_buf = chunk;   /* freed at p's end should p be killed meanwhile */
	int32_t r = 0;
	for (uint32_t done = 0; done < len && r == 0; ) {
		uint32_t n = len - done < 4096 ? len - done : 4096;
		if (TASK_NODE(from->task) != node_id) {
			r = remote_read(p, from, from_off + done, chunk, n);
		} else {
			struct proc *src = proc_by_task(from->task);
			r = src ? copy_from_user(src, chunk, from->data + from_off + done, n) : E_DEAD;
		}
		if (r == 0 && TASK_NODE(to->task) != node_id) {
			r = remote_write(p, to, to_off + done, chunk, n);
		} else if (r == 0) {
			struct proc *dst = proc_by_task(to->task);
			r = dst ? copy_to_user(dst, to->data + to_off + done, chunk, n) : E_DEAD;
		}
		done += n;
	}
	p->move_buf = NULL;
	pfree(chunk);
	return r;
}

int32_t sys_movedata(struct proc *p, uint32_t uargs)
{
	struct movedata_args a;
	if (copy_from_user(p, &a, uargs, sizeof a) < 0)
		return E_BADADDR;
	struct link *fl = link_get(&p->links, (int32_t)a.from_link);
	struct link *tl = link_get(&p->links, (int32_t)a.to_link);
	if (!fl || !tl)
		return E_BADLINK;
	if (!(fl->rights & LINK_READ) || !(tl->rights & LINK_WRITE))
		return E_RIGHTS;
	if (a.from_off > fl->data_len || a.len > fl->data_len - a.from_off ||
	    a.to_off > tl->data_len || a.len > tl->data_len - a.to_off)
		return E_BOUNDS;
	int32_t r;
	if (TASK_NODE(fl->task) != node_id || TASK_NODE(tl->task) != node_id) {
		struct link from = *fl, to = *tl; /* p may sleep: keep copies */
		r = move_remote(p, &from, a.from_off, &to, a.to_off, a.len);
	} else {
		struct proc *src = proc_by_task(fl->task), *dst = proc_by_task(tl->task);
		r = src && dst ? copy_user_to_user(src, fl->data + a.from_off, dst, tl->data + a.to_off, a.len) : E_DEAD;
	}
	if (r >= 0)
		vtime_spin(vtime_copy_ns(a.len)); /* the mover's, wherever the bytes were */
	if (METERED(p, TRACE_MOVEDATA))
		meter_movedata(p, fl, tl, a.from_link, a.to_link, a.len, r);
	return r < 0 ? r : (int32_t)a.len;
}

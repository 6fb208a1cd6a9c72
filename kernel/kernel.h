/*
 * kernel/kernel.h - the kernel's own objects: processes, links, queued
 * messages, and the functions the portable subsystems offer each other.
 * Tables are fixed-size arrays: no allocator in the hot paths, and every
 * limit is a documented constant (capacities.h).
 */
#ifndef DPM_KERNEL_H
#define DPM_KERNEL_H
#include <stddef.h>
#include <stdint.h>

#include "kernel/abi/calls.h"
#include "arch.h"
#include "arch_proc.h"
#include "arch_copy.h"
#include "capacities.h"
#include "runq.h"

#define KERNEL_PID 0      /* a link to (node, 0) names that node's kernel   */

/* ---- links (link.c) ---- */
struct link {
	uint32_t in_use;
	uint32_t task;      /* who the link names: TASK_OF(node, pid)         */
	uint32_t code;
	uint32_t rights;    /* LINK_* */
	uint32_t data;      /* data area in the named process                  */
	uint32_t data_len;
	uint32_t reply_id;  /* LINK_REPLY: which CALL this answers             */
	uint32_t hops;      /* LINK_REPLY: how many times it moved between nodes */
};

/* Only link.c writes a table: `used` has bit i set while slot i is in
 * use, so finding and counting free slots is constant time. */
struct link_table {
	struct link slot[NLINK];
	union {
		uint64_t used;
		uint32_t used32[2]; /* its halves, low first (both machines are little-endian) */
	};
};

int link_alloc(struct link_table *t, const struct link *l, int from);
/* Put *l into slot `index`; what was there is copied to *old (in_use 0
 * when the slot was free) so the caller can answer a reply link it held. */
int link_put(struct link_table *t, int index, const struct link *l, struct link *old);
int link_free_slot(const struct link_table *t, int from);
/* The fast path's two writes (kernel/fastpath.c), inline, kept beside
 * link.c's in meaning: a CALL's reply link (to task, answering reply_id)
 * into free slot index, 0 .. NLINK - 1, the link the general path makes
 * (ipc.c's sys_call); a free slot is all zero (link_free, link_clear), so
 * only its non-zero fields are written.  And slot index, in use, freed as
 * link_free frees it. */
/* Bit index of t->used set or cleared through its 32-bit half (i386 and
 * ARM shift a 64-bit one with a branch and two shifts). */
static inline void link_used_set(struct link_table *t, int index)
{
	t->used32[index / 32] |= 1u << (index % 32);
}
static inline void link_used_clear(struct link_table *t, int index)
{
	t->used32[index / 32] &= ~(1u << (index % 32));
}
static inline void link_put_reply(struct link_table *t, int index, uint32_t task, uint32_t reply_id)
{
	struct link *l = &t->slot[index];
	l->in_use = 1;
	l->task = task;
	l->rights = LINK_REPLY;
	l->reply_id = reply_id;
	link_used_set(t, index);
}
_Static_assert(sizeof(struct link) == 8 * sizeof(uint32_t), "link_free_used clears every field");
static inline void link_free_used(struct link_table *t, int index)
{
	struct link *l = &t->slot[index];
	/* field by field: a compound literal is a loop of stores here */
	l->in_use = l->task = l->code = l->rights = l->data = l->data_len = l->reply_id = l->hops = 0;
	link_used_clear(t, index);
}
struct link *link_get(struct link_table *t, int32_t index);
int link_free(struct link_table *t, int32_t index);
int link_count(const struct link_table *t);
/* Free slots at or after `from`. */
int link_free_count(const struct link_table *t, int from);
void link_clear(struct link_table *t);

/* ---- queued messages (msgqueue.c) ---- */
struct kmsg {
	struct kmsg *next;
	uint32_t from, to;
	uint32_t code;
	uint64_t id;
	uint32_t len;
	uint32_t reply_id;   /* != 0: sent over a reply link for that CALL    */
	int32_t status;      /* a reply carrying an error (E_DEAD) instead of data */
	int is_meter;        /* a batch of traces: never itself traced         */
	int has_link;
	struct link link;    /* the passed link, if has_link (else whatever a
	                        header used before held: msgqueue.c)           */
	int has_reply;
	struct link reply;   /* CALL: the one-time reply link, if has_reply   */
	uint8_t *data;       /* one page, or NULL when len == 0               */
	uint32_t credit_node; /* virtual time: a credited message from that node,
	                        its header from the pool's reserve (remote.c) */
	struct proc *payer;  /* the process its header is charged to (use_msgs), */
	uint32_t payer_task; /* ... while that slot still holds this task       */
};

struct msg_queue {
	struct kmsg *head, *tail;
	uint32_t len;
};

struct msg_pool {
	struct kmsg slot[NMSG];
	struct kmsg *free;
	uint32_t in_use;
	struct kmsg *reserved; /* free headers held back for credited messages, */
	uint32_t reserve;    /* ... how many                                  */
	void (*credit_back)(uint32_t node); /* a credited message's header is back */
};

void msgpool_init(struct msg_pool *pool);
/* The first header of `list` (the free headers, or the reserve), taken;
 * NULL when there is none.  Its scalar fields start cleared; the links it
 * may carry (64 bytes) are left as they were: each is written, and read,
 * only under its flag (has_link, has_reply).  Inline, as msgpool_get and
 * msgq_push: every send takes a header and queues it. */
static inline struct kmsg *msgpool_take(struct kmsg **list, struct msg_pool *pool)
{
	struct kmsg *m = *list;
	if (!m)
		return NULL;
	*list = m->next;
	pool->in_use++;
	m->next = NULL;
	m->from = m->to = m->code = m->len = m->reply_id = 0;
	m->id = 0;
	m->status = 0;
	m->is_meter = m->has_link = m->has_reply = 0;
	m->data = NULL;
	m->credit_node = 0;
	m->payer = NULL;
	m->payer_task = 0;
	return m;
}
/* A header, not one of the reserve's; NULL when none is left. */
static inline struct kmsg *msgpool_get(struct msg_pool *pool)
{
	return msgpool_take(&pool->free, pool);
}
/* Hold back n more free headers (0, or -1: fewer than n left unreserved). */
int msgpool_reserve(struct msg_pool *pool, uint32_t n);
/* A header from the reserve for a credited message from `node` (its
 * credit_node); NULL when the reserve is empty.  Put back, it returns to
 * the reserve and credit_back(node) is called. */
struct kmsg *msgpool_get_reserved(struct msg_pool *pool, uint32_t node);
/* A credited header (credit_node set) back to the reserve. */
void msgpool_put_credited(struct msg_pool *pool, struct kmsg *m);
/* Give header m back (inline: every receive does it). */
static inline void msgpool_put(struct msg_pool *pool, struct kmsg *m)
{
	if (m->credit_node) {
		msgpool_put_credited(pool, m);
		return;
	}
	pool->in_use--;
	m->next = pool->free;
	pool->free = m;
}
/* Room for a process's message: more than MSG_RESERVE headers free (the
 * rest is the kernel's own traffic's).  One compare. */
static inline int msgpool_room(const struct msg_pool *pool)
{
	return NMSG - pool->in_use - pool->reserve > MSG_RESERVE;
}
static inline void msgq_push(struct msg_queue *q, struct kmsg *m)
{
	m->next = NULL;
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	q->len++;
}
/* Remove and return the first message whose reply_id is `reply_id`
 * (0: the first message that is not a reply to a CALL in progress). */
struct kmsg *msgq_take(struct msg_queue *q, uint32_t reply_id);

/* ---- physical pages (palloc.c) ---- */
#define PAGE 4096u
void palloc_init(uintptr_t start, uintptr_t end);
void *palloc(void);            /* a zeroed 4 KiB page, or NULL */
void *palloc_unzeroed(void);   /* the same, contents left as they were */
void pfree(void *page);
uint32_t palloc_free_pages(void);
/* Room for a page a process asks for (its mapping, its message's data):
 * more than PAGE_RESERVE pages free.  One compare. */
int palloc_room(void);

/* ---- processes (proc.c; creation and end: lifecycle.c) ---- */
enum proc_state {
	P_FREE = 0,
	P_RUNNABLE,   /* ready or running                                     */
	P_RECEIVING,  /* blocked in RECEIVEMESSAGE or CALL                     */
	P_REMOTE,     /* blocked until another node's kernel answers          */
	P_ZOMBIE,     /* ended; waits for its slot to be reclaimed            */
	P_DISK        /* virtual time: blocked until its disk request's modelled
	                 completion (kernel/disk.c)                          */
};

/* A process's context in the meter's compact records (meter/batch.c): the
 * batch (epoch) whose CTX record gave its procTime base. */
struct meter_pctx {
	uint32_t epoch; /* 0: none */
	uint64_t base;
};

struct proc {
	enum proc_state state;  /* written by proc_set_state (proc.c) only    */
	int stopped;           /* created-suspended or stopped by the pm (proc_set_stopped) */
	int on_runq;           /* P_RUNNABLE and not stopped: in the scheduler's set */
	uint32_t slot;         /* its index in proctab (proc_take_slot): the run set's bit */
	/* metering (meter/): one bit per trace type; at a fixed offset, which
	 * x86's kernel-call entry tests (PROC_METER_FLAGS_AT, arch/x86/trapentry.S) */
	uint32_t meter_flags;
	uint16_t pid;
	uint32_t task;
	uint32_t parent;       /* task of the creator                          */
	char name[24];
	uintptr_t aspace;
	uint32_t brk, brk_base;
	/* quotas (capacities.h): what the kernel holds for it */
	uint32_t use_msgs;     /* headers charged (PROC_MSG_QUOTA)             */
	uint32_t use_pages;    /* pages mapped (PROC_PAGE_QUOTA)               */
	uint32_t use_alarms;   /* alarms pending (PROC_ALARM_QUOTA)            */
	struct user_range { uint32_t lo, hi; } writable[2]; /* found writable, latest first (uaccess.c) */
	struct user_range readable; /* the last range found readable (uaccess.c) */
	struct link_table links;
	struct msg_queue queue;
	/* a receive in progress: where what it receives goes (words 1..5 of
	 * its call's words, syscall_dispatch: on its kernel stack or in its
	 * trap frame, so valid while the call lasts) and the buffer it named,
	 * kept only once found in user space and writable (ipc.c's
	 * check_recv; fastpath.c trusts the same buffer again) */
	uint32_t *recv_out;
	uint32_t recv_buf, recv_buf_len;
	uint32_t wait_reply;   /* CALL in progress: reply id awaited, else 0   */
	int32_t wake_result;   /* what the blocked call returns when woken     */
	uint32_t call_node;    /* CALL in progress: the node its reply link is on */
	uint32_t call_hops;    /* ...after that many moves between nodes (remote.c) */
	uint32_t remote_req;   /* P_REMOTE: the request awaited, and          */
	uint32_t remote_node;  /* the node that will answer it                 */
	int remote_done;       /* its answer (or the node's end) has come      */
	uint32_t remote_need;  /* P_REMOTE: bytes awaited in the send buffer   */
	int remote_credit;     /* P_REMOTE: a credit to send to remote_node (virtual time) */
	uint8_t *remote_buf;   /* a page for MOVEDATA chunks from other nodes  */
	struct kmsg *remote_msg; /* a message being sent to another node, and  */
	uint8_t *move_buf;     /* a remote MOVEDATA's page: freed at the end   */
	uint8_t *disk_buf;     /* a finished disk request's page, not yet taken
	                          (kernel/disk.c): freed at the end          */
	/* accounting */
	uint64_t cpu_ns;
	uint64_t run_start;
	uint64_t copy_owed_ns; /* the modelled copying of data it received
	                          (vtime_copy_ns), run at its call's return */
	/* metering (meter/): the destination index (the bits per trace type:
	 * meter_flags, at the top) */
	int meter_dest;
	struct meter_pctx meter_ctx; /* its procTime base in a batch (meter/batch.h) */
	void *kstack;               /* one page, the kernel's stack for it; the
	                               trap frame sits at its top */
	struct arch_proc arch;
	struct proc *next_run;
};

extern uint32_t node_id;
extern struct proc *current;
extern struct proc proctab[NPROC];

void proc_init(void);
struct proc *proc_create(const char *prog, const char *args, size_t args_len, uint32_t parent, int *err);
/* The live process (not free, not ended) of a task on this node, or NULL;
 * constant time (proc.c's table from pid to slot). */
extern uint8_t proc_pid_slot[65536]; /* pid -> its slot + 1 (proc.c) */
static inline struct proc *proc_by_task(uint32_t task)
{
	if (TASK_NODE(task) != node_id || TASK_PID(task) == KERNEL_PID)
		return NULL;
	uint32_t slot = proc_pid_slot[TASK_PID(task)];
	if (!slot)
		return NULL;
	struct proc *p = &proctab[slot - 1];
	return p->state != P_FREE && p->state != P_ZOMBIE ? p : NULL;
}
/* The process `task` names when it is on this node, live, not stopped,
 * not metered and waiting in a receive for reply_id (0: any message): the
 * partner both fast paths hand a message to (kernel/fastpath.c, ipc.c). */
static inline struct proc *proc_waiting_unmetered(uint32_t task, uint32_t reply_id)
{
	/* proc_by_task, less what the rest implies: no process has
	 * KERNEL_PID (alloc_pid), so its entry in the table stays 0, and a
	 * process waiting in a receive is live */
	if (TASK_NODE(task) != node_id)
		return NULL;
	uint32_t slot = proc_pid_slot[TASK_PID(task)];
	if (!slot)
		return NULL;
	struct proc *to = &proctab[slot - 1];
	if (to->state != P_RECEIVING || to->wait_reply != reply_id || ((uint32_t)to->stopped | to->meter_flags))
		return NULL;
	return to;
}
/* A slot holds (or held, until proc_set_free) a process with this pid. */
int proc_pid_used(uint16_t pid);
/* Slot p (free) is given pid: its task, and found by it from now on. */
void proc_take_slot(struct proc *p, uint16_t pid);
/* p's slot is free again and its pid no longer found. */
void proc_set_free(struct proc *p);
/* The scheduler's set of runnable slots (proc.c, runq.h). */
extern struct runq proc_runq;
/* p joins (on) or leaves the run set: inline, on every message path that
 * wakes or blocks a process. */
static inline void proc_runq_change(struct proc *p, int on)
{
	p->on_runq = on;
	if (on)
		runq_add(&proc_runq, p->slot);
	else
		runq_remove(&proc_runq, p->slot);
}
/* A process's state and stop flag: the scheduler's set of runnable
 * processes follows them (inline, one compare when it does not change). */
static inline void proc_runq_follow(struct proc *p)
{
	int on = p->state == P_RUNNABLE && !p->stopped;
	if (on != p->on_runq)
		proc_runq_change(p, on);
}
static inline void proc_set_state(struct proc *p, enum proc_state s)
{
	p->state = s;
	proc_runq_follow(p);
}
static inline void proc_set_stopped(struct proc *p, int stopped)
{
	p->stopped = stopped;
	proc_runq_follow(p);
}
void proc_make_runnable(struct proc *p);
void proc_exit(struct proc *p, uint32_t reason, int32_t status, uint32_t fault_addr, uint32_t fault_pc);
void proc_yield(void);
void proc_block(void);          /* current waits (state set by caller) */
/* current waits (state set by caller) and `to`, just made runnable, runs
 * next in its place, on what is left of current's turn: the scheduler's
 * cursor stays where current's turn put it (ipc.c's fast path). */
void proc_block_handoff(struct proc *to);
void proc_kstack_free(struct proc *p); /* once p will never run again */
/* current (from) waits in a receive and gives the CPU straight to `to`
 * (waiting in a receive, not stopped: it becomes runnable and runs), not
 * through the scheduler, on what is left of from's turn; returns when
 * from runs again.  The CPU time's split is the caller's
 * (kernel/fastpath.c). */
static inline void proc_pass_cpu(struct proc *from, struct proc *to)
{
	/* from runs and is in the run set (fastpath.c checks), `to` waits,
	 * so it is not: one leaves it and one joins, the count unchanged */
	from->state = P_RECEIVING;
	from->on_runq = 0;
	proc_runq.word[from->slot / 32] &= ~(1u << (from->slot % 32));
	to->state = P_RUNNABLE;
	to->on_runq = 1;
	proc_runq.word[to->slot / 32] |= 1u << (to->slot % 32);
	current = to;
	arch_switch_direct(from, to);
}
/* The scheduler's cursor and the process to run before its next pick
 * (proc_block_handoff): proc.c's, read and moved also by fastpath.c's
 * block_direct, a receive that waits and gives the CPU straight to the
 * process the scheduler would pick next. */
extern uint32_t proc_sched_cursor;
extern struct proc *proc_handoff;
uint64_t proc_cpu_ns(const struct proc *p);
/* Interrupt work (devices, the network, the clock tick's chores) is the
 * node's, not the interrupted process's: an arch's interrupt path takes
 * proc_interrupt_begin() on entry and calls proc_interrupt_end() once the
 * work is done (before a tick may switch away), and that time is not
 * charged to the process that was running (PROCTIME).  A device the
 * kernel waits for on a process's behalf (the disk, kernel/disk.c) is
 * kept out the same way. */
uint64_t proc_interrupt_begin(void);
void proc_interrupt_end(uint64_t began);
/* The same stretch, done for p (NULL: for nobody): p's CPU time, not the
 * running process's (a message queued for p by whoever runs, kernel/ipc.c). */
void proc_interrupt_end_for(struct proc *p, uint64_t began);
uint32_t proc_runnable_count(void);
/* The same count where it is kept, read in place by the meter's probes
 * (meter/encode.h: no call in a probe's fast path). */
extern const uint32_t *const proc_runnable;
void scheduler(void) __attribute__((noreturn));
void kernel_tick(void);
void kernel_timer_tick(void);  /* every clock tick, whatever runs (timer.c) */

/* ---- user memory (uaccess.c): every access to a process's memory ---- */
int copy_from_user(struct proc *p, void *dst, uint32_t uaddr, uint32_t len);
int copy_to_user(struct proc *p, uint32_t uaddr, const void *src, uint32_t len);
static inline int user_range_ok(uint32_t uaddr, uint32_t len)
{
	return uaddr >= USER_BASE && uaddr < USER_TOP && len <= USER_TOP - uaddr;
}
/* len bytes from sa in src to da in dst (MOVEDATA on one node); src and
 * dst may be the same process, the areas overlapping.  0 or E_BADADDR. */
int copy_user_to_user(struct proc *src, uint32_t sa, struct proc *dst, uint32_t da, uint32_t len);
/* Map a new zeroed page at va (page-aligned, not yet mapped) into p,
 * charged to its page quota.  0, E_NOMEM (quota reached, or no page above
 * the kernel's reserve) or E_INVAL (va already mapped). */
int user_map_zeroed(struct proc *p, uint32_t va, int writable);
/* Unmap the page at va from p and free it (a heap growth taken back). */
void user_unmap(struct proc *p, uint32_t va);
/* Every byte of [uaddr, uaddr + len) mapped writable for p: 0 or
 * E_BADADDR.  A range found so before is not walked again (uaccess.c). */
int user_writable_walk(struct proc *p, uint32_t uaddr, uint32_t len);
static inline int user_writable(struct proc *p, uint32_t uaddr, uint32_t len)
{
	if (uaddr >= p->writable[0].lo && uaddr < p->writable[0].hi && len <= p->writable[0].hi - uaddr)
		return 0;
	return user_writable_walk(p, uaddr, len);
}
/* Every byte of [uaddr, uaddr + len) mapped readable for p: 0 or
 * E_BADADDR (nothing copied; ipc.c's fast path asks before it copies).
 * The last range found so (or found writable) is not walked again. */
int user_readable_walk(struct proc *p, uint32_t uaddr, uint32_t len);
static inline int user_readable(struct proc *p, uint32_t uaddr, uint32_t len)
{
	if (uaddr >= p->readable.lo && uaddr < p->readable.hi && len <= p->readable.hi - uaddr)
		return 0;
	return user_readable_walk(p, uaddr, len);
}
/* Load a program segment into p's new address space: map [uaddr, uaddr +
 * memsz) (new pages zeroed and `writable` for the user; pages already
 * mapped are kept) and copy filesz bytes from src to uaddr, even into pages
 * the user cannot write.  0, E_BADADDR or E_NOMEM. */
int user_load(struct proc *p, uint32_t uaddr, const void *src, uint32_t filesz, uint32_t memsz, int writable);

/* ---- messages as objects (message.c) ---- */
extern struct msg_pool msgpool;
/* A message identity unique in the cluster: the node, then a count. */
uint64_t msg_new_id(void);
/* The next identity used up, unread (a message the fast path hands
 * over without making it: kernel/fastpath.c). */
extern uint64_t next_msg_id;
static inline void msg_skip_id(void)
{
	next_msg_id++;
}
/* A new message from `from_task` to `to_task`, data copied from `src`
 * (a user address in `from` when from != NULL, else a kernel pointer);
 * NULL with *err (E_NOMEM, E_BADADDR). */
struct kmsg *msg_new(struct proc *from, uint32_t from_task, uint32_t to_task,
		     const void *src, uint32_t len, int32_t *err);
/* The same from kernel memory. */
struct kmsg *msg_make(uint32_t from, uint32_t to, const void *data, uint32_t len, int32_t *err);
/* The same with a header from the reserve, for a credited message from
 * `node` (remote.c, virtual time). */
struct kmsg *msg_make_credited(uint32_t node, uint32_t from, uint32_t to, const void *data,
			       uint32_t len, int32_t *err);
/* Charge m's header to p (p's use_msgs; given back with the header). */
static inline void msg_charge(struct kmsg *m, struct proc *p)
{
	m->payer = p;
	m->payer_task = p->task;
	p->use_msgs++;
}
/* Give back m's header and page (inline: every receive does it), and the
 * charge to its payer while that process lives (a slot taken by a new
 * process has another task; creation zeroes the counts). */
static inline void msg_release(struct kmsg *m)
{
	if (m->data)
		pfree(m->data);
	if (m->payer && m->payer->task == m->payer_task)
		m->payer->use_msgs--;
	msgpool_put(&msgpool, m);
}

/* ---- messages (ipc.c) ---- */
int32_t sys_createlink(struct proc *p, uint32_t args);
int32_t sys_destroylink(struct proc *p, int32_t link);
int32_t sys_sendmessage(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink);
/* The receives take their buffer (rbuf, rbuf_len) and `w`, the call's
 * words (syscall_dispatch): what they received goes into w[1..5]. */
int32_t sys_receive(struct proc *p, uint32_t rbuf, uint32_t rbuf_len, uint32_t *w, int blocking);
int32_t sys_call(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink, uint32_t rbuf,
		 uint32_t rbuf_len, uint32_t *w);
int32_t sys_movedata(struct proc *p, uint32_t args);
int32_t sys_replyreceive(struct proc *p, int32_t link, uint32_t buf, uint32_t len, int32_t passlink,
			 uint32_t rbuf, uint32_t rbuf_len, uint32_t *w);
void ipc_release_process(struct proc *p);
/* A CALL's reply identity, never 0 (the general path's and the fast path's):
 * inline, the fast CALL takes one every round trip. */
extern uint32_t ipc_next_reply_id;
static inline uint32_t ipc_new_reply_id(void)
{
	uint32_t id = ipc_next_reply_id++;
	if (ipc_next_reply_id == 0)
		ipc_next_reply_id = 1;
	return id;
}
/* The fast path of SENDMESSAGE, RECEIVEMESSAGE, CALL and REPLYRECEIVE
 * (fastpath.c: one function a call, by number), tried by arch/'s trap
 * (fastpath_try) before syscall_dispatch: when it did the call, the
 * number of words to go back as syscall_dispatch's (1: the result in
 * w[0]; KCALL_WORDS: a receive's, what it received in w[1..5] too), 0
 * when syscall_dispatch must, nothing having changed.  It owes no copying
 * (p->copy_owed_ns: it leaves a node with the copying model to the
 * general path).  The call number and p's meter flags are tested in the
 * trap, so that a metered process (always the general path) and the
 * other calls pay a few tests, not a call. */
#define FASTPATH_NR (K_REPLYRECEIVE + 1)
#ifdef __i386__
/* i386 passes arguments on the stack: in registers the trap's call of a
 * fast path and its prologue cost fewer loads and stores */
#define FASTPATH_CC __attribute__((regparm(2)))
#else
#define FASTPATH_CC
#endif
typedef unsigned (FASTPATH_CC *fastpath_fn)(struct proc *p, uint32_t *w);
extern const fastpath_fn fastpath_calls[FASTPATH_NR];
static inline unsigned fastpath_try(struct proc *p, uint32_t nr, uint32_t *w)
{
	fastpath_fn f;
	if (nr >= FASTPATH_NR || !(f = fastpath_calls[nr]) || p->meter_flags)
		return 0;
	return f(p, w);
}
/* A message from this node's kernel over link `to` (a meter batch, a
 * notice): 0 when queued, else the error of the attempt. */
int32_t ipc_kernel_send(const struct link *to, const void *data, uint32_t len, int is_meter);
/* The same for a message the kernel queues on behalf of `payer` (bytes
 * from its host gate), whose header is charged to it: E_NOMEM when its
 * quota is full (the caller holds the bytes and tries again later). */
int32_t ipc_kernel_send_for(struct proc *payer, const struct link *to, const void *data, uint32_t len);
/* Queue m, locally or on its node (`sender` waits for the answer, NULL
 * posts); always consumes m.  Also how remote.c delivers a message from
 * another node (given to it at boot: remote_init). */
int32_t ipc_deliver(struct proc *sender, struct kmsg *m, int force);
/* Tell the process a reply link names that no reply will come: an error
 * reply with `status` (also remote.c's, for a CALL it discards). */
void ipc_reply_error(const struct link *reply, int32_t status);
/* Release a message nobody will receive, first answering with E_DEAD every
 * reply link it carries: its own (a CALL's) and one passed inside it. */
void ipc_discard(struct kmsg *m);
/* Tell the process manager (kernel_notify_link) that a process ended, or
 * that node `node` went down (remote.c's node_down, given at boot). */
void ipc_notify_exit(const struct kr_exit_notice *notice);
void ipc_notify_node_down(uint32_t node);
extern struct link kernel_notify_link;

/* ---- kernel-link requests (kservice.c) ---- */
/* Serve request req (len bytes) of p over kernel link `via`, passing
 * `passed`: the reply's bytes into reply / *reply_len, a link it carries
 * into *reply_link.  0 or an error. */
typedef int32_t (*kservice_fn)(struct proc *p, const struct link *via, const uint8_t *req, uint32_t len,
			       const struct link *passed, uint8_t *reply, uint32_t *reply_len,
			       struct link *reply_link);
int32_t kservice(struct proc *p, const struct link *via, const uint8_t *req, uint32_t len,
		 const struct link *passed, uint8_t *reply, uint32_t *reply_len, struct link *reply_link);
/* kservice.c is above ipc.c (it creates and ends processes, sets alarms,
 * sends notices): ipc.c reaches it only through the function given here
 * at boot. */
void ipc_init(kservice_fn kernel_service);

/* Device services behind kernel links (request kinds KR_DEVICE_FIRST ..
 * KR_DEVICE_LAST), each in its own file; a weak default answers E_BADREQ
 * when a node's kernel has none.  Same contract as kservice. */
int32_t kdevice_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
			uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
			struct link *reply_link);

/* ---- alarms (alarm.c) ---- */
int32_t alarm_set(struct proc *p, uint32_t ms, uint32_t code);
void alarm_release(struct proc *p);  /* p ended: its pending alarms go */
uint32_t alarm_in_use(void);
void alarm_tick(void);

/* ---- kernel calls (syscall.c) ---- */
/* Kernel call nr of p with its KCALL_WORDS argument words w (arch/ fills
 * them from its argument registers, in the order of kernel/abi/calls.h).
 * The results go back into w: w[0] the result, and after a receive
 * w[1..5] what it received (struct kcall_received); the return value is
 * how many words of w arch/ must put back into the result registers (1,
 * or KCALL_WORDS after a receive).  w must stay where it is until the
 * call returns: a blocked receive's words are written by the kernel call
 * that delivers to it (p->recv_out). */
unsigned syscall_dispatch(struct proc *p, uint32_t nr, uint32_t w[KCALL_WORDS]);
/* What a receive received (struct kcall_received), into words 1..5 of
 * its call's words w (the receiver's p->recv_out), which arch/ puts in
 * its registers: nothing goes to user memory, so this cannot fail.  Both
 * message paths (ipc.c, fastpath.c) answer a receive through it. */
static inline void put_received(uint32_t *w, uint32_t len, uint32_t code, int32_t passed, int32_t reply,
				uint32_t from)
{
	w[1] = len;
	w[2] = code;
	w[3] = (uint32_t)passed;
	w[4] = (uint32_t)reply;
	w[5] = from;
}

/* ---- faults (called by arch on a user-mode fault) ---- */
void kernel_user_fault(uint32_t reason, uint32_t addr, uint32_t pc);

/* ---- boot image (bootimage.c) and ELF loading (elf.c) ---- */
struct boot_program {
	const char *name;
	const uint8_t *start;
	const uint8_t *end;
};
const struct boot_program *bootimage_find(const char *name);
int elf_load(struct proc *p, const uint8_t *image, size_t size, uint32_t *entry);

/* ---- the kernel's console and library (console.c, klib.c) ---- */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
/* A big-endian 32-bit word (the device tree's, fw_cfg's). */
static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- QEMU's fw_cfg files (fwcfg.c, over arch_fwcfg_*) ---- */
/* Copy up to size bytes of the fw_cfg file `name` (e.g. "opt/dpm/secret")
 * into buf: its full length, or -1 when there is no such file or no
 * device. */
int32_t fwcfg_file(const char *name, void *buf, uint32_t size);

/* ---- boot ---- */
void kernel_main(const char *cmdline, uintptr_t mem_start, uintptr_t mem_end) __attribute__((noreturn));

#endif

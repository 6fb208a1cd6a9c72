/*
 * kernel/kservice.c - what a kernel link offers.  In DEMOS a link may name a
 * kernel; messages over it are requests the kernel serves at once.  Plain
 * kernel links give a process its console, clock and memory; rights on the
 * link (LINK_KCTL, LINK_KPOWER) admit process control for the process
 * manager and power-off for init.  Requests start with a uint32 kind
 * (enum kreq); the reply is written into `reply`.
 */
#include "kernel.h"
#include "meter/meter.h"
#include "vtime.h"
#include "kernel/net/hostlink.h"
#include "kernel/net/net.h"
#include "kernel/net/vlink.h"

#define BRK_LIMIT (64u << 20) /* heap may grow to 64 MiB */

static int32_t need(uint32_t len, uint32_t want)
{
	return len < want ? E_BADREQ : 0;
}

static uint32_t word(const uint8_t *req, int i)
{
	uint32_t v;
	memcpy(&v, req + 4 * i, 4);
	return v;
}

static int32_t grow_brk(struct proc *p, uint32_t want, uint32_t *out)
{
	if (want == 0) {
		*out = p->brk;
		return 0;
	}
	if (want < p->brk_base || want > p->brk_base + BRK_LIMIT)
		return E_NOMEM;
	/* all or nothing: the pages of a growth that fails part way are
	 * taken back, so the break and the mappings above it stay as they were */
	uint32_t from = (p->brk + 4095) & ~4095u;
	for (uint32_t va = from; va < want; va += 4096) {
		if (user_map_zeroed(p, va, 1) < 0) {
			while (va > from) {
				va -= 4096;
				user_unmap(p, va);
			}
			return E_NOMEM;
		}
	}
	if (want > p->brk)
		p->brk = want;
	*out = p->brk;
	return 0;
}

/* KR_KSTATS: the node's free resources and one process's use of them,
 * against its quotas (tests compare them before and after). */
static int32_t kstats(struct proc *p, const uint8_t *req, uint32_t len, uint8_t *reply, uint32_t *reply_len)
{
	struct proc *t = p;
	if (len >= 8 && word(req, 1) != 0 && !(t = proc_by_task(word(req, 1))))
		return E_DEAD;
	struct kr_kstats k = {
		.free_pages = palloc_free_pages(),
		.free_headers = NMSG - msgpool.in_use - msgpool.reserve,
		.alarms_in_use = alarm_in_use(),
		.task = t->task,
		.msgs = t->use_msgs, .pages = t->use_pages, .alarms = t->use_alarms,
		.links = (uint32_t)link_count(&t->links), .queue_len = t->queue.len,
		.msg_quota = PROC_MSG_QUOTA, .page_quota = PROC_PAGE_QUOTA,
		.alarm_quota = PROC_ALARM_QUOTA, .msg_reserve = MSG_RESERVE, .page_reserve = PAGE_RESERVE,
	};
	memcpy(reply, &k, sizeof k);
	*reply_len = sizeof k;
	return 0;
}

/* The target of a process-control request: a live process on this node. */
static struct proc *ctl_target(const uint8_t *req, uint32_t len, int32_t *err)
{
	*err = need(len, 8);
	if (*err)
		return NULL;
	struct proc *t = proc_by_task(word(req, 1));
	if (!t)
		*err = E_DEAD;
	return t;
}

static int32_t create(struct proc *p, const uint8_t *req, uint32_t len, uint8_t *reply, uint32_t *reply_len)
{
	/* kind, parent task, then "prog\0arg\0..." */
	if (len < 10 || req[len - 1] != '\0')
		return E_BADREQ;
	uint32_t parent = word(req, 1);
	const char *args = (const char *)req + 8;
	int err;
	struct proc *c = proc_create(args, args, len - 8, parent ? parent : p->task, &err);
	if (!c)
		return err;
	/* a metered creator's children are metered like it (thesis §4.3.2) */
	struct proc *creator = proc_by_task(c->parent);
	meter_inherit(c, creator);
	if (creator && METERED(creator, TRACE_CREATEPROCESS))
		meter_process(creator, TRACE_CREATEPROCESS, creator->task, c->task, 0, 0);
	memcpy(reply, &c->task, 4);
	*reply_len = 4;
	return 0;
}

static int32_t proc_control(struct proc *p, uint32_t kind, const uint8_t *req, uint32_t len,
			    const struct link *passed, uint8_t *reply, uint32_t *reply_len, struct link *reply_link)
{
	int32_t err;
	struct proc *t;
	switch (kind) {
	case KR_REMOTECREATED: {
		/* creator (here), child (elsewhere): trace the creation, and
		 * hand back what the child needs to be metered like its creator */
		if ((err = need(len, 12)))
			return err;
		struct proc *creator = proc_by_task(word(req, 1));
		uint32_t out[2] = { 0, 0 };
		if (!creator)
			return E_DEAD;
		if (!reply_link)
			return E_NOSPACE;  /* no slot for the meter link: nothing done */
		if (METERED(creator, TRACE_CREATEPROCESS))
			meter_process(creator, TRACE_CREATEPROCESS, creator->task, word(req, 2), 0, 0);
		meter_settings(creator, &out[0], &out[1], reply_link);
		memcpy(reply, out, sizeof out);
		*reply_len = sizeof out;
		return 0;
	}
	case KR_PMLINK:
		/* a process manager reaches the others' to create processes there */
		if ((err = need(len, 8)))
			return err;
		if (word(req, 1) == 0 || word(req, 1) > 0xffff)
			return E_INVAL;
		if (!reply_link)
			return E_NOSPACE;
		*reply_link = (struct link){ .in_use = 1, .task = TASK_OF(word(req, 1), PM_PID) };
		return 0;
	case KR_CREATE:
		return create(p, req, len, reply, reply_len);
	case KR_GIVELINK: {
		if ((err = need(len, 12)) || !(t = ctl_target(req, len, &err)))
			return err;
		if (!passed)
			return E_BADREQ;
		int32_t slot = (int32_t)word(req, 2);
		struct link old = { 0 };
		int32_t r = slot < 0 ? link_alloc(&t->links, passed, LINK_FIRST_FREE)
				     : link_put(&t->links, slot, passed, &old);
		/* a reply link it replaced will never be used: its caller is told */
		if (r >= 0 && old.in_use && (old.rights & LINK_REPLY))
			ipc_reply_error(&old, E_DEAD);
		if (r >= 0) {
			memcpy(reply, &r, 4);
			*reply_len = 4;
		}
		return r < 0 ? r : 0;
	}
	case KR_START:
		if (!(t = ctl_target(req, len, &err)))
			return err;
		proc_set_stopped(t, 0);
		if (METERED(t, TRACE_STARTPROCESS))
			meter_process(t, TRACE_STARTPROCESS, p->task, t->task, 0, 0);
		return 0;
	case KR_STOP:
		if (!(t = ctl_target(req, len, &err)))
			return err;
		if (METERED(t, TRACE_STOPPROCESS))
			meter_process(t, TRACE_STOPPROCESS, p->task, t->task, 0, 0);
		proc_set_stopped(t, 1);
		if (t == current)
			proc_yield();
		return 0;
	case KR_KILL:
		if (!(t = ctl_target(req, len, &err)))
			return err;
		proc_exit(t, EXIT_KILLED, -1, 0, 0);
		return 0;
	case KR_NOTIFY:
		if (!passed)
			return E_BADREQ;
		kernel_notify_link = *passed;
		return 0;
	case KR_SETMETER:
		/* task, flags, batch size (0: default); passed link: the meter link */
		if ((err = need(len, 16)) || !(t = ctl_target(req, len, &err)))
			return err;
		return meter_set(t, word(req, 2), passed, word(req, 3));
	case KR_PROCINFO: {
		if (!(t = ctl_target(req, len, &err)))
			return err;
		struct kr_procinfo info = {
			.task = t->task, .state = t->state, .cpu_ns = proc_cpu_ns(t),
			.queue_len = t->queue.len, .links_used = (uint32_t)link_count(&t->links),
		};
		memcpy(reply, &info, sizeof info);
		*reply_len = sizeof info;
		return 0;
	}
	}
	return E_BADREQ;
}

__attribute__((weak)) int32_t kdevice_service(struct proc *p, const struct link *via, uint32_t kind,
					      const uint8_t *req, uint32_t len, const struct link *passed,
					      uint8_t *reply, uint32_t *reply_len, struct link *reply_link)
{
	(void)p; (void)via; (void)kind; (void)req; (void)len; (void)passed;
	(void)reply; (void)reply_len; (void)reply_link;
	return E_BADREQ;
}

int32_t kservice(struct proc *p, const struct link *via, const uint8_t *req, uint32_t len,
		 const struct link *passed, uint8_t *reply, uint32_t *reply_len, struct link *reply_link)
{
	if (len < 4)
		return E_BADREQ;
	uint32_t kind = word(req, 0);
	*reply_len = 0;
	if (passed && (passed->rights & LINK_REPLY) && kind != KR_GIVELINK)
		return E_INVAL;   /* a reply link moves: only KR_GIVELINK takes one */
	switch (kind) {
	case KR_CONSOLE_WRITE:
		for (uint32_t i = 4; i < len; i++)
			arch_console_putc((char)req[i]);
		return 0;
	case KR_TIME: {
		uint64_t t[2] = { arch_clock_ns(), proc_cpu_ns(p) };
		memcpy(reply, t, sizeof t);
		*reply_len = sizeof t;
		return 0;
	}
	case KR_BRK: {
		uint32_t out;
		int32_t r = need(len, 8);
		if (r == 0)
			r = grow_brk(p, word(req, 1), &out);
		if (r == 0) {
			memcpy(reply, &out, 4);
			*reply_len = 4;
		}
		return r;
	}
	case KR_HOSTMETER: {
		char name[13] = { 0 };
		if (len < 5)
			return E_BADREQ;
		memcpy(name, req + 4, len - 4 < 12 ? len - 4 : 12);
		struct link l;
		int32_t r = meter_host_link(name, &l);
		if (r == 0 && !reply_link)
			return E_NOSPACE;  /* no slot for it in the caller's table */
		if (r == 0)
			*reply_link = l;
		return r;
	}
	case KR_METERMARK: {
		char name[13] = { 0 };
		struct link to;
		if (!(via->rights & LINK_KMETER))
			return E_RIGHTS;
		if (need(len, 20))
			return E_BADREQ;
		memcpy(name, req + 4, 12);
		int32_t r = meter_host_link(name, &to);
		return r < 0 ? r : meter_mark(p, &to, word(req, 4));
	}
	case KR_ALARM:
		if (need(len, 12))
			return E_BADREQ;
		return alarm_set(p, word(req, 1), word(req, 2));
	case KR_KSTATS:
		return kstats(p, req, len, reply, reply_len);
	case KR_METERSTATS: {
		struct meter_stats s;
		meter_get_stats(&s);
		memcpy(reply, &s, sizeof s);
		*reply_len = sizeof s;
		return 0;
	}
	case KR_NODE: {
		uint32_t info[2] = { node_id, proc_runnable_count() };
		memcpy(reply, info, sizeof info);
		*reply_len = sizeof info;
		return 0;
	}
	case KR_POWEROFF:
		if (!(via->rights & LINK_KPOWER))
			return E_RIGHTS;
		if (need(len, 8))
			return E_BADREQ;
		if (vtime_on) /* virtual time: the peers let go */
			vlink_leave();
		/* the host's bytes out, its services told, for at most 5 s */
		net_wait_until_for(hostlink_all_finished, NULL, 5000000000ull);
		arch_poweroff((int)word(req, 1));
	}
	if (kind >= KR_DEVICE_FIRST && kind <= KR_DEVICE_LAST)
		return kdevice_service(p, via, kind, req, len, passed, reply, reply_len, reply_link);
	if (kind >= KR_CREATE && kind <= KR_REMOTECREATED) {
		/* the controller's agent may meter any process and look at it */
		uint32_t may = kind == KR_SETMETER || kind == KR_PROCINFO ? LINK_KCTL | LINK_KMETER
									  : LINK_KCTL;
		if (!(via->rights & may))
			return E_RIGHTS;
		return proc_control(p, kind, req, len, passed, reply, reply_len, reply_link);
	}
	return E_BADREQ;
}

/*
 * kernel/alarm.c - alarms: a process asks its kernel (KR_ALARM) to be sent
 * a message after some milliseconds, so it can wait for something with a
 * time limit (receive, and take the alarm as the timeout).  DEMOS had a
 * timer process for this; here it is a kernel-link service.
 *
 * Quotas, not a shared limit: a process has at most PROC_ALARM_QUOTA alarms
 * pending, and the table has room for every process's quota (NALARM), so no
 * process can deny alarms to another (the process manager's retry of an end
 * notice waits on one).  A pending alarm holds one of its process's message
 * headers (PROC_MSG_QUOTA) from the moment it is set: the message it
 * becomes is charged there until received, so a process that sets short
 * alarms and never receives fills its own quota, not the node's pool.  A
 * process's alarms go when it ends (alarm_release).
 */
#include "kernel.h"

#define ALARM_MAX_MS 3600000u

_Static_assert(NALARM >= NPROC * PROC_ALARM_QUOTA, "the alarm table holds every process's quota");

struct alarm {
	struct proc *p;      /* NULL: free */
	uint32_t code;
	uint64_t due_ns;
};

static struct alarm alarms[NALARM];
static uint32_t in_use;

int32_t alarm_set(struct proc *p, uint32_t ms, uint32_t code)
{
	if (ms == 0 || ms > ALARM_MAX_MS)
		return E_INVAL;
	if (p->use_alarms >= PROC_ALARM_QUOTA)
		return E_NOSPACE;
	if (p->use_msgs >= PROC_MSG_QUOTA)
		return E_NOMEM;
	for (int i = 0; i < NALARM; i++) {
		if (!alarms[i].p) {
			alarms[i] = (struct alarm){ p, code, arch_clock_ns() + (uint64_t)ms * 1000000u };
			p->use_alarms++;
			p->use_msgs++;   /* the header its message will take */
			in_use++;
			return 0;
		}
	}
	return E_NOSPACE;   /* not reached: the table holds every quota */
}

static void drop(struct alarm *a)
{
	a->p->use_alarms--;
	a->p->use_msgs--;
	a->p = NULL;
	in_use--;
}

void alarm_release(struct proc *p)
{
	for (int i = 0; i < NALARM && p->use_alarms; i++)
		if (alarms[i].p == p)
			drop(&alarms[i]);
}

uint32_t alarm_in_use(void)
{
	return in_use;
}

void alarm_tick(void)
{
	uint64_t now = arch_clock_ns();
	uint32_t pending = in_use;   /* stop once every pending alarm was seen */
	for (int i = 0; i < NALARM && pending; i++) {
		struct alarm *a = &alarms[i];
		if (!a->p)
			continue;
		pending--;
		if (now < a->due_ns)
			continue;
		struct kr_alarm body = { .kind = KR_ALARM, .code = a->code };
		int32_t err;
		/* kernel traffic: may take the reserve's header; none at all
		 * left, it stays pending and fires on a later tick */
		struct kmsg *m = msg_make(TASK_OF(node_id, KERNEL_PID), a->p->task, &body, sizeof body, &err);
		if (!m)
			continue;
		m->code = a->code;
		struct proc *p = a->p;
		drop(a);
		msg_charge(m, p);   /* the header held since alarm_set */
		ipc_deliver(NULL, m, 1);
	}
}

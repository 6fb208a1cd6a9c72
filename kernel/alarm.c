/*
 * kernel/alarm.c - alarms: a process asks its kernel (KR_ALARM) to be sent
 * a message after some milliseconds, so it can wait for something with a
 * time limit (receive, and take the alarm as the timeout).  DEMOS had a
 * timer process for this; here it is a kernel-link service.  A fixed table;
 * an alarm for a process that has ended is dropped when it fires.
 */
#include "kernel.h"

#define ALARM_MAX_MS 3600000u

struct alarm {
	uint32_t task;       /* 0: free */
	uint32_t code;
	uint64_t due_ns;
};

static struct alarm alarms[NALARM];

int32_t alarm_set(struct proc *p, uint32_t ms, uint32_t code)
{
	if (ms == 0 || ms > ALARM_MAX_MS)
		return E_INVAL;
	for (int i = 0; i < NALARM; i++) {
		if (!alarms[i].task) {
			alarms[i] = (struct alarm){ p->task, code, arch_clock_ns() + (uint64_t)ms * 1000000u };
			return 0;
		}
	}
	return E_NOSPACE;
}

void alarm_tick(void)
{
	uint64_t now = arch_clock_ns();
	for (int i = 0; i < NALARM; i++) {
		if (!alarms[i].task || now < alarms[i].due_ns)
			continue;
		struct kr_alarm a = { .kind = KR_ALARM, .code = alarms[i].code };
		struct link to = { .in_use = 1, .task = alarms[i].task, .code = alarms[i].code };
		alarms[i].task = 0;
		ipc_kernel_send(&to, &a, sizeof a, 0);
	}
}

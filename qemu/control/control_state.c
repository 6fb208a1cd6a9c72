/*
 * qemu/control/control_state.c - the process states of the DPM paper Fig. 4.2 as one
 * transition function, so that every command asks the same question
 * ("may this process go there?") and the refusals read the same.
 *
 *   new --start--> running <--stop/start--> stopped
 *   new --stop---> stopped
 *   running --end--> killed        stopped --remove (or end)--> killed
 *   running --exit--> done         (it ended on its own, normally)
 *   acquired: metered only (never started, stopped or killed by the controller)
 *
 * The user never sends new straight to killed: a computation just built is
 * not thrown away by accident.  But a process's end is a fact the node
 * reports, not a command: a process that ended (a new one whose node went
 * down, an acquired server that exited) is killed whatever its state was,
 * so it can be removed and no longer counts as active.  killed and done
 * are final; done is only a normal end (exit), so `jobs` never shows a
 * program that finished its work as killed.
 */
#include <stddef.h>

#include "control.h"

const char *pstate_name(enum pstate s)
{
	static const char *const names[] = { "new", "running", "stopped", "killed", "acquired", "done" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

int pstate_active(enum pstate s)
{
	return !pstate_final(s);
}

int pstate_final(enum pstate s)
{
	return s == PS_KILLED || s == PS_DONE;
}

static int refuse(const char **why, const char *text)
{
	if (why)
		*why = text;
	return -1;
}

int pstate_next(enum pstate from, enum pevent event, const char **why)
{
	if (from == PS_KILLED)
		return refuse(why, event == PE_END || event == PE_EXIT ? "is killed: it has ended already"
								      : "is killed: it cannot be restarted");
	if (from == PS_DONE)
		return refuse(why, event == PE_END || event == PE_EXIT ? "is done: it has ended already"
								      : "is done: it ended, it cannot be restarted");
	if (event == PE_END)
		return PS_KILLED; /* from any live state: new, running, stopped or acquired */
	if (event == PE_EXIT)
		return PS_DONE;
	if (from == PS_ACQUIRED)
		return refuse(why, "is acquired: it can only be metered");
	switch (event) {
	case PE_START:
		if (from == PS_RUNNING)
			return refuse(why, "is already running");
		return PS_RUNNING;
	case PE_STOP:
		if (from == PS_STOPPED)
			return refuse(why, "is already stopped");
		return PS_STOPPED;
	case PE_END:
	case PE_EXIT:
		break; /* decided above */
	case PE_REMOVE:
		if (from == PS_NEW)
			return refuse(why, "is new: stop the job first (a new process is never killed directly)");
		if (from == PS_RUNNING)
			return refuse(why, "is running: stop the job first, or wait for it to end");
		return PS_KILLED;
	}
	return refuse(why, "cannot do that");
}

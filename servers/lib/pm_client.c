/*
 * servers/lib/pm_client.c - calls to the process manager.
 */
#include <string.h>

#include "demos.h"
#include "pm.h"

static int pm_request(struct pm_request *req, int passlink, struct pm_reply *rep)
{
	struct message m = message_into(rep, sizeof *rep);
	int r = call(LINK_PM, req, PM_REQUEST_HEADER + req->args_len, passlink, &m);
	if (r < 0)
		return r;
	if (r < (int)sizeof(int32_t))
		return E_BADREQ;
	return rep->status;
}

int pm_create(const char *const argv[], int notify_link, uint32_t *task)
{
	return pm_create_on(0, argv, notify_link, task);
}

int pm_create_on(uint32_t node, const char *const argv[], int notify_link, uint32_t *task)
{
	struct pm_request req = { .op = PM_CREATE, .node = node };
	struct pm_reply rep;
	for (int i = 0; argv[i]; i++) {
		size_t n = strlen(argv[i]) + 1;
		if (req.args_len + n > PM_ARGS_MAX)
			return E_INVAL;
		memcpy(req.args + req.args_len, argv[i], n);
		req.args_len += n;
	}
	int r = pm_request(&req, notify_link, &rep);
	if (r == 0 && task)
		*task = rep.task;
	return r;
}

static int pm_simple(uint32_t op, uint32_t task)
{
	struct pm_request req = { .op = op, .task = task };
	struct pm_reply rep;
	return pm_request(&req, -1, &rep);
}

int pm_start(uint32_t task) { return pm_simple(PM_START, task); }
int pm_stop(uint32_t task) { return pm_simple(PM_STOP, task); }
int pm_kill(uint32_t task) { return pm_simple(PM_KILL, task); }

int pm_givelink(uint32_t task, int slot, int link)
{
	struct pm_request req = { .op = PM_GIVELINK, .task = task, .slot = slot };
	struct pm_reply rep;
	int r = pm_request(&req, link, &rep);
	return r < 0 ? r : rep.slot;
}

int pm_setmeter(uint32_t task, uint32_t flags, int meter_link, uint32_t batch)
{
	struct pm_request req = { .op = PM_SETMETER, .task = task, .flags = flags, .batch = batch };
	struct pm_reply rep;
	return pm_request(&req, meter_link, &rep);
}

int pm_disklink(uint32_t node)
{
	struct pm_request req = { .op = PM_DISKLINK, .node = node };
	struct pm_reply rep;
	struct message m = message_into(&rep, sizeof rep);
	int r = call(LINK_PM, &req, PM_REQUEST_HEADER, -1, &m);
	if (r >= 0 && r < (int)sizeof(int32_t))
		r = E_BADREQ;
	else if (r >= 0)
		r = rep.status;
	if (r < 0 && m.passed >= 0)
		destroylink(m.passed);
	if (r < 0)
		return r;
	return m.passed >= 0 ? m.passed : E_BADREQ;
}

int pm_name(uint32_t task, char *name, size_t size)
{
	struct pm_request req = { .op = PM_NAME, .task = task };
	struct pm_reply rep;
	int r = pm_request(&req, -1, &rep);
	if (r == 0 && size) {
		size_t n = strnlen(rep.name, sizeof rep.name);
		n = n < size - 1 ? n : size - 1;
		memcpy(name, rep.name, n);
		name[n] = '\0';
	}
	return r;
}

int pm_spawn(const char *const argv[], int notify_link, uint32_t *task)
{
	int r = pm_create(argv, notify_link, task);
	return r < 0 ? r : pm_start(*task);
}

int pm_wait(uint32_t task, struct kr_exit_notice *notice)
{
	for (;;) {
		struct message m = message_into(notice, sizeof *notice);
		int r = receivemessage(&m);
		if (r < 0)
			return r;
		if (r == (int)sizeof *notice && notice->kind == KR_NOTIFY && notice->task == task)
			return 0;
	}
}

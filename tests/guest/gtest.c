/*
 * tests/guest/gtest.c - the framework's runner and the helpers the suites
 * share: spawning the helper child with a link back to the test, and
 * waiting for its end notice.
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

int gtest_failed_now;
int gtest_notify_link = -1;
static char fail_msg[256];

void gtest_fail(const char *file, int line, const char *what, long a, long b)
{
	gtest_failed_now = 1;
	if (a == b)
		snprintf(fail_msg, sizeof fail_msg, "%s:%d: %s", file, line, what);
	else
		snprintf(fail_msg, sizeof fail_msg, "%s:%d: %s (%ld vs %ld)", file, line, what, a, b);
}

int gtest_run(const char *suite, const struct gtest *tests, int n)
{
	int failed = 0;
	gtest_notify_link = createlink(GTEST_NOTIFY_CODE, NULL, 0, 0);
	for (int i = 0; i < n; i++) {
		gtest_failed_now = 0;
		tests[i].fn();
		if (gtest_failed_now) {
			printf("not ok %d - %s: %s: %s\n", i + 1, suite, tests[i].name, fail_msg);
			failed++;
		} else {
			printf("ok %d - %s: %s\n", i + 1, suite, tests[i].name);
		}
	}
	printf("%s: %d passed, %d failed\n", suite, n - failed, failed);
	return failed;
}

int self_link(uint32_t code)
{
	return createlink(code, NULL, 0, 0);
}

int spawn_child(const char *const argv[], uint32_t *task, int *child_link)
{
	return spawn_child_on(0, argv, -1, task, child_link);
}

/* End notices that came while waiting for something else: across nodes,
 * children's notices arrive in any order, and before or after the messages
 * their siblings send.  Room for a node full of children (the stress cases
 * of t_remote start dozens at once). */
#define NPROC_ROOM 64
static struct kr_exit_notice early[NPROC_ROOM];
static int nearly;

static int is_notice(const struct message *m, const void *data, int r)
{
	struct kr_exit_notice n;
	if (m->code != GTEST_NOTIFY_CODE || r != (int)sizeof n)
		return 0;
	memcpy(&n, data, sizeof n);
	return n.kind == KR_NOTIFY;
}

/* Node time in ms, for the waits with a limit. */
static uint64_t now_ms(void)
{
	static uint64_t last;
	uint64_t ns = 0;
	if (node_time(&ns, NULL) < 0)
		return ++last;   /* a wedged kernel cannot say: count each try as 1 ms */
	return last = ns / 1000000u;
}

/* RECEIVEMESSAGE, or with a limit (ms > 0) ARECEIVEMESSAGE until one
 * comes or the limit passes (E_WOULDBLOCK). */
static int receive_within(struct message *m, uint32_t ms)
{
	if (!ms)
		return receivemessage(m);
	uint64_t until = now_ms() + ms;
	for (;;) {
		int r = areceivemessage(m);
		if (r != E_WOULDBLOCK || now_ms() >= until)
			return r;
	}
}

static int receive_aside(struct message *m, uint32_t ms)
{
	static uint8_t data[MSG_MAX];
	for (;;) {
		struct message got = message_into(data, sizeof data);
		int r = receive_within(&got, ms);
		if (r < 0)
			return r;
		if (is_notice(&got, data, r) && nearly < (int)(sizeof early / sizeof early[0])) {
			memcpy(&early[nearly++], data, sizeof early[0]);
			continue;
		}
		uint32_t n = (uint32_t)r < m->buf_len ? (uint32_t)r : m->buf_len;
		memcpy(m->buf, data, n);
		m->len = n;
		m->code = got.code;
		m->passed = got.passed;
		m->reply = got.reply;
		m->from = got.from;
		return (uint32_t)r > m->buf_len ? E_TRUNC : r;
	}
}

int gtest_receive(struct message *m)
{
	return receive_aside(m, 0);
}

int gtest_receive_within(struct message *m, uint32_t ms)
{
	return receive_aside(m, ms);
}

int spawn_child_on(uint32_t node, const char *const argv[], int extra, uint32_t *task, int *child_link)
{
	int r = pm_create_on(node, argv, gtest_notify_link, task);
	if (r < 0)
		return r;
	if (extra >= 0 && (r = pm_givelink(*task, 5, extra)) < 0)
		return r;
	if (child_link) {
		int l = self_link(0xc0de);
		r = pm_givelink(*task, 4, l);
		destroylink(l);
		if (r < 0)
			return r;
	}
	r = pm_start(*task);
	if (r < 0 || !child_link)
		return r;
	uint32_t hello;
	struct message m = message_into(&hello, sizeof hello);
	r = gtest_receive(&m);
	if (r < 0)
		return r;
	*child_link = m.passed;
	return m.passed < 0 ? E_BADLINK : 0;
}


static int wait_notice(uint32_t task, uint32_t ms, struct kr_exit_notice *n);

int wait_child(uint32_t task, struct kr_exit_notice *n)
{
	return wait_notice(task, 0, n);
}

int wait_child_within(uint32_t task, uint32_t ms, struct kr_exit_notice *n)
{
	return wait_notice(task, ms ? ms : 1, n);
}

static int wait_notice(uint32_t task, uint32_t ms, struct kr_exit_notice *n)
{
	for (int i = 0; i < nearly; i++) {
		if (early[i].task == task) {
			*n = early[i];
			early[i] = early[--nearly];
			return 0;
		}
	}
	uint64_t until = now_ms() + ms;
	for (;;) {
		struct message m = message_into(n, sizeof *n);
		int r = receive_within(&m, ms ? (uint32_t)(until > now_ms() ? until - now_ms() : 1) : 0);
		if (r < 0)
			return r;
		if (r != (int)sizeof *n || n->kind != KR_NOTIFY)
			continue; /* not a notice: the suites wait only when none else is due */
		if (n->task == task)
			return 0;
		if (nearly < (int)(sizeof early / sizeof early[0]))
			early[nearly++] = *n;
	}
}

int gtest_mark(struct gtest_mark *mk)
{
	struct kr_kstats k, pm, ns, me;
	uint32_t node = 0;
	int r = node_info(&node, NULL);
	if (r == 0)
		r = kernel_stats(0, &me);
	if (r == 0)
		r = kernel_stats(TASK_OF(node, PM_PID), &pm);
	if (r == 0)
		r = kernel_stats(TASK_OF(node, NS_PID), &ns);
	if (r == 0)
		r = kernel_stats(0, &k);
	if (r < 0)
		return r;
	mk->headers = k.free_headers + me.queue_len;  /* our own queue drains later */
	mk->alarms = k.alarms_in_use;
	mk->pages = k.free_pages + me.pages + pm.pages + ns.pages;
	return 0;
}

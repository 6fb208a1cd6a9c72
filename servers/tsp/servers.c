/*
 * servers/tsp/servers.c - the controller's servers (servers.h).  Every
 * message to the controller says where it is from by the code of the link
 * it came over: SERVER_CODE + i from server i (link given at creation),
 * WATCH_CODE + i from server i's watcher, NOTIFY_CODE for end notices.
 */
#include <stdio.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "servers.h"

#define SERVER_CODE 0x5300
#define WATCH_CODE 0x5700
#define NOTIFY_CODE 0x5e00

_Static_assert(sizeof(struct tsp_msg_matrix) <= MSG_MAX, "matrix rows must fit a message");

union inbox {
	uint32_t kind;
	struct tsp_msg_answer answer;
	struct tsp_msg_lost lost;
	struct kr_exit_notice notice;
	uint8_t bytes[256];
};

static int failf(struct tsp_pool *pool, const char *what, int i, int err)
{
	if (i >= 0)
		snprintf(pool->error, sizeof pool->error, "server %d (task %u.%u): %s%s%s", i,
			 (unsigned)(pool->server[i].task >> 16), (unsigned)(pool->server[i].task & 0xffff), what,
			 err ? ": " : "", err ? kerror_name(err) : "");
	else
		snprintf(pool->error, sizeof pool->error, "%s%s%s", what, err ? ": " : "", err ? kerror_name(err) : "");
	return -1;
}

/* A process with link 4 back to us under `code` (and link 5 = extra). */
static int create_with_link(uint32_t node, const char *const argv[], uint32_t code, int extra,
			    int notify, uint32_t *task)
{
	int r = pm_create_on(node, argv, notify, task);
	if (r < 0)
		return r;
	int back = createlink(code, NULL, 0, 0);
	r = back < 0 ? back : pm_givelink(*task, 4, back);
	if (back >= 0)
		destroylink(back);
	if (r >= 0 && extra >= 0)
		r = pm_givelink(*task, 5, extra);
	if (r >= 0)
		r = pm_start(*task);
	if (r < 0)
		pm_kill(*task);
	return r < 0 ? r : 0;
}

static int server_of_task(const struct tsp_pool *pool, uint32_t task)
{
	for (int i = 0; i < pool->count; i++)
		if (pool->server[i].task == task || (pool->server[i].watcher && pool->server[i].watcher == task))
			return i;
	return -1;
}

/* A message that is not an answer: an end notice or a watcher's report. */
static int gone(struct tsp_pool *pool, const struct message *m, const union inbox *in)
{
	if (m->code == NOTIFY_CODE && m->len == sizeof in->notice && in->notice.kind == KR_NOTIFY) {
		int i = server_of_task(pool, in->notice.task);
		if (i < 0)
			return 0; /* not ours */
		char what[96];
		snprintf(what, sizeof what, "%s ended: %s, status %d",
			 in->notice.task == pool->server[i].task ? "the server" : "its watcher",
			 exit_reason_name(in->notice.reason), (int)in->notice.status);
		return failf(pool, what, i, 0);
	}
	if (m->code >= WATCH_CODE && m->code < WATCH_CODE + TSP_MAX_SERVERS && in->kind == TSP_LOST)
		return failf(pool, "lost (seen by its watcher)", (int)(m->code - WATCH_CODE), in->lost.error);
	return 0;
}

/* Wait until every server has said hello; it passes a link to itself. */
static int await_hellos(struct tsp_pool *pool)
{
	int waiting = pool->count;
	while (waiting > 0) {
		union inbox in;
		struct message m = message_into(&in, sizeof in);
		int r = receivemessage(&m);
		if (r < 0)
			return failf(pool, "receiving", -1, r);
		uint32_t i = m.code - SERVER_CODE;
		if (i < (uint32_t)pool->count && in.kind == TSP_HELLO && m.passed >= 0 && pool->server[i].link < 0) {
			pool->server[i].link = m.passed;
			waiting--;
		} else if (gone(pool, &m, &in) < 0) {
			return -1;
		} else if (m.passed >= 0) {
			destroylink(m.passed);
		}
	}
	return 0;
}

static int send_matrix(struct tsp_pool *pool, int i, const struct tsp_instance *t)
{
	static struct tsp_msg_matrix msg;
	for (int first = 0; first < t->n; first += TSP_ROWS_PER_MSG) {
		int rows = t->n - first < TSP_ROWS_PER_MSG ? t->n - first : TSP_ROWS_PER_MSG;
		msg.kind = TSP_MATRIX;
		msg.n = (uint32_t)t->n;
		msg.first = (uint32_t)first;
		msg.rows = (uint32_t)rows;
		memcpy(msg.cost, &t->cost[first * TSP_MAX_N], (size_t)rows * TSP_MAX_N * 4);
		int r = sendmessage(pool->server[i].link, &msg, 16 + (uint32_t)rows * TSP_MAX_N * 4, -1);
		if (r < 0)
			return failf(pool, "sending the matrix", i, r);
	}
	return 0;
}

static int start_watcher(struct tsp_pool *pool, int i)
{
	char index[8];
	snprintf(index, sizeof index, "%d", i);
	const char *argv[] = { "tspwatch", index, NULL };
	int r = create_with_link(0, argv, WATCH_CODE + (uint32_t)i, pool->server[i].link, pool->notify,
				 &pool->server[i].watcher);
	return r < 0 ? failf(pool, "cannot start its watcher", i, r) : 0;
}

int pool_start(struct tsp_pool *pool, const struct tsp_pool_spec *spec, const struct tsp_instance *t)
{
	uint32_t here;
	memset(pool, 0, sizeof *pool);
	pool->notify = createlink(NOTIFY_CODE, NULL, 0, 0);
	if (pool->notify < 0 || node_info(&here, NULL) < 0)
		return failf(pool, "cannot make a notify link", -1, pool->notify);
	for (int i = 0; i < spec->count; i++) {
		const char *argv[8] = { "tspserver" };
		for (int k = 0; i == spec->count - 1 && spec->last_args && k < 6 && spec->last_args[k]; k++)
			argv[k + 1] = spec->last_args[k];
		struct tsp_server *s = &pool->server[i];
		s->node = spec->nodes[i % spec->nnodes] ? spec->nodes[i % spec->nnodes] : here;
		s->link = -1;
		int r = create_with_link(s->node, argv, SERVER_CODE + (uint32_t)i, -1, pool->notify, &s->task);
		if (r < 0) {
			char what[64];
			snprintf(what, sizeof what, "cannot create server %d on node %u", i, (unsigned)s->node);
			pool_kill(pool);
			return failf(pool, what, -1, r);
		}
		pool->count = i + 1;
	}
	if (await_hellos(pool) < 0)
		goto fail;
	for (int i = 0; i < pool->count; i++)
		if (send_matrix(pool, i, t) < 0 || (pool->server[i].node != here && start_watcher(pool, i) < 0))
			goto fail;
	return 0;
fail:
	pool_kill(pool);
	return -1;
}

int pool_send(struct tsp_pool *pool, int i, const struct tsp_subproblem *sub)
{
	struct tsp_msg_work w = { .kind = TSP_WORK, .sub = *sub };
	int r = sendmessage(pool->server[i].link, &w, sizeof w, -1);
	if (r < 0)
		return failf(pool, "cannot send it a subproblem", i, r);
	pool->server[i].outstanding++;
	return 0;
}

int pool_receive(struct tsp_pool *pool, struct tsp_answer *ans)
{
	for (;;) {
		union inbox in;
		struct message m = message_into(&in, sizeof in);
		int r = receivemessage(&m);
		if (m.passed >= 0)
			destroylink(m.passed);
		if (r < 0 && r != E_TRUNC)
			return failf(pool, "receiving", -1, r);
		uint32_t i = m.code - SERVER_CODE;
		if (i < (uint32_t)pool->count && in.kind == TSP_ANSWER) {
			if (m.len != sizeof in.answer || pool->server[i].outstanding == 0)
				return failf(pool, "sent an answer nobody asked for", (int)i, 0);
			pool->server[i].outstanding--;
			*ans = in.answer.ans;
			return (int)i;
		}
		if (gone(pool, &m, &in) < 0)
			return -1;
	}
}

void pool_stop(struct tsp_pool *pool)
{
	uint32_t quit = TSP_QUIT;
	for (int i = 0; i < pool->count; i++) {
		if (pool->server[i].watcher)
			pm_kill(pool->server[i].watcher);
		sendmessage(pool->server[i].link, &quit, sizeof quit, -1);
	}
}

void pool_kill(struct tsp_pool *pool)
{
	for (int i = 0; i < pool->count; i++) {
		if (pool->server[i].watcher)
			pm_kill(pool->server[i].watcher);
		pm_kill(pool->server[i].task);
	}
}

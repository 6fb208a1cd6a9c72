/*
 * servers/tsp/tspserver.c - a TSP server: receives the cost matrix once,
 * then computes the subproblems its controller sends (bnb_answer) and
 * answers each over link 4, the link to the controller it was given at
 * creation.  A watcher's TSP_WATCH CALL is kept unanswered, so the watcher
 * wakes only when this process or its node ends.  docs/tsp.md.
 *
 *     tspserver [--die-after K] [--stall-after K]
 *
 * The two options are for tests of the controller's error handling: end
 * with status 3 (or stop answering) when request K+1 arrives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bnb.h"
#include "servers/lib/demos.h"
#include "protocol.h"

#define LINK_CONTROLLER 4

static struct tsp_instance inst;
static int rows_known;

union tsp_msg {
	uint32_t kind;
	struct tsp_msg_matrix matrix;
	struct tsp_msg_work work;
	uint8_t bytes[MSG_MAX];
};

static int take_rows(const struct tsp_msg_matrix *m, int len)
{
	if (len < 16 || m->n < TSP_MIN_N || m->n > TSP_MAX_N || m->rows > TSP_ROWS_PER_MSG ||
	    m->first != (uint32_t)rows_known || m->first + m->rows > m->n ||
	    len < (int)(16 + m->rows * TSP_MAX_N * 4))
		return -1;
	inst.n = (int)m->n;
	for (uint32_t r = 0; r < m->rows; r++)
		memcpy(&inst.cost[(m->first + r) * TSP_MAX_N], m->cost[r], TSP_MAX_N * 4);
	rows_known += (int)m->rows;
	return 0;
}

static int valid_work(const struct tsp_subproblem *sub)
{
	if (rows_known != inst.n || sub->len < 1 || sub->len > (uint32_t)inst.n || sub->path[0] != 0)
		return 0;
	uint8_t seen[TSP_MAX_N] = { 0 };
	for (uint32_t i = 0; i < sub->len; i++) {
		if (sub->path[i] >= inst.n || seen[sub->path[i]])
			return 0;
		seen[sub->path[i]] = 1;
	}
	return sub->mode == TSP_BOUND || sub->mode == TSP_SOLVE;
}

static void answer(const struct tsp_subproblem *sub)
{
	struct tsp_msg_answer a = { .kind = TSP_ANSWER };
	bnb_answer(&inst, sub, &a.ans);
	int r = sendmessage(LINK_CONTROLLER, &a, sizeof a, -1);
	if (r < 0) {
		printf("tspserver: cannot answer the controller: %s\n", kerror_name(r));
		exit(1);
	}
}

static long option_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		printf("tspserver: %s needs a number\n", argv[*i]);
		exit(2);
	}
	return strtol(argv[++*i], NULL, 10);
}

int main(int argc, char **argv)
{
	static union tsp_msg msg;
	long die_after = -1, stall_after = -1, requests = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--die-after"))
			die_after = option_value(argc, argv, &i);
		else if (!strcmp(argv[i], "--stall-after"))
			stall_after = option_value(argc, argv, &i);
		else {
			printf("usage: tspserver [--die-after K] [--stall-after K] (started by tsp)\n");
			return 2;
		}
	}
	int self = createlink(0, NULL, 0, 0);
	uint32_t hello = TSP_HELLO;
	if (self < 0 || sendmessage(LINK_CONTROLLER, &hello, sizeof hello, self) < 0) {
		printf("tspserver: no controller on link %d\n", LINK_CONTROLLER);
		return 1;
	}
	destroylink(self);
	for (;;) {
		struct message m = message_into(&msg, sizeof msg);
		int len = receivemessage(&m);
		if (len < 4)
			continue;
		if (msg.kind == TSP_WATCH && m.reply >= 0)
			continue; /* kept, never answered: the watcher wakes at our end */
		if (msg.kind == TSP_QUIT)
			return 0;
		if (msg.kind == TSP_MATRIX && take_rows(&msg.matrix, len) == 0)
			continue;
		if (msg.kind == TSP_WORK && len >= (int)sizeof msg.work && valid_work(&msg.work.sub)) {
			requests++;
			if (die_after >= 0 && requests > die_after) {
				printf("tspserver: ending after %ld requests (--die-after)\n", die_after);
				return 3;
			}
			if (stall_after >= 0 && requests > stall_after)
				continue; /* never answers again */
			answer(&msg.work.sub);
			continue;
		}
		printf("tspserver: malformed message (kind %#x, %d bytes) from %u.%u\n", (unsigned)msg.kind, len,
		       (unsigned)(m.from >> 16), (unsigned)(m.from & 0xffff));
		if (m.reply >= 0)
			destroylink(m.reply);
	}
}

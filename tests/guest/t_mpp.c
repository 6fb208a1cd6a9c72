/*
 * tests/guest/t_mpp.c - a ping-pong across nodes for the metering tests
 * (tests/cluster/cluster_test_meter.sh), run under mrun:
 *     t_mpp K [kill]
 * puts `t_child pong K` on node 2 and `t_child ping K` on node 3, which
 * sends it K messages; both inherit this process's meter link and flags.
 * With `kill`, a metered spinner runs on node 4 meanwhile, and once the
 * ping-pong is over (and a second more, for node 4's partial batch to be
 * flushed to the filter) it prints "KILL-NODE 4" and waits for the node to be
 * seen down (sends fail with E_NODEDOWN, the spinner's end notice says
 * "node down"), so the host can check that no other node's traces were
 * lost.
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "100";
	int kill_mode = argc > 2 && !strcmp(argv[2], "kill");
	const char *pong_argv[] = { "t_child", "pong", k, NULL };
	const char *ping_argv[] = { "t_child", "ping", k, NULL };
	const char *spin_argv[] = { "t_child", "spin", "4000000000", NULL };
	uint32_t pong, ping, spin = 0;
	int gl, pl, sl = -1;
	struct kr_exit_notice n;
	gtest_notify_link = createlink(0x4e, NULL, 0, 0);
	if (kill_mode && spawn_child_on(4, spin_argv, -1, &spin, &sl) < 0)
		return 1;
	if (spawn_child_on(2, pong_argv, -1, &pong, &gl) < 0 || spawn_child_on(3, ping_argv, gl, &ping, &pl) < 0)
		return 2;
	if (wait_child(ping, &n) < 0 || n.status != 0 || wait_child(pong, &n) < 0 || n.status != 0)
		return 3;
	if (kill_mode) {
		/* Node 4's traces so far (the spinner's start, its links) sit in
		 * a partial batch until its meter's 100 ms flush: give them a
		 * second to reach the filter before the node is killed, or the
		 * host finds none when the ping-pong was quick. */
		struct kr_alarm a;
		struct message m;
		if (alarm_after(1000, 0xa1) < 0)
			return 6;
		do {
			m = message_into(&a, sizeof a);
		} while (receivemessage(&m) >= 0 && m.code != 0xa1);
		printf("KILL-NODE 4\n");
		fflush(stdout);
		uint32_t v = 0;
		int r;
		do {
			for (volatile int i = 0; i < 1000000; i++)
				;
			r = sendmessage(sl, &v, 4, -1);
		} while (r == 0 || r == E_QUEUEFULL);
		if (r != E_NODEDOWN)
			return 4;
		/* our process manager tells us how the spinner ended */
		if (wait_child(spin, &n) < 0 || n.reason != EXIT_NODE_DOWN)
			return 5;
	}
	printf("t_mpp: %s messages from node 3 to node 2\n", k);
	return 0;
}

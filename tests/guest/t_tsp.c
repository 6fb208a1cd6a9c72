/*
 * tests/guest/t_tsp.c - the TSP workload through real processes: the suite
 * runs `tsp` as a child, computes the optimum itself with Held-Karp
 * (tests/unit/test_tsp_reference.c) and passes it as `--expect COST`, so
 * tsp's exit status says whether the tour it found is a tour of that cost.
 * Every version runs with 1, 2 and 4 servers; a server that ends or is
 * killed mid-run, and bad usage, must give status 1 and 2 instead of a
 * hang or a crash.
 *
 *     t_tsp            one node (make check-guest)
 *     t_tsp cluster    node 1 of four (tests/cluster/cluster_test_tsp.sh):
 *                      servers spread over nodes 1-4, a server ending on
 *                      another node, one killed there by the controller
 *                      (--kill-after), and last a node killed under a server
 *                      (the suite prints "KILL-NODE 4" for the script)
 */
#include <stdio.h>
#include <string.h>

#include "gtest.h"
#include "servers/tsp/instance.h"
#include "servers/lib/pm.h"
#include "tests/unit/test_tsp_reference.h"

/* Run tsp with `args` (space separated); its exit status, or -1 when it
 * did not end normally. */
static int run_tsp(const char *args)
{
	static char copy[256];
	const char *argv[32] = { "tsp" };
	int argc = 1;
	snprintf(copy, sizeof copy, "%s", args);
	for (char *w = strtok(copy, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	uint32_t task;
	struct kr_exit_notice n;
	if (pm_spawn(argv, gtest_notify_link, &task) < 0 || wait_child(task, &n) < 0)
		return -1;
	return n.reason == EXIT_NORMAL ? n.status : -1;
}

static int32_t optimum(int n, uint32_t seed)
{
	static struct tsp_instance t;
	tsp_random_instance(&t, n, seed);
	return held_karp(&t);
}

/* tsp -v V -p P -n N -s SEED [extra] --expect OPT */
static int run_expecting_optimum(int v, int p, int n, uint32_t seed, const char *extra)
{
	char args[160];
	snprintf(args, sizeof args, "-v %d -p %d -n %d -s %u %s --expect %ld", v, p, n, (unsigned)seed, extra,
		 (long)optimum(n, seed));
	return run_tsp(args);
}

static const struct { int n; uint32_t seed; } instances[] = { { 5, 11 }, { 9, 12 }, { 12, 13 } };

static void version_optimal_on_one_node(int v)
{
	for (unsigned k = 0; k < sizeof instances / sizeof instances[0]; k++)
		for (int p = 1; p <= 4; p *= 2)
			CHECK_EQ(run_expecting_optimum(v, p, instances[k].n, instances[k].seed, ""), 0);
}

static void version_1_is_optimal(void) { version_optimal_on_one_node(1); }
static void version_2_is_optimal(void) { version_optimal_on_one_node(2); }
static void version_3_is_optimal(void) { version_optimal_on_one_node(3); }

static void every_split_depth_is_optimal(void)
{
	for (int d = 1; d <= 9; d += 4) {
		char extra[16];
		snprintf(extra, sizeof extra, "-d %d", d);
		CHECK_EQ(run_expecting_optimum(2, 2, 10, 21, extra), 0);
		CHECK_EQ(run_expecting_optimum(3, 4, 10, 22, extra), 0);
	}
	CHECK_EQ(run_expecting_optimum(1, 2, 2, 5, ""), 0); /* two cities */
}

static void a_wrong_expectation_fails(void)
{
	char args[96];
	snprintf(args, sizeof args, "-v 3 -p 2 -n 8 -s 3 --expect %ld", (long)optimum(8, 3) + 1);
	CHECK_EQ(run_tsp(args), 1);
}

static void a_server_that_ends_is_an_error(void)
{
	CHECK_EQ(run_tsp("-v 1 -p 2 -n 12 -s 13 --die-after 3"), 1);
	CHECK_EQ(run_tsp("-v 3 -p 4 -n 12 -s 13 --die-after 0"), 1);
	CHECK_EQ(run_tsp("-v 2 -p 1 -n 12 -s 13 --die-after 40"), 1);
}

/* The controller kills its last server (pm_kill) mid-run.  A server that
 * stalled on its 4th request is sent nothing more, so only the end notice
 * (reason killed) can end the controller's wait; a server still answering
 * may have answered already, and the next send to it sees E_DEAD.  Either
 * must fail the run, not hang it. */
static void a_server_killed_mid_run_is_an_error(void)
{
	CHECK_EQ(run_tsp("-v 2 -p 1 -n 12 -s 13 --stall-after 3 --kill-after 3"), 1);
	CHECK_EQ(run_tsp("-v 3 -p 2 -n 12 -s 13 --kill-after 4"), 1);
	CHECK_EQ(run_tsp("-v 1 -p 3 -n 12 -s 13 --kill-after 0"), 1);
}

static void bad_usage_is_status_2(void)
{
	CHECK_EQ(run_tsp("-v 4 -n 8"), 2);
	CHECK_EQ(run_tsp("-n 1"), 2);
	CHECK_EQ(run_tsp("-n 65"), 2);
	CHECK_EQ(run_tsp("-p 0 -n 8"), 2);
	CHECK_EQ(run_tsp("-p 4"), 2);                 /* no instance */
	CHECK_EQ(run_tsp("-n 8 -f -"), 2);            /* two instances */
	CHECK_EQ(run_tsp("-f gr17.tsp"), 2);          /* no files: stdin only */
	CHECK_EQ(run_tsp("-n 8 --nodes 1,x"), 2);
	CHECK_EQ(run_tsp("-n 8 --frobnicate"), 2);
	CHECK_EQ(run_tsp("--help"), 0);
}

static void empty_standard_input_is_bad_input(void)
{
	CHECK_EQ(run_tsp("-f -"), 2); /* nothing on stdin: "stdin:1:1: empty input" */
}

static void servers_on_a_missing_node_fail_cleanly(void)
{
	CHECK_EQ(run_tsp("-p 2 -n 8 --nodes 9"), 1);
}

GTESTS(
	{ "version 1 is optimal with 1, 2 and 4 servers", version_1_is_optimal },
	{ "version 2 is optimal with 1, 2 and 4 servers", version_2_is_optimal },
	{ "version 3 is optimal with 1, 2 and 4 servers", version_3_is_optimal },
	{ "every split depth is optimal", every_split_depth_is_optimal },
	{ "a wrong --expect fails", a_wrong_expectation_fails },
	{ "a server that ends mid-run is an error", a_server_that_ends_is_an_error },
	{ "a server killed mid-run is an error", a_server_killed_mid_run_is_an_error },
	{ "bad usage is status 2", bad_usage_is_status_2 },
	{ "empty standard input is bad input", empty_standard_input_is_bad_input },
	{ "servers on a missing node fail cleanly", servers_on_a_missing_node_fail_cleanly },
);

/* ---- on node 1 of a four-node cluster ---- */

static void versions_with_servers_spread_over_nodes(void)
{
	for (int v = 1; v <= 3; v++) {
		CHECK_EQ(run_expecting_optimum(v, 4, 12, 31, "--nodes 1,2,3,4"), 0);
		CHECK_EQ(run_expecting_optimum(v, 2, 11, 32, "--nodes 2,4"), 0);
		CHECK_EQ(run_expecting_optimum(v, 1, 10, 33, "--nodes 3"), 0);
	}
}

static void eight_servers_on_four_nodes(void)
{
	CHECK_EQ(run_expecting_optimum(3, 8, 12, 34, "--nodes 1,2,3,4"), 0);
}

static void a_server_ending_on_another_node_is_an_error(void)
{
	CHECK_EQ(run_tsp("-v 3 -p 2 -n 12 -s 35 --nodes 2,3 --die-after 5"), 1);
	CHECK_EQ(run_tsp("-v 1 -p 3 -n 12 -s 35 --nodes 1,2,3 --die-after 2"), 1);
}

/* The controller on node 1 kills its server on node 4 (pm_kill, forwarded
 * to node 4's process manager) mid-run, once as its only server, stalled
 * on a request, and once as one of four still answering: the script
 * checks what tsp reported. */
static void a_server_killed_on_another_node_is_an_error(void)
{
	CHECK_EQ(run_tsp("-v 2 -p 1 -n 12 -s 37 --nodes 4 --stall-after 3 --kill-after 3"), 1);
	CHECK_EQ(run_tsp("-v 3 -p 4 -n 12 -s 37 --nodes 1,2,3,4 --kill-after 6"), 1);
}

/* Let `ms` of node time pass (busy: there is no sleep call). */
static void let_time_pass(uint64_t ms)
{
	uint64_t start, now;
	node_time(&start, NULL);
	do
		node_time(&now, NULL);
	while (now - start < ms * 1000000u);
}

static void a_server_node_going_down_is_an_error(void)
{
	/* the server on node 4 stops answering, so only its node's end can
	 * finish the run: the watcher's CALL must see E_NODEDOWN */
	const char *argv[] = { "tsp", "-v", "2", "-p", "2", "-n", "12", "-s", "36", "--nodes", "1,4",
			       "--stall-after", "3", NULL };
	uint32_t task;
	struct kr_exit_notice n;
	CHECK_EQ(pm_spawn(argv, gtest_notify_link, &task), 0);
	let_time_pass(500); /* its servers are up and the one on node 4 stalled */
	printf("KILL-NODE 4\n");
	CHECK_EQ(wait_child(task, &n), 0);
	CHECK_EQ(n.reason, EXIT_NORMAL);
	CHECK_EQ(n.status, 1);
}

static const struct gtest cluster_tests[] = {
	{ "versions 1-3 with servers spread over nodes", versions_with_servers_spread_over_nodes },
	{ "eight servers on four nodes", eight_servers_on_four_nodes },
	{ "a server ending on another node is an error", a_server_ending_on_another_node_is_an_error },
	{ "a server killed on another node is an error", a_server_killed_on_another_node_is_an_error },
	{ "a server's node going down is an error", a_server_node_going_down_is_an_error },
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "cluster"))
		return gtest_run("t_tsp cluster", cluster_tests, sizeof cluster_tests / sizeof cluster_tests[0]);
	return gtest_run("t_tsp", gtests, sizeof gtests / sizeof gtests[0]);
}

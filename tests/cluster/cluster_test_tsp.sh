#!/usr/bin/env bash
# tests/cluster/cluster_test_tsp.sh - the TSP workload across nodes: a
# 4-node cluster whose node 1 runs `t_tsp cluster` (tests/guest/t_tsp.c).
# Every version solves instances with its servers spread over the nodes
# and must print the Held-Karp optimum; a server ending on another node,
# or killed there by the controller (pm_kill through node 4's process
# manager, `tsp --kill-after`) while it has work, must make tsp fail with
# the reason and exit 1.  Last the suite prints "KILL-NODE 4" while a server
# on node 4 is stalled: this script kills node 4's QEMU and tsp must report
# the lost server (its watcher's CALL gets E_NODEDOWN) and exit 1, not hang.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir tsp)
cat >"$TEST_DIR/tsp.cluster" <<'CLUSTER'
node n1 id=1 init="--halt t_tsp cluster"
node n2 id=2
node n3 id=3
node n4 id=4
CLUSTER
expect_status 0 "tsp: up 4 nodes" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/tsp.cluster" >/dev/null
console=$d/n1.console

kill_when_asked "$d" t_tsp 4 180 40

relay_results "$console" 5 "tsp: "
# the killed server, stalled on a request, is reported by its end notice
# (reason killed) or its watcher (E_DEAD), whichever comes first; one of
# four still answering may be reported by the next send to it (E_DEAD)
killed='the server ended: killed|lost \(seen by its watcher\): E_DEAD'
check "tsp: the server killed on node 4 was reported (alone)" \
	grep -qE "^tsp: server 0 \\(task 4\\.[0-9]+\\): ($killed)" "$console"
check "tsp: the server killed on node 4 was reported (one of four)" \
	grep -qE "^tsp: server 3 \\(task 4\\.[0-9]+\\): ($killed|cannot send it a subproblem: E_DEAD)" "$console"
check "tsp: the lost server was reported" grep -q '^tsp: server 1 .*lost (seen by its watcher): E_NODEDOWN' "$console"
check "tsp: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
"$DPM" cluster down --dir "$d" >/dev/null

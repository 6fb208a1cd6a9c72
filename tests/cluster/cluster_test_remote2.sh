#!/usr/bin/env bash
# tests/cluster/cluster_test_remote2.sh - links across nodes on the
# smallest cluster: two nodes, node 1 running `t_remote 2`
# (tests/guest/t_remote.c), which places on node 2 what the 4-node run
# (cluster_test_remote.sh) spreads over nodes 2-4.  When the suite prints
# "KILL-NODE 2" this script kills node 2's QEMU; the suite checks that its
# senders get E_NODEDOWN and that node 1 runs on alone.  Each of the
# suite's result lines becomes one of ours.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir remote2)
cat >"$TEST_DIR/remote2.cluster" <<'CLUSTER'
node n1 id=1 init="--halt t_remote 2"
node n2 id=2
CLUSTER
expect_status 0 "remote2: up 2 nodes" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/remote2.cluster" >/dev/null
console=$d/n1.console

asked_to_kill() { grep -q '^KILL-NODE 2' "$console"; }
suite_done() { grep -q '^init: t_remote ended' "$console" || [ "$(status_field "$d" n1 6)" = exited ]; }
if wait_until 180 asked_to_kill; then
	kill -KILL "$(status_field "$d" n2 5)"
fi
wait_until 120 suite_done

relay_results "$console" 8 "remote2: "
check "remote2: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
check "remote2: node 2 was killed, not ended" [ "$(status_field "$d" n2 6)" != running ]
"$DPM" cluster down --dir "$d" >/dev/null

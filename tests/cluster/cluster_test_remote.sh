#!/usr/bin/env bash
# tests/cluster/cluster_test_remote.sh - links across nodes, from inside:
# a 4-node cluster whose node 1 runs the guest suite t_remote
# (tests/guest/t_remote.c), which places its helpers on nodes 2-4.  When
# the suite prints "KILL-NODE 4" this script kills node 4's QEMU, and the
# suite checks that its senders get E_NODEDOWN while the others run on.
# Each of the suite's result lines becomes one of ours.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir remote)
cat >"$TEST_DIR/remote.cluster" <<'CLUSTER'
node n1 id=1 init="--halt t_remote"
node n2 id=2
node n3 id=3
node n4 id=4
CLUSTER
expect_status 0 "remote: up 4 nodes" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/remote.cluster" >/dev/null
console=$d/n1.console

kill_when_asked "$d" t_remote 4 240 120

relay_results "$console" 8 "remote: "
check "remote: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
check "remote: node 2 ran on" [ "$(status_field "$d" n2 6)" = running ]
check "remote: node 3 ran on" [ "$(status_field "$d" n3 6)" = running ]
"$DPM" cluster down --dir "$d" >/dev/null

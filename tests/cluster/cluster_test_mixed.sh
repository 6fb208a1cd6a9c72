#!/usr/bin/env bash
# tests/cluster/cluster_test_mixed.sh - a cluster of both machines: 2 ARM
# and 2 x86 nodes, node 1 an ARM node running the guest suite t_remote
# (tests/guest/t_remote.c), whose helpers land on nodes 2-4 (x86, x86,
# ARM), so messages, CALL replies, passed links and MOVEDATA cross between
# the architectures in both directions.  When the suite prints
# "KILL-NODE 4" this script kills node 4 (ARM), and the suite checks that
# its senders get E_NODEDOWN while the others run on.  The wire formats are
# 32-bit little-endian on both machines; this is where that is exercised.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir mixed)
cat >"$TEST_DIR/mixed.cluster" <<'CLUSTER'
node n1 id=1 arch=arm init="--halt t_remote"
node n2 id=2 arch=x86
node n3 id=3 arch=x86
node n4 id=4 arch=arm
CLUSTER
expect_status 0 "mixed: up 2 ARM and 2 x86 nodes" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/mixed.cluster" >/dev/null
console=$d/n1.console
check "mixed: node 1 booted the ARM kernel" grep -q '^arm: ' "$console"
check "mixed: node 2 booted the x86 kernel" grep -q '^x86: ' "$d/n2.console"

kill_when_asked "$d" t_remote 4 240 120

relay_results "$console" 8 "mixed: " "mixed: "
check "mixed: node 1 (ARM) powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
check "mixed: node 2 (x86) ran on" [ "$(status_field "$d" n2 6)" = running ]
check "mixed: node 3 (x86) ran on" [ "$(status_field "$d" n3 6)" = running ]
"$DPM" cluster down --dir "$d" >/dev/null

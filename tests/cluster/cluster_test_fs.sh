#!/usr/bin/env bash
# tests/cluster/cluster_test_fs.sh - the file system on a 4-node cluster.
# Node 4 has a disk image; node 1 runs `t_fs cluster` (tests/guest/t_fs.c),
# which starts the four servers on four different nodes and twelve test
# users (sequential and random) spread over all nodes, each verifying its
# data, then leaves files behind.  The cluster is stopped and started again
# on the same image; `t_fs persist` places the servers differently and
# checks that the files are all there, then runs the users again.
. "$(dirname "$0")/cluster_lib.sh"

img=$TEST_DIR/fs-node4.img
rm -f "$img"
expect_status 0 "fs: dpm disk create" "$DPM" disk create "$img" --size 8 >/dev/null
expect_status 1 "fs: dpm disk create refuses to overwrite" "$DPM" disk create "$img"
expect_status 2 "fs: dpm disk create bad size" "$DPM" disk create "$TEST_DIR/x.img" --size 0

# run_phase NAME ARG CASES: boot the cluster with t_fs ARG on node 1, report its cases.
run_phase() {
	local name=$1 arg=$2 cases=$3 d
	d=$(new_cluster_dir "fs-$name")
	cat >"$TEST_DIR/fs-$name.cluster" <<CLUSTER
node n1 id=1 init="--halt t_fs $arg"
node n2 id=2
node n3 id=3
node n4 id=4 disk=$img
CLUSTER
	expect_status 0 "fs: $name: up 4 nodes, disk on node 4" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/fs-$name.cluster" >/dev/null
	local console=$d/n1.console
	suite_done() { grep -q '^init: t_fs ended' "$console" || [ "$(status_field "$d" n1 6)" = exited ]; }
	wait_until 100 suite_done
	relay_results "$console" $cases "fs: $name: "
	grep '^# ' "$console"
	check "fs: $name: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	"$DPM" cluster down --dir "$d" >/dev/null
}

run_phase first cluster 3
run_phase restarted persist 3
rm -f "$img"

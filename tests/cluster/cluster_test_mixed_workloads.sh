#!/usr/bin/env bash
# tests/cluster/cluster_test_mixed_workloads.sh - the workloads on a mixed
# 4-node cluster, 2 x86 (nodes 1, 3) and 2 ARM (nodes 2, 4): the file
# system with its servers spread over both kinds of node and its disk on an
# ARM node, stopped and started again on the same image (t_fs cluster, then
# t_fs persist), and every TSP version with servers spread over both kinds
# (t_tsp cluster), where a server on node 4 (ARM) is killed by its
# controller on node 1 (x86) and then node 4 is killed under a stalled
# server.
. "$(dirname "$0")/cluster_lib.sh"

img=$TEST_DIR/mixed-fs.img
rm -f "$img"
expect_status 0 "mixed fs: dpm disk create" "$DPM" disk create "$img" --size 8 >/dev/null

# run NAME INIT CASES: boot the mixed cluster with INIT on node 1 (x86),
# kill node 4 if the suite asks, report its cases.
run() {
	local name=$1 init=$2 cases=$3 d
	d=$(new_cluster_dir "$name")
	cat >"$TEST_DIR/$name.cluster" <<CLUSTER
node n1 id=1 arch=x86 init="--halt $init"
node n2 id=2 arch=arm
node n3 id=3 arch=x86
node n4 id=4 arch=arm disk=$img
CLUSTER
	expect_status 0 "$name: up 2 x86 and 2 ARM nodes" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster" >/dev/null
	local console=$d/n1.console
	asked() { grep -q '^KILL-NODE 4' "$console"; }
	done_() { grep -q '^init: .* ended' "$console" || [ "$(status_field "$d" n1 6)" = exited ]; }
	either() { done_ || asked; }
	wait_until 180 either
	asked && kill -KILL "$(status_field "$d" n4 5)"
	wait_until 60 done_
	relay_results "$console" $cases "$name: " "$name: "
	check "$name: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	"$DPM" cluster down --dir "$d" >/dev/null
}

run mixed-fs "t_fs cluster" 3
run mixed-fs-restarted "t_fs persist" 3
run mixed-tsp "t_tsp cluster" 5
rm -f "$img"

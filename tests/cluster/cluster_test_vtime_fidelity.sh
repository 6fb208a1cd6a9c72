#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_fidelity.sh - the analysis against the
# run, in virtual time (issue 14's fidelity; docs/virtual-time.md).
# `dpm parallel`'s prediction of a job's completion (t_max of the measured
# placement with CPU contention) must be within 5 % of the completion
# measured on the one clock (first to last event), with the delivery-time
# table of the cluster the job ran on:
#   - TSP version 1 with 8 servers on one node, recorded by `dpm record`
#     on the cluster it boots by default (no SEND remote);
#   - the same over 4 nodes (remote SENDs: the table's remote_tx_ns and
#     remote_rx_ns, the kernels' transport work, charged to the machines;
#     without them -13 %);
#   - the file system on 4 nodes (fsload from node 1's init, the disk on
#     node 4, every process metered by the cluster's filter).
# Virtual time is deterministic, so each is a result, not a timing.
. "$(dirname "$0")/cluster_lib.sh"

# predicted NAME LOG [TABLE]: dpm parallel --contention on LOG (with the
# table beside it, or TABLE) within 5 % of its measured completion, and no
# placeholder table used.
predicted() {
	local name=$1 log=$2 measured error
	"$DPM" parallel --contention ${3:+--mtime "$3"} "$log" >"$TEST_DIR/$name.par" 2>"$TEST_DIR/$name.err"
	measured=$(awk '/^measured completion: / { print $3, $4 }' "$TEST_DIR/$name.par" | tr -d ,)
	error=$(awk '/^  t_max of measured\+contention/ {
		for (i = 1; i <= NF; i++) if ($i ~ /%$/) { sub(/%$/, "", $i); print $i } }' "$TEST_DIR/$name.par")
	check_that "$name: predicted completion within 5 % of the measured ${measured:-?} (${error:-none} %)" \
		'[ -n "$error" ] && awk -v e="$error" "BEGIN { exit !(e >= -5 && e <= 5) }"'
	check_that "$name: ...the cluster's own table used, no placeholder" '[ ! -s "$TEST_DIR/$name.err" ]'
}

# tsp NAME NODES SPEC: TSP over SPEC's nodes on a cluster of NODES nodes.
tsp() {
	local name=$1 d sends
	d=$(new_cluster_dir "fidelity-$name")
	timeout -k 5 300 "$DPM" record --dir "$d" -q -n "$2" -o "$TEST_DIR/$name.log" \
		--flags send,receivecall,receive,queued,createprocess \
		-- tsp -v 1 -p 8 --nodes "$3" -n 13 -s 4 >"$TEST_DIR/$name.out" 2>&1 </dev/null
	check "$name: dpm record runs tsp (exit 0)" [ $? -eq 0 ]
	check "$name: ...which finds its tour" grep -q '^tour cost: ' "$TEST_DIR/$name.out"
	check "$name: ...in virtual time (the log's table says so)" \
		[ "$(head -1 "$TEST_DIR/$name.log.mtime" 2>/dev/null)" = "# clock=virtual" ]
	sends=$("$DPM" dump --csv "$TEST_DIR/$name.log" | awk -F, 'NR > 1 && $2 == "SEND" { n++ } END { print n + 0 }')
	check "$name: the run has work to predict ($sends sends)" [ "$sends" -gt 1000 ]
	predicted "$name" "$TEST_DIR/$name.log"
	check "$name: the cluster record booted is down again" [ ! -e "$d/state" ]
}

tsp one-node 1 1
tsp four-nodes 4 1,2,3,4
check_that "four-nodes: ...its table has the transport columns" \
	'grep -q "^size_bytes,local_ns,remote_ns,remote_tx_ns,remote_rx_ns,remote_wire_ns$" "$TEST_DIR/four-nodes.log.mtime"'

# The file system on 4 nodes (cluster_test_vtime_fs.sh's workload).
d=$(new_cluster_dir fidelity-fs)
"$DPM" disk create "$TEST_DIR/fs.img" --size 4 --force >/dev/null
{
	echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
	echo "node n1 id=1 clock=virtual init=\"--halt mrun filter all fsload --ri 1 --dm 2 --bm 3 --di 4 --users 1,2,3,4 --size 6000 --ops 8\""
	echo "node n2 id=2 clock=virtual"
	echo "node n3 id=3 clock=virtual"
	echo "node n4 id=4 clock=virtual disk=$TEST_DIR/fs.img"
} >"$TEST_DIR/fs.cluster"
vtime_run fs 0 "$d" "$TEST_DIR/fs.cluster" "4 nodes in virtual time, a disk on node 4, and the filter"
check "fs: every user verified its data" grep -q "^fsload: 4 users, 4 verified" "$d/n1.console"
vtime_keep_log "$d" "$TEST_DIR/fs.csv"
predicted fs "$d/meter.log" "$d/mtime.csv"

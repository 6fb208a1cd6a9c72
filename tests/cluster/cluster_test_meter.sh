#!/usr/bin/env bash
# tests/cluster/cluster_test_meter.sh - metering end to end: kernel probes
# on several nodes, batches over each node's host link to `dpm filter` on
# 127.0.0.1, the filter's log read back with `dpm dump --csv`.
#  - a metered ping-pong of K messages across nodes gives exactly K SEND,
#    K QUEUED and K RECEIVE traces with the same message identities;
#  - children created on other nodes inherit the meter (their traces are
#    there), and each node's sequence numbers have no gap (nothing lost);
#  - with flags off there is no trace at all;
#  - a node killed mid-run loses none of the other nodes' traces;
#  - the same on a mixed cluster (nodes 2 and 4 ARM, 1 and 3 x86, node 4
#    killed): the trace format and the wire do not depend on the machine.
. "$(dirname "$0")/cluster_lib.sh"
K=200

# run NAME INIT-ARGS NODES [ARCH...]: boot a cluster with a filter service
# (node i on the i-th ARCH, default x86), wait for node 1's init to power
# off (killing node 4 when asked), leave the log and CSV in $TEST_DIR.
run() {
	local name=$1 init=$2 nodes=$3 d
	shift 3
	local archs=("x86" "$@")
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 arch=${archs[1]:-x86} init=\"--halt $init\""
		for ((i = 2; i <= nodes; i++)); do echo "node n$i id=$i arch=${archs[i]:-x86}"; done
	} >"$TEST_DIR/$name.cluster"
	expect_status 0 "$name: up $nodes nodes and the filter" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster" >/dev/null
	asked() { grep -q '^KILL-NODE 4' "$d/n1.console"; }
	if [ "$nodes" -ge 4 ] && wait_until 120 asked; then
		kill -KILL "$(status_field "$d" n4 5)"
	fi
	n1_done() { node_ended "$d" n1; }
	wait_until 120 n1_done
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	sleep 2 # the last batches of nodes 2 and 3 on their way
	"$DPM" cluster down --dir "$d" >/dev/null
	cp "$d/meter.log" "$TEST_DIR/$name.log"
	"$DPM" dump --csv "$d/meter.log" >"$TEST_DIR/$name.csv"
	check "$name: dump --csv reads the filter's log" [ -s "$TEST_DIR/$name.csv" ]
}

# csv FILE AWK-PROGRAM: run awk with columns addressed as c["name"].
csv() {
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ for (k in col) c[k] = $col[k] } '"$2" "$1"
}
count() { csv "$1" "c[\"type\"] == \"$2\" && c[\"dst\"] ~ /^$3\\./ { n++ } END { print n + 0 }"; }
ids() { csv "$1" "c[\"type\"] == \"$2\" && c[\"dst\"] ~ /^2\\./ && c[\"src\"] ~ /^3\\./ { print c[\"msg_id\"] }" | sort; }
# every node's seq numbers are 0..n-1 for the nodes given: nothing lost
seq_complete() {
	local f=$1; shift
	local m
	for m in "$@"; do
		csv "$f" "c[\"machine\"] == $m && c[\"type\"] != \"DROPPED\" { print c[\"seq\"] }" | sort -n |
			awk -v m="$m" 'NR - 1 != $1 { bad = 1 } END { exit bad || NR == 0 }' || return 1
	done
}

same_ids() {
	ids "$1" SEND >"$TEST_DIR/ids.send"
	ids "$1" QUEUED >"$TEST_DIR/ids.queued"
	ids "$1" RECEIVE >"$TEST_DIR/ids.receive"
	[ "$(sort -u "$TEST_DIR/ids.send" | wc -l)" -eq "$2" ] &&
		cmp -s "$TEST_DIR/ids.send" "$TEST_DIR/ids.queued" && cmp -s "$TEST_DIR/ids.send" "$TEST_DIR/ids.receive"
}

run all "mrun filter all t_mpp $K" 3
f=$TEST_DIR/all.csv
check "all: $K SEND traces from node 3 to node 2" [ "$(count "$f" SEND 2)" -eq $K ]
check "all: $K QUEUED traces at node 2" [ "$(count "$f" QUEUED 2)" -eq $K ]
check "all: $K RECEIVE traces at node 2" [ "$(count "$f" RECEIVE 2)" -eq $K ]
check "all: SEND, QUEUED and RECEIVE carry the same $K message ids" same_ids "$f" $K
check "all: children on nodes 2 and 3 were metered (TERMPROCESS there)" \
	[ "$(csv "$f" 'c["type"] == "TERMPROCESS" && c["machine"] != 1 { n++ } END { print n + 0 }')" -eq 2 ]
check "all: the creator's CREATEPROCESS traces name the remote children" \
	[ "$(csv "$f" 'c["type"] == "CREATEPROCESS" && c["dst"] !~ /^1\./ { n++ } END { print n + 0 }')" -eq 2 ]
check "all: no node lost a trace (seq 0..n-1 on nodes 1, 2, 3)" seq_complete "$f" 1 2 3
check "all: dpm parallel reads the CSV" bash -c "\"$DPM\" parallel \"$TEST_DIR/all.csv\" >/dev/null"
# the analyses read the filter's own log as well, with the same result
same_p() {
	[ "$("$DPM" parallel --csv "$TEST_DIR/all.log" | tail -n +2)" = "$("$DPM" parallel --csv "$TEST_DIR/all.csv" | tail -n +2)" ]
}
check "all: dpm parallel gives the same P from the log and from its CSV" same_p
pinger=$(csv "$TEST_DIR/all.csv" 'c["type"] == "SEND" && c["machine"] == 3 { print c["src"]; exit }')
check "all: dpm stats and dpm causality read the log" bash -c \
	"\"$DPM\" stats \"$TEST_DIR/all.log\" >/dev/null && \"$DPM\" causality --requestors $pinger \"$TEST_DIR/all.log\" >/dev/null"

run none "mrun filter none t_mpp 50" 3
check "none: flags off, no trace in the log" [ "$(($(wc -l <"$TEST_DIR/none.csv") - 1))" -eq 0 ]

run kill "mrun filter all t_mpp $K kill" 4
f=$TEST_DIR/kill.csv
check "kill: $K RECEIVE traces at node 2 although node 4 died" [ "$(count "$f" RECEIVE 2)" -eq $K ]
check "kill: the same $K message ids on SEND, QUEUED, RECEIVE" same_ids "$f" $K
check "kill: nodes 1, 2, 3 lost no trace" seq_complete "$f" 1 2 3
check "kill: node 4's traces up to its death are in the log" \
	[ "$(csv "$f" 'c["machine"] == 4 { n++ } END { print n + 0 }')" -gt 0 ]

# 2 x86 and 2 ARM nodes: the ping-pong crosses machine types (node 3 x86
# to node 2 ARM), and node 4 (ARM) is killed mid-run
run mixed "mrun filter all t_mpp $K kill" 4 x86 arm x86 arm
f=$TEST_DIR/mixed.csv
check "mixed: $K SEND traces from x86 node 3 to ARM node 2" [ "$(count "$f" SEND 2)" -eq $K ]
check "mixed: the same $K message ids on SEND, QUEUED, RECEIVE" same_ids "$f" $K
check "mixed: nodes 1, 2, 3 lost no trace although node 4 died" seq_complete "$f" 1 2 3
check "mixed: the ARM node 4's traces up to its death are in the log" \
	[ "$(csv "$f" 'c["machine"] == 4 { n++ } END { print n + 0 }')" -gt 0 ]

#!/usr/bin/env bash
# tests/cluster/cluster_test_stall.sh - a stalled host service costs traces,
# never the computation (issue 16's defect 8): `dpm filter` is stopped
# with SIGSTOP for 10 s in the middle of a metered remote ping-pong, then
# continued.  Once a stopped filter made node 1 declare node 2 down after
# 3 s and the job broke.  Now, in the plain clock and in virtual time:
#  - the job ends well (65) and no node declares a peer down;
#  - nothing is lost silently: every SEND the ping-pong made is in the log
#    or counted by a DROPPED trace (plain clock: the host link's buffers
#    may fill, then the meter drops and counts), and in virtual time,
#    where the meter waits for its host service with the node clock
#    standing, every SEND is in the log and nothing is dropped.
. "$(dirname "$0")/cluster_lib.sh"

# run NAME CLOCK K: boot two nodes, node 1 ping-pongs K times with node 2,
# every process metered; the filter is stopped 10 s once the first traces
# are in its log.
run() {
	local name=$1 clock=$2 k=$3 d fpid
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 clock=$clock init=\"--halt mrun filter all pingpong 2 $k 1\""
		echo "node n2 id=2 clock=$clock"
	} >"$TEST_DIR/$name.cluster"
	expect_status 0 "$name: up, 2 nodes and the filter" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
	fpid=$(status_field "$d" filter 5)
	tracing() { [ -s "$d/meter.log" ] && [ "$(stat -c %s "$d/meter.log")" -gt 100000 ]; }
	check "$name: traces reach the filter" wait_until 120 tracing
	kill -STOP "$fpid"
	sleep 10
	kill -CONT "$fpid"
	n1_done() { node_ended "$d" n1; }
	wait_until 300 n1_done
	check "$name: node 1's job succeeded (65) across the filter's stall" [ "$(status_field "$d" n1 7)" = 65 ]
	check_that "$name: no node declared a peer down" '! grep -q "node [0-9]* \(is \)\?down" "$d"/n1.console "$d"/n2.console'
	wait_log_settled "$d/meter.log"
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$d/meter.log" >"$TEST_DIR/$name.csv"
}

sends() { awk -F, '$2 == "SEND" && $7 != ""' "$1" | wc -l; }
dropped() { awk -F, '$2 == "DROPPED" { n += $17 } END { print n + 0 }' "$1"; }

K=20000
run plain plain $K
c=$TEST_DIR/plain.csv
check_that "plain: every SEND logged or counted dropped ($(sends "$c") logged, $(dropped "$c") dropped, of at least $((2 * K)))" \
	'[ $(( $(sends "$c") + $(dropped "$c") )) -ge $((2 * K)) ]'

K=2000
run virtual virtual $K
c=$TEST_DIR/virtual.csv
check_that "virtual: every SEND logged ($(sends "$c") of at least $((2 * K)))" '[ "$(sends "$c")" -ge $((2 * K)) ]'
check_that "virtual: nothing dropped" '[ "$(dropped "$c")" = 0 ]'

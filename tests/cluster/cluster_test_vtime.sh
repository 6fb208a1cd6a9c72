#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime.sh - virtual time (docs/virtual-time.md),
# so far on one node, x86 and ARM: a metered local ping-pong whose traces travel to
# `dpm filter` over the host link (whose bytes and acknowledgements come
# when the host pleases) is recorded twice, the second time with two
# CPU-bound loops on the host (bounded, killed afterwards); `dpm dump
# --csv` of the two logs must be identical, every trace's time and
# procTime included, and complete (sequence numbers without a gap, no
# DROPPED trace: output waits, it is never dropped).
. "$(dirname "$0")/cluster_lib.sh"
K=300

# record NAME BUSY ARCH: boot the node, wait for its job, keep the CSV.
record() {
	local name=$1 busy=$2 arch=$3 d i
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 arch=$arch clock=virtual init=\"--halt mrun filter all pingpong 0 $K 1 100\""
	} >"$TEST_DIR/$name.cluster"
	[ "$busy" = 1 ] && busy_host_start
	expect_status 0 "$name: up, one node in virtual time, and the filter" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
	n1_done() { node_ended "$d" n1; }
	wait_until 120 n1_done
	[ "$busy" = 1 ] && busy_host_stop
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	check "$name: the kernel ran in virtual time" grep -q '^vtime: node clock in virtual time' "$d/n1.console"
	# dpm cluster gives it the models' words (vlat= vbw= vtx= vrx= vdisk=):
	# the kernel names any it cannot read
	check_that "$name: ...and read every model word dpm cluster gave it" \
		'! grep -q "^vtime: bad value" "$d/n1.console"'
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$d/meter.log" >"$TEST_DIR/$name.csv"
}

sends() { awk -F, '$2 == "SEND"' "$1" | wc -l; }
for arch in x86 arm; do
	record "$arch-quiet" 0 "$arch"
	record "$arch-busy" 1 "$arch"
	q=$TEST_DIR/$arch-quiet.csv b=$TEST_DIR/$arch-busy.csv
	# K round trips of two sizes: a SEND each way, and more
	check_that "$arch: every ping-pong message traced ($(sends "$q") SENDs)" '[ "$(sends "$q")" -ge $((4 * K)) ]'
	check_that "$arch: no trace dropped" '! grep -q ",DROPPED," "$q"'
	check_that "$arch: sequence numbers without a gap" \
		'awk -F, "NR > 1 && \$5 != NR - 2 { bad = 1 } END { exit bad }" "$q"'
	check_that "$arch: the busy host's log equals the quiet host's, times and procTimes included" \
		'vtime_same_log "$arch"'
done

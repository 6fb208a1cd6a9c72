#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_record.sh - host inputs at virtual times
# (docs/virtual-time.md §2.6, kernel/hostin.c, qemu/control/hub_vtime.c):
# `dpm record` boots a cluster in virtual time (the hub holds its nodes
# until record connects), creates and starts TSP through the control hub
# and the nodes' agents, and cuts the log between its marks; recorded on a
# quiet host and with two CPU-bound loops on the host, `dpm dump --csv`
# must be identical (times and procTimes of every trace, the marks'
# included; only the marks' tokens, random per run, are left out).  Both
# forms of record: `-- PROGRAM` on 2 x86 nodes and on an x86+ARM pair,
# `-f SCRIPT` on 4 x86 nodes.  QEMU's icount sometimes takes a node's
# deadline interrupt late under load (docs/virtual-time.md §2.2); an x86
# node says so on its console, and only then is a differing pair recorded
# again.
. "$(dirname "$0")/cluster_lib.sh"

# rec NAME BUSY FORM ARCH...: one record on a cluster of one node per ARCH
rec() {
	local name=$1 busy=$2 form=$3 d i nodes
	shift 3
	local n=$#
	d=$(new_cluster_dir "$name")
	nodes=$(seq -s, 1 "$n")
	{
		echo "service meter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		for ((i = 1; i <= n; i++)); do echo "node n$i id=$i arch=${!i} clock=virtual"; done
	} >"$TEST_DIR/$name.cluster"
	cat >"$TEST_DIR/$name.ctl" <<CTL
filter meter
newjob tsp
add tsp n1 tsp -p 4 --nodes $nodes -n 12 -s 7
setflags tsp send receivecall receive queued createprocess
startjob tsp
wait tsp 300
rmjob tsp
CTL
	local what=(-- tsp -p 4 --nodes "$nodes" -n 12 -s 7)
	[ "$form" = script ] && what=(-f "$TEST_DIR/$name.ctl")
	[ "$busy" = 1 ] && busy_host_start
	expect_status 0 "$name: dpm record ${what[*]} on $n nodes in virtual time" \
		timeout 400 "$DPM" record -q --dir "$d" --cluster "$TEST_DIR/$name.cluster" \
		-o "$TEST_DIR/$name.log" "${what[@]}" </dev/null >"$TEST_DIR/$name.out" 2>&1
	[ "$busy" = 1 ] && busy_host_stop
	check "$name: the tour (1314)" grep -q "tour cost: 1314" "$TEST_DIR/$name.out"
	check "$name: every agent timed its gate" \
		[ "$(grep -c "agent connected .* in virtual time" "$d/ctl.service.log")" = "$n" ]
	check "$name: the hub held the nodes for record" grep -q "the hold ends" "$d/ctl.service.log"
	check_that "$name: no node took hub input late or saw a bad envelope" \
		'! grep -q "^hostgate: \|^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
	# per node in order (the nodes' batches interleave in host order); the
	# marks' tokens (the last field) are random per run
	"$DPM" dump --csv "$TEST_DIR/$name.log" | sort -t, -s -k1,1n |
		awk -F, -v OFS=, '$2 == "MARK" { $NF = "token" } { print }' >"$TEST_DIR/$name.csv"
}

# "FORM:ARCH,ARCH..." per run; VTIME_RECORD_RUNS (blank-separated) chooses others
runs=${VTIME_RECORD_RUNS:-"program:x86,x86 program:x86,arm script:x86,x86,x86,x86"}
for run in $runs; do
	form=${run%%:*} archs=${run#*:} tag=${run//[:,]/-}
	IFS=, read -ra arch <<<"$archs"
	n=${#arch[@]}
	q=$TEST_DIR/$tag-quiet.csv b=$TEST_DIR/$tag-busy.csv
	vtime_pair "$tag" rec "$form" "${arch[@]}"
	check_that "$tag: every node traced" \
		'[ "$(cut -d, -f1 "$q" | sort -u | grep -c "^[0-9]")" = "$n" ]'
	check_that "$tag: the job lies between record's marks on node 1" \
		'[ "$(awk -F, "\$1 == 1 && \$2 == \"MARK\"" "$q" | wc -l)" = 2 ]'
	check_that "$tag: no trace dropped" '! grep -q ",DROPPED," "$q"'
	check_that "$tag: the busy host's log equals the quiet host's, times and procTimes included" \
		'vtime_same_log "$tag"'
done

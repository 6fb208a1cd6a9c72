#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_nodes.sh - virtual time across nodes
# (docs/virtual-time.md §2.3, kernel/net/vlink.c): a metered job on node 1
# (a remote ping-pong with the cluster's last node, or TSP with servers
# on both nodes), every node's traces going to `dpm filter` over its host
# link, is recorded twice per cluster, the second time with two CPU-bound
# loops on the host (bounded, killed afterwards); `dpm dump --csv` of the
# two logs must be identical, every trace's time and procTime included,
# and complete.  Clusters: two x86 nodes, four x86 nodes, and an x86 node
# with an ARM one; TSP on two and on four x86 nodes (issue 14: "for the file
# system and for TSP" on a 4-node cluster) and on the x86+ARM pair.
. "$(dirname "$0")/cluster_lib.sh"
K=200

# job KIND N: node 1's program for a cluster of N nodes
job() {
	case $1 in
	pingpong) echo "pingpong $2 $K 1 100" ;;
	tsp) echo "tsp -p 4 --nodes $(seq -s, 1 "$2") -n 12 -s 7 --expect 1314" ;;
	esac
}

# record NAME BUSY KIND ARCH...: boot one node per ARCH, wait for node 1's
# job, keep the CSV.
record() {
	local name=$1 busy=$2 kind=$3 d i n
	shift 3
	n=$#
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 arch=$1 clock=virtual init=\"--halt mrun filter all $(job "$kind" "$n")\""
		for ((i = 2; i <= n; i++)); do
			echo "node n$i id=$i arch=${!i} clock=virtual"
		done
	} >"$TEST_DIR/$name.cluster"
	vtime_run "$name" "$busy" "$d" "$TEST_DIR/$name.cluster" "$n nodes in virtual time, and the filter"
	vtime_check_sync "$name" "$d" "$n"
	vtime_keep_log "$d" "$TEST_DIR/$name.csv"
}

sends() { awk -F, '$2 == "SEND"' "$1" | wc -l; }
# "KIND ARCH..." per run; VTIME_RUNS (;-separated) chooses others
IFS=';' read -ra runs <<<"${VTIME_RUNS:-pingpong x86 x86;pingpong x86 x86 x86 x86;pingpong x86 arm;tsp x86 x86;tsp x86 x86 x86 x86;tsp x86 arm}"
for run in "${runs[@]}"; do
	tag=$(echo "$run" | tr ' ' -)
	vtime_pair "$tag" record $run
	q=$TEST_DIR/$tag-quiet.csv b=$TEST_DIR/$tag-busy.csv
	case $run in
	pingpong*) check_that "$tag: every ping-pong message traced ($(sends "$q") SENDs)" \
		'[ "$(sends "$q")" -ge $((4 * K)) ]' ;;
	tsp*) nodes=$(($(echo "$run" | wc -w) - 1))
		check_that "$tag: all $nodes nodes traced" \
			'[ "$(cut -d, -f1 "$q" | sort -u | grep -c "^[1-9]$")" = "$nodes" ]' ;;
	esac
	vtime_check_log "$tag" "$q"
	check_that "$tag: the busy host's log equals the quiet host's, times and procTimes included" \
		'vtime_same_log "$tag"'
done

# The 1984 preset (shift=10, 1 us an instruction, 3 Mb/s, the fitted
# transport paths; docs/virtual-time.md §2.4): the nodes reach a common
# epoch and make progress, and a remote delivery is 2-3x a local one, the
# thesis's Fig. 5.11.  Boot's wait for the peers once ran peerwait on its
# own busy poll's instructions, out in a few host milliseconds at this
# shift, and every node panicked ("not every peer came up"); then a busy
# node's stops, every 100 us of its clock, came every ~98 instructions,
# fewer than a stop costs, and no job made progress (the preset's stops
# are every 10 ms now, on its ticks).  The local path of 1000 bytes costs
# at least the preset's copying, 4.3 ms per 1000 bytes into the kernel and
# again out of it (a VAX's, copycost; without it a faster kernel's local
# 1000 bytes came to 3.7 ms and no transport cost kept the band at both
# sizes).  Node 1 pings node 2 (x86 both), node 3 pings itself, node 4 is
# ARM and idle.
if [ -z "${VTIME_RUNS:-}" ]; then
	d=$(new_cluster_dir slow-nodes)
	# 120 s of host time for the nodes to meet (peerwait, 20 s by default),
	# as the studies' nodes have (qemu/scripts/study_lib.sh): four nodes
	# booting on a loaded 2-core host took longer than 20 s, and every node
	# panicked with "not every peer came up"; with 60 s it happened once
	# more, with three heavy jobs beside the test (27 November 2026)
	pw='kernel="peerwait=120000"'
	printf '%s\n' "cluster net=1984" \
		"node n1 id=1 clock=virtual $pw init=\"--halt pingpong 2 6 1 1000\"" \
		"node n2 id=2 clock=virtual $pw" \
		"node n3 id=3 clock=virtual $pw init=\"--halt pingpong 3 6 1 1000\"" \
		"node n4 id=4 arch=arm clock=virtual $pw" >"$TEST_DIR/slow-nodes.cluster"
	expect_status 0 "net=1984: up, 4 nodes (x86, ARM) at shift=10" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/slow-nodes.cluster"
	synced_all() { [ "$(grep -l "^vlink: 3 peers up" "$d"/n*.console 2>/dev/null | wc -l)" = 4 ]; }
	check "net=1984: every node reaches the common epoch" wait_until 150 synced_all
	both_done() { node_ended "$d" n1 && node_ended "$d" n3; }
	check "net=1984: the remote and the local ping-pong finish" wait_until 300 both_done
	check_that "net=1984: no node panicked" '! grep -q "panic" "$d"/n*.console'
	# delivery_ns per size: node 1's remote, node 3's local
	delivery() { grep -o "size=$2 .*delivery_ns=[0-9]*" "$d/$1.console" | sed 's/.*=//'; }
	for size in 1 1000; do
		r=$(delivery n1 "$size") l=$(delivery n3 "$size")
		check_that "net=1984: a remote delivery of $size bytes is 2-3x a local one ($r ns against $l ns)" \
			'[ -n "$r" ] && [ -n "$l" ] && [ "$r" -ge $((2 * l)) ] && [ "$r" -le $((3 * l)) ]'
	done
	l1=$(delivery n3 1) l1000=$(delivery n3 1000)
	check_that "net=1984: 1000 bytes more cost a local delivery the preset's copying, 2 x 4.3 ms ($l1000 ns against $l1 ns)" \
		'[ -n "$l1" ] && [ -n "$l1000" ] && [ $((l1000 - l1)) -ge $((2 * 4300000 * 999 / 1000)) ]'
	"$DPM" cluster down --dir "$d" >/dev/null
fi

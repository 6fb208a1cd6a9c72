#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_nodes.sh - virtual time across nodes
# (docs/virtual-time.md §2.3, kernel/net/vlink.c): a metered job on node 1
# (a remote ping-pong with the cluster's last node, or TSP with servers
# on both nodes), every node's traces going to `dpm filter` over its host
# link, is recorded twice per cluster, the second time with two CPU-bound
# loops on the host (bounded, killed afterwards); `dpm dump --csv` of the
# two logs must be identical, every trace's time and procTime included,
# and complete.  Clusters: two x86 nodes, four x86 nodes, and an x86 node
# with an ARM one.
. "$(dirname "$0")/cluster_lib.sh"
K=200

# job KIND N: node 1's program for a cluster of N nodes
job() {
	case $1 in
	pingpong) echo "pingpong $2 $K 1 100" ;;
	tsp) echo "tsp -p 4 --nodes 1,2 -n 12 -s 7 --expect 1314" ;;
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
	[ "$busy" = 1 ] && busy_host_start
	expect_status 0 "$name: up, $n nodes in virtual time, and the filter" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
	n1_done() { [ "$(status_field "$d" n1 6)" = exited ]; }
	wait_until 300 n1_done # ~10 s on a quiet host; generous for a loaded one
	[ "$busy" = 1 ] && busy_host_stop
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	check "$name: the nodes synchronised" grep -q "^vlink: $((n - 1)) peers up" "$d/n$n.console"
	check_that "$name: no frame broke its sender's promise" '! grep -q "^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
	wait_log_settled "$d/meter.log"
	"$DPM" cluster down --dir "$d" >/dev/null
	# each node's batches reach the filter over its own host link, so how
	# they interleave in the log is the host's doing: per node, in order
	"$DPM" dump --csv "$d/meter.log" | sort -t, -s -k1,1n >"$TEST_DIR/$name.csv"
}

sends() { awk -F, '$2 == "SEND"' "$1" | wc -l; }
# "KIND ARCH..." per run; VTIME_RUNS (;-separated) chooses others
IFS=';' read -ra runs <<<"${VTIME_RUNS:-pingpong x86 x86;pingpong x86 x86 x86 x86;pingpong x86 arm;tsp x86 x86;tsp x86 arm}"
for run in "${runs[@]}"; do
	tag=$(echo "$run" | tr ' ' -)
	record "$tag-quiet" 0 $run
	record "$tag-busy" 1 $run
	q=$TEST_DIR/$tag-quiet.csv b=$TEST_DIR/$tag-busy.csv
	case $run in
	pingpong*) check_that "$tag: every ping-pong message traced ($(sends "$q") SENDs)" \
		'[ "$(sends "$q")" -ge $((4 * K)) ]' ;;
	tsp*) check_that "$tag: both nodes traced" \
		'[ "$(cut -d, -f1 "$q" | sort -u | grep -c "^[12]$")" = 2 ]' ;;
	esac
	check_that "$tag: no trace dropped" '! grep -q ",DROPPED," "$q"'
	check_that "$tag: each node's sequence numbers without a gap" \
		'awk -F, "\$1 != \"machine\" && \$5 != seq[\$1]++ { bad = 1 } END { exit bad }" "$q"'
	check_that "$tag: the busy host's log equals the quiet host's, times and procTimes included" \
		'cmp -s "$q" "$b"'
done

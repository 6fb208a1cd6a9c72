#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_nodes.sh - virtual time across nodes
# (docs/virtual-time.md §2.3, kernel/net/vlink.c): a metered remote
# ping-pong between node 1 and the cluster's last node, its traces going
# to `dpm filter` over node 1's host link, is recorded twice per cluster,
# the second time with two CPU-bound loops on the host (bounded, killed
# afterwards); `dpm dump --csv` of the two logs must be identical, every
# trace's time and procTime included, and complete.  Clusters: two x86
# nodes, four x86 nodes, and an x86 node with an ARM one.
. "$(dirname "$0")/cluster_lib.sh"
K=200

# record NAME BUSY ARCH...: boot one node per ARCH, wait for node 1's job,
# keep the CSV.
record() {
	local name=$1 busy=$2 d pids=() i n
	shift 2
	n=$#
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 arch=$1 clock=virtual init=\"--halt mrun filter all pingpong $n $K 1 100\""
		for ((i = 2; i <= n; i++)); do
			echo "node n$i id=$i arch=${!i} clock=virtual"
		done
	} >"$TEST_DIR/$name.cluster"
	if [ "$busy" = 1 ]; then
		for i in 1 2; do
			timeout 200 sh -c 'while :; do :; done' &
			pids+=($!)
		done
	fi
	expect_status 0 "$name: up, $n nodes in virtual time, and the filter" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
	n1_done() { [ "$(status_field "$d" n1 6)" = exited ]; }
	wait_until 150 n1_done
	for i in "${pids[@]}"; do kill "$i" 2>/dev/null; done
	for i in "${pids[@]}"; do wait "$i" 2>/dev/null; done
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	check "$name: the nodes synchronised" grep -q "^vlink: $((n - 1)) peers up" "$d/n$n.console"
	check_that "$name: no frame broke its sender's promise" '! grep -q "^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
	"$DPM" cluster down --dir "$d" >/dev/null
	# each node's batches reach the filter over its own host link, so how
	# they interleave in the log is the host's doing: per node, in order
	"$DPM" dump --csv "$d/meter.log" | sort -t, -s -k1,1n >"$TEST_DIR/$name.csv"
}

sends() { awk -F, '$2 == "SEND"' "$1" | wc -l; }
IFS=';' read -ra clusters <<<"${VTIME_CLUSTERS:-x86 x86;x86 x86 x86 x86;x86 arm}"
for nodes in "${clusters[@]}"; do
	tag=$(echo "$nodes" | tr ' ' -)
	record "$tag-quiet" 0 $nodes
	record "$tag-busy" 1 $nodes
	q=$TEST_DIR/$tag-quiet.csv b=$TEST_DIR/$tag-busy.csv
	check_that "$tag: every ping-pong message traced ($(sends "$q") SENDs)" '[ "$(sends "$q")" -ge $((4 * K)) ]'
	check_that "$tag: no trace dropped" '! grep -q ",DROPPED," "$q"'
	check_that "$tag: each node's sequence numbers without a gap" \
		'awk -F, "\$1 != \"machine\" && \$5 != seq[\$1]++ { bad = 1 } END { exit bad }" "$q"'
	check_that "$tag: the busy host's log equals the quiet host's, times and procTimes included" \
		'cmp -s "$q" "$b"'
done

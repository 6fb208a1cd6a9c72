#!/usr/bin/env bash
# servers/bench/bench-meter.sh DPM KERNEL OUTDIR - how much batching saves
# on the meter path to the host (thesis §4.1: more than 20:1).  Boots a
# 3-node x86 cluster with a `dpm filter` host service, runs the metering
# tests' job on node 1 (`mrun filter all t_mpp K`: a ping-pong of K messages
# between nodes 3 and 2, every event traced, the kernel's default batch
# size), stops the cluster and reads the filter's own summary: the batches
# (messages) the nodes' kernels sent to the host and the traces in them.
# Writes OUTDIR/meter-batching.txt; the cluster's files stay in
# OUTDIR/meter-cluster until the next run.  K is METER_BENCH_MESSAGES
# (default 2000).
set -eu
if [ $# -ne 3 ] || [ "$1" = --help ]; then
	echo "usage: bench-meter.sh DPM KERNEL OUTDIR" >&2
	exit 2
fi
dpm=$1 kernel=$2 out=$3
k=${METER_BENCH_MESSAGES:-2000}
mkdir -p "$out"
state="$out/meter-cluster"
trap '"$dpm" cluster down --dir "$state" >/dev/null 2>&1 || true' EXIT
trap 'exit 130' INT TERM
"$dpm" cluster down --dir "$state" >/dev/null 2>&1 || true
rm -rf "$state"

cat >"$out/meter-bench.cluster" <<CLUSTER
service filter port=0 start="$dpm filter --port {port} -o {dir}/meter.log"
node n1 id=1 init="--halt mrun filter all t_mpp $k"
node n2 id=2
node n3 id=3
CLUSTER
"$dpm" cluster up --dir "$state" -f "$out/meter-bench.cluster" --kernel "$kernel" >/dev/null
for ((i = 0; i < 3000; i++)); do
	grep -q '^init: .* ended' "$state/n1.console" && break
	sleep 0.1
done
if ! grep -q '^init: .* ended: normal, status 0' "$state/n1.console"; then
	echo "bench-meter: the metered job did not finish cleanly; see $state/n1.console" >&2
	exit 1
fi
sleep 2 # the last partial batches (flushed within 100 ms) on their way
"$dpm" cluster down --dir "$state" >/dev/null
summary=$(grep '^dpm filter: summary' "$state/filter.service.log" | tail -n 1)
if [ -z "$summary" ]; then
	echo "bench-meter: no filter summary in $state/filter.service.log" >&2
	exit 1
fi
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$summary"; }
batches=$(field batches) received=$(field received) dropped=$(field kernel_dropped)
if [ "${batches:-0}" -eq 0 ]; then
	echo "bench-meter: the filter received no batch: $summary" >&2
	exit 1
fi
{
	echo "Meter batching on the path to the host (3 x86 nodes, plain emulation, default batch size 32)"
	echo "job: mrun filter all t_mpp $k (every event of a $k-message ping-pong across nodes)"
	echo "traces received by the host filter: $received"
	echo "batch messages sent to the host:    $batches"
	echo "traces dropped by the kernels:      $dropped"
	awk -v r="$received" -v b="$batches" 'BEGIN {
		printf "messages to the host per traced event: %.4f (batching ratio %.1f:1; thesis: more than 20:1)\n", b / r, r / b }'
} | tee "$out/meter-batching.txt"

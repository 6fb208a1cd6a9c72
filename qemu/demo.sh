#!/usr/bin/env bash
# qemu/demo.sh DPM OUTDIR [x86|arm|mixed] - `make demo`: what DPM is for, in
# one command (`make demo DEMO_ARCH=mixed`: nodes 2 and 4 ARM, 1 and 3 x86,
# so the ping-pong crosses machine types).
# Boots a 4-node cluster with a meter filter on the host, runs a metered
# job across the nodes (a ping-pong between nodes 2 and 3 started from node
# 1, every event traced), stops the cluster, and analyses the trace:
# message statistics and the parallelism factor P.  Everything it makes is
# left in OUTDIR.  (The file-system and TSP studies extend this.)
set -eu
dpm=$1 out=$2 machines=${3:-x86}
dir=$out/cluster
case $machines in
x86) archs=(x86 x86 x86 x86) ;;
arm) archs=(arm arm arm arm) ;;
mixed) archs=(x86 arm x86 arm) ;;
*) echo "demo: DEMO_ARCH must be x86, arm or mixed, not '$machines'" >&2; exit 2 ;;
esac
mkdir -p "$out"
"$dpm" cluster down --dir "$dir" >/dev/null 2>&1 || true
rm -rf "$dir"
trap '"$dpm" cluster down --dir "$dir" >/dev/null 2>&1 || true' EXIT INT TERM

step() { printf '\ndemo: %s\n' "$*"; }

cat >"$out/demo.cluster" <<CLUSTER
# The demo's cluster: a filter on the host, four x86 nodes; node 1 runs
# the job metered (mrun: every event, to the filter) and powers off.
service filter port=0 start="$dpm filter --port {port} -o {dir}/meter.log"
node n1 id=1 arch=${archs[0]} init="--halt mrun filter all t_mpp 500"
node n2 id=2 arch=${archs[1]}
node n3 id=3 arch=${archs[2]}
node n4 id=4 arch=${archs[3]}
CLUSTER

step "booting 4 nodes (${archs[*]}) and the meter filter (dpm cluster up)"
"$dpm" cluster up -f "$out/demo.cluster" --dir "$dir"
"$dpm" cluster status --dir "$dir"

step "running the metered job on node 1; its console:"
for _ in $(seq 1 300); do
	state=$("$dpm" cluster status --dir "$dir" --porcelain | awk -F'\t' '$2 == "n1" { print $6 }')
	[ "$state" = exited ] && break
	sleep 0.5
done
sed -n '/^t_mpp\|^init:/p' "$dir/n1.console"
sleep 2 # the last trace batches on their way from nodes 2 and 3

step "stopping the cluster (dpm cluster down)"
"$dpm" cluster down --dir "$dir"
cp "$dir/meter.log" "$out/meter.log"
"$dpm" dump --csv "$out/meter.log" >"$out/meter.csv"

step "the trace: $(($(wc -l <"$out/meter.csv") - 1)) events (dpm dump --csv $out/meter.log)"
awk -F, 'NR > 1 { n[$2]++ } END { for (t in n) printf "  %-14s %6d\n", t, n[t] }' "$out/meter.csv" | sort

step "message statistics (dpm stats)"
"$dpm" stats "$out/meter.log" | sed -n '1,12p'

step "parallelism (dpm parallel --all)"
"$dpm" parallel --all "$out/meter.log" | sed -n '1,12p'

step "done.  Everything is in $out: the log (meter.log), its CSV, the cluster's consoles."

#!/usr/bin/env bash
# qemu/scripts/bench_vtime.sh DPM OUT - `make bench-vtime` (part of `make
# bench`): what virtual time costs in host time (docs/virtual-time.md).
#
# The same workloads, on the same host in one run, once with clock=icount
# (instructions count while a node computes, the host's clock while it
# waits) and once with clock=virtual (one clock for the whole cluster),
# one right after the other so that the host's load falls on both alike:
#  - the demo's workloads, reduced: the file system in the demo's
#    placement with BENCH_VTIME_USERS users (default 6, as the demo),
#    then TSP version 1 with 8 servers over 4 nodes (BENCH_VTIME_TSP,
#    default `-n 15 -s 4`, a smaller instance than the demo's `-n 16
#    -s 4`), the demo's events metered;
#  - one run of the file-system study: configuration A with 4 users,
#    every message metered;
#  - TSP with 8 servers spread over 2, 4 and 8 nodes (how the cost grows
#    with the number of nodes).
# Each time is the host seconds of the `dpm record` runs (a fresh cluster
# each, booted before the clock starts, taken down after it stops).  The
# table, with the host's load average before and after, is printed and
# kept as OUT/vtime.txt; the runs' files are in OUT/vtime/.  Benchmarks
# print figures; nothing here asserts a time.
set -eu
if [ $# -ne 2 ] || [ "$1" = --help ]; then
	echo "usage: bench_vtime.sh DPM OUTDIR" >&2
	exit 2
fi
dpm=$1 bench=$2
out=$bench/vtime
study_name=bench-vtime
clock=virtual
peers_wait=600 # 8 nodes on a busy host: 60 s to meet (the studies' default too)
. "$(dirname "$0")/study_lib.sh"
users=${BENCH_VTIME_USERS:-6}
tsp_args=${BENCH_VTIME_TSP:--n 15 -s 4}
rm -rf "$out"
mkdir -p "$out"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# tsp_record NAME NODES: TSP v1 with 8 servers over nodes 1..NODES of the
# cluster that is up, the demo's events metered; its host seconds in $took.
tsp_record() {
	local name=$1 nodes=$2 list t0
	list=$(seq -s, 1 "$nodes")
	cat >"$out/$name.ctl" <<CTL
filter meter
newjob tsp
add tsp n1 tsp -v 1 -p 8 --nodes $list $tsp_args
setflags tsp send receivecall receive queued createprocess
startjob tsp
wait tsp 1800
rmjob tsp
CTL
	t0=$(now)
	"$dpm" record --dir "$cluster_dir" -q -o "$out/$name.log" -f "$out/$name.ctl" >"$out/$name.out" 2>&1 ||
		die "the TSP run $name failed (see $out/$name.out)"
	took=$(seconds "$t0" "$(now)")
	grep -q '^tsp: tour cost: ' "$out/$name.out" || die "$name: tsp printed no tour (see $out/$name.out)"
	run_table "$out/$name.log"
}

# demo_run: the demo's two workloads on a fresh 4-node cluster; $took.
demo_run() {
	local t_fs
	"$dpm" disk create "$out/disk-$clock.img" --size 16 --force >/dev/null
	cluster_file "$out/demo-$clock.cluster" 4 2 "$out/disk-$clock.img"
	cluster_up "$out/demo-$clock.cluster" "$out/cluster"
	fs_start "$out/demo-$clock-fsstart" 1 1 2 2
	fs_users_script "$out/demo-$clock-fs.ctl" /bench "$users"
	local t0
	t0=$(now)
	fs_record "$out/demo-$clock-fs" "$users"
	t_fs=$(seconds "$t0" "$(now)")
	tsp_record "demo-$clock-tsp" 4
	took=$(awk -v a="$t_fs" -v b="$took" 'BEGIN { printf "%.1f", a + b }')
	cluster_down
}

# study_run: the fs study's configuration A with 4 users, every message; $took.
study_run() {
	local t0
	"$dpm" disk create "$out/disk-$clock.img" --size 16 --force >/dev/null
	cluster_file "$out/A-$clock.cluster" 4 2 "$out/disk-$clock.img"
	cluster_up "$out/A-$clock.cluster" "$out/cluster"
	fs_start "$out/A-$clock-fsstart" 1 1 2 2
	fs_users_script "$out/A-$clock.ctl" /A-u4-r1 4
	t0=$(now)
	fs_record "$out/A-$clock" 4
	took=$(seconds "$t0" "$(now)")
	cluster_down
}

# spread_run NODES: TSP over NODES nodes; $took.
spread_run() {
	cluster_file "$out/spread$1-$clock.cluster" "$1"
	cluster_up "$out/spread$1-$clock.cluster" "$out/cluster"
	tsp_record "spread$1-$clock" "$1"
	cluster_down
}

# row NAME FUNCTION ARGS...: FUNCTION under icount, then under virtual.
rows=()
row() {
	local name=$1 t_icount t_virtual
	shift
	run_count=$((run_count + 1))
	clock=icount
	progress "$name: clock=icount"
	"$@"
	t_icount=$took
	clock=virtual
	progress "$name: clock=virtual"
	"$@"
	t_virtual=$took
	rows+=("$(awk -v n="$name" -v i="$t_icount" -v v="$t_virtual" \
		'BEGIN { printf "%-44s %9.1f %9.1f %8.2f", n, i, v, v / i }')")
}

run_total=5
load_before=$(load)
row "demo: fs $users users, then tsp v1 p8 $tsp_args" demo_run
row "study-fs run: configuration A, 4 users" study_run
for n in 2 4 8; do
	row "tsp v1 p8 $tsp_args over $n nodes" spread_run "$n"
done
load_after=$(load)

{
	echo "Virtual time's cost in host time: the same metered runs under clock=icount and"
	echo "clock=virtual, one right after the other (host seconds of dpm record, boot excluded)"
	echo "host: $(nproc) cores; load average $load_before before, $load_after after"
	echo
	printf '%-44s %9s %9s %8s\n' workload "icount s" "virtual s" "ratio"
	printf '%s\n' "${rows[@]}"
	echo
	echo "TSP's own elapsed time in each clock (tsp's stats line, node 1's clock):"
	for f in "$out"/*-tsp.out "$out"/spread*.out; do
		printf '  %-28s %s\n' "$(basename "$f" .out)" "$(sed -n 's/^tsp: stats: .*elapsed_ms=\([0-9]*\).*/\1 ms/p' "$f")"
	done
} | tee "$bench/vtime.txt"

#!/usr/bin/env bash
# qemu/scripts/demo.sh DPM OUTDIR REPORTDIR [x86|arm|mixed] - `make demo`: what DPM
# is for, in one command.
#
# Boots a 4-node cluster (x86; `make demo DEMO_ARCH=arm` or `mixed`, where
# nodes 2 and 4 are ARM) with a disk, the meter filter and the control hub;
# starts the file system (RI and DM on n1, BM and DI on n2, the thesis's
# measured placement) and runs DEMO_USERS test users against it (default 6,
# half sequential, half random), then TSP version 1 with 8 servers over the
# four nodes (DEMO_TSP, default `-n 16 -s 4`: about a minute), each as a
# `dpm control` script run by `dpm record -f`, every message metered; then
# the same users against the file system in the thesis's configuration B
# (each server on its own node), on a fresh cluster, so that each file
# system's trace predicts the other's P (the report's predictions across
# runs, thesis Fig. 5.17).  Then
# every analysis: dpm stats, dpm parallel (the thesis's five
# configurations), dpm causality (the file system's requests), and dpm
# report, the page at REPORTDIR/index.html, which links the logs in OUTDIR.
# Everything else it makes is in OUTDIR; the cluster is always taken down.
# One progress line a step on stderr (what each step printed is in OUTDIR:
# cluster.status, fs.out, tsp.out, ...), then the summary.
# The nodes run in virtual time, one clock for the whole cluster
# (docs/virtual-time.md), and each log's delivery times are the ones
# computed for its cluster (LOG.mtime); DEMO_CLOCK=icount or plain runs
# it the old ways, with delivery times measured by ping-pong.
set -eu
dpm=$1 out=$2 report=$3 machines=${4:-x86}
clock=${DEMO_CLOCK:-virtual}
users=${DEMO_USERS:-6}
tsp_args=${DEMO_TSP:--n 16 -s 4}
case $machines in
x86) node_arch=(x86 x86 x86 x86) ;;
arm) node_arch=(arm arm arm arm) ;;
mixed) node_arch=(x86 arm x86 arm) ;;
*) echo "demo: DEMO_ARCH must be x86, arm or mixed, not '$machines'" >&2; exit 2 ;;
esac
study_name=demo
. "$(dirname "$0")/study_lib.sh"
run_total=8
started=$SECONDS

# step TEXT: the progress line, with the time so far.
step() {
	run_count=$((run_count + 1))
	progress "$* ($((SECONDS - started)) s)"
}

rm -rf "$out"
mkdir -p "$out"

step "booting 4 nodes (${node_arch[*]}, clock=$clock), a disk on n2, the meter filter and the control hub"
"$dpm" disk create "$out/disk.img" --size 16 --force >/dev/null
cluster_file "$out/demo.cluster" 4 2 "$out/disk.img"
cluster_up "$out/demo.cluster" "$out/cluster"
"$dpm" cluster status --dir "$cluster_dir" >"$out/cluster.status"

step "starting the file system: RI and DM on n1, BM and DI on n2 (fsstart, through dpm control)"
fs_start "$out/fsstart" 1 1 2 2

step "$users file-system test users on n1..n4, metered (dpm record -f $out/fs.ctl)"
fs_users_script "$out/fs.ctl" /demo "$users"
fs_record "$out/fs" "$users"
fs_names "$out/fs" "# the demo's file system: servers and test users"

step "TSP version 1, 8 servers over n1..n4, tsp $tsp_args, metered (dpm record -f $out/tsp.ctl)"
cat >"$out/tsp.ctl" <<CTL
filter meter
newjob tsp
add tsp n1 tsp -v 1 -p 8 --nodes 1,2,3,4 $tsp_args
setflags tsp send receivecall receive queued createprocess
startjob tsp
wait tsp 900
rmjob tsp
CTL
"$dpm" record --dir "$cluster_dir" -q -o "$out/tsp.log" -f "$out/tsp.ctl" >"$out/tsp.out" 2>&1 ||
	die "the TSP run failed (see $out/tsp.out)"
grep -q '^tsp: tour cost: ' "$out/tsp.out" || die "tsp printed no tour (see $out/tsp.out)"
run_table "$out/tsp.log"
{
	echo "# the demo's TSP run"
	tsp_names "$out/tsp.log" 8 || die "the TSP trace does not show its 8 servers created"
} >"$out/tsp.names"
cluster_down

step "the file system again in configuration B (RI n1, DM n2, BM n3, DI n4, the disk on n4), the same $users users, metered (dpm record -f $out/fsB.ctl)"
"$dpm" disk create "$out/diskB.img" --size 16 --force >/dev/null
cluster_file "$out/demoB.cluster" 4 4 "$out/diskB.img"
cluster_up "$out/demoB.cluster" "$out/clusterB"
fs_start "$out/fsstartB" 1 2 3 4
fs_users_script "$out/fsB.ctl" /demo "$users"
fs_record "$out/fsB" "$users"
fs_names "$out/fsB" "# the demo's file system in configuration B: servers and test users"
cluster_down

mtime=()
if [ "$clock" = virtual ]; then
	step "message delivery times: computed for this cluster by dpm cluster up, kept beside each log (fs.log.mtime, fsB.log.mtime, tsp.log.mtime)"
else
	step "measuring message delivery times in the nodes' clock (pingpong), for P"
	study_mtime
	mtime=(--mtime "$out/mtime.csv")
fi

step "analysing the traces: dpm stats, dpm parallel --all, dpm causality"
for run in fs fsB tsp; do
	"$dpm" stats "$out/$run.log" >"$out/$run.stats.txt"
	"$dpm" parallel --all "${mtime[@]}" "$out/$run.log" >"$out/$run.parallel.txt"
	"$dpm" parallel --all "${mtime[@]}" --csv "$out/$run.log" >"$out/$run.parallel.csv"
done
"$dpm" causality --names "$out/fs.names" --dot "$out/fs.causality.dot" "$out/fs.log" >"$out/fs.causality.txt"

step "writing the report (dpm report -o $report)"
"$dpm" report -o "$report" --title "DPM demo: the file system and TSP, metered on 4 nodes" --thesis \
	"fs=$out/fs.log,names=$out/fs.names$(mtime_spec)" \
	"fsB=$out/fsB.log,names=$out/fsB.names$(mtime_spec)" \
	"tsp=$out/tsp.log,names=$out/tsp.names$(mtime_spec)" >"$out/report.out" 2>&1 ||
	die "dpm report failed (see $out/report.out)"

# The summary: what ran, P of each run, where to look.
events() { "$dpm" dump --csv "$1" | awk 'END { print NR - 1 }'; }
p_of() { awk -F, -v m="$2" '$1 == m { printf "%.2f", $4 }' "$out/$1.parallel.csv"; }
# completion RUN: in virtual time, measured completion against its prediction
# (dpm parallel's lines; docs/parallel.md).
completion() {
	awk '/^measured completion: / { m = $3 " " $4; sub(/,$/, "", m) }
		/^  t_max of measured\+contention/ { p = $4 " " $5; e = $6 }
		END { if (m != "") printf "; completion %s measured, %s predicted (t_max with contention, %s)", m, p, e }' \
		"$out/$1.parallel.txt"
}
cat <<SUMMARY

demo: done in $((SECONDS - started)) s on 4 ${machines} nodes, clock=$clock.
  file system, $users users: $(events "$out/fs.log") events traced; P upper bound $(p_of fs upper-bound), measured $(p_of fs measured), with CPU contention $(p_of fs measured+contention)$(completion fs)
  the same in configuration B: $(events "$out/fsB.log") events traced; P upper bound $(p_of fsB upper-bound), measured $(p_of fsB measured), with CPU contention $(p_of fsB measured+contention)$(completion fsB)
  TSP v1, 8 servers ($tsp_args): $(events "$out/tsp.log") events traced; P upper bound $(p_of tsp upper-bound), measured $(p_of tsp measured), with CPU contention $(p_of tsp measured+contention)$(completion tsp)
  $(sed -n 's/^tsp: //p' "$out/tsp.out" | head -1)

  the report:    $report/index.html (the logs are linked from it, not copied)
  the rest:      $out (logs, names, scripts, stats, parallel and causality output)
SUMMARY

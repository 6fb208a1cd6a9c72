#!/usr/bin/env bash
# qemu/scripts/study_tsp.sh DPM OUT - `make study-tsp`: the thesis's TSP study
# (Miller's thesis §5.3.3) run on our own cluster; docs/studies.md.
#
# Every run is one `dpm record` on a freshly booted 4-node cluster
# (clock=virtual; STUDY_CLOCK=icount or plain for comparison): the controller on n1, its p servers spread over n1..n4,
# every event metered, the log cut to the run.  Cases: version 1 for each N of
# STUDY_TSP_SIZES (default 4 8 12 16 20) and p = 4, 8, 12, 16 with p <= N;
# versions 2 and 3 at N = STUDY_TSP_VERSIONS_N (default 16) for every such
# p; each STUDY_REPEATS times
# (default 3).  The instance of size N is the random one of seed 1, the
# same in every run of that N.  `dpm report --study tsp` then computes,
# from each trace, P for the upper bound, one server per machine and two
# servers per machine (the thesis's three values), the total CPU and the
# controller's share, and the versions side by side.
#
# Everything is kept in OUT: runs/ (logs, names, outputs), report/; a
# study stopped half-way resumes with its completed runs.
set -eu
dpm=$1 out=$2
study_name=study-tsp
. "$(dirname "$0")/study_lib.sh"
study_keep_apart

repeats=${STUDY_REPEATS:-3}
sizes=${STUDY_TSP_SIZES:-4 8 12 16 20}
versions_n=${STUDY_TSP_VERSIONS_N:-16}
seed=1

# cases: "N p version" per line, in the order they run.
cases() {
	local n p v
	for n in $sizes; do
		for p in 4 8 12 16; do [ "$p" -le "$n" ] && echo "$n $p 1"; done
	done
	for v in 2 3; do
		for p in 4 8 12 16; do [ "$p" -le "$versions_n" ] && echo "$versions_n $p $v"; done
	done
}

mkdir -p "$out/runs"
run_total=$(( $(cases | wc -l) * repeats ))
run_count=$(find "$out/runs" -name '*.done' | wc -l)
[ "$clock" = virtual ] || progress "measuring message delivery times in the nodes' clock (pingpong)"
study_mtime

# tsp_run NAME N P V REP: one metered run on a fresh cluster, its names file.
tsp_run() {
	local name=$1 n=$2 p=$3 v=$4 rep=$5
	cluster_up "$out/tsp.cluster" "$out/cluster"
	"$dpm" record --dir "$cluster_dir" -q -o "$out/runs/$name.log" -- \
		tsp -v "$v" -p "$p" --nodes 1,2,3,4 -n "$n" -s "$seed" \
		>"$out/runs/$name.out" 2>&1 </dev/null ||
		die "run $name failed (see $out/runs/$name.out)"
	cluster_down
	grep -q '^tour cost: ' "$out/runs/$name.out" || die "run $name printed no tour (see $out/runs/$name.out)"
	run_table "$out/runs/$name.log"
	{
		echo "# $name: tsp -v $v -p $p -n $n -s $seed, repetition $rep"
		tsp_names "$out/runs/$name.log" "$p" || die "run $name: its trace does not show the $p servers created"
	} >"$out/runs/$name.names"
}

cluster_file "$out/tsp.cluster" 4
while read -r n p v; do
	for rep in $(seq 1 "$repeats"); do
		name=N${n}p${p}v${v}r$rep
		run_done "$name" && continue
		run_count=$((run_count + 1))
		progress "tsp version $v, N = $n, $p servers, repetition $rep"
		tsp_run "$name" "$n" "$p" "$v" "$rep"
		finish_run "$name"
	done
done < <(cases)

runs=()
while read -r n p v; do
	for rep in $(seq 1 "$repeats"); do
		name=N${n}p${p}v${v}r$rep
		runs+=("$name=$out/runs/$name.log,names=$out/runs/$name.names$(mtime_spec),n=$n,p=$p,version=$v,rep=$rep")
	done
done < <(cases)
progress "analysing ${#runs[@]} runs (dpm report --study tsp)"
"$dpm" report -o "$out/report" --title "DPM: the TSP study" --thesis --study tsp "${runs[@]}"
echo "$study_name: the report is $out/report/index.html"

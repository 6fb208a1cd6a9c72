#!/usr/bin/env bash
# qemu/study_fs.sh DPM OUT - `make study-fs`: the thesis's file-system study
# (seed 000 §5.3.1-5.3.2) run on our own clusters; docs/studies.md.
#
# Three placements of the four servers (RI, DM, BM, DI) are booted, each
# on a fresh 4-node cluster with its own disk: A, the thesis's measured one
# (RI+DM on n1, BM+DI on n2); B, each server on its own node; C, all four
# on n1.  In each, the servers are started once (fsstart, unmetered) and
# then every run is one `dpm record -f` of a job that acquires the four
# servers and starts K test users at once, all metered; the log is cut to
# the run.  Configuration A is run with 1 to 7 users (the users-versus-P
# curve), B and C with 4; every run STUDY_REPEATS times (default 2).
# Then `dpm report --study fs` computes P in the thesis's configurations,
# the predictions across A, B and C, predicted against measured completion
# times, the users curve, the shares and the causality of requests.
#
# Everything is kept in OUT: runs/ (logs, names, outputs), report/ (the
# page), and a study stopped half-way resumes with its completed runs.
set -eu
dpm=$1 out=$2
study_name=study-fs
. "$(dirname "$0")/study_lib.sh"

repeats=${STUDY_REPEATS:-2}
users_max=${STUDY_FS_USERS:-7}

# Placements: node of RI, DM, BM, DI (the disk goes with the DI).
placement() {
	case $1 in
	A) echo 1 1 2 2 ;;
	B) echo 1 2 3 4 ;;
	C) echo 1 1 1 1 ;;
	esac
}

# user_counts CONFIG: the numbers of users CONFIG is run with: A 1 to
# users_max and always 4, the number every configuration is compared at.
user_counts() {
	if [ "$1" = A ]; then { seq 1 "$users_max"; echo 4; } | sort -nu; else echo 4; fi
}

mkdir -p "$out/runs"
configs=(A B C)
run_total=$(( ($(user_counts A | wc -l) + 2) * repeats ))
run_count=$(find "$out/runs" -name '*.done' | wc -l)

# start_servers CONFIG: boot the configuration's cluster and start the file
# system in it; sets ri dm bm di to the servers' node.pid.
start_servers() {
	local c=$1 nodes
	read -r -a nodes <<<"$(placement "$c")"
	local img=$out/disk-$c.img
	"$dpm" disk create "$img" --size 16 --force >/dev/null
	cluster_file "$out/$c.cluster" 4 "${nodes[3]}" "$img"
	progress "configuration $c: booting 4 nodes, RI n${nodes[0]} DM n${nodes[1]} BM n${nodes[2]} DI n${nodes[3]}"
	cluster_up "$out/$c.cluster" "$out/cluster-$c"
	fs_start "$out/fsstart-$c" "${nodes[@]}"
}

# one_run NAME USERS REP: K users against the running file system, metered.
one_run() {
	local name=$1 k=$2 rep=$3
	fs_users_script "$out/runs/$name.ctl" "/$name" "$k" "$rep"
	fs_record "$out/runs/$name" "$k"
	fs_names "$out/runs/$name" "# $name: configuration $cfg, $k users, repetition $rep"
	finish_run "$name"
}

progress "measuring message delivery times in the nodes' clock (pingpong)"
study_mtime
for cfg in "${configs[@]}"; do
	counts=$(user_counts "$cfg")
	todo=
	for k in $counts; do
		for rep in $(seq 1 "$repeats"); do run_done "$cfg-u$k-r$rep" || todo=yes; done
	done
	[ -n "$todo" ] || continue
	start_servers "$cfg"
	for k in $counts; do
		for rep in $(seq 1 "$repeats"); do
			name=$cfg-u$k-r$rep
			run_done "$name" && continue
			run_count=$((run_count + 1))
			progress "configuration $cfg, $k users, repetition $rep"
			one_run "$name" "$k" "$rep"
		done
	done
	cluster_down
done

# The report: every run, with the keys dpm report's fs study reads.
runs=()
for cfg in "${configs[@]}"; do
	counts=$(user_counts "$cfg")
	for k in $counts; do
		for rep in $(seq 1 "$repeats"); do
			name=$cfg-u$k-r$rep
			spec="$name=$out/runs/$name.log,names=$out/runs/$name.names,mtime=$out/mtime.csv,rep=$rep"
			[ "$cfg" = A ] && spec="$spec,users=$k"
			[ "$k" = 4 ] && spec="$spec,config=$cfg"
			runs+=("$spec")
		done
	done
done
progress "analysing ${#runs[@]} runs (dpm report --study fs)"
"$dpm" report -o "$out/report" --title "DPM: the file-system study" --thesis --study fs "${runs[@]}"
echo "$study_name: the report is $out/report/index.html"

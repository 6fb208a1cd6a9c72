#!/usr/bin/env bash
# qemu/scripts/study_fs.sh DPM OUT - `make study-fs`: the thesis's file-system study
# (Miller's thesis §5.3.1-5.3.2) run on our own clusters; docs/studies.md.
#
# Three placements of the four servers (RI, DM, BM, DI): A, the thesis's
# measured one (RI+DM on n1, BM+DI on n2); B, each server on its own node;
# C, all four on n1.  Every run boots a 4-node cluster with an empty disk
# on the DI's node, starts the servers (fsstart, unmetered), and is one
# `dpm record -f` of a job that acquires the four servers and starts K
# test users at once, all metered; the log is cut to the run.  Configuration A is run with 1 to 7 users (the users-versus-P
# curve), B and C with 4; every run STUDY_REPEATS times (default 2), each
# on a freshly booted cluster with an empty disk, in virtual time
# (STUDY_CLOCK=icount or plain for comparison; study_lib.sh).
# STUDY_FS_CONFIGS (default "A B C") and STUDY_FS_COUNTS (A's numbers of
# users, default 1 to STUDY_FS_USERS and 4) choose a part of the study:
# `STUDY_FS_CONFIGS=A STUDY_FS_COUNTS=4 STUDY_REPEATS=1` is one run.
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
study_keep_apart

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
	if [ "$1" != A ]; then
		echo 4
	elif [ -n "${STUDY_FS_COUNTS:-}" ]; then
		printf '%s\n' $STUDY_FS_COUNTS
	else
		{ seq 1 "$users_max"; echo 4; } | sort -nu
	fi
}

mkdir -p "$out/runs"
read -r -a configs <<<"${STUDY_FS_CONFIGS:-A B C}"
for cfg in "${configs[@]}"; do
	case $cfg in A | B | C) ;; *) die "STUDY_FS_CONFIGS: no configuration '$cfg' (A, B or C)" ;; esac
done
for k in $(user_counts A); do
	case $k in '' | *[!0-9]* | 0) die "STUDY_FS_COUNTS: '$k' is not a number of users" ;; esac
done
run_total=0
for cfg in "${configs[@]}"; do run_total=$((run_total + $(user_counts "$cfg" | wc -l) * repeats)); done
run_count=$(find "$out/runs" -name '*.done' | wc -l)

# one_run CONFIG NAME USERS REP: a fresh cluster in CONFIG's placement,
# with an empty disk on the DI's node and the servers started unmetered,
# then K users against it, metered with the servers; the cluster is taken
# down after, so no run inherits another's caches or tables.
one_run() {
	local c=$1 name=$2 k=$3 rep=$4 nodes
	read -r -a nodes <<<"$(placement "$c")"
	"$dpm" disk create "$out/disk-$c.img" --size 16 --force >/dev/null
	cluster_file "$out/$c.cluster" 4 "${nodes[3]}" "$out/disk-$c.img"
	cluster_up "$out/$c.cluster" "$out/cluster-$c"
	fs_start "$out/runs/$name-fsstart" "${nodes[@]}"
	fs_users_script "$out/runs/$name.ctl" "/$name" "$k"
	fs_record "$out/runs/$name" "$k"
	fs_names "$out/runs/$name" "# $name: configuration $c (RI n${nodes[0]} DM n${nodes[1]} BM n${nodes[2]} DI n${nodes[3]}), $k users, repetition $rep"
	cluster_down
	finish_run "$name"
}

[ "$clock" = virtual ] || progress "measuring message delivery times in the nodes' clock (pingpong)"
study_mtime
for cfg in "${configs[@]}"; do
	for k in $(user_counts "$cfg"); do
		for rep in $(seq 1 "$repeats"); do
			name=$cfg-u$k-r$rep
			run_done "$name" && continue
			run_count=$((run_count + 1))
			progress "configuration $cfg ($(placement "$cfg" | awk '{ printf "RI n%s DM n%s BM n%s DI n%s", $1, $2, $3, $4 }')), $k users, repetition $rep"
			one_run "$cfg" "$name" "$k" "$rep"
		done
	done
done

# The report: every run, with the keys dpm report's fs study reads.
runs=()
for cfg in "${configs[@]}"; do
	counts=$(user_counts "$cfg")
	for k in $counts; do
		for rep in $(seq 1 "$repeats"); do
			name=$cfg-u$k-r$rep
			spec="$name=$out/runs/$name.log,names=$out/runs/$name.names$(mtime_spec),rep=$rep"
			[ "$cfg" = A ] && spec="$spec,users=$k"
			[ "$k" = 4 ] && spec="$spec,config=$cfg"
			runs+=("$spec")
		done
	done
done
progress "analysing ${#runs[@]} runs (dpm report --study fs)"
"$dpm" report -o "$out/report" --title "DPM: the file-system study" --thesis --study fs "${runs[@]}"
echo "$study_name: the report is $out/report/index.html"

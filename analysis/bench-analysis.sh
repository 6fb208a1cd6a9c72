#!/usr/bin/env bash
# analysis/bench-analysis.sh DPM TRACEGEN OUTDIR - `make bench-analysis`:
# time dpm stats, dpm parallel (all five configurations of the thesis) and
# dpm causality on generated traces of 1 and 10 million events, print
# events per second and how the time grows from one to the other, and
# write the table to OUTDIR/analysis.txt.  Traces are kept in OUTDIR.  Each
# time is the fastest of ANALYSIS_BENCH_REPEAT runs (default 3): other load
# on the host only ever adds time, and a trace file just written may still
# be on its way out of the page cache.
set -euo pipefail
dpm=$1; gen=$2; out=$3
repeat=${ANALYSIS_BENCH_REPEAT:-3}
mkdir -p "$out"
clients=$(seq -s, -f '1.%g' 1 8)
declare -A secs

now() { date +%s.%N; }

for n in 1000000 10000000; do
	trace=$out/trace-$n.csv
	[ -s "$trace" ] || "$gen" "$n" 8 1 > "$trace"
	events=$(($(wc -l < "$trace") - 1))
	for cmd in stats parallel causality; do
		case $cmd in
		stats) args=(stats --csv) ;;
		parallel) args=(parallel --csv --all) ;;
		causality) args=(causality --csv --requestors "$clients") ;;
		esac
		best=
		for ((r = 0; r < repeat; r++)); do
			t0=$(now)
			"$dpm" "${args[@]}" "$trace" > "$out/$cmd-$n.out"
			t1=$(now)
			t=$(echo "$t1 - $t0" | bc -l)
			if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" -eq 1 ]; then best=$t; fi
		done
		secs[$cmd,$n]=$best
		secs[events,$n]=$events
	done
done

{
	printf '%-10s %12s %12s %14s %14s %8s\n' command "1M: s" "10M: s" "1M: events/s" "10M: events/s" "10M/1M"
	for cmd in stats parallel causality; do
		a=${secs[$cmd,1000000]}; b=${secs[$cmd,10000000]}
		printf '%-10s %12.2f %12.2f %14.0f %14.0f %8.2f\n' "$cmd" "$a" "$b" \
			"$(echo "${secs[events,1000000]} / $a" | bc -l)" \
			"$(echo "${secs[events,10000000]} / $b" | bc -l)" "$(echo "$b / $a" | bc -l)"
	done
	echo "(parallel: --all, five configurations; traces from dpm-tracegen, 8 clients; fastest of $repeat runs)"
} | tee "$out/analysis.txt"

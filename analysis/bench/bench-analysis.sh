#!/usr/bin/env bash
# analysis/bench/bench-analysis.sh DPM TRACEGEN OUTDIR - `make bench-analysis`:
# time dpm stats, dpm parallel (each mode alone, then all five
# configurations of the thesis in one run with --all) and dpm causality on
# generated traces of 1 and 10 million events, print
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
# name and arguments of each timed command, in the table's order
names=(stats parallel parallel-upper parallel-cont parallel-each parallel-one parallel-all causality)
declare -A argv=(
	[stats]="stats --csv"
	[parallel]="parallel --csv"
	[parallel-upper]="parallel --csv --upper-bound"
	[parallel-cont]="parallel --csv --contention"
	[parallel-each]="parallel --csv --each-own-machine"
	[parallel-one]="parallel --csv --one-machine --contention"
	[parallel-all]="parallel --csv --all"
	[causality]="causality --csv --requestors $clients"
)

now() { date +%s.%N; }
# peak resident memory of each run, when GNU time is there to tell it
rss() { "$@"; }
[ -x /usr/bin/time ] && rss() { /usr/bin/time -f %M -o "$out/rss" "$@"; }

for n in 1000000 10000000; do
	trace=$out/trace-$n.csv
	[ -s "$trace" ] || "$gen" "$n" 8 1 > "$trace"
	events=$(($(wc -l < "$trace") - 1))
	for cmd in "${names[@]}"; do
		read -ra args <<< "${argv[$cmd]}"
		best=
		for ((r = 0; r < repeat; r++)); do
			t0=$(now)
			rss "$dpm" "${args[@]}" "$trace" > "$out/$cmd-$n.out"
			t1=$(now)
			secs[rss,$cmd,$n]=$([ -s "$out/rss" ] && echo $(($(tail -1 "$out/rss") / 1024)) || echo -)
			t=$(echo "$t1 - $t0" | bc -l)
			if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" -eq 1 ]; then best=$t; fi
		done
		secs[$cmd,$n]=$best
		secs[events,$n]=$events
	done
done

{
	printf '%-15s %8s %8s %14s %14s %8s %8s\n' command "1M: s" "10M: s" "1M: events/s" "10M: events/s" \
		"10M/1M" "10M: MB"
	for cmd in "${names[@]}"; do
		a=${secs[$cmd,1000000]}; b=${secs[$cmd,10000000]}
		printf '%-15s %8.2f %8.2f %14.0f %14.0f %8.2f %8s\n' "$cmd" "$a" "$b" \
			"$(echo "${secs[events,1000000]} / $a" | bc -l)" \
			"$(echo "${secs[events,10000000]} / $b" | bc -l)" "$(echo "$b / $a" | bc -l)" \
			"${secs[rss,$cmd,10000000]}"
	done
	echo "(parallel: measured with delivery times; -upper: --upper-bound; -cont: --contention;"
	echo " -each: --each-own-machine; -one: --one-machine --contention; -all: --all, the five"
	echo " configurations in one run.  Traces from dpm-tracegen, 8 clients; fastest of $repeat runs;"
	echo " MB: peak resident memory, from GNU time when installed)"
} | tee "$out/analysis.txt"

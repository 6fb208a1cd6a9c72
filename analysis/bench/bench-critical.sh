#!/usr/bin/env bash
# analysis/bench/bench-critical.sh DPM TRACEGEN OUTDIR - `make bench-critical`:
# time `dpm critical` on a generated trace of 10 million events (the same
# dpm-tracegen trace bench-analysis uses, kept in OUTDIR) against
# `dpm parallel` reading the same file in the same run, and print the rate
# and the ratio.  The time is the fastest of CRITICAL_BENCH_REPEAT runs
# (default 2): other load on the host only ever adds time.  The goal is
# under 10 s on one core (docs/critical.md); it is printed, not enforced.
set -euo pipefail
dpm=$1; gen=$2; out=$3
repeat=${CRITICAL_BENCH_REPEAT:-2}
n=${CRITICAL_BENCH_EVENTS:-10000000}
mkdir -p "$out"
trace=$out/trace-$n.csv
[ -s "$trace" ] || "$gen" "$n" 8 1 > "$trace"
events=$(($(wc -l < "$trace") - 1))
now() { date +%s.%N; }
best() {
	local b= t0 t1 t
	for ((r = 0; r < repeat; r++)); do
		t0=$(now)
		"$dpm" "$@" "$trace" > "$out/critical-bench.out"
		t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" -eq 1 ]; then b=$t; fi
	done
	echo "$b"
}
base=$(best parallel --csv)
crit=$(best critical --csv)
{
	printf '%-26s %8s %14s\n' command seconds events/s
	printf '%-26s %8.2f %14.0f\n' "dpm parallel --csv" "$base" "$(echo "$events / $base" | bc -l)"
	printf '%-26s %8.2f %14.0f\n' "dpm critical --csv" "$crit" "$(echo "$events / $crit" | bc -l)"
	printf 'critical / parallel: %.2f; %d events; goal under 10 s: %s\n' \
		"$(echo "$crit / $base" | bc -l)" "$events" \
		"$([ "$(echo "$crit < 10" | bc -l)" -eq 1 ] && echo met || echo MISSED)"
} | tee "$out/critical.txt"

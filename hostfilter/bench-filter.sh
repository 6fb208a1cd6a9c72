#!/usr/bin/env bash
# hostfilter/bench-filter.sh DPM GENERATOR OUTDIR - the bench-filter target:
# a synthetic 10-million-record stream (32 records a batch) through
# `dpm filter --stdin`, once with no rules and once with the typical rule
# set (hostfilter/bench-rules.txt).  Records/second is what the filter's own
# summary reports (received / elapsed_s); results go to OUTDIR/filter.txt.
set -eu
dpm=$1 gen=$2 out=$3
records=${FILTER_BENCH_RECORDS:-10000000}
mkdir -p "$out"
log="$out/filter-bench.log"

run() { # run NAME [ARGS...] -> prints "received kept elapsed"
	local name=$1; shift
	"$gen" "$records" | "$dpm" filter --stdin -o "$log" "$@" 2> "$out/filter-$name.err"
	sed -n 's/.*received=\([0-9]*\) kept=\([0-9]*\).*elapsed_s=\([0-9.]*\).*/\1 \2 \3/p' \
		"$out/filter-$name.err"
}

read -r none_recv none_kept none_s < <(run none)
read -r rules_recv rules_kept rules_s < <(run rules --rules hostfilter/bench-rules.txt)
rm -f "$log"
awk -v nr="$none_recv" -v nk="$none_kept" -v ns="$none_s" \
    -v rr="$rules_recv" -v rk="$rules_kept" -v rs="$rules_s" 'BEGIN {
	nrate = nr / ns; rrate = rr / rs
	printf "filter benchmark: %d records, 32 a batch, dpm filter --stdin\n", nr
	printf "no rules:      %d kept, %.3f s, %.0f records/s\n", nk, ns, nrate
	printf "typical rules: %d kept, %.3f s, %.0f records/s\n", rk, rs, rrate
	printf "ratio (typical rules / no rules): %.2f\n", rrate / nrate
}' | tee "$out/filter.txt"

#!/usr/bin/env bash
# hostfilter/bench/bench-filter.sh DPM GENERATOR OUTDIR - the bench-filter target:
# a synthetic 10-million-record stream (32 records a batch) through
# `dpm filter --stdin`, once with no rules and once with the typical rule
# set (hostfilter/bench/bench-rules.txt), each writing a real log file and then
# /dev/null (the filter's own cost without the disk).  Records/second is what
# the filter's summary reports (received / elapsed_s), the fastest of
# FILTER_BENCH_REPEAT runs (default 3: writing half a gigabyte to a file
# varies by a factor of two from run to run); results go to
# OUTDIR/filter.txt.
set -eu
dpm=$1 gen=$2 out=$3
records=${FILTER_BENCH_RECORDS:-10000000}
repeat=${FILTER_BENCH_REPEAT:-3}
mkdir -p "$out"
log="$out/filter-bench.log"

run() { # run NAME LOG [ARGS...] -> prints "received kept elapsed", the fastest run
	local name=$1 to=$2 r; shift 2
	for ((r = 0; r < repeat; r++)); do
		"$gen" "$records" | "$dpm" filter --stdin -o "$to" "$@" 2> "$out/filter-$name.err"
		sed -n 's/.*received=\([0-9]*\) kept=\([0-9]*\).*elapsed_s=\([0-9.]*\).*/\1 \2 \3/p' \
			"$out/filter-$name.err"
	done | sort -g -k3 | head -n 1
}

rules=(--rules hostfilter/bench/bench-rules.txt)
{
	echo "none file $(run none "$log")"
	echo "rules file $(run rules "$log" "${rules[@]}")"
	echo "none devnull $(run none-null /dev/null)"
	echo "rules devnull $(run rules-null /dev/null "${rules[@]}")"
} > "$out/filter-runs.txt"
rm -f "$log"
awk -v records="$records" -v repeat="$repeat" '
	{ rate[$1, $2] = $3 / $5; kept[$1, $2] = $4; secs[$1, $2] = $5 }
	END {
		printf "filter benchmark: %d records, 32 a batch, dpm filter --stdin, fastest of %d runs\n", records, repeat
		for (i = 1; i <= 2; i++) {
			to = i == 1 ? "file" : "devnull"
			printf "log to %s:\n", to == "file" ? "a file" : "/dev/null"
			printf "  no rules:      %d kept, %.3f s, %.0f records/s\n", kept["none", to], secs["none", to], rate["none", to]
			printf "  typical rules: %d kept, %.3f s, %.0f records/s\n", kept["rules", to], secs["rules", to], rate["rules", to]
			printf "  ratio (typical rules / no rules): %.2f\n", rate["rules", to] / rate["none", to]
		}
	}' "$out/filter-runs.txt" | tee "$out/filter.txt"

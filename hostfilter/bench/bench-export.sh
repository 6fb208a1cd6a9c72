#!/usr/bin/env bash
# hostfilter/bench/bench-export.sh DPM GENERATOR OUTDIR - the bench-export
# target: a synthetic log of EXPORT_BENCH_RECORDS records (default 2
# million; the meter stream of bench-filter, 4 nodes, 20 processes, through
# `dpm filter --stdin`) written by `dpm export` in each format, and
# babeltrace2 reading the CTF export of the same log
# (`babeltrace2 --output-format=dummy`), in one run.  Records/second is the
# log's records over the elapsed time; the fastest of EXPORT_BENCH_REPEAT
# runs (default 1), with the largest resident size seen when /usr/bin/time
# is there (memory must not grow with the log: compare two sizes).
# Results go to OUTDIR/export.txt.
set -eu
dpm=$1 gen=$2 out=$3
records=${EXPORT_BENCH_RECORDS:-2000000}
repeat=${EXPORT_BENCH_REPEAT:-1}
timebin=${EXPORT_BENCH_TIME:-/usr/bin/time} # GNU time, for the resident size
mkdir -p "$out"
log="$out/export-bench.log"
"$gen" "$records" | "$dpm" filter --stdin -o "$log" 2> "$out/export-filter.err"

# once NAME CMD... -> "NAME SECONDS MAXRSS_KB" (RSS 0 without GNU time)
once() {
	local name=$1; shift
	if [ -x "$timebin" ]; then
		"$timebin" -f "%e %M" -o "$out/export-time.txt" "$@" > /dev/null 2> "$out/export-$name.err"
		echo "$name $(cat "$out/export-time.txt")"
	else
		local TIMEFORMAT=%R
		{ time "$@" > /dev/null 2> "$out/export-$name.err"; } 2> "$out/export-time.txt"
		echo "$name $(cat "$out/export-time.txt") 0"
	fi
}

# fastest NAME CMD... -> the fastest of $repeat runs (each into a new OUT)
fastest() {
	local r
	for ((r = 0; r < repeat; r++)); do
		rm -rf "$out/export-bench.ctf" "$out/export-bench.otf2" "$out/export-bench.json"
		once "$@"
	done | sort -g -k2 | head -n 1
}

{
	fastest otf2 "$dpm" export --format otf2 -o "$out/export-bench.otf2" "$log"
	fastest chrome "$dpm" export --format chrome -o "$out/export-bench.json" "$log"
	fastest ctf "$dpm" export --format ctf -o "$out/export-bench.ctf" "$log"
	# the last ctf run's export, read by babeltrace2 (once first to warm the cache)
	babeltrace2 --output-format=dummy "$out/export-bench.ctf" > /dev/null 2>&1
	for ((r = 0; r < repeat; r++)); do
		once babeltrace2 babeltrace2 --output-format=dummy "$out/export-bench.ctf"
	done | sort -g -k2 | head -n 1
} > "$out/export-runs.txt"
rm -rf "$log" "$out/export-bench.ctf" "$out/export-bench.otf2" "$out/export-bench.json"
awk -v records="$records" -v repeat="$repeat" '
	function mem(kb) { return kb > 0 ? sprintf("max RSS %.1f MB", kb / 1024) : "max RSS not measured" }
	{ secs[$1] = $2; rss[$1] = $3 }
	END {
		printf "export benchmark: %d records (bench-filter'"'"'s synthetic stream through dpm filter), fastest of %d run(s)\n", records, repeat
		n = split("ctf otf2 chrome", f, " ")
		for (i = 1; i <= n; i++)
			printf "  dpm export --format %-6s %8.3f s, %9.0f records/s, %s\n", f[i], secs[f[i]], records / secs[f[i]], mem(rss[f[i]])
		printf "  babeltrace2 --output-format=dummy (reading the CTF export) %8.3f s, %9.0f events/s, %s\n", secs["babeltrace2"], records / secs["babeltrace2"], mem(rss["babeltrace2"])
		printf "  ratio (dpm export ctf rate / babeltrace2 reading rate): %.2f\n", secs["babeltrace2"] / secs["ctf"]
	}' "$out/export-runs.txt" | tee "$out/export.txt"

#!/usr/bin/env bash
# tests/export/export_test.sh OUTDIR DPM EXPORT_CHECK STREAM_GEN - `make
# check-export`: each format of `dpm export` read back by its real reader
# (babeltrace2 for CTF, otf2-print for OTF2; the Chrome JSON by the strict
# parser of tests/export/export_check.c) and compared with `dpm dump` of the
# same log by export-check, on two logs:
#   - tests/export/tsp-2nodes.log, a real run (`dpm record -n 2 -- tsp -v 1
#     -p 4 --nodes 1,2 -n 8 -s 7`: 799 records, messages between nodes);
#   - a synthetic stream (hostfilter/bench) through `dpm filter` with the
#     typical rules (fields discarded) and junk at its end (a NOTE).
# Ends with "export: N passed, N failed" and OUTDIR/export.count.
set -u
out=$1 dpm=$2 check=$3 gen=$4
work="$out/export"
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0

result() { # result STATUS NAME [DETAIL]
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1)); echo "ok - $2"
	else
		failed=$((failed + 1)); echo "not ok - $2"; [ -n "${3:-}" ] && printf '#   %s\n' "$3"
	fi
}

# one LOG NAME: the three exports of LOG, each read by its reader and checked
one() {
	local log=$1 name=$2 d="$work/$2" msg
	mkdir -p "$d"
	"$dpm" dump "$log" > "$d/dump.txt"
	if msg=$("$dpm" export --format ctf -o "$d/ctf" "$log" 2>&1) &&
	   msg=$(babeltrace2 "$d/ctf" 2>&1 > "$d/babeltrace2.txt") &&
	   msg=$("$check" ctf "$d/dump.txt" "$d/babeltrace2.txt" 2>&1); then
		result 0 "$name: $msg"
	else
		result 1 "$name: CTF read by babeltrace2 as dpm dump reads the log" "$msg"
	fi
	if msg=$("$dpm" export --format otf2 -o "$d/otf2" "$log" 2>&1) &&
	   msg=$(otf2-print "$d/otf2/trace.otf2" 2>&1 > "$d/otf2-print.txt") &&
	   msg=$("$check" otf2 "$d/dump.txt" "$d/otf2-print.txt" 2>&1); then
		result 0 "$name: $msg"
	else
		result 1 "$name: OTF2 read by otf2-print, regions and messages as in the log" "$msg"
	fi
	if msg=$("$dpm" export --format chrome -o "$d/trace.json" "$log" 2>&1) &&
	   msg=$("$check" chrome "$d/dump.txt" "$d/trace.json" 2>&1); then
		result 0 "$name: $msg"
	else
		result 1 "$name: Chrome JSON strict, instants, slices and flows as in the log" "$msg"
	fi
}

one tests/export/tsp-2nodes.log tsp
{ "$gen" 2000; printf 'JUNKJUNKJUNKJUNK'; } |
	"$dpm" filter --stdin --rules hostfilter/bench/bench-rules.txt -o "$work/rules.log" 2> "$work/filter.err"
one "$work/rules.log" rules

echo "$passed $failed" > "$out/export.count"
echo "export: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

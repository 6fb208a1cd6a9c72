#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh RUNDIR SECONDS NAME:BINARY... - `make fuzz`: run
# each libFuzzer harness for SECONDS on a scratch copy of its seed corpus
# (RUNDIR/NAME/corpus; the seeds in tests/fuzz/corpus/NAME stay as they
# are), findings into RUNDIR/NAME/findings, libFuzzer's output into
# RUNDIR/NAME/log.  Prints per harness the executions, the coverage
# (cov and ft from libFuzzer's last status line) and the findings; exits
# 1 if any harness found something.  docs/fuzzing.md says what to do with
# a finding.
set -u
rundir=$1 seconds=$2; shift 2
top=$(pwd)
found=0
for spec in "$@"; do
	name=${spec%%:*} bin=${spec#*:}
	d=$top/$rundir/$name
	rm -rf "$d/corpus" "$d/findings"
	mkdir -p "$d/corpus" "$d/findings"
	cp "$top/tests/fuzz/corpus/$name"/* "$d/corpus/"
	# Absolute paths: a harness may change directory (fuzz_control.c).
	"$top/$bin" -max_total_time="$seconds" -print_final_stats=1 -timeout=25 \
		-rss_limit_mb=2048 -artifact_prefix="$d/findings/" "$d/corpus" >"$d/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$d/log" | grep 'cov:' | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	n=$(find "$d/findings" -type f | wc -l)
	echo "fuzz $name: ${runs:-?} executions in ${seconds} s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}, findings $n (exit $rc)"
	if [ "$n" -gt 0 ] || [ "$rc" -ne 0 ]; then
		found=1
		find "$d/findings" -type f | sed 's/^/    /'
		echo "    libFuzzer's output: $d/log"
	fi
done
[ "$found" -eq 0 ]

#!/usr/bin/env bash
# tests/run-unit.sh COUNTFILE BIN... - run cmocka test binaries, add up their
# results and end with "SUITE: N passed, N failed", SUITE being COUNTFILE's
# name (unit.count: "unit").  A binary that crashes or
# exits non-zero without a cmocka summary counts as one failure.
set -u
countfile=$1; shift
suite=$(basename "$countfile" .count)
passed=0; failed=0
for bin in "$@"; do
	out=$("$bin" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$suite: $bin exited with status $rc without a test summary"
		f=1
	fi
	passed=$((passed + p)); failed=$((failed + f))
done
mkdir -p "$(dirname "$countfile")"
echo "$passed $failed" > "$countfile"
echo "$suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# tests/total.sh DIR SUITE... - add up the counts each suite left in
# DIR/SUITE.count and end with "check: N passed, N failed".  A suite that left
# no count (it did not build or crashed) counts as one failure.
set -u
dir=$1; shift
passed=0; failed=0
for s in "$@"; do
	if [ -r "$dir/$s.count" ]; then
		read -r p f < "$dir/$s.count"
	else
		echo "check: suite '$s' produced no result"
		p=0; f=1
	fi
	passed=$((passed + p)); failed=$((failed + f))
done
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# tests/cluster/cluster_suite.sh OUTDIR DPM KERNEL - run every
# tests/cluster/cluster_test_*.sh (each boots its own clusters in a scratch
# directory under OUTDIR/cluster), count their "ok"/"not ok" lines and end
# with "cluster: N passed, N failed"; the counts go to OUTDIR/cluster.count.
# A script that times out, or fails without a "not ok" line, counts as one
# failure.  The limit (600 s a script) is a net for a hang, not a timing:
# on a loaded host a script may take several times its quiet-host time.
set -u
out=$1 dpm=$2 kernel=$3
here=$(dirname "$0")
passed=0 failed=0
for t in "$here"/cluster_test_*.sh; do
	name=$(basename "$t" .sh)
	scratch="$out/cluster/$name"
	rm -rf "$scratch" && mkdir -p "$scratch"
	log="$scratch/output"
	DPM=$(realpath "$dpm") DPM_KERNEL=$(realpath "$kernel") TEST_DIR=$(realpath "$scratch") \
		timeout -k 10 600 bash "$t" </dev/null >"$log" 2>&1
	rc=$?
	grep -E '^(ok|not ok) ' "$log" | sed "s/^/[$name] /"
	ok=$(grep -c '^ok ' "$log")
	bad=$(grep -c '^not ok ' "$log")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "cluster: $name timed out (output: $log)"; bad=$((bad + 1))
	elif [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "cluster: $name exited $rc without a failed case (output: $log)"; bad=$((bad + 1))
	elif [ "$bad" -gt 0 ]; then
		echo "cluster: $name: failures; its output is in $log"
	fi
	passed=$((passed + ok)); failed=$((failed + bad))
done
echo "$passed $failed" >"$out/cluster.count"
echo "cluster: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

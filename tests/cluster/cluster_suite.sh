#!/usr/bin/env bash
# tests/cluster/cluster_suite.sh OUTDIR DPM KERNEL - run every
# tests/cluster/cluster_test_*.sh (each boots its own clusters in a scratch
# directory under OUTDIR/cluster), count their "ok"/"not ok" lines and end
# with "cluster: N passed, N failed"; the counts go to OUTDIR/cluster.count.
# A script that times out, or fails without a "not ok" line, counts as one
# failure.
#
# A known flake of the emulated LAN: now and then (seen in about 1 boot of
# 20 four-node clusters on this host, with the kernels before and after
# 24 November 2026) one node boots unable to reach any peer, and its peers
# and it give up after peerwait ("did not come up in time (peerwait)";
# docs/network.md).  A script that fails with that line in one of its
# nodes' consoles is run once more from a clean directory, and the suite
# says so; only the second run's results count.  Any other failure counts
# at once.
set -u
out=$1 dpm=$2 kernel=$3
here=$(dirname "$0")
passed=0 failed=0
for t in "$here"/cluster_test_*.sh; do
	name=$(basename "$t" .sh)
	scratch="$out/cluster/$name"
	for try in 1 2; do
		rm -rf "$scratch" && mkdir -p "$scratch"
		log="$scratch/output"
		DPM=$(realpath "$dpm") DPM_KERNEL=$(realpath "$kernel") TEST_DIR=$(realpath "$scratch") \
			timeout -k 10 240 bash "$t" </dev/null >"$log" 2>&1
		rc=$?
		failed_run() { [ "$rc" -ne 0 ] || grep -q '^not ok ' "$log"; }
		[ "$try" = 1 ] && failed_run &&
			grep -rqs --include='*.console' 'did not come up in time (peerwait)' "$scratch" || break
		echo "cluster: $name: a node of its clusters never reached its peers at boot (the" \
			"LAN flake of docs/network.md); running it once more"
	done
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

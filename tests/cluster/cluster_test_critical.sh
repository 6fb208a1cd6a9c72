#!/usr/bin/env bash
# tests/cluster/cluster_test_critical.sh - `dpm critical` on a real run and
# its what-ifs checked against runs with the change made (docs/critical.md):
# the file system (fsload: four servers on four nodes, the disk on node 4,
# four users, everything metered by node 1's `mrun filter all`) recorded
# in virtual time three times: as is, with the network's one-way latency
# 100 us longer (latency=120us) and with a faster disk (disklatency=2ms
# against 4ms).  On each log the critical path's length plus its start is
# the elapsed time, and the disk's waits are on it; from the first log,
# `--wait 4.0=-2000000` predicts the faster disk's run within 0.5%
# (measured -0.003%) and `--latency +100000` the slower network's within 1%
# (measured -0.74%: creating a process on another node makes round trips,
# loading its program, that no trace shows, so a creation keeps its
# measured time).  Virtual time makes every run deterministic, so nothing
# here depends on the host's load.
. "$(dirname "$0")/cluster_lib.sh"
WORK="fsload --ri 1 --dm 2 --bm 3 --di 4 --users 1,2,3,4 --size 6000 --ops 8"

# record NAME [CLUSTER-STATEMENT]: a fresh disk and cluster, node 1's job
# waited for, the log kept as TEST_DIR/NAME.log.
record() {
	local name=$1 d
	d=$(new_cluster_dir "$name")
	fsload_cluster "$name" "${2:-}"
	vtime_run "$name" 0 "$d" "$TEST_DIR/$name.cluster" "4 nodes in virtual time, a disk on node 4"
	check "$name: every user verified its data" grep -q "^fsload: 4 users, 4 verified" "$d/n1.console"
	wait_log_settled "$d/meter.log"
	"$DPM" cluster down --dir "$d" >/dev/null
	cp "$d/meter.log" "$TEST_DIR/$name.log"
}

# field JSON-FILE KEY [last]: a number of the output: the top level's (the
# first), or with "last" the what-if's (printed after it).
field() {
	grep -o "\"$2\":[0-9]*" "$1" | if [ "${3:-}" = last ]; then tail -1; else head -1; fi | cut -d: -f2
}

# within PERMILLE A B: |A - B| <= PERMILLE/1000 of B
within() { awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 1000 <= b * p) }'; }

record crit-base
record crit-lat "cluster latency=120us"
record crit-disk "cluster disklatency=2ms"
for r in base lat disk; do
	"$DPM" critical --json "$TEST_DIR/crit-$r.log" >"$TEST_DIR/crit-$r.json" 2>"$TEST_DIR/crit-$r.err"
	check "$r: dpm critical exits 0" [ $? -eq 0 ]
	e=$(field "$TEST_DIR/crit-$r.json" elapsed_ns)
	l=$(field "$TEST_DIR/crit-$r.json" length_ns)
	g=$(field "$TEST_DIR/crit-$r.json" start_gap_ns)
	check "$r: the path ($l ns) plus its start ($g ns) is the elapsed time ($e ns)" [ $((l + g)) = "$e" ]
	x=$(field "$TEST_DIR/crit-$r.json" external)
	check "$r: the disk's waits are on the path ($x ns external)" [ "${x:-0}" -gt 0 ]
done
"$DPM" critical --json --latency +100000 "$TEST_DIR/crit-base.log" >"$TEST_DIR/pred-lat.json"
p=$(field "$TEST_DIR/pred-lat.json" elapsed_ns last) m=$(field "$TEST_DIR/crit-lat.json" elapsed_ns)
check "latency +100 us: predicted $p ns, measured $m ns (within 1%)" within 10 "$p" "$m"
"$DPM" critical --json --wait 4.0=-2000000 "$TEST_DIR/crit-base.log" >"$TEST_DIR/pred-disk.json"
p=$(field "$TEST_DIR/pred-disk.json" elapsed_ns last) m=$(field "$TEST_DIR/crit-disk.json" elapsed_ns)
check "disk 2 ms faster: predicted $p ns, measured $m ns (within 0.5%)" within 5 "$p" "$m"

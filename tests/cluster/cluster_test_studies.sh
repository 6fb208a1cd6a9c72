#!/usr/bin/env bash
# tests/cluster/cluster_test_studies.sh - `make demo`, `make study-fs` and
# `make study-tsp` (qemu/scripts/demo.sh, qemu/scripts/study_*.sh, docs/studies.md) end to
# end at small sizes:
#  - the demo runs the file system with its users and TSP metered through
#    control scripts, analyses both and writes the report with every
#    section and the raw logs, and leaves no cluster behind;
#  - the fs study runs configurations A (1 and 2 users), B and C, names
#    the servers by their thesis names, and its report has the users
#    curve, the completion table and the 3x3 predictions;
#  - the demo and the fs study run in virtual time, each log with its own
#    delivery-time table; the TSP study runs with STUDY_CLOCK=icount, the
#    older clock, in a directory of its own, and measures its table;
#  - the TSP study names the controller and its servers from the trace,
#    and its tables have every case; a second run of a study runs nothing
#    again (it resumes), and a run left half-done is run again.
. "$(dirname "$0")/cluster_lib.sh"

src=$(cd "$(dirname "$0")/../.." && pwd)
has() { grep -qF -- "$1" "$2"; }
no_qemu_under() { ! pgrep -f "qemu-system.*$1" >/dev/null; }

# ---- make demo ------------------------------------------------------------
demo=$TEST_DIR/demo
DEMO_USERS=3 DEMO_TSP="-n 9 -s 2" bash "$src/qemu/scripts/demo.sh" "$DPM" "$demo" "$TEST_DIR/report" \
	>"$TEST_DIR/demo.out" 2>"$TEST_DIR/demo.err"
check "demo: exits 0" [ $? -eq 0 ]
check "demo: progress lines name each step" [ "$(grep -c '^demo: \[[1-8]/8\]' "$TEST_DIR/demo.err")" -eq 8 ]
check "demo: the three users verified their data, in both placements" \
	[ "$(cat "$demo/fs.out" "$demo/fsB.out" | grep -c 'fsuser.*verified')" -eq 6 ]
check "demo: tsp found its tour" grep -q '^  tour cost: ' "$TEST_DIR/demo.out"
check "demo: the summary gives P of the three runs" \
	[ "$(grep -c 'P upper bound [0-9.]*, measured [0-9.]*, with CPU contention [0-9.]*' "$TEST_DIR/demo.out")" -eq 3 ]
check "demo: ...and where the report is" has "the report:    $TEST_DIR/report/index.html" "$TEST_DIR/demo.out"
check "demo: the report has the file system's section" has 'id="fs"' "$TEST_DIR/report/index.html"
check "demo: ...and the TSP's" has 'id="tsp"' "$TEST_DIR/report/index.html"
check "demo: ...the causality of the file system's requests" has 'id="fs-strings"' "$TEST_DIR/report/index.html"
check "demo: ...its plots drawn" [ -s "$TEST_DIR/report/fs-p.svg" ]
check "demo: ...and links the raw logs, the file system's" has 'href="../demo/fs.log"' "$TEST_DIR/report/index.html"
check "demo: ...and the TSP's" has 'href="../demo/tsp.log"' "$TEST_DIR/report/index.html"
check "demo: ...without copying them" [ ! -e "$TEST_DIR/report/raw/fs.log" ]
check "demo: the servers are named in the names file" \
	[ "$(grep -cE '^[0-9]+\.[0-9]+ (RI|DM|BM|DI) server$' "$demo/fs.names")" -eq 4 ]
check "demo: ...and the 8 TSP servers" [ "$(grep -cE '^[0-9]+\.[0-9]+ s[1-8] server$' "$demo/tsp.names")" -eq 8 ]
check "demo: ...and its 3 users, as dpm record --porcelain reported them created" \
	[ "$(grep -cE '^[0-9]+\.[0-9]+ u[1-3] requestor$' "$demo/fs.names")" -eq 3 ]
sends=$("$DPM" dump --csv "$demo/fs.log" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["type"] == "SEND" { n++ } END { print n + 0 }')
check "demo: the file system's log holds its messages ($sends sends)" [ "$sends" -gt 100 ]
check "demo: no node left running" no_qemu_under "$demo"
check "demo: in virtual time (the default)" grep -q 'clock=virtual' "$demo/demo.cluster"
check "demo: ...each log's delivery times beside it, computed for its cluster" \
	[ "$(head -qn1 "$demo/fs.log.mtime" "$demo/tsp.log.mtime" | grep -cx "# clock=virtual")" -eq 2 ]
check "demo: ...which the analyses used, no placeholder" \
	[ "$(cat "$demo"/{fs,tsp}.parallel.txt | grep -c 'delivery times: .*log.mtime (recorded with the log, clock=virtual)')" -eq 2 ]

# make demo DEMO_ARCH=mixed: nodes 2 and 4 are ARM, so the disk, the BM and
# the DI are on an ARM node and the TSP's servers on both kinds.
DEMO_USERS=2 DEMO_TSP="-n 8 -s 1" bash "$src/qemu/scripts/demo.sh" "$DPM" "$TEST_DIR/mixed" "$TEST_DIR/mixed-report" mixed \
	>"$TEST_DIR/mixed.out" 2>"$TEST_DIR/mixed.err"
check "demo mixed: exits 0" [ $? -eq 0 ]
check "demo mixed: nodes 2 and 4 were ARM" \
	[ "$(awk '$1 == "node" && $4 == "arch=arm" { print $2 }' "$TEST_DIR/mixed/demo.cluster" | tr '\n' ' ')" = "n2 n4 " ]
check "demo mixed: both users verified their data" [ "$(grep -c 'fsuser.*verified' "$TEST_DIR/mixed/fs.out")" -eq 2 ]
check "demo mixed: the report was written" [ -s "$TEST_DIR/mixed-report/index.html" ]
check "demo mixed: no node left running" no_qemu_under "$TEST_DIR/mixed"

# ---- make study-fs ------------------------------------------------------------
fs=$TEST_DIR/study-fs
fs_study() { STUDY_FS_USERS=2 STUDY_REPEATS=1 bash "$src/qemu/scripts/study_fs.sh" "$DPM" "$fs"; }
fs_study >"$TEST_DIR/fs.out" 2>"$TEST_DIR/fs.err"
check "study-fs: exits 0" [ $? -eq 0 ]
check "study-fs: every run complete (A 1, 2, 4 users; B; C)" \
	[ "$(ls "$fs"/runs/{A-u1-r1,A-u2-r1,A-u4-r1,B-u4-r1,C-u4-r1}.done 2>/dev/null | wc -l)" -eq 5 ]
check "study-fs: configuration B put each server on its own node" \
	[ "$(awk '$3 == "server" { split($1, a, "."); print a[1] }' "$fs/runs/B-u4-r1.names" | sort -u | wc -l)" -eq 4 ]
check "study-fs: configuration C put all four on n1" \
	[ "$(awk '$3 == "server" { split($1, a, "."); print a[1] }' "$fs/runs/C-u4-r1.names" | sort -u)" = 1 ]
check_that "study-fs: in virtual time (the default), every run's delivery times are its own, computed for its cluster" \
	'[ "$(head -qn1 "$fs"/runs/*-r1.log.mtime | grep -cx "# clock=virtual")" -eq 5 ]'
check "study-fs: ...and nothing was measured instead" [ ! -e "$fs/mtime.csv" ]
check "study-fs: ...no analysis fell back to the placeholder" bash -c "! grep -q placeholder '$TEST_DIR/fs.err'"
check "study-fs: ...and measured completion is the job's span on the one clock" \
	[ "$(awk -F, 'NR > 1 && $7 == "one clock" { n++ } END { print n + 0 }' "$fs/report/study-fs-completion.csv")" -eq 3 ]
# The users' work does not depend on the run: seeds 101..104 with 4 users
# in A, B and C alike (repetitions use the same ones: docs/studies.md).
users_work() { awk '$1 == "add" && $4 == "fsuser" { print $3, $5, $NF }' "$fs/runs/$1.ctl"; }
check_that "study-fs: every run with 4 users has the users' seeds 101..104" \
	'[ "$(users_work A-u4-r1 | awk "{ print \$3 }" | tr "\n" " ")" = "101 102 103 104 " ] &&
	 [ "$(users_work A-u4-r1)" = "$(users_work B-u4-r1)" ] && [ "$(users_work A-u4-r1)" = "$(users_work C-u4-r1)" ]'
check "study-fs: the users curve has 1, 2 and 4 users" \
	[ "$(awk -F, 'NR > 1 { print $1 }' "$fs/report/study-fs-users.csv" | tr '\n' ' ')" = "1 2 4 " ]
check "study-fs: predicted and measured completion of A, B and C" \
	[ "$(awk -F, 'NR > 1 && $4 > 0 && $5 > 0 { n++ } END { print n + 0 }' "$fs/report/study-fs-completion.csv")" -eq 3 ]
check "study-fs: the 3x3 predictions (6 off the diagonal)" \
	[ "$(awk -F, 'NR > 1 && $1 != $3 && $6 > 0 { n++ } END { print n + 0 }' "$fs/report/study-fs-cross.csv")" -eq 6 ]
check "study-fs: the page has the study" has 'id="study-fs-users"' "$fs/report/index.html"
check "study-fs: no node left running" no_qemu_under "$fs"

# Resuming: nothing complete runs again; a run without its .done runs again.
before=$(stat -c %Y "$fs/runs/A-u1-r1.log")
rm "$fs/runs/C-u4-r1.done"
fs_study >"$TEST_DIR/fs2.out" 2>"$TEST_DIR/fs2.err"
check "study-fs: run again, it exits 0" [ $? -eq 0 ]
check "study-fs: ...a completed run is kept as it was" [ "$(stat -c %Y "$fs/runs/A-u1-r1.log")" = "$before" ]
check "study-fs: ...only one run is made again" [ "$(grep -c 'repetition' "$TEST_DIR/fs2.err")" -eq 1 ]
check "study-fs: ...configuration C's" grep -q 'configuration C (RI n1 DM n1 BM n1 DI n1), 4 users' "$TEST_DIR/fs2.err"
check "study-fs: ...and its run is complete again" [ -f "$fs/runs/C-u4-r1.done" ]

# ---- make study-tsp -----------------------------------------------------------
# in the icount clock (STUDY_CLOCK): the older clocks stay selectable, with
# a delivery-time table the study measures in that clock, and runs kept
# apart from the default clock's (OUT-icount), so neither resumes with
# the other's
tsp=$TEST_DIR/study-tsp-icount
STUDY_CLOCK=icount STUDY_TSP_SIZES=8 STUDY_TSP_VERSIONS_N=8 STUDY_REPEATS=2 STUDY_MTIME_COUNT=500 \
	bash "$src/qemu/scripts/study_tsp.sh" "$DPM" "$TEST_DIR/study-tsp" >"$TEST_DIR/tsp.out" 2>"$TEST_DIR/tsp.err"
check "study-tsp: exits 0" [ $? -eq 0 ]
check_that "study-tsp: STUDY_CLOCK=icount keeps its runs apart, in OUT-icount" \
	'[ ! -e "$TEST_DIR/study-tsp" ] && [ -d "$tsp/runs" ]'
check "study-tsp: ...and says where its report is" has "the report is $tsp/report/index.html" "$TEST_DIR/tsp.out"
check "study-tsp: STUDY_CLOCK=icount: its clusters in that clock" grep -q '^node n1 .*clock=icount' "$tsp/tsp.cluster"
check_that "study-tsp: ...and its delivery times measured in that clock" \
	'[ "$(head -1 "$tsp/mtime.csv")" = "size_bytes,local_ns,remote_ns" ] && [ "$(wc -l <"$tsp/mtime.csv")" -eq 6 ]'
check "study-tsp: ...which the report used, no placeholder" bash -c "! grep -q placeholder '$TEST_DIR/tsp.err'"
check "study-tsp: 12 runs (versions 1-3, p = 4 and 8, twice)" [ "$(ls "$tsp"/runs/*.done | wc -l)" -eq 12 ]
check "study-tsp: a run's names: the controller" [ "$(grep -c ' controller requestor$' "$tsp/runs/N8p8v1r1.names")" -eq 1 ]
check "study-tsp: ...and its 8 servers" [ "$(grep -cE ' s[1-8] server$' "$tsp/runs/N8p8v1r1.names")" -eq 8 ]
check "study-tsp: P of every run in the three configurations" \
	[ "$(awk -F, 'NR > 1 && $6 > 0 && $7 > 0 && $8 > 0 { n++ } END { print n + 0 }' "$tsp/report/study-tsp-runs.csv")" -eq 12 ]
check "study-tsp: the versions compared at N = 8" \
	[ "$(awk -F, 'NR > 1 { print $1 }' "$tsp/report/study-tsp-versions.csv" | sort -u | tr '\n' ' ')" = "1 2 3 " ]
check "study-tsp: the page has the P table" has 'id="study-tsp-grid"' "$tsp/report/index.html"
check "study-tsp: no node left running" no_qemu_under "$tsp"

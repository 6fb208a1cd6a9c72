#!/usr/bin/env bash
# tests/cluster/cluster_test_names.sh - a small recorded program named in
# every analysis with no extra file, and the command-line conventions that
# need a live cluster (docs/cli.md, docs/control.md):
#  - `dpm record -q` of tsp (a controller and 2 servers on 2 nodes): stderr
#    stays empty; LOG.names names every process by what its node's process
#    manager created it from (tsp, tspserver#1, tspserver#2; CTL_NAME);
#    `dpm stats` and `dpm parallel` show those names, `dpm causality LOG`
#    runs with no options;
#  - `dpm record` of a program the nodes lack: exit 126, no log; `-q`
#    booting its own cluster: stderr empty;
#  - `dpm control`: `filter f1 n2` refused for a service the cluster lacks
#    (exit 2, its filters named, nothing set); setflags names every unknown
#    word; a process that ended normally is `done` in `jobs`; a prompt
#    session exits with its last command's status.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir names)
expect_status 0 "names: up 2 nodes with the default filter" \
	"$DPM" cluster up --dir "$d" -n 2 >/dev/null
log=$TEST_DIR/run.log out=$TEST_DIR/out err=$TEST_DIR/err

expect_status 0 "names: dpm record -q of tsp on 2 servers" \
	timeout -k 10 120 "$DPM" record --dir "$d" -q -o "$log" -- tsp -v 1 -p 2 --nodes 1,2 -n 7 -s 1 \
	>"$out" 2>"$err"
check_that "names: record -q wrote nothing on stderr (got: $(head -c 300 "$err"))" '[ ! -s "$err" ]'
check "names: the program's output is on stdout" grep -q '^tour cost: ' "$out"
check "names: LOG.names names the program a requestor" \
	grep -qE '^1\.[0-9]+ tsp requestor$' "$log.names"
check "names: ...and its two servers, by their process managers, tspserver#1 and #2" \
	bash -c "grep -qE '^[12]\.[0-9]+ tspserver#1 server$' '$log.names' &&
		 grep -qE '^[12]\.[0-9]+ tspserver#2 server$' '$log.names'"

"$DPM" stats "$log" >"$out" 2>"$err"
check "names: dpm stats shows the program by name" grep -qE '^tsp ' "$out"
check "names: ...and its servers" grep -qE '^tspserver#2 ' "$out"
"$DPM" parallel "$log" >"$out" 2>"$err"
check "names: dpm parallel shows the program by name" grep -qw 'tsp' "$out"
expect_status 0 "names: dpm causality LOG runs with no options" "$DPM" causality "$log"
"$DPM" causality "$log" >"$out" 2>&1
check_that "names: its requests come from tsp into the servers ($(head -1 "$out"))" \
	'grep -qE "^trace .*: [1-9][0-9]* requests from requestors into servers" "$out"'

# ---- the controller on a live cluster ---------------------------------------------
printf '%s\n' 'filter f1 n2' 'filter' >"$TEST_DIR/bad.ctl"
expect_status 2 "names: control: filter for a service the cluster lacks is refused" \
	"$DPM" control --dir "$d" -f "$TEST_DIR/bad.ctl"
"$DPM" control --dir "$d" -f "$TEST_DIR/bad.ctl" >"$out" 2>"$err"
check "names: control: the refusal names the cluster's filters" \
	grep -qF "the cluster has no host service 'f1' (its filters: meter)" "$err"
check "names: control: and no filter was set" grep -qx 'no filters' "$out"
printf '%s\n' 'filter meter' 'newjob j' 'setflags j foo send receive accept' 'add j n1 hello' \
	'startjob j' 'wait j' 'jobs j' >"$TEST_DIR/done.ctl"
"$DPM" control --dir "$d" -f "$TEST_DIR/done.ctl" >"$out" 2>"$err"
check "names: control: setflags names every unknown word" \
	grep -qF "unknown events 'foo', 'accept': no flags set" "$err"
check "names: control: hello, ended normally, is done in jobs" grep -qE ' done +hello ' "$out"

# a prompt session (a terminal, through script(1)) exits with its last
# command's status, not a typo's long before (a script keeps its worst)
prompt() { printf '%s\n' "$@" | HOME=$TEST_DIR script -qec "'$DPM' control --dir '$d'" /dev/null >/dev/null 2>&1; }
expect_status 0 "names: control prompt: a typo, then a command that works: exit 0" \
	prompt frobnicate jobs
expect_status 2 "names: control prompt: a command that works, then a typo: exit 2" \
	prompt jobs frobnicate

# a program the running cluster refuses: no log, no side files
rm -f "$TEST_DIR/none.log"*
expect_status 126 "names: record of a program the nodes do not have exits 126" \
	"$DPM" record --dir "$d" -q -o "$TEST_DIR/none.log" -- nosuchprog
check_that "names: ...and leaves no log behind" '! ls "$TEST_DIR"/none.log* >/dev/null 2>&1'

expect_status 0 "names: down" "$DPM" cluster down --dir "$d" >/dev/null

# record -q booting (and stopping) its own cluster: still nothing on stderr
expect_status 0 "names: dpm record -q -n 1 boots a cluster, runs hello, stops it" \
	"$DPM" record --dir "$TEST_DIR/own" -q -n 1 -o "$TEST_DIR/hello.log" -- hello \
	>"$out" 2>"$err"
check_that "names: ...with nothing on stderr (got: $(head -c 300 "$err"))" '[ ! -s "$err" ]'
check "names: ...and hello named in hello.log.names" grep -qE '^1\.[0-9]+ hello requestor$' \
	"$TEST_DIR/hello.log.names"

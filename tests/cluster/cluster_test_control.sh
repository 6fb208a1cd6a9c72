#!/usr/bin/env bash
# tests/cluster/cluster_test_control.sh - `dpm control` and `dpm record`
# against real clusters (docs/control.md):
#  - the DPM paper's Appendix B session on two nodes: two processes that find
#    each other by name, metered, started, finished, the log fetched at
#    once and checked record by record with `dpm dump`;
#  - Fig. 4.2 on the nodes: refused transitions change nothing, stop really
#    stops, a removed stopped process is killed;
#  - acquire of a running server (a process manager): metered, never
#    stopped; setflags while a job runs takes effect;
#  - standard input from a host file and from the prompt's `input`; output
#    marked with its process; a faulting process reported;
#  - source nesting and sink; bad commands and arguments; a connection
#    without the cluster's secret is refused and logged; die warns once;
#  - `dpm record`: boots and stops its own cluster (--nodes, --cluster
#    FILE), exit status is the program's, standard input is its own,
#    --flags selects the events, Ctrl-C ends a script's wait for a process
#    it never started, and on a cluster that already ran another job its
#    log holds only its own job.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir control)
expect_status 0 "control: up 2 nodes with the default filter and the hub" \
	"$DPM" cluster up --dir "$d" -n 2 >/dev/null
out=$TEST_DIR/out err=$TEST_DIR/err

# ctl SCRIPT-TEXT: run the text as a control script; stdout in $out, stderr in $err.
ctl() {
	printf '%s\n' "$1" >"$TEST_DIR/script.ctl"
	"$DPM" control --dir "$d" -f "$TEST_DIR/script.ctl" >"$out" 2>"$err"
}
has() { grep -qF -- "$1" "$2"; }
csv() {
	"$DPM" dump --csv "$1" | awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ for (k in col) c[k] = $col[k] } '"$2"
}

# ---- Appendix B ---------------------------------------------------------------
expect_status 0 "appendix B: the session runs without a failed command" ctl "filter meter
newjob foo
addprocess foo n1 pp serve ping 40
addprocess foo n2 pp call ping 40 100
setflags foo send receive fork
startjob foo
wait foo 60
rmjob foo
getlog meter $TEST_DIR/trace
bye"
check "appendix B: both processes created with their identifiers" \
	grep -qx "process 'pp' was created: identifier = 1.5" "$out"
check "appendix B: ...the second named apart" grep -qx "process 'pp.2' was created: identifier = 2.5" "$out"
check "appendix B: flags set on both" \
	grep -qx "new job flags = SEND RECEIVE CREATEPROCESS" "$out"
check "appendix B: started" grep -qx "'pp.2' started." "$out"
check "appendix B: output marked with the process" grep -qx "pp: pp: served 40 calls as 'ping'" "$out"
check "appendix B: ...and the other's" grep -qx "pp.2: pp: 40 calls of 100 bytes to 'ping'" "$out"
check "appendix B: both ends reported" [ "$(grep -c "  DONE: process pp.* in job 'foo' terminated: reason: normal" "$out")" -eq 2 ]
check "appendix B: removed" grep -qx "'pp.2' removed" "$out"
sends=$(csv "$TEST_DIR/trace" 'c["type"] == "SEND" && c["src"] == "2.5" && c["dst"] == "1.5" && c["length"] == 100 { n++ } END { print n + 0 }')
check "appendix B: the log has all 40 calls of B to A (got $sends)" [ "$sends" -eq 40 ]
recvs=$(csv "$TEST_DIR/trace" 'c["type"] == "RECEIVE" && c["dst"] == "1.5" && c["src"] == "2.5" { n++ } END { print n + 0 }')
check "appendix B: ...and A received all 40 (got $recvs)" [ "$recvs" -eq 40 ]
replies=$(csv "$TEST_DIR/trace" 'c["type"] == "RECEIVE" && c["dst"] == "2.5" && c["src"] == "1.5" { n++ } END { print n + 0 }')
check "appendix B: ...and B all 40 replies, the last ones included (got $replies)" [ "$replies" -eq 40 ]
check "appendix B: only the flagged events" \
	[ -z "$(csv "$TEST_DIR/trace" 'c["type"] !~ /^(SEND|RECEIVE|CREATEPROCESS|MARK)$/ { print }')" ]

# ---- Fig. 4.2 on the nodes ---------------------------------------------------------
expect_status 1 "states: refused transitions make the script fail" ctl "filter meter
newjob j
add j n1 pp spin 60000
rmjob j
startjob j
startjob j
rmjob j
stopjob j
jobs j
stopjob j
rmjob j
jobs"
check "states: a new process is not removed" has "'pp' is new: stop the job first" "$err"
check "states: a running one is not started again" has "'pp' is already running" "$err"
check "states: ...nor removed" has "'pp' is running: stop the job first, or wait for it to end" "$err"
check "states: stopped, it is listed so" grep -qE '^  1\.[0-9]+ +stopped +pp +n1' "$out"
check "states: a stopped job is not stopped again" has "'pp' is already stopped" "$err"
check "states: the stopped process is removed (killed)" grep -qx "'pp' removed" "$out"
check "states: no job left" grep -qx "no jobs" "$out"

# stop really stops: 2 s of CPU, stopped at once, still there 3 s later
{
	echo "filter meter"; echo "newjob s"; echo "add s n2 pp spin 2000"; echo "startjob s"
	echo "stopjob s"; sleep 3; echo "jobs s"; echo "startjob s"; echo "wait s 30"; echo "rmjob s"
} | "$DPM" control --dir "$d" >"$out" 2>"$err"
check "stop: the stopped process did not finish meanwhile" grep -qE '^  2\.[0-9]+ +stopped +pp +n2' "$out"
check "stop: resumed, it finishes" grep -q "  DONE: process pp in job 's' terminated: reason: normal" "$out"
check "stop: commands from a pipe work like a script" [ ! -s "$err" ]

# ---- acquire, setflags while running ---------------------------------------------------
{
	echo "filter meter"; echo "newjob a"; echo "acquire a n2 1"; echo "setflags a send"
	echo "add a n1 pp call ping2 20000 8"; echo "add a n2 pp serve ping2 20000"; echo "setflags a -send"
	echo "startjob a"; sleep 1; echo "setflags a send receive"; echo "stopjob a"; echo "startjob a"
	echo "wait a 60"; echo "jobs a"; echo "rmjob a"; echo "getlog meter $TEST_DIR/acq"
} | "$DPM" control --dir "$d" >"$out" 2>"$err"
cp "$err" "$TEST_DIR/acquire.err"
check "acquire: the process manager of n2 acquired" grep -qx "process 'n2.1' was acquired: identifier = 2.1" "$out"
check "acquire: listed as acquired" grep -qE '^  2\.1 +acquired +n2\.1 +n2' "$out"
check "acquire: its traces are in the log" \
	[ "$(csv "$TEST_DIR/acq" 'c["task"] == "2.1" { n++ } END { print n + 0 }')" -gt 0 ]
check "acquire: stopjob passes it over (no error), and n2 still serves" [ ! -s "$err" ]
check "acquire: released by rmjob" grep -qx "'n2.1' removed" "$out"
late=$(csv "$TEST_DIR/acq" 'c["type"] == "RECEIVE" && c["src"] ~ /^[12]\./ && c["dst"] ~ /^[12]\./ && c["task"] != "2.1" { n++ } END { print n + 0 }')
check "setflags while running: RECEIVE traces appear once set ($late)" [ "$late" -gt 0 ]
check "setflags while running: ...but not all 40000 (some ran before)" [ "$late" -lt 40000 ]

# ---- standard input and output, faults -----------------------------------------------
printf 'first line\nsecond line\n' >"$TEST_DIR/input.txt"
expect_status 0 "stdio: a process reads a host file" ctl "filter meter
newjob io
add io n2 pp cat < $TEST_DIR/input.txt
add io n1 pp cat
add io n1 pp fault
startjob io
input io pp.2 typed at the prompt
input io pp.2 and more
endinput io pp.2
wait io 30"
check "stdio: the file's lines come back marked" grep -qx "pp: first line" "$out"
check "stdio: ...all of them" grep -qx "pp: second line" "$out"
check "stdio: ...and nothing else" grep -qx "pp: pp: 23 bytes" "$out"
check "stdio: typed input reaches the process" grep -qx "pp.2: typed at the prompt" "$out"
check "stdio: ...until endinput" grep -qx "pp.2: pp: 29 bytes" "$out"
check "stdio: a fault is reported as such" grep -qx "  DONE: process pp.3 in job 'io' terminated: reason: divide error" "$out"
check "stdio: the faulting process's last output came first" grep -qx "pp.3: pp: dividing by zero" "$out"

# ---- source, sink, bad input -------------------------------------------------------------
printf 'sink %s\nfilter meter\njobs\nsink\n' "$TEST_DIR/sunk" >"$TEST_DIR/inner.ctl"
printf 'source %s\nsource %s/loop.ctl\n' "$TEST_DIR/inner.ctl" "$TEST_DIR" >"$TEST_DIR/outer.ctl"
printf 'source %s/loop.ctl\n' "$TEST_DIR" >"$TEST_DIR/loop.ctl"
ctl "source $TEST_DIR/outer.ctl"
check "source: the sink got the nested script's output" grep -qx "no jobs" "$TEST_DIR/sunk"
check "source: a script that sources itself stops at depth 16" has "source nested more than 16 deep" "$err"
expect_status 2 "bad input: an unknown command is a usage error" ctl "frobnicate"
check "bad input: ...saying so with its line" has "script.ctl:1: unknown command 'frobnicate' (try 'help')" "$err"
expect_status 1 "bad input: an unknown machine fails" ctl "filter meter
newjob b
add b n9 pp cat"
check "bad input: ...naming the cluster's nodes" has "the cluster has no machine 'n9' (its nodes: n1 n2)" "$err"
expect_status 1 "bad input: an unknown program fails" ctl "filter meter
newjob b
add b n1 nosuch"
check "bad input: ...with the node's reason" has "no program of that name in the boot image (E_NOPROG)" "$err"
expect_status 2 "bad input: a filter the cluster lacks is refused at 'filter' (bad input)" ctl "filter nofilter
newjob b
add b n1 pp cat"
check "bad input: ...naming the cluster's filters" has "the cluster has no host service 'nofilter' (its filters: meter)" "$err"
expect_status 2 "bad input: dpm control with a stray argument" "$DPM" control --dir "$d" stray
printf 'filter meter\nnewjob w\nadd w n1 pp spin 3000\ndie\ndie\n' >"$TEST_DIR/die.ctl"
"$DPM" control --dir "$d" -f "$TEST_DIR/die.ctl" >"$out" 2>"$err"
check "die: warns once while a process is active" has "1 process is still active" "$err"
check "die: ...and leaves on the second" [ "$(grep -c 'still active' "$err")" -eq 1 ]

# ---- the secret ---------------------------------------------------------------------------
fake=$TEST_DIR/fake && mkdir -p "$fake" && cp "$d/state" "$fake/" && printf '%064d\n' 0 >"$fake/secret"
expect_status 1 "secret: a controller without it is refused" "$DPM" control --dir "$fake" -f "$TEST_DIR/inner.ctl" >/dev/null 2>"$err"
check "secret: ...told why" has "the control hub refused this controller" "$err"
check "secret: ...and the hub logged it" has "a controller without the cluster's secret" "$d/ctl.service.log"
check "secret: the file is the owner's alone" [ "$(stat -c %a "$d/secret")" = 600 ]

# ---- dpm record ---------------------------------------------------------------------------
"$DPM" record --dir "$d" -q -o "$TEST_DIR/earlier.log" -- pp call nobody 1 >/dev/null
r=$?
check "record: a failing program's status is record's (got $r)" [ "$r" -eq 1 ]
printf 'one\ntwo\nthree\n' | "$DPM" record --dir "$d" -q -o "$TEST_DIR/rec.log" --on n2 -- pp cat >"$out"
r=$?
check "record: the program's exit 0 is record's (got $r)" [ "$r" -eq 0 ]
check "record: ...its output as it printed it (unmarked)" grep -qx "three" "$out"
check "record: ...its standard input read whole (14 bytes)" grep -qx "pp: 14 bytes" "$out"
check "record: only its own job is in its log" \
	[ -z "$(csv "$TEST_DIR/rec.log" 'c["task"] ~ /^1\./ && c["type"] != "MARK" { print }')" ]
check "record: the process was metered before its first instruction (its first trace is its start)" \
	[ "$(csv "$TEST_DIR/rec.log" 'c["type"] != "MARK" && c["task"] ~ /^2\./ { print c["type"]; exit }')" = STARTPROCESS ]
check "record: ...which is complete (its end is there)" \
	[ "$(csv "$TEST_DIR/rec.log" 'c["type"] == "TERMPROCESS" && c["dst"] == c["task"] { n++ } END { print n + 0 }')" -eq 1 ]
# a program that passes links to the controller's agent over its stdio link
# (100, more than a link table holds) is still served: the agent drops them
timeout -k 5 60 "$DPM" record --dir "$d" -q -o "$TEST_DIR/links.log" --on n2 -- t_child stdio-links 100 </dev/null >"$out"
r=$?
check "record: a program passing 100 links to the agent exits 0 (got $r)" [ "$r" -eq 0 ]
check "record: ...and its output after them comes through" grep -q "t_child: passed 100 links to stdio, still printing" "$out"
# --flags: only the events named (the run above, with every event, also has
# STARTPROCESS and TERMPROCESS); pp cat's reads and writes are CALLs to ctld
printf 'one\ntwo\n' | "$DPM" record --dir "$d" -q -o "$TEST_DIR/flags.log" --on n2 --flags send,receive -- pp cat >"$out"
r=$?
check "record --flags send,receive: exit 0 (got $r)" [ "$r" -eq 0 ]
types=$(csv "$TEST_DIR/flags.log" '{ print c["type"] }' | sort -u | tr '\n' ' ')
check "record --flags send,receive: the log holds SEND, RECEIVE and the marks only ($types)" \
	[ "$types" = "MARK RECEIVE SEND " ]
# a script that never starts its process: record says why it waits, and
# Ctrl-C kills the new process, whose end (new -> killed) ends the wait
printf 'filter meter\nnewjob idle\nadd idle n1 pp serve idle 1\n' >"$TEST_DIR/idle.ctl"
"$DPM" record --dir "$d" -o "$TEST_DIR/idle.log" -f "$TEST_DIR/idle.ctl" >"$out" 2>"$err" &
rec=$!
told() { grep -q "waiting for 1 process that nothing will start (new or stopped); Ctrl-C kills it" "$err"; }
check "record -f: a process the script never starts: record says it waits for it" wait_until 30 told
kill -INT "$rec"
rec_gone() { ! kill -0 "$rec" 2>/dev/null; }
check "record -f: ...one Ctrl-C kills it and ends the wait" wait_until 30 rec_gone
rec_gone || kill -INT "$rec"
wait "$rec"
r=$?
check "record -f: ...exit 130 (got $r)" [ "$r" -eq 130 ]
check "record -f: ...its end reported (killed)" grep -q "DONE: process pp in job 'idle' terminated: reason: killed" "$out"
printf 'filter meter\nnewjob two\nadd two n1 pp serve pair 5\nadd two n2 pp call pair 5\nsetflags two all\nstartjob two\n' >"$TEST_DIR/two.ctl"
"$DPM" record --dir "$d" -q -o "$TEST_DIR/two.log" -f "$TEST_DIR/two.ctl" >"$out"
r=$?
check "record -f: the script's commands all succeed (exit $r)" [ "$r" -eq 0 ]
check "record -f: ...and its two processes run to their ends" [ "$(grep -c "DONE: .*reason: normal" "$out")" -eq 2 ]
check "record -f: both processes' traces are in its log" \
	[ "$(csv "$TEST_DIR/two.log" 'c["type"] == "TERMPROCESS" { n++ } END { print n + 0 }')" -eq 2 ]
"$DPM" record --dir "$d" -q -o "$TEST_DIR/fault.log" -- pp fault >/dev/null
r=$?
check "record: a divide fault gives 128+4 (got $r)" [ "$r" -eq 132 ]
# a TSPLIB instance on standard input (the thesis's workload as a user runs
# it), its optimum found here by trying every tour
cat >"$TEST_DIR/t7.tsp" <<'TSP'
NAME: t7
TYPE: TSP
DIMENSION: 7
EDGE_WEIGHT_TYPE: EXPLICIT
EDGE_WEIGHT_FORMAT: FULL_MATRIX
EDGE_WEIGHT_SECTION
0 12 29 22 13 24 31
12 0 19 3 25 6 17
29 19 0 21 23 28 9
22 3 21 0 4 5 26
13 25 23 4 0 16 11
24 6 28 5 16 0 14
31 17 9 26 11 14 0
EOF
TSP
best=$(awk 'NR > 6 && NF == 7 { for (j = 1; j <= 7; j++) w[NR - 7, j - 1] = $j }
	function walk(k, at, cost,   c) {
		if (k == 7) { cost += w[at, 0]; if (cost < best) best = cost; return }
		for (c = 1; c < 7; c++) if (!used[c]) { used[c] = 1; walk(k + 1, c, cost + w[at, c]); used[c] = 0 }
	}
	END { best = 1e9; walk(1, 0, 0); print best }' "$TEST_DIR/t7.tsp")
"$DPM" record --dir "$d" -q -o "$TEST_DIR/t7.log" -- tsp -v 2 -p 2 --nodes 1,2 -f - <"$TEST_DIR/t7.tsp" >"$out"
r=$?
check "record: tsp reads a TSPLIB instance from standard input (exit $r)" [ "$r" -eq 0 ]
check "record: ...and finds the optimum $best" grep -qx "tour cost: $best" "$out"
expect_status 2 "record: no log given is a usage error" "$DPM" record --dir "$d" -- pp cat
expect_status 126 "record: an unknown program cannot be created" "$DPM" record --dir "$d" -q -o "$TEST_DIR/x.log" -- nosuch
"$DPM" cluster down --dir "$d" >/dev/null

# ---- both workloads from one controller script, metered -------------------------------
fs=$(new_cluster_dir fs)
"$DPM" disk create "$TEST_DIR/fs.img" --size 4 --force >/dev/null
printf 'service meter start="{dpm} filter --port {port} -o {dir}/meter.log"\nnode n1\nnode n2 disk=%s\n' \
	"$TEST_DIR/fs.img" >"$TEST_DIR/fs.cluster"
expect_status 0 "workloads: up 2 nodes, a disk on n2" "$DPM" cluster up --dir "$fs" -f "$TEST_DIR/fs.cluster" >/dev/null
cat >"$TEST_DIR/work.ctl" <<CTL
filter meter
newjob fs
add fs n1 fsstart --ri 1 --dm 1 --bm 2 --di 2
setflags fs send receive
startjob fs
wait fs 60
newjob users
add users n1 fsuser seq /a 20000 1
add users n2 fsuser rand /b 20000 30 2
setflags users all
startjob users
wait users 120
newjob tsp
add tsp n2 tsp -v 3 -p 2 --nodes 1,2 -n 8 -s 11
setflags tsp send receive
startjob tsp
wait tsp 120
getlog meter $TEST_DIR/work.log
CTL
"$DPM" control --dir "$fs" --porcelain -f "$TEST_DIR/work.ctl" >"$out" 2>"$err"
check "workloads: the script ran without a failed command" [ ! -s "$err" ]
check "workloads: --porcelain reports every created process as created NAME ID MACHINE JOB" \
	[ "$(awk -F'\t' '$1 == "created" && NF == 5 && $3 ~ /^[12]\.[0-9]+$/ { print $2, $4, $5 }' "$out" | tr '\n' ,)" \
	= "fsstart n1 fs,fsuser n1 users,fsuser.2 n2 users,tsp n2 tsp," ]
check "workloads: ...and no report for people" bash -c "! grep -q ' was created: ' '$out'"
check "workloads: the file system came up, placed by the script" grep -q "^fsstart: fsstart: file system up: ri 1\.[0-9]* dm 1\.[0-9]* bm 2\.[0-9]* di 2\." "$out"
check "workloads: both test users verified their files" [ "$(grep -c "fsuser.*: .*verified" "$out")" -eq 2 ]
check "workloads: tsp found its tour" grep -q "^tsp: tour cost: " "$out"
tsp_id=$(awk -F'\t' '$1 == "created" && $2 == "tsp" { print $3 }' "$out")
tsp_sends=$(csv "$TEST_DIR/work.log" 'c["type"] == "SEND" && c["src"] == "'"$tsp_id"'" { n++ } END { print n + 0 }')
check "workloads: the tsp controller ($tsp_id) was traced: $tsp_sends sends" [ "$tsp_sends" -gt 10 ]
tsp_served=$(csv "$TEST_DIR/work.log" 'c["type"] == "RECEIVE" && c["src"] == "'"$tsp_id"'" && c["task"] != "'"$tsp_id"'" { n++ } END { print n + 0 }')
check "workloads: ...and its servers, its children, received its requests: $tsp_served" [ "$tsp_served" -gt 10 ]
servers=$(csv "$TEST_DIR/work.log" 'c["type"] == "SEND" && c["machine"] == 2 && c["dst"] ~ /^1\./ { n++ } END { print n + 0 }')
check "workloads: the servers, children of the metered fsstart, were traced ($servers sends n2 -> n1)" [ "$servers" -gt 10 ]
check "workloads: the users' data-area links traced (their job meters all events)" \
	[ "$(csv "$TEST_DIR/work.log" 'c["type"] == "CREATELINK" && c["length"] > 0 { n++ } END { print n + 0 }')" -gt 0 ]
"$DPM" cluster down --dir "$fs" >/dev/null

own=$(new_cluster_dir record)
"$DPM" record --dir "$own" -q --nodes 2 -o "$TEST_DIR/own.log" -- tsp -v 2 -p 2 --nodes 1,2 -n 8 -s 5 >"$out" 2>"$err"
r=$?
check "record: boots its own cluster, runs tsp, exit 0 (got $r)" [ "$r" -eq 0 ]
check "record: ...which finds its tour" grep -q "^tour cost: " "$out"
check "record: ...and stops that cluster again" [ ! -e "$own/state" ]
check "record: ...with both nodes' traces in the log" \
	[ "$(csv "$TEST_DIR/own.log" 'c["type"] == "MARK" { m[c["machine"]]++ } END { print length(m) }')" -eq 2 ]

# --cluster FILE: record boots that file's cluster (its nodes are named
# left and right) and stops it again
cf=$(new_cluster_dir record-file)
printf 'service meter start="{dpm} filter --port {port} -o {dir}/meter.log"\nnode left id=1\nnode right id=2\n' \
	>"$TEST_DIR/rec.cluster"
printf 'x\n' | "$DPM" record --dir "$cf" -q --porcelain --cluster "$TEST_DIR/rec.cluster" --on right \
	-o "$TEST_DIR/file.log" -- pp cat >"$out" 2>"$err"
r=$?
check "record --cluster FILE: runs on that cluster's node 'right', exit 0 (got $r)" [ "$r" -eq 0 ]
check "record --cluster FILE: ...the program read its input" grep -qx "pp: 2 bytes" "$out"
check "record --porcelain: the created process on stderr (created pp 2.N right record)" \
	[ "$(awk -F'\t' '$1 == "created" && $2 == "pp" && $3 ~ /^2\.[0-9]+$/ && $4 == "right" && $5 == "record"' "$err" | wc -l)" -eq 1 ]
check "record --cluster FILE: ...both nodes' marks in the log" \
	[ "$(csv "$TEST_DIR/file.log" 'c["type"] == "MARK" { m[c["machine"]]++ } END { print length(m) }')" -eq 2 ]
check "record --cluster FILE: ...the program's end traced on node 2" \
	[ "$(csv "$TEST_DIR/file.log" 'c["type"] == "TERMPROCESS" && c["machine"] == 2 { n++ } END { print n + 0 }')" -eq 1 ]
check "record --cluster FILE: ...and stops that cluster again" [ ! -e "$cf/state" ]

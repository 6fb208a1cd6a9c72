# tests/cluster/cluster_lib.sh - helpers sourced by every cluster_test_*.sh:
# TAP-like result lines, bounded waits, reading the state file, and a trap
# that stops every cluster a test started even when the test fails.
#
# The suite runner (cluster_suite.sh) exports DPM (the dpm binary),
# DPM_KERNEL (the kernel image) and TEST_DIR (a scratch directory for this
# script).  Each test script prints "ok N - what" / "not ok N - what".
set -u
: "${DPM:?}" "${DPM_KERNEL:?}" "${TEST_DIR:?}"
export DPM_KERNEL
unset DPM_CLUSTER_DIR
T_NUMBER=0
T_DIRS=()

# Result lines go to fd 3 (the script's stdout), so redirecting a checked
# command's output never swallows them.
exec 3>&1
ok()     { T_NUMBER=$((T_NUMBER + 1)); echo "ok $T_NUMBER - $*" >&3; }
not_ok() { T_NUMBER=$((T_NUMBER + 1)); echo "not ok $T_NUMBER - $*" >&3; }

# check WHAT COMMAND...: one result line from COMMAND's exit status.
check() {
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# check_that WHAT 'CONDITION': one result line from a shell CONDITION,
# evaluated whole, so a list such as '[ "$rc" -eq 0 ] && grep -q x "$f"'
# is one assertion (`check WHAT A && B` would hand check only A, and B
# could fail without a "not ok").  Single-quote CONDITION: its variables
# are expanded when it is evaluated.
check_that() {
	if eval "$2"; then ok "$1"; else not_ok "$1"; fi
}

# expect_status WANT WHAT COMMAND...: COMMAND must exit with WANT.
expect_status() {
	local want=$1 what=$2; shift 2
	"$@"; local got=$?
	if [ "$got" -eq "$want" ]; then ok "$what"; else not_ok "$what (exit $got, wanted $want)"; fi
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.1 s until it succeeds.
wait_until() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}

# qemu_wrapper < BODY: write TEST_DIR/bin/qemu-system-i386, a bash script
# running BODY with $real_qemu set to the real QEMU; put TEST_DIR/bin first
# on PATH for `up` to start nodes through it.
qemu_wrapper() {
	mkdir -p "$TEST_DIR/bin"
	{
		echo '#!/usr/bin/env bash'
		echo "real_qemu=$(command -v qemu-system-i386)"
		cat
	} >"$TEST_DIR/bin/qemu-system-i386"
	chmod +x "$TEST_DIR/bin/qemu-system-i386"
}

# A fresh state directory for one cluster, stopped by the trap at exit.
new_cluster_dir() {
	local d="$TEST_DIR/$1"
	rm -rf "$d" && mkdir -p "$d"
	T_DIRS+=("$d")
	echo "$d"
}

# relay_results CONSOLE COUNT WHAT [LINE_PREFIX]: a guest suite's "ok" and
# "not ok" lines in CONSOLE as this script's results (LINE_PREFIX before
# each), then one more result, "WHATall COUNT cases reported".
relay_results() {
	local console=$1 count=$2 what=$3 prefix=${4:-} line
	while read -r line; do
		case $line in
		"ok "*) ok "$prefix${line#ok * - }" ;;
		"not ok "*) not_ok "$prefix${line#not ok * - }" ;;
		esac
	done < <(grep -E '^(ok|not ok) ' "$console")
	check "${what}all $count cases reported" [ "$(grep -cE '^(ok|not ok) ' "$console")" -eq "$count" ]
}

# suite_ended DIR SUITE: guest SUITE, run by init on node n1 of the cluster
# in DIR, has ended (init said so, or the node has exited).
suite_ended() {
	grep -q "^init: $2 ended" "$1/n1.console" || [ "$(status_field "$1" n1 6)" = exited ]
}

# kill_when_asked DIR SUITE NODE ASK_SECONDS END_SECONDS: when guest SUITE
# on node n1 prints "KILL-NODE NODE" (within ASK_SECONDS), SIGKILL node
# nNODE's QEMU; then wait up to END_SECONDS for SUITE to end.
kill_when_asked() {
	local d=$1 suite=$2 node=$3
	if wait_until "$4" grep -q "^KILL-NODE $node" "$d/n1.console"; then
		kill -KILL "$(status_field "$d" "n$node" 5)"
	fi
	wait_until "$5" suite_ended "$d" "$suite"
}

# Pids of the cluster in DIR as `status --porcelain` lists them (the
# supervisor's and every process it started).
state_pids() {
	"$DPM" cluster status --dir "$1" --porcelain 2>/dev/null | awk -F'\t' '$5 != "-" { print $5 }'
}

# status_field DIR NAME COLUMN: a column of `status --porcelain` for NAME.
status_field() {
	"$DPM" cluster status --dir "$1" --porcelain 2>/dev/null | awk -F'\t' -v n="$2" -v c="$3" '$2 == n { print $c }'
}

# node_ended DIR NAME: NAME's QEMU has exited and its end is known: right
# after it exits, `status` shows it exited with status "?" until the
# supervisor has reaped it (docs/cluster.md), which a check of its status
# must not read.
node_ended() {
	local st
	st=$("$DPM" cluster status --dir "$1" --porcelain 2>/dev/null |
		awk -F'\t' -v n="$2" '$2 == n { print $6 "/" $7 }')
	[[ $st == exited/* && $st != "exited/?" ]]
}

# cluster_state DIR: the cluster's own state in `status --porcelain`: up,
# starting or gone (nothing when there is no cluster).
cluster_state() {
	"$DPM" cluster status --dir "$1" --porcelain 2>/dev/null | awk -F'\t' '$1 == "cluster" { print $6 }'
}

# Whether any of the pids still runs (zombies count as gone).
any_alive() {
	local p
	for p in "$@"; do
		case $(ps -o stat= -p "$p" 2>/dev/null) in
		'' | Z*) ;;
		*) return 0 ;;
		esac
	done
	return 1
}

# Nothing of the cluster in DIR runs, and no socket or state is left.
cluster_gone() {
	local d=$1; shift
	! any_alive "$@" && ! pgrep -f -- "$d/" >/dev/null &&
		[ -z "$(find "$d" -type s)" ] && [ ! -e "$d/state" ] && [ ! -e "$d/secret" ] &&
		[ ! -e "$d/switch" ]
}

# At exit: down every cluster the script made, then SIGKILL by pid whatever
# down could not stop (only pids the cluster's own state recorded).  The
# scripts call new_cluster_dir as d=$(new_cluster_dir ...), a subshell, so
# T_DIRS stays empty there: every directory under TEST_DIR with a cluster
# state is stopped as well.
cleanup_clusters() {
	local d p pids
	for d in "${T_DIRS[@]}" "$TEST_DIR"/*/; do
		d=${d%/}
		[ -e "$d/state" ] || continue
		pids=$(state_pids "$d")
		"$DPM" cluster down --dir "$d" >/dev/null 2>&1
		for p in $pids; do
			any_alive "$p" && kill -KILL "$p" 2>/dev/null
		done
	done
}
trap cleanup_clusters EXIT

# wait_log_settled FILE: until FILE has stopped growing (checked each
# second, for at most 40 s): the nodes ship what they traced in their own
# (host) time, after the job's node has ended.
wait_log_settled() {
	local size=-1 now i
	for i in $(seq 40); do
		now=$(stat -c %s "$1" 2>/dev/null || echo 0)
		[ "$now" = "$size" ] && return 0
		size=$now
		sleep 1
	done
}

# busy_host_start: two CPU-bound loops beside the test (each ends by itself
# after 300 s), their pids in BUSY_PIDS; busy_host_stop ends them.  For the
# tests whose results must not depend on the host's load.
busy_host_start() {
	local i
	BUSY_PIDS=()
	for i in 1 2; do
		timeout 300 sh -c 'while :; do :; done' &
		BUSY_PIDS+=($!)
	done
}
busy_host_stop() {
	local p
	for p in "${BUSY_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${BUSY_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	BUSY_PIDS=()
}

# vtime_keep_log DIR CSV: once node 1's metered job has ended in a
# virtual-time cluster, wait until DIR/meter.log stops growing (the other
# nodes ship what they traced up to node 1's end in their own host time),
# take the cluster down and write CSV: the log's `dpm dump --csv`, per node
# in order (each node's batches reach the filter over its own host link,
# so how they interleave in the log is the host's doing).
vtime_keep_log() {
	local d=$1
	wait_log_settled "$d/meter.log"
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$d/meter.log" | sort -t, -s -k1,1n >"$2"
}

# vtime_pair TAG RECORD ARGS...: record the pair TAG-quiet (RECORD TAG-quiet
# 0 ARGS...) and TAG-busy (RECORD TAG-busy 1 ARGS..., two CPU-bound loops
# beside it), each writing TEST_DIR/NAME.csv from a cluster in
# TEST_DIR/NAME.  A pair whose logs differ is recorded again: twice at
# most when a node said QEMU took its deadline interrupt late
# (kernel/vlate.h: QEMU 7.2's icount, not the kernel, docs/virtual-time.md
# §2.2), once when none did (the detector misses landings a few ns late:
# seen as a 3 ns difference on node 2 of the 2-node TSP pair in one of
# four loaded make checks).  A difference that comes back stands for the
# caller's comparison.
vtime_pair() {
	local tag=$1 rec=$2 attempt late f
	shift 2
	for attempt in 1 2 3; do
		"$rec" "$tag-quiet" 0 "$@"
		"$rec" "$tag-busy" 1 "$@"
		cmp -s "$TEST_DIR/$tag-quiet.csv" "$TEST_DIR/$tag-busy.csv" && return 0
		late=$(vtime_late_consoles "$tag-quiet"; vtime_late_consoles "$tag-busy")
		[ "$attempt" -lt 3 ] && { [ -n "$late" ] || [ "$attempt" = 1 ]; } || return 0
		echo "# $tag: the logs differ (QEMU's late deadline interrupts noticed:" \
			"$(echo ${late:-none} | tr '\n' ' ')); recorded again (this try kept in *.try$attempt)" >&3
		for f in "$tag-quiet" "$tag-busy" "$tag-quiet.csv" "$tag-busy.csv"; do
			rm -rf "$TEST_DIR/$f.try$attempt"
			mv "$TEST_DIR/$f" "$TEST_DIR/$f.try$attempt"
		done
	done
}

# A node's console line saying QEMU took its deadline interrupt late
# (kernel/vtime.c), from which that node's times depend on the host.
VTIME_LATE='^vtime: the deadline interrupt due at [0-9]* ns came .*late'

# vtime_same_log TAG: TEST_DIR/TAG-quiet.csv equals TEST_DIR/TAG-busy.csv
# (the logs of the runs in TEST_DIR/TAG-quiet and TAG-busy, each node's
# records in its own order), times and procTimes included.  Where a node of
# either run said QEMU took a deadline interrupt late (kernel/vlate.h), the
# times from that landing on depend on the host whatever the kernel does:
# the logs must then be equal up to the earliest such landing (every record
# of every node stamped before it; nothing from after it can reach another
# node earlier, the network's latency being more than 0), and a `#` line
# says how much of the log that covered.  A difference with no such notice
# fails, as before.
vtime_same_log() {
	vtime_same_csv "$TEST_DIR/$1-quiet.csv" "$TEST_DIR/$1-busy.csv" \
		"$TEST_DIR/$1-quiet"/n*.console "$TEST_DIR/$1-busy"/n*.console
}

# vtime_same_csv A.CSV B.CSV CONSOLE...: vtime_same_log's comparison of two
# logs, the consoles of both runs' nodes given.
vtime_same_csv() {
	local a=$1 b=$2 t
	shift 2
	cmp -s "$a" "$b" && return 0
	t=$(cat "$@" 2>/dev/null | grep "$VTIME_LATE" | sed 's/.* due at \([0-9]*\) ns .*/\1/' | sort -n | head -1)
	[ -n "$t" ] || return 1
	echo "# $(basename "$a" .csv): the logs differ after QEMU's first late deadline interrupt" \
		"(node time $t ns); compared before it: $(vtime_before "$t" "$a" | wc -l) of $(wc -l <"$a") lines" >&3
	cmp -s <(vtime_before "$t" "$a") <(vtime_before "$t" "$b")
}

# vtime_before T CSV: the header and the records of CSV stamped before T ns.
vtime_before() {
	awk -F, -v t="$1" 'NR == 1 || $3 + 0 < t + 0' "$2"
}

# vtime_late_consoles NAME: the consoles of NAME's nodes (TEST_DIR/NAME)
# that said QEMU took their deadline interrupt late (kernel/vlate.h): from
# there on that node's times depend on the host, whatever the kernel does.
vtime_late_consoles() {
	grep -l "$VTIME_LATE" "$TEST_DIR/$1"/n*.console 2>/dev/null
}

# vtime_check_log TAG CSV: the log is complete: no trace dropped, each
# node's sequence numbers without a gap.
vtime_check_log() {
	local q=$2
	check_that "$1: no trace dropped" '! grep -q ",DROPPED," "$q"'
	check_that "$1: each node's sequence numbers without a gap" \
		'awk -F, "\$1 != \"machine\" && \$5 != seq[\$1]++ { bad = 1 } END { exit bad }" "$q"'
}

# vtime_check_sync NAME DIR N: the N nodes of the cluster in DIR came up
# together (its last node saw N-1 peers up) and no frame broke its
# sender's promise.
vtime_check_sync() {
	local d=$2 n=$3
	check "$1: the nodes synchronised" grep -q "^vlink: $((n - 1)) peers up" "$d/n$n.console"
	check_that "$1: no frame broke its sender's promise" '! grep -q "^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
}

# fresh_disk IMG: a new, empty file-system test disk (4 MiB) at IMG.
fresh_disk() {
	"$DPM" disk create "$1" --size 4 --force >/dev/null
}

# fsload_cluster NAME [CLUSTER-STATEMENT]: TEST_DIR/NAME.cluster, four
# x86 nodes in virtual time with a fresh disk (TEST_DIR/NAME.img) on node 4
# and a filter, node 1's init running $WORK metered (`mrun filter all`).
fsload_cluster() {
	fresh_disk "$TEST_DIR/$1.img"
	{
		[ -n "${2:-}" ] && echo "$2"
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 clock=virtual init=\"--halt mrun filter all $WORK\""
		echo "node n2 id=2 clock=virtual"
		echo "node n3 id=3 clock=virtual"
		echo "node n4 id=4 clock=virtual disk=$TEST_DIR/$1.img"
	} >"$TEST_DIR/$1.cluster"
}

# vtime_run NAME BUSY DIR FILE WHAT: boot cluster FILE in DIR (with the
# busy host around it when BUSY is 1), wait for node 1 to power off and
# check that its job succeeded (init's status 65).
#
# A start that stalls (docs/virtual-time.md, "The stall, found": every
# node halted at a horizon right after "vlink: N peers up", seen about once
# in three loaded make checks before kernel/net/vlink.c sent a report lost
# to a booting peer again) is said in a `#` line and the run made once
# more from a fresh disk; a second stall fails as before.
vtime_run() {
	local name=$1 busy=$2 d=$3 try img
	n1_done() { node_ended "$d" n1; }
	for try in 1 2; do
		[ "$busy" = 1 ] && busy_host_start
		expect_status 0 "$name: up, $5" "$DPM" cluster up --dir "$d" -f "$4"
		# ~10 s on a quiet host; generous for a loaded one
		if [ "$try" = 1 ]; then
			wait_until 300 vtime_done_or_stalled "$d"
		else
			wait_until 300 n1_done
		fi
		[ "$busy" = 1 ] && busy_host_stop
		if [ "$try" = 1 ] && [ -f "$d/.stalled" ] && ! n1_done; then
			echo "# $name: the cluster stalled at its start (node 1 at \"$(tail -n 1 "$d/n1.console")\"," \
				"its nodes idle); made once more (the stalled run kept in $d.stalled)" >&3
			"$DPM" cluster down --dir "$d" >/dev/null 2>&1
			rm -rf "$d.stalled" && mv "$d" "$d.stalled" && mkdir -p "$d"
			img=$(grep -o 'disk=[^ "]*' "$4" | head -1 | cut -d= -f2)
			[ -n "$img" ] && fresh_disk "$img"
			continue
		fi
		break
	done
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
}

# vtime_done_or_stalled DIR: node 1 of the cluster in DIR has ended, or
# the cluster stalled at its start (vtime_stalled_at_start).
vtime_done_or_stalled() {
	node_ended "$1" n1 || vtime_stalled_at_start "$1"
}

# vtime_stalled_at_start DIR: node 1's console ends at "vlink: N peers up"
# and the cluster's QEMUs have used less than 5 % of a core for the last
# 30 s of host time (a running virtual-time cluster uses all it gets);
# then DIR/.stalled.  Remembers its last look in DIR/.stall-probe.
vtime_stalled_at_start() {
	local d=$1 f=$1/.stall-probe ticks=0 pid was at
	tail -n 1 "$d/n1.console" 2>/dev/null | grep -Eq '^vlink: [0-9]+ peers up' || { rm -f "$f"; return 1; }
	if [ -f "$f" ]; then
		read -r at was <"$f"
		[ $((SECONDS - at)) -ge 30 ] || return 1
	fi
	# a QEMU that exits between the test and the read leaves no number
	# (an empty one in the sum stopped the calling test with a syntax
	# error, reporting nothing): read once, add only a number
	local t
	for pid in $("$DPM" cluster status --dir "$d" --porcelain 2>/dev/null | awk -F'\t' '$1 == "node" { print $5 }'); do
		t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
		case $t in '' | *[!0-9]*) ;; *) ticks=$((ticks + t)) ;; esac
	done
	echo "$SECONDS $ticks" >"$f"
	[ -n "${was:-}" ] && [ $((ticks - was)) -lt 150 ] && touch "$d/.stalled"
}

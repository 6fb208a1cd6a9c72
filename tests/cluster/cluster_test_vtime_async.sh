#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_async.sh - asynchronous remote SEND with
# credits in virtual time (docs/remote.md, docs/virtual-time.md §2.5):
#  (a) many SENDs to a slow receiver on another node (servers/bench/stream)
#      all arrive, in order, none lost, and the sender waits for credits
#      (its SENDs take about as long as the receiver's work, not ~0); on
#      two x86 nodes and on an x86+ARM pair;
#  (b) a strictly sequential call/reply program across two nodes (stream
#      --call, its peer answering with REPLYRECEIVE), recorded with `dpm
#      record`, has a measured P of at most 1 and an upper-bound P of at
#      most 1 (issue 14 measured 1.38: each remote SEND was ~130 us of its
#      sender's CPU while it waited for the receiving kernel's answer).
#      A call that waits stamps its SEND when its sender has done its part
#      (meter_send_waits), so the sender's probes no longer run beside its
#      receiver's work; what still does, ~600 ns a side (the hand-over,
#      the reply-link bookkeeping, the switch away), makes the loop alone
#      1.17, and the whole run stays under 1 by its start, the partner's
#      creation, an external wait with no CPU (docs/virtual-time.md, Plan
#      step 8);
#  (c) the same run on a quiet and on a busy host gives the same
#      `dpm dump --csv` (two x86 nodes, and an x86+ARM pair);
#  (d) a SEND costs its sender the same CPU whether the receiver is on its
#      node or another, but for the local queueing (the transport is the
#      node's work, not PROCTIME);
#  (e) the guest suite t_remote's cases on two nodes in virtual time
#      (`t_remote async`: a SEND to an ended process returns 0 and the
#      CALL after it gets E_DEAD from the discarding kernel), and its
#      stress cases (24 processes' 4 KiB CALLs and MOVEDATA at once).
. "$(dirname "$0")/cluster_lib.sh"
N=300 SLOW=200 REMOTE_CREDIT=32   # REMOTE_CREDIT: kernel/capacities.h

# boot NAME LINES...: a cluster in virtual time with a filter, in its own dir
boot() {
	local name=$1
	shift
	d=$(new_cluster_dir "$name")
	{
		echo "service meter port=0 start=\"{dpm} filter --port {port} -o {dir}/meter.log\""
		printf '%s\n' "$@"
	} >"$TEST_DIR/$name.cluster"
	expect_status 0 "$name: up in virtual time" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
}
# exited, and its status known: between the QEMU's end and its supervisor
# reaping it, `status` shows it exited with status "?"
n1_done() { node_ended "$d" n1; }

# ---- (a) a stream to a slow receiver ----------------------------------------------
for arch in x86 arm; do
	boot "stream-$arch" "node n1 id=1 clock=virtual init=\"--halt stream 2 $N 100 $SLOW\"" \
		"node n2 id=2 arch=$arch clock=virtual"
	wait_until 200 n1_done
	line=$(grep -a "^stream node=1" "$d/n1.console")
	check "stream x86->$arch: every message arrived, in order ($line)" \
		[ "$(status_field "$d" n1 7)" = 65 ]
	check_that "stream x86->$arch: ...$N of them" 'echo "$line" | grep -q "received=$N in_order=1"'
	# the receiver needs N x SLOW us; a sender never made to wait would be
	# done in a few ms, one waiting for credits only REMOTE_CREDIT ahead of it
	send_ns=$(echo "$line" | sed -n 's/.*send_ns=\([0-9]*\).*/\1/p')
	check_that "stream x86->$arch: the sender waited for credits (sends took ${send_ns:-?} ns)" \
		'[ "${send_ns:-0}" -ge $(((N - 2 * REMOTE_CREDIT) * SLOW * 1000)) ]'
	check_that "stream x86->$arch: no credit broken, no frame late" \
		'! grep -qa "sent past its credit\|never given\|given back twice\|^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
	"$DPM" cluster down --dir "$d" >/dev/null
done

# ---- (b) a sequential call/reply program recorded: upper-bound P ---------------------
boot callreply "node n1 id=1 clock=virtual" "node n2 id=2 clock=virtual"
timeout -k 5 200 "$DPM" record --dir "$d" -q -o "$TEST_DIR/cr.log" -- stream --call 2 200 100 \
	>"$TEST_DIR/cr.out" 2>&1
check "call/reply: record exits 0" [ $? -eq 0 ]
"$DPM" cluster down --dir "$d" >/dev/null
"$DPM" parallel --all "$TEST_DIR/cr.log" >"$TEST_DIR/cr.par" 2>&1
P=$(awk '$1 == "upper-bound" { print $(NF - 1) }' "$TEST_DIR/cr.par")
PM=$(awk '$1 == "measured" && $2 ~ /^[0-9]/ { print $(NF - 1) }' "$TEST_DIR/cr.par")
# With SEND stamped where it was, at the start of the call's sending, the
# whole run gave 1.03-1.11 (the loop alone 1.32-1.45); charging the remote
# transport to the sender, issue 14's fault (~130 us a SEND), 1.38; check
# (d) below checks the SEND's CPU itself.
check_that "call/reply across nodes: upper-bound P ${P:-?} <= 1.00" \
	'[ -n "$P" ] && awk -v p="$P" "BEGIN { exit !(p <= 1.00) }"'
check_that "call/reply across nodes: measured P ${PM:-?} <= 1.00" \
	'[ -n "$PM" ] && awk -v p="$PM" "BEGIN { exit !(p <= 1.00) }"'
check_that "call/reply: both processes traced" 'grep -q "2 processes traced" "$TEST_DIR/cr.par"'

# ---- (c) the same, quiet host against busy host: identical traces ------------------
# started by init (a controller's commands are host inputs, not yet stamped:
# docs/virtual-time.md Plan step 4), metered by mrun
same() { # same NAME BUSY ARCH: node 2's machine ARCH
	boot "$1" "node n1 id=1 clock=virtual init=\"--halt mrun meter all stream --call 2 200 100\"" \
		"node n2 id=2 arch=$3 clock=virtual"
	[ "$2" = 1 ] && busy_host_start
	wait_until 200 n1_done
	[ "$2" = 1 ] && busy_host_stop
	check "$1: the program succeeded" [ "$(status_field "$d" n1 7)" = 65 ]
	local size=-1 now i
	for i in $(seq 40); do   # node 2 ships its traces in its own time
		now=$(stat -c %s "$d/meter.log" 2>/dev/null || echo 0)
		[ "$now" = "$size" ] && break
		size=$now
		sleep 1
	done
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$d/meter.log" | sort -t, -s -k1,1n >"$TEST_DIR/$1.csv"
}
for arch in x86 arm; do
	same "cr-$arch-quiet" 0 $arch
	same "cr-$arch-busy" 1 $arch
	q=$TEST_DIR/cr-$arch-quiet.csv
	check_that "call/reply x86->$arch: $(grep -c ,SEND, "$q") SENDs traced" '[ "$(grep -c ,SEND, "$q")" -ge 400 ]'
	check_that "call/reply x86->$arch: the busy host's log equals the quiet host's" \
		'vtime_same_log "cr-$arch"'
done

# ---- (e) t_remote in virtual time ---------------------------------------------
for suite in async stress; do
	boot "t_remote-$suite" "node n1 id=1 clock=virtual init=\"--halt t_remote $suite\"" \
		"node n2 id=2 clock=virtual"
	if [ $suite = async ]; then
		wait_until 200 n1_done
		relay_results "$d/n1.console" 7 "t_remote async: "
	else   # its last case kills node 2, which virtual time does not see yet
		wait_until 200 grep -q "^KILL-NODE 2" "$d/n1.console"
		check_that "t_remote stress: its two cases before the kill pass" \
			'[ "$(grep -c "^ok [12] - stress" "$d/n1.console")" = 2 ]'
	fi
	"$DPM" cluster down --dir "$d" >/dev/null
done

# ---- (d) a SEND's CPU, receiver local or remote -----------------------------------
# stream's sender traced (SENDs only; fewer than QUEUE_MAX, so the local
# receiver's queue never refuses one): the procTime between its successive
# SENDs once the receiver is busy
send_cpu() { # send_cpu NAME NODE
	boot "$1" "node n1 id=1 clock=virtual" "node n2 id=2 clock=virtual"
	timeout -k 5 200 "$DPM" record --dir "$d" -q --flags send -o "$TEST_DIR/$1.log" -- \
		stream "$2" 50 100 100 >"$TEST_DIR/$1.out" 2>&1
	check "$1: record exits 0" [ $? -eq 0 ]
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$TEST_DIR/$1.log" >"$TEST_DIR/$1.csv"
}
send_cpu cpu-local 0
send_cpu cpu-remote 2
# the stream's own SENDs (100 bytes): the commonest step of their procTime
steps() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["type"] == "SEND" && $c["length"] == 100 { if (n++) print $c["cpu_ns"] - last; last = $c["cpu_ns"] }' "$1" |
		sort | uniq -c | sort -rn | head -1 | awk '{ print $2 }'
}
loc=$(steps "$TEST_DIR/cpu-local.csv") rem=$(steps "$TEST_DIR/cpu-remote.csv")
# the local queueing is the receiver's CPU (ipc.c's enqueue) and the
# remote transport the node's (remote.c): what the sender pays differs by
# the two paths' own code only, a few tens of instructions either way
# (local was the dearer by its charge's bracket until the probes were
# tested once a call; remote is now by 4 ns).  The transport (~130 us
# before: issue 14) is not there.
check_that "a SEND's CPU: ${rem:-?} ns remote, ${loc:-?} ns local (within 100 ns either way)" \
	'[ -n "$loc" ] && [ -n "$rem" ] && [ $((loc - rem)) -le 100 ] && [ $((rem - loc)) -le 100 ]'

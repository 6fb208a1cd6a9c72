#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_loss.sh - loss and failure in virtual
# time (docs/virtual-time.md §2.8, kernel/net/vwatch.c): the stalled
# node's host-time watchdog.
#  - loss: a metered 2-node ping-pong in virtual time is recorded twice,
#    once with node 2's cluster card dropping one data segment it takes
#    while stalled (vdrop=);
#    both nodes stall on the lost frame with no virtual timer armed, so
#    only the watchdog's host time moves TCP's clock to send it again.
#    The run must end in bounded host time with `dpm dump --csv` equal to
#    the run without the drop (virtual time untouched by the loss).  Then
#    the same on an x86 node and an ARM one, the x86 node losing a segment
#    of the ARM node's, which the ARM node's watchdog (PL031) sends again.
#  - failure: node 2 killed mid-run while node 1 waits on it; node 1 must
#    declare it DOWN after its vdown= of host time (4 s here), not hang,
#    and its job must end.  The job is a call/reply loop (stream --call):
#    a remote SEND returns at once in virtual time (docs/remote.md), so a
#    ping-pong's RECEIVE would wait for ever for an answer from a dead
#    node, as in DEMOS/MP; a CALLer is told E_NODEDOWN.
. "$(dirname "$0")/cluster_lib.sh"
K=200
LIMIT=90 # host seconds for a ping-pong run, the lost frame included

# record NAME ARCH2 WORDS1 WORDS2: a metered ping-pong on an x86 node and
# an ARCH2 one, with kernel words WORDS1 and WORDS2; the CSV in
# TEST_DIR/NAME.csv, the host seconds node 1 took in TOOK.
record() {
	local name=$1 arch2=$2 words1=$3 words2=$4 d start
	d=$(new_cluster_dir "$name")
	{
		echo "service filter port=0 start=\"$DPM filter --port {port} -o {dir}/meter.log\""
		echo "node n1 id=1 clock=virtual kernel=\"$words1\" init=\"--halt mrun filter all pingpong 2 $K 1 100\""
		echo "node n2 id=2 arch=$arch2 clock=virtual kernel=\"$words2\""
	} >"$TEST_DIR/$name.cluster"
	start=$SECONDS
	expect_status 0 "$name: up, 2 nodes in virtual time" \
		"$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster"
	n1_done() { node_ended "$d" n1; }
	check "$name: node 1's job ended within $LIMIT s of host time" wait_until $LIMIT n1_done
	TOOK=$((SECONDS - start))
	check "$name: node 1's job succeeded (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	check_that "$name: no frame broke its sender's promise" '! grep -q "^vlink: .*\(breaks\|bad\|lost\)" "$d"/n*.console'
	wait_log_settled "$d/meter.log"
	cp "$d/n1.console" "$TEST_DIR/$name.n1.console"
	cp "$d/n2.console" "$TEST_DIR/$name.n2.console"
	"$DPM" cluster down --dir "$d" >/dev/null
	"$DPM" dump --csv "$d/meter.log" | sort -t, -s -k1,1n >"$TEST_DIR/$name.csv"
}

# DROP: the data segment the losing node loses (LOSS_SEGMENT to choose
# another).  The run without a drop gets a vdrop= never reached, of the
# same length: the kernel command line's length moves the boot's
# instruction count, so every later time (seen: 578 ns on an x86 node).
DROP=${LOSS_SEGMENT:-50}
NODROP=vdrop=99999999 WITHDROP=vdrop=$(printf %08d "$DROP")
# compare PLAIN DROP LOSER: DROP's log is complete and equals PLAIN's
compare() {
	local plain=$1 drop=$2 loser=$3
	check "$drop: node $loser dropped segment $DROP" \
		grep -q "^net: vdrop=$DROP: this data segment is dropped" "$TEST_DIR/$drop.n$loser.console"
	check_that "$drop: every ping-pong message traced" \
		'[ "$(awk -F, "\$2 == \"SEND\"" "$TEST_DIR/$drop.csv" | wc -l)" -ge $((4 * K)) ]'
	check_that "$drop: the log equals the run without the drop, times and procTimes included" \
		'vtime_same_csv "$TEST_DIR/$plain.csv" "$TEST_DIR/$drop.csv" "$TEST_DIR/$plain".n*.console "$TEST_DIR/$drop".n*.console'
}
IFS=' ' read -ra archs <<<"${LOSS_ARCHS-x86 arm}" # empty: the kill only
for a in "${archs[@]}"; do
	if [ "$a" = x86 ]; then
		record "$a-plain" "$a" "" "$NODROP"
		echo "# x86+$a without a drop: $TOOK s of host time" >&3
		record "$a-drop" "$a" "" "$WITHDROP"
		compare "$a-plain" "$a-drop" 2
	else # the ARM node's segment lost: its own watchdog sends it again
		record "$a-plain" "$a" "$NODROP" ""
		echo "# x86+$a without a drop: $TOOK s of host time" >&3
		record "$a-drop" "$a" "$WITHDROP" ""
		compare "$a-plain" "$a-drop" 1
	fi
	echo "# x86+$a with segment $DROP dropped: $TOOK s of host time" >&3
done

# --- failure: node 2 killed while node 1 waits on it
d=$(new_cluster_dir kill)
{
	echo "node n1 id=1 clock=virtual kernel=\"vdown=4000\" init=\"--halt stream --call 2 1000000 4\""
	echo "node n2 id=2 clock=virtual"
} >"$TEST_DIR/kill.cluster"
expect_status 0 "kill: up, 2 nodes in virtual time" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/kill.cluster"
synced() { grep -q "^vlink: 1 peers up" "$d/n1.console"; }
check "kill: the nodes synchronised" wait_until 60 synced
sleep 2
check "kill: node 1 still runs its call/reply loop" [ "$(status_field "$d" n1 6)" = running ]
kill -KILL "$(status_field "$d" n2 5)"
killed_at=$SECONDS
seen_down() { grep -q "^vlink: node 2 is down" "$d/n1.console"; }
check "kill: node 1 sees node 2 down within vdown (4 s) and 4 s more" wait_until 8 seen_down
echo "# node 2 seen down $((SECONDS - killed_at)) s after the kill" >&3
check "kill: by the watchdog's host-time silence" grep -q "^vwatch: node 2 silent for" "$d/n1.console"
check "kill: the remote IPC layer was told" grep -q "node 2 is down" "$d/n1.console"
n1_exited() { node_ended "$d" n1; }
check "kill: node 1 runs on and its job ends" wait_until 30 n1_exited
"$DPM" cluster down --dir "$d" >/dev/null

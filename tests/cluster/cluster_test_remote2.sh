#!/usr/bin/env bash
# tests/cluster/cluster_test_remote2.sh - links across nodes on the
# smallest cluster, two nodes, booted twice:
# - node 1 running `t_remote 2` (tests/guest/t_remote.c), which places on
#   node 2 what the 4-node run (cluster_test_remote.sh) spreads over nodes
#   2-4;
# - node 1 running `t_remote stress`, whose 24 helpers make concurrent
#   4 KiB CALLs and MOVEDATAs to node 2, with both nodes' send buffers to
#   their peer cut to 16 KiB (peerbuf=, a test's): every operation must
#   complete with the right bytes, no node may wedge while a sender waits
#   for room, and no answer may be lost.  With the 64 KiB buffer the
#   senders found room every time on a 2-core host, so the wait was never
#   taken; node 1 must say that a send waited.
# Each time, when the suite prints "KILL-NODE 2" this script kills node 2's
# QEMU; the suite checks that its senders (and MOVEDATA) get E_NODEDOWN and
# that node 1 runs on alone.  Each of the suite's result lines becomes one
# of ours.
. "$(dirname "$0")/cluster_lib.sh"

# two_nodes NAME CASES SUITE-ARGS...: one boot, node 1 running t_remote,
# both nodes with the kernel words in $WORDS.
two_nodes() {
	local name=$1 cases=$2 d
	shift 2
	d=$(new_cluster_dir "$name")
	printf 'node n1 id=1 kernel="%s" init="--halt t_remote %s"\nnode n2 id=2 kernel="%s"\n' \
		"${WORDS-}" "$*" "${WORDS-}" >"$TEST_DIR/$name.cluster"
	expect_status 0 "$name: up 2 nodes" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster" >/dev/null
	kill_when_asked "$d" t_remote 2 150 60
	relay_results "$d/n1.console" "$cases" "$name: "
	check "$name: node 1 powered off with success (65)" [ "$(status_field "$d" n1 7)" = 65 ]
	check "$name: node 2 was killed, not ended" [ "$(status_field "$d" n2 6)" != running ]
	check "$name: no answer or notice was lost" sh -c "! grep -q 'remote: .*lost' '$d/n1.console'"
	if [ -n "${WORDS-}" ]; then
		check "$name: a send waited for room in node 1's send buffer" \
			grep -q '^remote: a send to node 2 waits for room in its send buffer' "$d/n1.console"
	fi
	"$DPM" cluster down --dir "$d" >/dev/null
}

WORDS= two_nodes remote2 8 2
WORDS=peerbuf=16384 two_nodes stress 3 stress

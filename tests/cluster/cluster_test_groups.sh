#!/usr/bin/env bash
# tests/cluster/cluster_test_groups.sh - what the cluster's processes start
# in turn stops with them.  Each node's QEMU here is started by a wrapper
# (first on PATH) that does not exec it but runs it as a child, beside a
# stray `sleep`: `down` must leave neither behind (each member is stopped
# with its process group), nor must a wrapper whose QEMU failed, when `up`
# gives up (a member's group is told to end when the member ends).
. "$(dirname "$0")/cluster_lib.sh"

wrapper_dir="$TEST_DIR/bin"
marker="stray-$$-$RANDOM"
qemu_wrapper <<WRAPPER
# A child QEMU and a stray sleep (named $marker), no exec.
(exec -a $marker sleep 600) &
"\$real_qemu" "\$@"
WRAPPER
strays() { pgrep -f -- "^$marker" >/dev/null; }
qemus_of() { pgrep -f -- "$1/" >/dev/null; }
none_left() { ! strays && ! qemus_of "$1"; }
both_run() { strays && qemus_of "$1"; }

d=$(new_cluster_dir wrapped)
PATH="$wrapper_dir:$PATH" expect_status 0 "wrapped: up 2 nodes" "$DPM" cluster up --dir "$d" --nodes 2 >/dev/null
check "wrapped: the wrappers' QEMUs and strays run" both_run "$d"
expect_status 0 "wrapped: down succeeds" "$DPM" cluster down --dir "$d" >/dev/null
check "wrapped: no QEMU and no stray left within 5 s of down" wait_until 5 none_left "$d"

d=$(new_cluster_dir failed)
PATH="$wrapper_dir:$PATH" "$DPM" cluster up --dir "$d" --nodes 2 --kernel /dev/null >/dev/null 2>&1; rc=$?
check "failed: up with a kernel QEMU cannot load fails (exit $rc)" [ "$rc" -eq 1 ]
check "failed: ...and leaves no stray of the node that ended, within 5 s" wait_until 5 none_left "$d"
pkill -KILL -f -- "^$marker" 2>/dev/null
true

#!/usr/bin/env bash
# tests/cluster/cluster_test_failures.sh - nodes that end: one whose init
# runs `--halt hello` is reported exited (65); a node killed with SIGKILL
# is reported exited (SIGKILL) while the other runs on and down still
# cleans up; a crashed cluster's leftovers are cleaned by the next up.
. "$(dirname "$0")/cluster_lib.sh"

# --- a node that powers off through init
d=$(new_cluster_dir halt)
cat >"$TEST_DIR/halt.cluster" <<'CLUSTER'
node a init="--halt hello"
CLUSTER
expect_status 0 "halt: up" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/halt.cluster" >/dev/null
pids=$(state_pids "$d")
node_exited() { [ "$(status_field "$d" a 6)" = exited ]; }
check "halt: the node's QEMU exits within 60 s" wait_until 60 node_exited
check "halt: status reports exited with init's success status 65" [ "$(status_field "$d" a 7)" = 65 ]
check "halt: human status says 'exited (65)'" bash -c "'$DPM' cluster status --dir '$d' | grep -Eq '^a +1 +x86 +[0-9]+ +exited \(65\)'"
check "halt: hello ran on the node" grep -q "init: hello ended: normal, status 0" "$d/a.console"
check "halt: the cluster itself still runs (status exit 0)" "$DPM" cluster status --dir "$d" --porcelain >/dev/null
"$DPM" cluster down --dir "$d" >/dev/null
check "halt: down cleans up" cluster_gone "$d" $pids

# --- one of two nodes killed
d=$(new_cluster_dir kill)
expect_status 0 "kill: up 2 nodes" "$DPM" cluster up --dir "$d" --nodes 2 >/dev/null
pids=$(state_pids "$d")
victim=$(status_field "$d" n2 5)
kill -KILL "$victim"
n2_killed() { [ "$(status_field "$d" n2 6)" = exited ] && [ "$(status_field "$d" n2 7)" = SIGKILL ]; }
check "kill: status shows the killed node exited by SIGKILL" wait_until 10 n2_killed
sleep 1
check "kill: the other node runs on" [ "$(status_field "$d" n1 6)" = running ]
check "kill: the switch runs on" [ "$(status_field "$d" switch 6)" = running ]
expect_status 0 "kill: down succeeds" "$DPM" cluster down --dir "$d" >/dev/null
check "kill: nothing left" cluster_gone "$d" $pids

# --- a crashed cluster: supervisor and all killed, state left behind
d=$(new_cluster_dir crash)
expect_status 0 "crash: up" "$DPM" cluster up --dir "$d" --nodes 1 >/dev/null
pids=$(state_pids "$d")
kill -KILL $pids
gone() { ! any_alive $pids; }
check "crash: everything is dead" wait_until 10 gone
check "crash: status exits 1 when the supervisor is gone" \
	bash -c "! '$DPM' cluster status --dir '$d' >/dev/null 2>&1"
msg=$("$DPM" cluster up --dir "$d" --nodes 1 2>&1 >/dev/null); rc=$?
check "crash: the next up succeeds (exit $rc)" [ "$rc" -eq 0 ]
check "crash: ...saying it removed the leftovers" grep -q "removing the leftovers of a cluster that did not stop cleanly" <<<"$msg"
pids=$(state_pids "$d")
"$DPM" cluster down --dir "$d" >/dev/null
check "crash: down after it cleans up" cluster_gone "$d" $pids

# --- a node whose QEMU cannot start: up fails, says why, leaves nothing
d=$(new_cluster_dir badkernel)
printf 'not a kernel\n' >"$TEST_DIR/bad.elf"
msg=$("$DPM" cluster up --dir "$d" --nodes 2 --kernel "$TEST_DIR/bad.elf" 2>&1); rc=$?
check "bad kernel: up fails with exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "bad kernel: ...showing QEMU's own message" grep -q "QEMU's messages" <<<"$msg"
check "bad kernel: nothing left" cluster_gone "$d"

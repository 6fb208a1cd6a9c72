#!/usr/bin/env bash
# tests/cluster/cluster_test_signals.sh - `dpm cluster run` (exit status of
# the command, DPM_CLUSTER_DIR, cleanup) and interruptions: SIGINT to run
# while the command runs, SIGTERM to up while nodes boot, SIGKILL to up
# itself.  Nothing may be left running in any case.
. "$(dirname "$0")/cluster_lib.sh"

# --- run: the command's status, with the cluster up meanwhile
d=$(new_cluster_dir run)
out=$("$DPM" cluster run --dir "$d" --nodes 2 -- \
	sh -c '"$0" cluster status --porcelain | grep -c "^node.*running"; echo "dir=$DPM_CLUSTER_DIR"; exit 3' "$DPM"); rc=$?
check "run: exits with the command's status 3 (got $rc)" [ "$rc" -eq 3 ]
check "run: the command saw 2 running nodes in DPM_CLUSTER_DIR" [ "$out" = "2
dir=$d" ]
check "run: nothing left afterwards" cluster_gone "$d"
expect_status 127 "run: a command that does not exist gives 127, cluster stopped" \
	"$DPM" cluster run --dir "$d" --nodes 1 -- /nonexistent/cmd 2>/dev/null
check "run: ...and nothing left" cluster_gone "$d"

# --- SIGINT to run while its command runs
d=$(new_cluster_dir sigint)
"$DPM" cluster run --dir "$d" --nodes 2 -- sleep 120 &
runner=$!
ready() { [ "$(cluster_state "$d")" = up ]; }
check "sigint: the cluster comes up" wait_until 60 ready
pids=$(state_pids "$d")
sleeper=$(pgrep -P "$runner" -x sleep)
kill -INT "$runner"
wait "$runner"; rc=$?
check "sigint: run exits 130 (got $rc)" [ "$rc" -eq 130 ]
check "sigint: the command was stopped" bash -c "! kill -0 ${sleeper:-999999} 2>/dev/null"
check "sigint: nodes, switch and supervisor are gone" cluster_gone "$d" $pids

# --- SIGTERM to up while the nodes boot
d=$(new_cluster_dir sigterm)
"$DPM" cluster up --dir "$d" --nodes 4 >/dev/null 2>&1 &
up=$!
started() { [[ $(status_field "$d" n1 5) == [1-9]* ]]; }
check "sigterm: up starts nodes" wait_until 30 started
pids=$(state_pids "$d")
kill -TERM "$up"
wait "$up"; rc=$?
check "sigterm: up exits 143 (got $rc)" [ "$rc" -eq 143 ]
check "sigterm: what up had started is stopped" cluster_gone "$d" $pids

# --- SIGKILL to up itself: the supervisor notices and stops everything
d=$(new_cluster_dir sigkill)
"$DPM" cluster up --dir "$d" --nodes 2 --timeout 60 >/dev/null 2>&1 &
up=$!
switch_started() { [[ $(status_field "$d" switch 5) == [1-9]* ]]; }
check "sigkill: up starts the switch" wait_until 30 switch_started
pids=$(state_pids "$d")
kill -KILL "$up"
wait "$up" 2>/dev/null
gone() { cluster_gone "$d" $pids; }
check "sigkill: the supervisor stops what it started" wait_until 15 gone

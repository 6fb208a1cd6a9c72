#!/usr/bin/env bash
# tests/cluster/cluster_test_usage.sh - what users get wrong: bad cluster
# files (file:line:col, exit 2), bad options, commands without a cluster,
# unknown nodes; and --help on every subcommand.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir usage)
printf 'node a\nnode b id=1 memory=lots\n' >"$TEST_DIR/bad.cluster"
msg=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/bad.cluster" 2>&1); rc=$?
check "bad file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "bad file: file:line:col message" [ "$msg" = "dpm cluster: $TEST_DIR/bad.cluster:2:13: memory must be a number of MiB from 16 to 2048, not 'lots'" ]
check "bad file: nothing was started" [ ! -e "$d/state" ]
msg=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/missing.cluster" 2>&1); rc=$?
check "missing file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "missing file: ...with the reason" [ "$msg" = "dpm cluster: $TEST_DIR/missing.cluster: No such file or directory" ]
msg=$("$DPM" cluster up --dir "$d" --nodes 9 2>&1); rc=$?
check "--nodes 9: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--nodes 9: ...with the reason" [ "$msg" = "dpm cluster: --nodes must be a number from 1 to 8, not '9'" ]
msg=$("$DPM" cluster up --dir "$d" --kernel "$TEST_DIR/nokernel.elf" 2>&1); rc=$?
check "missing kernel: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "missing kernel: ...naming it" grep -q "kernel image $TEST_DIR/nokernel.elf: No such file" <<<"$msg"
expect_status 2 "unknown subcommand: exit 2" "$DPM" cluster frobnicate 2>/dev/null
expect_status 2 "up with a stray argument: exit 2" "$DPM" cluster up --dir "$d" extra 2>/dev/null
expect_status 2 "run without a command: exit 2" "$DPM" cluster run --dir "$d" 2>/dev/null

msg=$("$DPM" cluster status --dir "$d" 2>&1); rc=$?
check "status without a cluster: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "status without a cluster: ...saying how to start one" [ "$msg" = "dpm cluster: no cluster in $d (start one with 'dpm cluster up')" ]
expect_status 1 "console without a cluster or console file: exit 1" "$DPM" cluster console n1 --dir "$d" 2>/dev/null
out=$(DPM_CLUSTER_DIR="$d" "$DPM" cluster down); rc=$?
check_that "down honours DPM_CLUSTER_DIR and succeeds with nothing to stop" \
	'[ "$rc" -eq 0 ] && [ "$out" = "no cluster running in $d; nothing to stop" ]'

expect_status 0 "up 1 node for the console checks" "$DPM" cluster up --dir "$d" --nodes 1 >/dev/null
msg=$("$DPM" cluster console n7 --dir "$d" 2>&1); rc=$?
check "console of an unknown node: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "console of an unknown node: ...listing the nodes" [ "$msg" = "dpm cluster: no node 'n7' in the cluster in $d (nodes: n1)" ]
expect_status 2 "console -f with --input: exit 2" "$DPM" cluster console n1 -f --input --dir "$d" 2>/dev/null
# -f follows until the node stops: kill the node while following.
"$DPM" cluster console n1 -f --dir "$d" >"$TEST_DIR/follow.out" &
follower=$!
sleep 0.5
kill -KILL "$(status_field "$d" n1 5)"
following_ended() { ! kill -0 "$follower" 2>/dev/null; }
check "console -f ends by itself when the node stops" wait_until 10 following_ended
check "console -f printed the console" grep -q "DPM kernel: node 1," "$TEST_DIR/follow.out"
"$DPM" cluster down --dir "$d" >/dev/null

for sub in up run status console down; do
	check "'dpm cluster $sub --help' prints usage, exit 0" bash -c "'$DPM' cluster $sub --help | grep -q '^usage: dpm cluster $sub'"
done
check "'dpm cluster --help' lists the subcommands" bash -c "'$DPM' cluster --help | grep -q '^  console '"

# --input: connects to the node's serial socket and returns after stdin ends.
d=$(new_cluster_dir input)
"$DPM" cluster up --dir "$d" --nodes 1 >/dev/null
start=$SECONDS
printf '\n' | timeout 10 "$DPM" cluster console n1 --input --dir "$d" >/dev/null; rc=$?
check_that "console --input connects and ends after its input (exit $rc, $((SECONDS - start)) s)" \
	'[ "$rc" -eq 0 ] && [ $((SECONDS - start)) -le 5 ]'
"$DPM" cluster down --dir "$d" >/dev/null
expect_status 1 "console --input after down: no socket, exit 1" \
	"$DPM" cluster console n1 --input --dir "$d" </dev/null 2>/dev/null

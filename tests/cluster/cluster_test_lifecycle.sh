#!/usr/bin/env bash
# tests/cluster/cluster_test_lifecycle.sh - up with 1, 2 and 4 nodes: status
# lists them running, every console shows its banner, the secret is
# private, a second up is refused, down leaves no process, socket or state
# behind, and a second down is a harmless no-op.
. "$(dirname "$0")/cluster_lib.sh"

for n in 1 2 4; do
	d=$(new_cluster_dir "n$n")
	expect_status 0 "$n nodes: up" "$DPM" cluster up --dir "$d" --nodes "$n" >/dev/null
	pids=$(state_pids "$d")

	running=$("$DPM" cluster status --dir "$d" --porcelain | awk -F'\t' '$1 == "node" && $6 == "running"' | wc -l)
	check "$n nodes: status lists $n running nodes (saw $running)" [ "$running" -eq "$n" ]
	check "$n nodes: the switch runs" [ "$(status_field "$d" switch 6)" = running ]
	banners=0
	for i in $(seq 1 "$n"); do
		"$DPM" cluster console "n$i" --dir "$d" | grep -q "^DPM kernel: node $i," && banners=$((banners + 1))
	done
	check "$n nodes: every console shows its banner ($banners)" [ "$banners" -eq "$n" ]
	check "$n nodes: console by id is the same file" \
		cmp -s <("$DPM" cluster console 1 --dir "$d") "$d/n1.console"
	check "$n nodes: the secret is 64 hex digits, mode 600" \
		bash -c '[ "$(stat -c %a "$1")" = 600 ] && grep -Eqx "[0-9a-f]{64}" "$1"' _ "$d/secret"

	msg=$("$DPM" cluster up --dir "$d" --nodes "$n" 2>&1 >/dev/null); rc=$?
	check "$n nodes: a second up is refused with exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "$n nodes: ...saying a cluster is already running" \
		grep -q "a cluster is already running in $d (supervisor pid [0-9]*); stop it first" <<<"$msg"
	check_that "$n nodes: ...and the running cluster is untouched" \
		'[ "$(state_pids "$d")" = "$pids" ] && any_alive $pids'

	out=$("$DPM" cluster down --dir "$d"); rc=$?
	# the services: the default filter 'meter' and the control hub 'ctl'
	check_that "$n nodes: down succeeds and says what it stopped" \
		'[ "$rc" -eq 0 ] && [ "$out" = "stopped $n node$([ "$n" -gt 1 ] && echo s), 2 services and the switch in $d" ]'
	check "$n nodes: no process, socket, state or secret left" cluster_gone "$d" $pids
	check "$n nodes: consoles stay for reading after down" grep -q "DPM kernel: node 1," "$d/n1.console"
	out=$("$DPM" cluster down --dir "$d"); rc=$?
	check_that "$n nodes: a second down says nothing runs, exit 0" \
		'[ "$rc" -eq 0 ] && [ "$out" = "no cluster running in $d; nothing to stop" ]'
done

# A node booted on another host (boot=no) is a peer but not started here.
d=$(new_cluster_dir elsewhere)
printf 'node a\nnode far id=2 boot=no\n' >"$TEST_DIR/elsewhere.cluster"
out=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/elsewhere.cluster"); rc=$?
check_that "elsewhere: up boots only the local node (exit $rc)" '[ "$rc" -eq 0 ] && grep -q "^cluster up: 1 node (a) in $d" <<<"$out"'
check "elsewhere: status lists no node 'far'" [ -z "$(status_field "$d" far 2)" ]
check "elsewhere: the local node's peers include the remote one" \
	grep -q -- "-append node=1 peers=1,2 " <(tr '\0' ' ' <"/proc/$(status_field "$d" a 5)/cmdline")
"$DPM" cluster down --dir "$d" >/dev/null

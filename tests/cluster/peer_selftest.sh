#!/usr/bin/env bash
# tests/cluster/peer_selftest.sh OUTDIR KERNEL - the kernels' peer transport
# between QEMU nodes on a vde_switch (docs/network.md), four cases:
#   echo-2, echo-4  selftest=peer: numbered frames echoed in order by every
#                   peer, backpressure, round-trip time; every node powers
#                   off with the success status
#   kill-2, kill-4  selftest=peerkill: node 2 is killed once all are up;
#                   node 1 must declare it down and get E_NODEDOWN, and the
#                   other nodes must go on answering
#   restart         no self-test, the kernels' own log lines: node 2 is
#                   killed and started again, twice (once after node 1 has
#                   declared it down, once while node 1 still has it up);
#                   node 1 must see it down and up again each time
#   hostlink        selftest=hostlink: one node's host links through QEMU
#                   user networking to guestfwd commands (cat: an echo
#                   service; head -c 100: one that answers and closes)
# Everything runs on unix sockets in a private directory; every process
# started is killed on exit, and every wait is bounded.  Extra QEMU
# arguments can be given in PEER_QEMU_ARGS (e.g. "-icount shift=0,sleep=off"),
# extra kernel command-line words in PEER_KERNEL_ARGS (e.g. "peertimeout=60000").
# Node logs stay in OUTDIR/peer/.  Ends with "peer: N passed, N failed".
set -u
if [ $# -ne 2 ] || [ "$1" = --help ]; then
	echo "usage: peer_selftest.sh OUTDIR KERNEL" >&2
	exit 2
fi
out=$1 kernel=$2
[ -r "$kernel" ] || { echo "peer_selftest.sh: no kernel at $kernel" >&2; exit 2; }
mkdir -p "$out/peer"
work=$(mktemp -d /tmp/dpm-peer.XXXXXX)
declare -a qemu_pids=()
passed=0 failed=0
case_name=none   # each case gets a switch directory of its own

stop_all() {
	local p
	for p in "${qemu_pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	qemu_pids=()
	if [ -r "$work/sw.pid" ]; then kill "$(cat "$work/sw.pid")" 2>/dev/null; rm -f "$work/sw.pid"; fi
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

start_switch() {
	rm -f "$out/peer/$case_name"-n*.log   # a stale log would be read as this run's
	rm -rf "$work/sw-$case_name"
	vde_switch -sock "$work/sw-$case_name" -daemon -pidfile "$work/sw.pid" || return 1
	local i
	for i in $(seq 50); do [ -S "$work/sw-$case_name/ctl" ] && return 0; sleep 0.1; done
	return 1
}

# start_node N PEERS MODE CASE: one node in the background; its pid in qemu_pids[N].
start_node() {
	local n=$1 peers=$2 mode=$3 case=$4
	# shellcheck disable=SC2086
	qemu-system-i386 -kernel "$kernel" -append "node=$n peers=$peers ${mode:+selftest=$mode} ${PEER_KERNEL_ARGS:-}" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$out/peer/$case-n$n.log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-netdev vde,sock="$work/sw-$case_name",id=lan \
		-device virtio-net-pci,netdev=lan,mac=52:54:00:00:00:$(printf %02x "$n") \
		${PEER_QEMU_ARGS:-} </dev/null >"$work/qemu-n$n.err" 2>&1 &
	qemu_pids[$n]=$!
}

# wait_node N SECONDS: its exit status, or 124 after killing it at the deadline.
wait_node() {
	local pid=${qemu_pids[$1]} i
	for i in $(seq $(($2 * 10))); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; return $?; }
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	return 124
}

# wait_lines FILE TEXT COUNT SECONDS: 0 once FILE has COUNT lines containing TEXT.
wait_lines() {
	local i c
	for i in $(seq $(($4 * 10))); do
		c=$(grep -c -- "$2" "$1" 2>/dev/null)
		[ "${c:-0}" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
wait_line() { wait_lines "$1" "$2" 1 "$3"; }

result() {
	if [ "$1" -eq 0 ]; then
		echo "ok - peer: $2"; passed=$((passed + 1))
	else
		echo "not ok - peer: $2: $3"; failed=$((failed + 1))
	fi
}

show_node1() { grep '^peer selftest' "$out/peer/$1-n1.log" | sed 's/^/#   /'; }

# wait_plugged COUNT: until the switch has COUNT ports (one "PORT.FD"
# socket each in its directory), at most 10 s.  Nodes plug in one at a
# time, as `dpm cluster up` does them: vde_switch confuses ports that plugs
# ask for at once (docs/network.md).
wait_plugged() {
	local i
	for i in $(seq 100); do
		[ "$(ls -A "$work/sw-$case_name" | grep -cE '^[0-9]{3,}\.[0-9]+$')" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# start_case NAME NODES MODE: a fresh switch and NODES nodes, plugged in one
# at a time; 1 if no switch.
start_case() {
	local n peers; peers=$(seq -s, 1 "$2")
	case_name=$1
	start_switch || return 1
	for n in $(seq "$2"); do
		start_node "$n" "$peers" "$3" "$1"
		wait_plugged "$n" || echo "# peer: node $n did not plug into the switch within 10 s"
	done
}

# expect_success NAME NODES SKIP SECONDS: append to $bad every node but SKIP
# that does not power off with the success status (65) in time.
expect_success() {
	local n rc
	for n in $(seq "$2"); do
		[ "$n" -eq "$3" ] && continue
		wait_node "$n" "$4"; rc=$?
		[ "$rc" -eq 65 ] || bad="$bad node $n exited $rc (log $out/peer/$1-n$n.log);"
	done
}

case_echo() {
	local nodes=$1 name=echo-$1 bad=""
	start_case "$name" "$nodes" peer || { result 1 "$name" "vde_switch did not start"; return; }
	expect_success "$name" "$nodes" 0 90
	stop_all
	show_node1 "$name"
	result "${#bad}" "$name: $nodes nodes echo frames in order" "$bad"
}

case_kill() {
	local nodes=$1 name=kill-$1 bad="" t0 t1
	local log1="$out/peer/$name-n1.log"
	start_case "$name" "$nodes" peerkill || { result 1 "$name" "vde_switch did not start"; return; }
	if ! wait_line "$log1" "kill node 2 now" 60; then
		stop_all
		result 1 "$name" "node 1 never saw all peers up (log $log1)"
		return
	fi
	kill -KILL "${qemu_pids[2]}"; wait "${qemu_pids[2]}" 2>/dev/null
	t0=$(date +%s%N)
	wait_line "$log1" "node 2 down" 30 || bad="$bad node 1 never declared node 2 down;"
	t1=$(date +%s%N)
	echo "#   node 2 killed; node 1 declared it down $(( (t1 - t0) / 1000000 )) ms later (host time)"
	expect_success "$name" "$nodes" 2 60
	stop_all
	show_node1 "$name"
	result "${#bad}" "$name: node 2 killed, node 1 gets E_NODEDOWN, the others go on" "$bad"
}

case_restart() {
	local name=restart bad=""
	local log1="$out/peer/$name-n1.log"
	start_case "$name" 2 "" || { result 1 "$name" "vde_switch did not start"; return; }
	wait_line "$log1" "node 2 up" 30 || bad="$bad node 2 never came up;"
	kill -KILL "${qemu_pids[2]}"; wait "${qemu_pids[2]}" 2>/dev/null
	wait_line "$log1" "node 2 down: silent" 30 || bad="$bad the killed node 2 was not declared down;"
	start_node 2 1,2 "" "$name-again"
	wait_lines "$log1" "node 2 up" 2 30 || bad="$bad the restarted node 2 did not come up again;"
	kill -KILL "${qemu_pids[2]}"; wait "${qemu_pids[2]}" 2>/dev/null
	start_node 2 1,2 "" "$name-third"
	wait_line "$log1" "node 2 down: reset by the other side" 30 ||
		bad="$bad node 2 restarted while up was not declared down;"
	wait_lines "$log1" "node 2 up" 3 30 || bad="$bad node 2 restarted while up did not come up again;"
	stop_all
	grep '^peer: node 2' "$log1" | sed 's/^/#   /'
	result "${#bad}" "$name: a killed node that is started again comes back" "$bad"
}

case_hostlink() {
	local name=hostlink bad="" rc
	rm -f "$out/peer/$name-n3.log"
	qemu-system-i386 -kernel "$kernel" \
		-append "node=3 host=echo:7001,short:7002 selftest=hostlink ${PEER_KERNEL_ARGS:-}" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$out/peer/$name-n3.log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-netdev "user,id=host,restrict=on,guestfwd=tcp:10.0.2.100:7001-cmd:cat,guestfwd=tcp:10.0.2.100:7002-cmd:head -c 100" \
		-device virtio-net-pci,netdev=host,mac=52:54:00:00:01:03 \
		</dev/null >"$work/qemu-hostlink.err" 2>&1 &
	qemu_pids[3]=$!
	wait_node 3 60; rc=$?
	[ "$rc" -eq 65 ] || bad="node 3 exited $rc (log $out/peer/$name-n3.log)"
	stop_all
	grep '^hostlink selftest' "$out/peer/$name-n3.log" | sed 's/^/#   /'
	result "${#bad}" "$name: echo, backpressure and a closed link to host services" "$bad"
}

case_echo 2
case_echo 4
case_kill 2
case_kill 4
case_restart
case_hostlink

echo "$passed $failed" > "$out/peer.count"
echo "peer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

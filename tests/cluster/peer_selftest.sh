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
#                   user networking to services QEMU runs for each
#                   connection (cmd=; cat: an echo service; head -c 100:
#                   one that answers and closes)
# The clusters are booted and stopped by `dpm cluster up/down` from cluster
# files this script writes (DPM, else build/bin/dpm beside KERNEL's
# build/x86): the same nodes, switch and process-group cleanup as every
# other cluster.  The restart case runs node 2 in clusters of its own
# (node 1 `boot=no` there, docs/cluster.md "Spanning several hosts"), each
# joined to node 1's switch by a vde_plug, so that node 2 can be killed and
# booted again while node 1 runs on.  The hostlink case's services are
# cmd= services (docs/cluster.md): QEMU runs one per connection, so a
# service that closes its side closes the node's connection (a service
# that `dpm cluster` starts as a listener is dialled by QEMU once, when the
# node starts, and its close is not passed on to the guest).
# Every wait is bounded, and every cluster and plug is stopped on exit.
# Extra QEMU arguments can be given in PEER_QEMU_ARGS (e.g. "-icount
# shift=0,sleep=off"; a wrapper first on PATH adds them), extra kernel
# words in PEER_KERNEL_ARGS (e.g. "peertimeout=60000").  Each case's
# cluster directory (its consoles, nN.console) stays in OUTDIR/peer/CASE.
# Ends with "peer: N passed, N failed".
set -u
if [ $# -ne 2 ] || [ "$1" = --help ]; then
	echo "usage: [DPM=dpm] peer_selftest.sh OUTDIR KERNEL" >&2
	exit 2
fi
out=$1 kernel=$2
[ -r "$kernel" ] || { echo "peer_selftest.sh: no kernel at $kernel" >&2; exit 2; }
kernel=$(realpath "$kernel")
dpm=${DPM:-$(dirname "$kernel")/../bin/dpm}
[ -x "$dpm" ] || { echo "peer_selftest.sh: no dpm at $dpm (set DPM)" >&2; exit 2; }
mkdir -p "$out/peer"
base=$(realpath "$out/peer")
unset DPM_CLUSTER_DIR
declare -a dirs=() plugs=()
passed=0 failed=0

if [ -n "${PEER_QEMU_ARGS:-}" ]; then
	mkdir -p "$base/bin"
	printf '#!/usr/bin/env bash\n# PEER_QEMU_ARGS for every node\nexec %q "$@" %s\n' \
		"$(command -v qemu-system-i386)" "$PEER_QEMU_ARGS" >"$base/bin/qemu-system-i386"
	chmod +x "$base/bin/qemu-system-i386"
	PATH=$base/bin:$PATH
fi

# unplug: stop every vde_plug joining two switches.
unplug() {
	local p
	for p in "${plugs[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	plugs=()
}

# stop_all: unplug, then down every cluster this script booted (and, at
# exit, any other cluster left under OUTDIR/peer).
stop_all() {
	local d
	unplug
	for d in "${dirs[@]}" ${1:+"$base"/*/}; do
		[ -e "$d/state" ] && "$dpm" cluster down --dir "$d" >/dev/null 2>&1
	done
	dirs=()
}
trap 'stop_all everything' EXIT
trap 'exit 130' INT TERM

# node_line ID MODE [BOOT] [KERNEL-WORDS]: a cluster file's line for node nID.
node_line() {
	local words="${2:+selftest=$2} ${PEER_KERNEL_ARGS:-} ${4:-}"
	words=$(echo $words) # one blank between words, none around
	echo "node n$1 id=$1${3:+ boot=$3}${words:+ kernel=\"$words\"}"
}

# up NAME LINE...: boot a cluster of the nodes LINE... (node_line's) in
# OUTDIR/peer/NAME; its file is NAME.cluster beside it, up's output NAME.up.
up() {
	local d=$base/$1; shift
	rm -rf "$d" && mkdir -p "$d"
	printf '%s\n' "$@" >"$d.cluster"
	dirs+=("$d")
	"$dpm" cluster up --dir "$d" -f "$d.cluster" --kernel "$kernel" --no-services >"$d.up" 2>&1
}

# node_field NAME NODE COLUMN: a column of `dpm cluster status --porcelain`.
node_field() {
	"$dpm" cluster status --dir "$base/$1" --porcelain 2>/dev/null |
		awk -F'\t' -v n="$2" -v c="$3" '$1 == "node" && $2 == n { print $c }'
}

# node_end NAME NODE: the node's state and status from one reading, as
# STATE/STATUS (running/-, exited/65, ...).
node_end() {
	"$dpm" cluster status --dir "$base/$1" --porcelain 2>/dev/null |
		awk -F'\t' -v n="$2" '$1 == "node" && $2 == n { print $6 "/" $7 }'
}

# kill_node NAME NODE: SIGKILL to the node's QEMU, as a crash would.
kill_node() {
	local pid; pid=$(node_field "$1" "$2" 5)
	[[ $pid == [1-9]* ]] && kill -KILL "$pid"
}

# wait_node NAME NODE SECONDS: print its exit status once its QEMU has
# exited, or 124 after killing it at the deadline.  A QEMU that is gone
# but whose end the supervisor has not recorded yet shows as exited with
# status "?" for a moment: that is waited out too.
wait_node() {
	local i st=""
	for i in $(seq $(($3 * 10))); do
		st=$(node_end "$1" "$2")
		case $st in
		"exited/?") ;;
		exited/*) echo "${st#exited/}"; return ;;
		esac
		sleep 0.1
	done
	if [ "$st" = "exited/?" ]; then echo "?"; return; fi
	kill_node "$1" "$2"
	echo 124
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

show_node1() { grep '^peer selftest' "$base/$1/n1.console" | sed 's/^/#   /'; }

# start_case NAME NODES MODE: a cluster of NODES nodes running self-test
# MODE; `up` plugs them into the switch one at a time (docs/cluster.md).
start_case() {
	local n lines=()
	for n in $(seq "$2"); do lines+=("$(node_line "$n" "$3")"); done
	up "$1" "${lines[@]}"
}

# expect_success NAME NODES SKIP SECONDS: append to $bad every node but SKIP
# that does not power off with the success status (65) in time.
expect_success() {
	local n rc
	for n in $(seq "$2"); do
		[ "$n" -eq "$3" ] && continue
		rc=$(wait_node "$1" "n$n" "$4")
		[ "$rc" = 65 ] || bad="$bad node $n exited $rc (log $base/$1/n$n.console);"
	done
}

case_echo() {
	local nodes=$1 name=echo-$1 bad=""
	start_case "$name" "$nodes" peer || { stop_all; result 1 "$name" "the cluster did not come up ($base/$name.up)"; return; }
	expect_success "$name" "$nodes" 0 90
	stop_all
	show_node1 "$name"
	result "${#bad}" "$name: $nodes nodes echo frames in order" "$bad"
}

case_kill() {
	local nodes=$1 name=kill-$1 bad="" t0 t1
	local log1="$base/$name/n1.console"
	start_case "$name" "$nodes" peerkill || { stop_all; result 1 "$name" "the cluster did not come up ($base/$name.up)"; return; }
	if ! wait_line "$log1" "kill node 2 now" 60; then
		stop_all
		result 1 "$name" "node 1 never saw all peers up (log $log1)"
		return
	fi
	kill_node "$name" n2
	t0=$(date +%s%N)
	wait_line "$log1" "node 2 down" 30 || bad="$bad node 1 never declared node 2 down;"
	t1=$(date +%s%N)
	echo "#   node 2 killed; node 1 declared it down $(( (t1 - t0) / 1000000 )) ms later (host time)"
	expect_success "$name" "$nodes" 2 60
	stop_all
	show_node1 "$name"
	result "${#bad}" "$name: node 2 killed, node 1 gets E_NODEDOWN, the others go on" "$bad"
}

# node2_cluster NAME: node 2 alone in cluster NAME (node 1 boot=no), its
# switch joined to the restart case's by a vde_plug.
node2_cluster() {
	up "$1" "$(node_line 1 "" no)" "$(node_line 2 "")" || return 1
	vde_plug "vde://$base/restart/switch" "vde://$base/$1/switch" </dev/null >"$base/$1.plug" 2>&1 &
	plugs+=($!)
}

# restart: node 1 with a peertimeout of 8 s, so that node 2 booted again
# right after a kill (a cluster up and a plug: more than QEMU alone) finds
# node 1 still holding it up, whatever the host's load.
case_restart() {
	local name=restart bad=""
	local log1="$base/$name/n1.console"
	up "$name" "$(node_line 1 "" "" peertimeout=8000)" "$(node_line 2 "" no)" &&
		node2_cluster restart-2a || { stop_all; result 1 "$name" "the clusters did not come up ($base/$name*.up)"; return; }
	wait_line "$log1" "node 2 up" 30 || bad="$bad node 2 never came up;"
	kill_node restart-2a n2
	wait_line "$log1" "node 2 down: silent" 30 || bad="$bad the killed node 2 was not declared down;"
	node2_cluster restart-2b || bad="$bad node 2 could not be booted again ($base/restart-2b.up);"
	wait_lines "$log1" "node 2 up" 2 30 || bad="$bad the restarted node 2 did not come up again;"
	kill_node restart-2b n2
	node2_cluster restart-2c || bad="$bad node 2 could not be booted a third time ($base/restart-2c.up);"
	wait_line "$log1" "node 2 down: reset by the other side" 30 ||
		bad="$bad node 2 restarted while up was not declared down;"
	wait_lines "$log1" "node 2 up" 3 30 || bad="$bad node 2 restarted while up did not come up again;"
	stop_all
	grep '^peer: node 2' "$log1" | sed 's/^/#   /'
	result "${#bad}" "$name: a killed node that is started again comes back" "$bad"
}

case_hostlink() {
	local name=hostlink bad="" rc
	local d=$base/$name
	rm -rf "$d" && mkdir -p "$d"
	# the services are run by QEMU for each connection (cmd=): an echo, and
	# one that answers 100 bytes and closes
	{
		echo 'service echo port=7001 cmd="cat"'
		echo 'service short port=7002 cmd="head -c 100"'
		node_line 3 hostlink
	} >"$d.cluster"
	dirs+=("$d")
	"$dpm" cluster up --dir "$d" -f "$d.cluster" --kernel "$kernel" >"$d.up" 2>&1 ||
		bad="up failed ($d.up);"
	[ -z "$bad" ] && { rc=$(wait_node "$name" n3 60); [ "$rc" = 65 ] || bad="node 3 exited $rc (log $d/n3.console)"; }
	stop_all
	grep '^hostlink selftest' "$d/n3.console" | sed 's/^/#   /'
	result "${#bad}" "$name: echo, backpressure and a closed link to host services" "$bad"
}

case_echo 2
case_echo 4
case_kill 2
case_kill 4
case_restart
case_hostlink
stop_all everything
if pgrep -f -- "$base/" >/dev/null; then
	result 1 "cleanup: nothing left running" "$(pgrep -af -- "$base/" | head -3)"
else
	result 0 "cleanup: no node, switch or plug left running"
fi

echo "$passed $failed" > "$out/peer.count"
echo "peer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# servers/bench/bench-remote.sh DPM KERNEL OUTDIR KPROF - `make bench-remote`:
# where the instructions of a remote 1-byte message go, on both nodes.  A
# 2-node x86 cluster in virtual time (clock=virtual, the LAN preset, as
# docs/mtime.md measures the remote path) runs `kbench remote 2 N` on node
# 1: N 1-byte round trips (SENDMESSAGE, RECEIVEMESSAGE of the answer) with
# `kbench remote-peer` on node 2, bracketed on each node (kbench.c); then
# another such cluster runs `kbench remote-send 2 N`, the same messages one
# way, so that each node holds one side of a message alone.  Both
# QEMUs log every instruction (servers/bench/qemu-kprof.sh, through PATH)
# into a FIFO read by dpm-kprof (analysis/bench/kprof.h), which keeps only
# the node's region (-r): nothing of the log is stored.  Writes
#   OUTDIR/profile-remote-x86.txt  per round trip (and per message one
#                                  way), per function and per source file,
#                                  node 1 then node 2
#   OUTDIR/profile-remote/         the nm tables, consoles, cluster state
# PROFILE_ROUNDS=N sets N (200).  The cluster and the readers are stopped
# on exit, whatever happens.
set -eu
if [ $# -ne 4 ]; then
	echo "usage: bench-remote.sh DPM KERNEL OUTDIR KPROF" >&2
	exit 2
fi
dpm=$1 kernel=$2 out=$3 kprof=$4
rounds=${PROFILE_ROUNDS:-200}
work=$out/profile-remote state=$out/profile-remote/cluster
here=$(cd "$(dirname "$0")" && pwd)
readers=()
cleanup() {
	"$dpm" cluster down --dir "$state" >/dev/null 2>&1 || true
	for p in "${readers[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/bin"
rm -f "$work"/n?.log "$work"/*.txt "$work"/*.err

prog=$(dirname "$kernel")/prog
# (-l: each function's source file, so the profile is also summed by file)
nm -n -S -l --defined-only "$kernel" >"$work/kernel.nm"
nm -n -S -l --defined-only "$prog/kbench" >"$work/kbench.nm"
for f in pm ns init; do
	nm -n -S --defined-only "$prog/$f" >"$work/$f.nm"
done
filter=$("$kprof" --dfilter -k "$work/kernel.nm" -u "$work/kbench.nm" -s pit2_wait_below)
real=$(command -v qemu-system-i386)
ln -sf "$here/qemu-kprof.sh" "$work/bin/qemu-system-i386"

# run NAME MODE CLIENT_REGION PEER_REGION: one cluster, `kbench MODE 2 N`
# on node 1, each node's log read by dpm-kprof for its region into
# WORK/NAME-nN.txt
run() {
	local name=$1 mode=$2 n i rc
	local region=(- "$3" "$4")
	rm -f "$work"/n?.log
	readers=()
	for n in 1 2; do
		mkfifo "$work/n$n.log"
		"$kprof" -k "$work/kernel.nm" -u "$work/kbench.nm" -x "$work/pm.nm" -x "$work/ns.nm" \
			-x "$work/init.nm" -c "$state/n$n.console" -r "${region[n]}" "$work/n$n.log" \
			>"$work/$name-n$n.txt" 2>"$work/$name-n$n.err" &
		readers+=($!)
	done
	printf 'node n1 id=1 clock=virtual init="--halt kbench %s 2 %s"\nnode n2 id=2 clock=virtual\n' \
		"$mode" "$rounds" >"$work/$name.cluster"
	PATH=$work/bin:$PATH KPROF_QEMU=$real KPROF_DFILTER=$filter KPROF_LOGS=$work \
		"$dpm" cluster up --no-services --timeout 300 --dir "$state" -f "$work/$name.cluster" \
		--kernel "$kernel" >/dev/null
	# until node 1's program ends, or its log's reader does (its QEMU gone)
	for ((i = 0; i < 3000; i++)); do
		grep -q '^init: .* ended' "$state/n1.console" && break
		kill -0 "${readers[0]}" 2>/dev/null || break
		sleep 0.2
	done
	"$dpm" cluster down --dir "$state" >/dev/null
	cp "$state/n1.console" "$work/$name-n1.console"
	cp "$state/n2.console" "$work/$name-n2.console"
	if ! grep -q '^init: kbench ended: normal, status 0' "$work/$name-n1.console"; then
		echo "bench-remote: kbench $mode did not finish cleanly; see $work/$name-n1.console" >&2
		exit 1
	fi
	for n in 1 2; do
		rc=0
		wait "${readers[n - 1]}" || rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "bench-remote: dpm-kprof could not read node $n's profile of $name (status $rc):" >&2
			cat "$work/$name-n$n.err" >&2
			exit 1
		fi
	done
	readers=()
}

run pingpong remote remote_client remote_peer
run oneway remote-send remote_send remote_receive
{
	echo "A remote 1-byte message on a 2-node x86 cluster, clock=virtual (LAN preset), $rounds messages each"
	echo "(entries: the function's calls per iteration; by source file: the same instructions summed by file)"
	echo
	echo "#### 1. Ping-pong: kbench remote 2 $rounds; one iteration = one round trip, in which each node"
	echo "#### sends one 1-byte message and receives one (pingpong's round trip, docs/mtime.md)"
	grep '^kbench remote ' "$work/pingpong-n1.console" | sed 's/^/node 1 clock per round trip: /'
	echo
	echo "== node 1: the client (SENDMESSAGE of the request, RECEIVEMESSAGE of the answer)"
	cat "$work/pingpong-n1.txt"
	echo "== node 2: the peer (RECEIVEMESSAGE of the request, SENDMESSAGE of the answer)"
	cat "$work/pingpong-n2.txt"
	echo "#### 2. One way: kbench remote-send 2 $rounds; one iteration = one message, sent by node 1"
	echo "#### (SENDMESSAGE, asynchronous in virtual time) and received by node 2 (RECEIVEMESSAGE)"
	grep '^kbench remote-send ' "$work/oneway-n1.console" | sed 's/^/node 1 clock per message: /'
	echo
	echo "== node 1: the send side"
	cat "$work/oneway-n1.txt"
	echo "== node 2: the receive side"
	cat "$work/oneway-n2.txt"
} >"$out/profile-remote-x86.txt"
echo "bench-remote: per-function profile of a remote 1-byte round trip in $out/profile-remote-x86.txt"

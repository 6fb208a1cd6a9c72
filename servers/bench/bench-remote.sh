#!/usr/bin/env bash
# servers/bench/bench-remote.sh DPM KERNEL OUTDIR KPROF - `make bench-remote`:
# where the instructions of a remote 1-byte message go, on both nodes.  A
# 2-node x86 cluster in virtual time (clock=virtual, the LAN preset, as
# docs/mtime.md measures the remote path) runs `kbench remote 2 N` on node
# 1: N 1-byte round trips (SENDMESSAGE, RECEIVEMESSAGE of the answer) with
# `kbench remote-peer` on node 2, bracketed on each node (kbench.c).  Both
# QEMUs log every instruction (servers/bench/qemu-kprof.sh, through PATH)
# into a FIFO read by dpm-kprof (analysis/bench/kprof.h), which keeps only
# the node's region (-r): nothing of the log is stored.  Writes
#   OUTDIR/profile-remote-x86.txt  per round trip, per function and per
#                                  source file, node 1 then node 2
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
rm -f "$work"/n?.log "$work"/n?.txt "$work"/n?.err

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

region=(- remote_client remote_peer)
for n in 1 2; do
	mkfifo "$work/n$n.log"
	"$kprof" -k "$work/kernel.nm" -u "$work/kbench.nm" -x "$work/pm.nm" -x "$work/ns.nm" -x "$work/init.nm" \
		-c "$state/n$n.console" -r "${region[n]}" "$work/n$n.log" >"$work/n$n.txt" 2>"$work/n$n.err" &
	readers+=($!)
done

printf 'node n1 id=1 clock=virtual init="--halt kbench remote 2 %s"\nnode n2 id=2 clock=virtual\n' \
	"$rounds" >"$work/remote.cluster"
PATH=$work/bin:$PATH KPROF_QEMU=$real KPROF_DFILTER=$filter KPROF_LOGS=$work \
	"$dpm" cluster up --no-services --timeout 300 --dir "$state" -f "$work/remote.cluster" --kernel "$kernel" >/dev/null
for ((i = 0; i < 3000; i++)); do
	grep -q '^init: .* ended' "$state/n1.console" && break
	sleep 0.2
done
"$dpm" cluster down --dir "$state" >/dev/null
cp "$state/n1.console" "$state/n2.console" "$work/"
if ! grep -q '^init: kbench ended: normal, status 0' "$work/n1.console"; then
	echo "bench-remote: kbench remote did not finish cleanly; see $work/n1.console" >&2
	exit 1
fi
for n in 1 2; do
	rc=0
	wait "${readers[n - 1]}" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "bench-remote: dpm-kprof could not read node $n's profile (status $rc):" >&2
		cat "$work/n$n.err" >&2
		exit 1
	fi
done
readers=()
{
	echo "A remote 1-byte message: kbench remote 2 $rounds on a 2-node x86 cluster, clock=virtual (LAN preset)"
	echo "one iteration = one round trip: each node sends one 1-byte message and receives one"
	grep '^kbench remote ' "$work/n1.console" | sed 's/^/node 1 clock per round trip: /'
	echo
	echo "== node 1: the client (SENDMESSAGE of the request, RECEIVEMESSAGE of the answer)"
	cat "$work/n1.txt"
	echo "== node 2: the peer (RECEIVEMESSAGE of the request, SENDMESSAGE of the answer)"
	cat "$work/n2.txt"
} >"$out/profile-remote-x86.txt"
echo "bench-remote: per-function profile of a remote 1-byte round trip in $out/profile-remote-x86.txt"

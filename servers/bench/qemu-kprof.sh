#!/usr/bin/env sh
# servers/bench/qemu-kprof.sh - stands in for qemu-system-i386 (a link of
# that name in a directory put first in PATH, which `dpm cluster` searches,
# qemu/cluster/cluster_qemu.c) so that `make bench-remote`
# (servers/bench/bench-remote.sh) logs every instruction of chosen nodes
# without dpm knowing: when KPROF_LOGS/nN.log is a FIFO for the node whose
# -append holds node=N, the real QEMU (KPROF_QEMU) also gets
# `-singlestep -d exec,nochain -dfilter KPROF_DFILTER -D KPROF_LOGS/nN.log`
# (the FIFO's reader is dpm-kprof); any other node runs unchanged.
node=
prev=
for a in "$@"; do
	if [ "$prev" = -append ]; then
		node=$(printf '%s\n' "$a" | sed -n 's/^\(.* \)\{0,1\}node=\([0-9]*\).*/\2/p')
	fi
	prev=$a
done
log=$KPROF_LOGS/n$node.log
if [ -n "$node" ] && [ -p "$log" ]; then
	exec "$KPROF_QEMU" "$@" -singlestep -d exec,nochain -dfilter "$KPROF_DFILTER" -D "$log"
fi
exec "$KPROF_QEMU" "$@"

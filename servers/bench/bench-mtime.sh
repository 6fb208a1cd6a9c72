#!/usr/bin/env bash
# servers/bench/bench-mtime.sh DPM KERNEL OUTDIR - the message delivery-time
# table (docs/mtime.md, thesis Fig. 5.11) and MOVEDATA throughput, measured
# with pingpong and movebench (servers/bench) on a 2-node cluster that
# `dpm cluster` boots in plain emulation, as it boots every cluster:
#   local   pingpong's peer on node 1 with it
#   remote  pingpong's peer on node 2
# Each size runs MTIME_COUNT round trips (default 10000), in
# MTIME_LOCAL_REPEAT (default 6) and MTIME_REMOTE_REPEAT (default 3) runs
# interleaved over the sizes; the table keeps each size's fastest run (other
# load on the host only ever adds time; remote runs cost ten times more).
# Writes
#   OUTDIR/mtime.csv   size_bytes,local_ns,remote_ns (what dpm parallel reads)
#   OUTDIR/mtime.txt   the table beside the thesis's, ratios, MOVEDATA rates
#   OUTDIR/mtime-*.cluster, OUTDIR/mtime-*.console  what ran and what it said
# Every cluster is taken down on exit, whatever happens.
set -eu
if [ $# -ne 3 ] || [ "$1" = --help ]; then
	echo "usage: bench-mtime.sh DPM KERNEL OUTDIR" >&2
	exit 2
fi
dpm=$1 kernel=$2 out=$3
count=${MTIME_COUNT:-10000}
local_repeat=${MTIME_LOCAL_REPEAT:-6} remote_repeat=${MTIME_REMOTE_REPEAT:-3}
sizes="1 10 100 1000 4096"
move_count=10 move_size=1048576
mkdir -p "$out"
state="$out/mtime-cluster"
trap '"$dpm" cluster down --dir "$state" >/dev/null 2>&1; rmdir "$state" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

# run NAME INIT_WORDS: boot node 1 (running INIT_WORDS, then powering off)
# and an idle node 2, wait for node 1 to end, keep its console as
# OUTDIR/mtime-NAME.console; fails unless the program succeeded.
run() {
	local name=$1 words=$2 file="$out/mtime-$1.cluster" i
	printf 'node n1 id=1 init="--halt %s"\nnode n2 id=2\n' "$words" >"$file"
	"$dpm" cluster up --dir "$state" -f "$file" --kernel "$kernel" >/dev/null
	for ((i = 0; i < 6000; i++)); do
		grep -q '^init: .* ended' "$state/n1.console" && break
		sleep 0.1
	done
	cp "$state/n1.console" "$out/mtime-$name.console"
	"$dpm" cluster down --dir "$state" >/dev/null
	if ! grep -q '^init: .* ended: normal, status 0' "$out/mtime-$name.console"; then
		echo "bench-mtime: $name did not finish cleanly; see $out/mtime-$name.console" >&2
		exit 1
	fi
}

# fastest CONSOLE: "size delivery_ns" per size, the smallest of its runs.
fastest() {
	awk '$1 == "pingpong" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		s = f["size"]; d = f["delivery_ns"] + 0
		if (!(s in best) || d < best[s]) best[s] = d
	} END { for (s in best) print s, best[s] }' "$1" | sort -n
}

# moves WHO CONSOLE: one table line from a movebench line.
moves() {
	awk -v who="$1" '$1 == "movebench" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		printf "  %-7s read %8.2f ms (%7.2f MiB/s)   write %8.2f ms (%7.2f MiB/s)\n", who,
			f["read_ns"] / 1e6, f["read_kib_s"] / 1024, f["write_ns"] / 1e6, f["write_kib_s"] / 1024
	}' "$2"
}

# repeated N: the sizes N times over, as pingpong's arguments.
repeated() {
	local r
	for ((r = 0; r < $1; r++)); do printf '%s ' $sizes; done
}

run local "pingpong 0 $count $(repeated "$local_repeat")"
run remote "pingpong 2 $count $(repeated "$remote_repeat")"
run move-local "movebench 0 $move_count $move_size"
run move-remote "movebench 2 $move_count $move_size"

# The same local runs on one node under -icount shift=0,sleep=off, where
# the node clock counts guest instructions (as in bench-kernel's table).
qemu_rc=0
timeout 600 qemu-system-i386 -kernel "$kernel" -append "node=1 --halt pingpong 0 $count $sizes" \
	-m 64 -icount shift=0,sleep=off -display none -nodefaults -no-reboot \
	-serial "file:$out/mtime-instructions.console" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null || qemu_rc=$?
if [ "$qemu_rc" -ne 65 ]; then
	echo "bench-mtime: the instruction-count run failed (QEMU status $qemu_rc); see $out/mtime-instructions.console" >&2
	exit 1
fi

fastest "$out/mtime-local.console" >"$out/mtime-local.txt"
fastest "$out/mtime-remote.console" >"$out/mtime-remote.txt"
{
	echo "size_bytes,local_ns,remote_ns"
	awk 'NR == FNR { local[$1] = $2; next } $1 in local { print $1 "," local[$1] "," $2 }' \
		"$out/mtime-local.txt" "$out/mtime-remote.txt"
} >"$out/mtime.csv"
if [ "$(wc -l <"$out/mtime.csv")" -ne $(($(wc -w <<<"$sizes") + 1)) ]; then
	echo "bench-mtime: a size is missing from $out/mtime.csv" >&2
	exit 1
fi

{
	echo "Message delivery time (half a round trip), 2 x86 QEMU nodes in plain emulation on a vde_switch"
	echo "$count round trips per size and run, fastest of $local_repeat local and $remote_repeat remote runs;"
	echo "node clock of node 1 (in plain emulation: host time)"
	echo
	printf '%6s %12s %12s %7s   %-26s\n' size local_us remote_us ratio "thesis local/remote ms, ratio"
	awk -F, 'BEGIN { t[1] = "4.2 / 13, 3.1"; t[10] = "4.3 / 13, 3.0"; t[100] = "8.0 / 16, 2.0"; t[1000] = "12.8 / 35, 2.7" }
		NR > 1 { printf "%6d %12.1f %12.1f %7.1f   %s\n", $1, $2 / 1000, $3 / 1000, $3 / $2, ($1 in t) ? t[$1] : "-" }' \
		"$out/mtime.csv"
	printf '\nLocal delivery in guest instructions (one node, -icount shift=0,sleep=off):'
	fastest "$out/mtime-instructions.console" | awk '{ printf " %s B: %s;", $1, $2 } END { print "" }'
	echo
	echo "MOVEDATA of $move_size bytes, $move_count times each way (read: the peer's area into ours; write: back):"
	moves local "$out/mtime-move-local.console"
	moves remote "$out/mtime-move-remote.console"
} >"$out/mtime.txt.new"
mv "$out/mtime.txt.new" "$out/mtime.txt"
rm -f "$out/mtime-local.txt" "$out/mtime-remote.txt"
cat "$out/mtime.txt"

#!/usr/bin/env bash
# servers/bench/bench-kernel.sh KERNEL OUTDIR - run kbench on one x86 node
# under -icount shift=0,sleep=off (guest instructions, repeatable) and write
# the table to OUTDIR/kcalls.txt and OUTDIR/kcalls.csv (op,size,instructions).
set -eu
kernel=$1 out=$2
mkdir -p "$out"
log=$out/kbench.console
timeout 600 qemu-system-i386 -kernel "$kernel" -append "node=1 --halt kbench" -m 64 \
	-icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null || rc=$?
if [ "${rc:-0}" -ne 65 ]; then
	echo "bench-kernel: kbench did not finish cleanly (QEMU status ${rc:-0}); see $log" >&2
	exit 1
fi
{
	echo "op,size,instructions"
	awk '$1 == "kbench" { print $2 "," $3 "," $4 }' "$log"
} > "$out/kcalls.csv"
{
	echo "Kernel-call cost in guest instructions (x86, -icount shift=0,sleep=off)"
	printf '%-14s %6s %12s\n' op size instructions
	awk '$1 == "kbench" { printf "%-14s %6s %12s\n", $2, $3, $4 }' "$log"
} | tee "$out/kcalls.txt"

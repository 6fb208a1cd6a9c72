#!/usr/bin/env bash
# servers/bench/bench-kernel.sh KERNEL NOMETER_KERNEL OUTDIR - run kbench on
# one x86 node under -icount shift=0,sleep=off (guest instructions,
# repeatable), with the normal kernel (meter probes compiled in, off for
# kbench's own calls) and with the kernel built without probes, and write
#   OUTDIR/kcalls.csv  op,size,instructions,instructions_no_probes,overhead_pct
#   OUTDIR/kcalls.txt  the same as a table, plus the cost of a metered event
set -eu
kernel=$1 nometer=$2 out=$3
mkdir -p "$out"

# run KERNEL LOG: kbench on one node; fails unless init reports success
run() {
	local rc=0
	timeout 600 qemu-system-i386 -kernel "$1" -append "node=1 --halt kbench" -m 64 \
		-icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$2" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null || rc=$?
	if [ "$rc" -ne 65 ]; then
		echo "bench-kernel: kbench did not finish cleanly (QEMU status $rc); see $2" >&2
		exit 1
	fi
}
run "$kernel" "$out/kbench.console"
run "$nometer" "$out/kbench-noprobes.console"

awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-noprobes.console" > "$out/kbench-noprobes.txt"
{
	echo "op,size,instructions,instructions_no_probes,overhead_pct"
	awk 'NR == FNR { base[$1 " " $2] = $3; next }
	     $1 == "kbench" && ($2 " " $3) in base && $2 !~ /metered/ {
		b = base[$2 " " $3]; printf "%s,%s,%s,%s,%.2f\n", $2, $3, $4, b, b ? ($4 - b) * 100 / b : 0 }' \
		"$out/kbench-noprobes.txt" "$out/kbench.console"
} > "$out/kcalls.csv"
{
	echo "Kernel-call cost in guest instructions (x86, -icount shift=0,sleep=off)"
	echo "probes: meter compiled in, the calling process not metered; no probes: built with DPM_NO_METER"
	printf '%-16s %6s %12s %12s %9s\n' op size probes "no probes" overhead
	awk -F, 'NR > 1 { printf "%-16s %6s %12s %12s %8s%%\n", $1, $2, $3, $4, $5 }' "$out/kcalls.csv"
	echo
	echo "Metering (send+receive of 64 bytes to itself, all events traced, batches of 32 to a sink process):"
	awk '$1 == "kbench" && $2 ~ /metered|per-metered/ { printf "  %-22s %10s instructions\n", $2, $4 }' "$out/kbench.console"
} | tee "$out/kcalls.txt"

#!/usr/bin/env bash
# servers/bench/bench-kernel.sh KERNEL NOMETER_KERNEL ARM_KERNEL OUTDIR - run
# kbench on one node under -icount shift=0,sleep=off (guest instructions,
# repeatable): on x86 with the normal kernel (meter probes compiled in, off
# for kbench's own calls) and with the kernel built without probes, and on
# ARM; write
#   OUTDIR/kcalls.csv  op,size,instructions,instructions_no_probes,overhead_pct,arm_instructions
#   OUTDIR/kcalls.txt  the same as a table, plus the cost of a metered event
set -eu
kernel=$1 nometer=$2 arm=$3 out=$4
mkdir -p "$out"

# run ARCH KERNEL LOG: kbench on one node; fails unless init reports success
run() {
	local rc=0
	case $1 in
	x86) timeout 600 qemu-system-i386 -kernel "$2" -append "node=1 --halt kbench" -m 64 \
		-icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$3" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null || rc=$? ;;
	arm) timeout 600 qemu-system-arm -M virt -cpu cortex-a15 -kernel "$2" -append "node=1 --halt kbench" \
		-m 64 -icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$3" \
		-semihosting </dev/null || rc=$? ;;
	esac
	if [ "$rc" -ne 65 ]; then
		echo "bench-kernel: kbench did not finish cleanly on $1 (QEMU status $rc); see $3" >&2
		exit 1
	fi
}
run x86 "$kernel" "$out/kbench.console"
run x86 "$nometer" "$out/kbench-noprobes.console"
run arm "$arm" "$out/kbench-arm.console"

awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-noprobes.console" > "$out/kbench-noprobes.txt"
awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-arm.console" > "$out/kbench-arm.txt"
{
	echo "op,size,instructions,instructions_no_probes,overhead_pct,arm_instructions"
	awk 'FILENAME == ARGV[1] { base[$1 " " $2] = $3; next }
	     FILENAME == ARGV[2] { arm[$1 " " $2] = $3; next }
	     $1 == "kbench" && ($2 " " $3) in base && $2 !~ /metered/ {
		b = base[$2 " " $3]
		printf "%s,%s,%s,%s,%.2f,%s\n", $2, $3, $4, b, b ? ($4 - b) * 100 / b : 0, arm[$2 " " $3] }' \
		"$out/kbench-noprobes.txt" "$out/kbench-arm.txt" "$out/kbench.console"
} > "$out/kcalls.csv"
{
	echo "Kernel-call cost in guest instructions (x86, -icount shift=0,sleep=off)"
	echo "probes: meter compiled in, the calling process not metered; no probes: built with DPM_NO_METER"
	printf '%-16s %6s %12s %12s %9s %12s\n' op size "x86 probes" "no probes" overhead "ARM probes"
	awk -F, 'NR > 1 { printf "%-16s %6s %12s %12s %8s%% %12s\n", $1, $2, $3, $4, $5, $6 }' "$out/kcalls.csv"
	echo
	echo "Metering (send+receive of 64 bytes to itself, all events traced, batches of 32 to a sink process):"
	awk '$1 == "kbench" && $2 ~ /metered|per-metered/ { printf "  %-22s %10s instructions (x86)\n", $2, $4 }' "$out/kbench.console"
	awk '$1 == "kbench" && $2 ~ /metered|per-metered/ { printf "  %-22s %10s instructions (ARM)\n", $2, $4 }' "$out/kbench-arm.console"
} | tee "$out/kcalls.txt"

#!/usr/bin/env bash
# servers/bench/bench-kernel.sh KERNEL NOMETER_KERNEL ARM_KERNEL ARM_NOMETER_KERNEL OUTDIR KPROF -
# run kbench on one node under -icount shift=0,sleep=off (guest
# instructions, repeatable): on x86 with the normal kernel (meter probes
# compiled in, off for kbench's own calls) and with the kernel built without
# probes, and the same two on ARM; write
#   OUTDIR/kcalls.csv  op,size,instructions,instructions_no_probes,overhead_pct,arm_instructions,
#                      arm_instructions_no_probes,arm_overhead_pct
#   OUTDIR/kcalls.txt  the same as a table, plus the cost of a metered event
#                      and that cost taken apart: kbench again on the kernels
#                      whose message probes stop part way, cut1..cut3 beside
#                      each KERNEL (DIR/cutN/kernel.elf, meter/meter.c's
#                      DPM_METER_CUT)
# (op `call` is a CALL round trip to a server answering with SENDMESSAGE
# and RECEIVEMESSAGE, `call-rr` to one answering with REPLYRECEIVE)
# then run `kbench profile` on both machines with every executed instruction
# logged (-singlestep -d exec,nochain) and streamed through KPROF
# (dpm-kprof, analysis/bench/kprof.h), nothing of the log stored:
#   OUTDIR/profile-x86.txt, profile-arm.txt  instructions per function per
#                      iteration of the bracketed loops (docs/kernel-calls.md)
set -eu
kernel=$1 nometer=$2 arm=$3 armnometer=$4 out=$5 kprof=$6
profile_rounds=${PROFILE_ROUNDS:-200}
mkdir -p "$out"

# qemu ARCH KERNEL CONSOLE ARGS [QEMU OPTIONS...]: kbench ARGS on one node
qemu() {
	local arch=$1 k=$2 console=$3 args=$4
	shift 4
	case $arch in
	x86) timeout 900 qemu-system-i386 -kernel "$k" -append "node=1 --halt kbench $args" -m 64 \
		-icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$console" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" </dev/null ;;
	arm) timeout 900 qemu-system-arm -M virt -cpu cortex-a15 -kernel "$k" -append "node=1 --halt kbench $args" \
		-m 64 -icount shift=0,sleep=off -display none -nodefaults -no-reboot -serial "file:$console" \
		-semihosting "$@" </dev/null ;;
	esac
}

# finished ARCH STATUS CONSOLE: init reports success as QEMU status 65
finished() {
	if [ "$2" -ne 65 ]; then
		echo "bench-kernel: kbench did not finish cleanly on $1 (QEMU status $2); see $3" >&2
		exit 1
	fi
}

# run ARCH KERNEL CONSOLE: kbench on one node
run() {
	local rc=0
	qemu "$1" "$2" "$3" "" || rc=$?
	finished "$1" "$rc" "$3"
}

# profile ARCH KERNEL: the profile; the tables of the kernel, of kbench and
# of the other programs the node runs (whose code must end below kbench's
# markers) beside it.  x86's boot-time PIT busy-wait (91 million
# instructions) is left out of the log.
profile() {
	local arch=$1 k=$2 prog thumb=() skip=() base=$out/profile-$1 f rc
	prog=$(dirname "$k")/prog
	[ "$arch" = arm ] && thumb=(--thumb)
	[ "$arch" = x86 ] && skip=(-s pit2_wait_below)
	nm -n -S --defined-only "$k" > "$base.kernel.nm"
	for f in kbench pm ns init; do
		nm -n -S --defined-only "$prog/$f" > "$base.$f.nm"
	done
	local filter regions=() r
	# kbench's loops of `kbench profile` (its remote ones are make bench-remote's)
	for r in send_receive send_receive_4k call call_4k call_rr pair_unmetered pair_plain pair_metered; do
		regions+=(-r "$r")
	done
	filter=$("$kprof" --dfilter "${thumb[@]}" -k "$base.kernel.nm" -u "$base.kbench.nm" "${skip[@]}")
	set +e
	qemu "$arch" "$k" "$base.console" "profile $profile_rounds" -singlestep -d exec,nochain \
		-dfilter "$filter" -D /dev/stdout |
		"$kprof" "${thumb[@]}" -k "$base.kernel.nm" -u "$base.kbench.nm" -x "$base.pm.nm" \
			-x "$base.ns.nm" -x "$base.init.nm" -c "$base.console" "${regions[@]}" \
			-d event=pair_metered-pair_plain/4 -d replyreceive_saves=call-call_rr/1 > "$base.txt.tmp"
	rc=("${PIPESTATUS[@]}")
	set -e
	finished "$arch" "${rc[0]}" "$base.console"
	if [ "${rc[1]}" -ne 0 ]; then
		echo "bench-kernel: dpm-kprof could not read the $arch profile (status ${rc[1]})" >&2
		exit 1
	fi
	mv "$base.txt.tmp" "$base.txt"
}

run x86 "$kernel" "$out/kbench.console"
for n in 1 2 3; do
	run x86 "$(dirname "$kernel")/cut$n/kernel.elf" "$out/kbench-cut$n-x86.console"
	run arm "$(dirname "$arm")/cut$n/kernel.elf" "$out/kbench-cut$n-arm.console"
done
run x86 "$nometer" "$out/kbench-noprobes.console"
run arm "$arm" "$out/kbench-arm.console"
run arm "$armnometer" "$out/kbench-arm-noprobes.console"

awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-noprobes.console" > "$out/kbench-noprobes.txt"
awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-arm.console" > "$out/kbench-arm.txt"
awk '$1 == "kbench" { print $2, $3, $4 }' "$out/kbench-arm-noprobes.console" > "$out/kbench-arm-noprobes.txt"
{
	echo "op,size,instructions,instructions_no_probes,overhead_pct,arm_instructions,arm_instructions_no_probes,arm_overhead_pct"
	awk 'FILENAME == ARGV[1] { base[$1 " " $2] = $3; next }
	     FILENAME == ARGV[2] { arm[$1 " " $2] = $3; next }
	     FILENAME == ARGV[3] { armbase[$1 " " $2] = $3; next }
	     $1 == "kbench" && ($2 " " $3) in base && $2 !~ /metered/ {
		k = $2 " " $3; b = base[k]; a = arm[k]; ab = armbase[k]
		printf "%s,%s,%s,%s,%.2f,%s,%s,%.2f\n", $2, $3, $4, b, b ? ($4 - b) * 100 / b : 0,
			a, ab, ab ? (a - ab) * 100 / ab : 0 }' \
		"$out/kbench-noprobes.txt" "$out/kbench-arm.txt" "$out/kbench-arm-noprobes.txt" "$out/kbench.console"
} > "$out/kcalls.csv"
{
	echo "Kernel-call cost in guest instructions (x86, -icount shift=0,sleep=off)"
	echo "probes: meter compiled in, the calling process not metered; no probes: built with DPM_NO_METER"
	printf '%-16s %6s %12s %12s %9s %12s %12s %9s\n' op size "x86 probes" "no probes" overhead "ARM probes" \
		"no probes" overhead
	awk -F, 'NR > 1 { printf "%-16s %6s %12s %12s %8s%% %12s %12s %8s%%\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
		"$out/kcalls.csv"
	echo
	echo "Metering (send+receive of 64 bytes (or 4096) to itself, batches of 32 to a sink process: unmetered; metered for no event of the pair, the general path; all events traced):"
	awk '$1 == "kbench" && $2 ~ /^pair-|per-metered/ { printf "  %-22s %5s %10s instructions (x86)\n", $2, $3, $4 }' "$out/kbench.console"
	awk '$1 == "kbench" && $2 ~ /^pair-|per-metered/ { printf "  %-22s %5s %10s instructions (ARM)\n", $2, $3, $4 }' "$out/kbench-arm.console"

	# the metered event taken apart: each cut kernel's event, and what
	# each next part adds
	echo
	echo "A metered event taken apart (kbench on kernels whose message probes stop part way, DPM_METER_CUT):"
	printf '  %-52s %10s %10s\n' part x86 ARM
	ev() { awk '$1 == "kbench" && $2 == "per-metered-event" { print $4 }' "$1"; }
	prev_x=0 prev_a=0
	for n in 1 2 3 4; do
		case $n in
		1) what="the probe's call, destination test and time" ;;
		2) what="+ the record reserved and its head written" ;;
		3) what="+ committed: batches filled, shipped, begun" ;;
		4) what="+ the record's body: a metered event" ;;
		esac
		if [ "$n" = 4 ]; then
			x=$(ev "$out/kbench.console") a=$(ev "$out/kbench-arm.console")
		else
			x=$(ev "$out/kbench-cut$n-x86.console") a=$(ev "$out/kbench-cut$n-arm.console")
		fi
		awk -v w="$what" -v x="$x" -v a="$a" -v px="$prev_x" -v pa="$prev_a" \
			'BEGIN { printf "  %-52s %10.1f %10.1f   (%s, %s)\n", w, x - px, a - pa, x, a }'
		prev_x=$x prev_a=$a
	done
} | tee "$out/kcalls.txt"

profile x86 "$kernel"
profile arm "$arm"
echo "bench-kernel: instruction profiles in $out/profile-x86.txt and $out/profile-arm.txt"

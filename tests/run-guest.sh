#!/usr/bin/env bash
# tests/run-guest.sh OUTDIR ARCH:KERNEL... -- SUITE... - boot one node per
# guest suite (`init --halt SUITE`) on every architecture given (x86: qemu-
# system-i386; arm: qemu-system-arm's virt machine) under plain emulation
# and count its "ok"/"not ok" lines, each printed with its architecture.
# A run fails on a timeout, on any QEMU status other than init's two
# power-off codes (65 passed, 67 failed: both machines exit with
# (code << 1) | 1; an x86 triple fault exits 0), and when the status
# disagrees with the lines.  Ends with one "guest: N passed, N failed"
# over all architectures.
set -u
usage() { echo "usage: run-guest.sh OUTDIR ARCH:KERNEL... -- SUITE... (ARCH: x86 or arm)" >&2; exit 2; }
[ $# -ge 2 ] || usage
out=$1; shift
machines=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do machines+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#machines[@]} -gt 0 ] || usage

# qemu_for ARCH KERNEL APPEND LOG: one node on that machine.
qemu_for() {
	case $1 in
	x86) timeout 120 qemu-system-i386 -kernel "$2" -append "$3" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$4" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null ;;
	arm) timeout 120 qemu-system-arm -M virt -cpu cortex-a15 -kernel "$2" -append "$3" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$4" -semihosting </dev/null ;;
	esac
}

mkdir -p "$out/guest"
passed=0 failed=0
for m in "${machines[@]}"; do
	arch=${m%%:*} kernel=${m#*:}
	case $arch in x86|arm) ;; *) echo "run-guest.sh: unknown architecture '$arch'" >&2; exit 2 ;; esac
	for suite in "$@"; do
		log="$out/guest/$arch-$suite.log"
		qemu_for "$arch" "$kernel" "node=1 --halt $suite" "$log"
		rc=$?
		ok=$(grep -c '^ok ' "$log")
		bad=$(grep -c '^not ok ' "$log")
		grep -E '^(ok|not ok) |kernel panic|ended: ' "$log" | sed "s/^/[$arch] /"
		case $rc in
		65) [ "$bad" -eq 0 ] || { echo "[$arch] guest: $suite: passed status but failures listed"; bad=$((bad + 1)); } ;;
		67) [ "$bad" -gt 0 ] || { echo "[$arch] guest: $suite: failure status without a failed case"; bad=$((bad + 1)); } ;;
		124) echo "[$arch] guest: $suite: timed out (log: $log)"; bad=$((bad + 1)) ;;
		*) echo "[$arch] guest: $suite: QEMU exited $rc, not a power-off by init (log: $log)"; bad=$((bad + 1)) ;;
		esac
		passed=$((passed + ok)); failed=$((failed + bad))
	done
done
echo "$passed $failed" > "$out/guest.count"
echo "guest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

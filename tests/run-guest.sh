#!/usr/bin/env bash
# tests/run-guest.sh OUTDIR KERNEL SUITE... - boot one x86 node per guest
# suite (`init --halt SUITE`) under plain emulation and count its
# "ok"/"not ok" lines.  A run fails on a timeout, on any QEMU status other
# than init's two power-off codes (a triple fault exits 0), and when the
# status disagrees with the lines.  Ends with "guest: N passed, N failed".
set -u
out=$1 kernel=$2; shift 2
mkdir -p "$out/guest"
passed=0 failed=0
for suite in "$@"; do
	log="$out/guest/$suite.log"
	timeout 120 qemu-system-i386 -kernel "$kernel" -append "node=1 --halt $suite" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null
	rc=$?
	ok=$(grep -c '^ok ' "$log")
	bad=$(grep -c '^not ok ' "$log")
	grep -E '^(ok|not ok) |kernel panic|ended: ' "$log"
	case $rc in
	65) [ "$bad" -eq 0 ] || { echo "guest: $suite: passed status but failures listed"; bad=$((bad + 1)); } ;;
	67) [ "$bad" -gt 0 ] || { echo "guest: $suite: failure status without a failed case"; bad=$((bad + 1)); } ;;
	124) echo "guest: $suite: timed out (log: $log)"; bad=$((bad + 1)) ;;
	*) echo "guest: $suite: QEMU exited $rc, not a power-off by init (log: $log)"; bad=$((bad + 1)) ;;
	esac
	passed=$((passed + ok)); failed=$((failed + bad))
done
echo "$passed $failed" > "$out/guest.count"
echo "guest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# tests/run-guest.sh OUTDIR ARCH:KERNEL... -- SUITE... - boot one node per
# guest suite (`init --halt SUITE`) on every architecture given (x86: qemu-
# system-i386; arm: qemu-system-arm's virt machine) under plain emulation
# and count its "ok"/"not ok" lines, each printed with its architecture.
# A run fails on a timeout, on any QEMU status other than init's two
# power-off codes (65 passed, 67 failed: both machines exit with
# (code << 1) | 1; an x86 triple fault exits 0), and when the status
# disagrees with the lines.  Ends with one "guest: N passed, N failed"
# over all architectures.  A suite may have extra QEMU arguments for an
# architecture in tests/guest/SUITE.ARCH.qemu-args, where @DISK@ stands
# for a fresh 1 MiB disk image made with `dpm disk create`, and kernel
# words (`vclock=1`) in tests/guest/SUITE.ARCH.kernel-words.  GUEST_ARGS,
# when set, is given to every suite after its name (`make soak`).
set -u
usage() { echo "usage: run-guest.sh OUTDIR ARCH:KERNEL... -- SUITE... (ARCH: x86 or arm)" >&2; exit 2; }
[ $# -ge 2 ] || usage
out=$1; shift
machines=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do machines+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#machines[@]} -gt 0 ] || usage

# qemu_for ARCH KERNEL APPEND LOG [EXTRA...]: one node on that machine.
qemu_for() {
	local arch=$1 kernel=$2 append=$3 log=$4; shift 4
	case $arch in
	x86) timeout 120 qemu-system-i386 -kernel "$kernel" -append "$append" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" </dev/null ;;
	arm) timeout 120 qemu-system-arm -M virt -cpu cortex-a15 -kernel "$kernel" -append "$append" \
		-m 64 -display none -nodefaults -no-reboot -serial "file:$log" -semihosting "$@" </dev/null ;;
	esac
}

# extra_args ARCH SUITE: the suite's extra QEMU arguments into `extra`; 1
# when its disk image cannot be made.
dpm=${DPM:-$out/../bin/dpm}
extra_args() {
	local file="tests/guest/$2.$1.qemu-args" disk="$out/guest/$1-$2.img"
	extra=()
	[ -f "$file" ] || return 0
	rm -f "$disk"
	"$dpm" disk create "$disk" --size 1 >/dev/null || return 1
	read -ra extra < <(sed "s|@DISK@|$disk|g" "$file")
}

mkdir -p "$out/guest"
passed=0 failed=0
for m in "${machines[@]}"; do
	arch=${m%%:*} kernel=${m#*:}
	case $arch in x86|arm) ;; *) echo "run-guest.sh: unknown architecture '$arch'" >&2; exit 2 ;; esac
	for suite in "$@"; do
		log="$out/guest/$arch-$suite.log"
		if ! extra_args "$arch" "$suite"; then
			echo "[$arch] guest: $suite: cannot make its disk image with $dpm"; failed=$((failed + 1)); continue
		fi
		words=$(cat "tests/guest/$suite.$arch.kernel-words" 2>/dev/null || true)
		qemu_for "$arch" "$kernel" "node=1${words:+ $words} --halt $suite${GUEST_ARGS:+ $GUEST_ARGS}" "$log" "${extra[@]}"
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

#!/usr/bin/env bash
# qemu/demo.sh KERNEL - `make demo`: boot one DPM node under QEMU and run the
# sample program on it; what the node prints is shown as it happens.  Later
# stages of the project extend this to a metered cluster and its report.
set -eu
kernel=$1
echo "demo: booting one x86 node (qemu-system-i386) and running 'hello' on it"
rc=0
timeout 60 qemu-system-i386 -kernel "$kernel" -append "node=1 --halt hello world" -m 64 \
	-display none -nodefaults -no-reboot -serial stdio \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null || rc=$?
case $rc in
65) echo "demo: the node ran 'hello' and powered off cleanly" ;;
*) echo "demo: the node did not finish cleanly (QEMU status $rc)" >&2; exit 1 ;;
esac

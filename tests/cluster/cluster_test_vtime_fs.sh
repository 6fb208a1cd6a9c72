#!/usr/bin/env bash
# tests/cluster/cluster_test_vtime_fs.sh - the file system in virtual time
# (docs/virtual-time.md §2.7, kernel/disk.c, kernel/vdisk.c): its four
# servers on four x86 nodes (the Disk Interface on node 4, which has the
# disk) and four metered test users, one a node, started by node 1's init
# (`mrun filter all fsload ...`, no host controller).  Recorded on a quiet
# host and with two CPU-bound loops on it: `dpm dump --csv` of the two
# logs identical per node, times and procTimes included, none dropped, no
# sequence gap.  Recorded again with a slower disk (disklatency=8ms
# against the default 4ms): every disk request of both runs takes the
# model's time (latency + sectors x disksector) plus the kernel's and the
# Disk Interface's own work, and the requests' mean moves by the 4 ms.
# First, every disk path in virtual time (requests that block and queue,
# requesters killed while they wait): the guest suite t_fs on one node,
# x86 and ARM.
. "$(dirname "$0")/cluster_lib.sh"
WORK="fsload --ri 1 --dm 2 --bm 3 --di 4 --users 1,2,3,4 --size 6000 --ops 8"
SECTOR_NS=5000

# record NAME BUSY [CLUSTER-STATEMENT]: a fresh disk, the cluster, node 1's
# job waited for, the CSV kept.
record() {
	local name=$1 busy=$2 d
	d=$(new_cluster_dir "$name")
	fsload_cluster "$name" "${3:-}"
	vtime_run "$name" "$busy" "$d" "$TEST_DIR/$name.cluster" "4 nodes in virtual time, a disk on node 4, and the filter"
	check "$name: every user verified its data" grep -q "^fsload: 4 users, 4 verified" "$d/n1.console"
	vtime_check_sync "$name" "$d" 4
	vtime_keep_log "$d" "$TEST_DIR/$name.csv"
	vtime_check_log "$name" "$TEST_DIR/$name.csv"
}

# disk_waits CSV LATENCY_NS: one line per disk read or write of the log
# (a SEND to the kernel, node.0, then the RECEIVE from it: 16 bytes sent
# for a read, the header and the data for a write), "ELAPSED MODEL".
disk_waits() {
	awk -F, -v lat="$2" -v sec="$SECTOR_NS" '
		$2 == "SEND" && $9 ~ /\.0$/ { t[$7] = $3; n[$7] = $11 }
		$2 == "RECEIVE" && $8 ~ /\.0$/ && ($7 in t) {
			if (n[$7] == 16) s = $11 / 512; else if (n[$7] > 16) s = (n[$7] - 16) / 512; else s = -1
			if (s > 0) print $3 - t[$7], lat + s * sec
			delete t[$7]
		}' "$1"
}

for arch in x86 arm; do
	d=$(new_cluster_dir "t_fs-$arch")
	"$DPM" disk create "$TEST_DIR/t_fs-$arch.img" --size 1 --force >/dev/null
	echo "node n1 id=1 arch=$arch clock=virtual disk=$TEST_DIR/t_fs-$arch.img init=\"--halt t_fs\"" \
		>"$TEST_DIR/t_fs-$arch.cluster"
	vtime_run "t_fs-$arch" 0 "$d" "$TEST_DIR/t_fs-$arch.cluster" "one node in virtual time with a disk"
	check "t_fs-$arch: the suite passed in virtual time ($(grep -c '^ok ' "$d/n1.console") cases)" \
		grep -q "^init: t_fs ended: normal, status 0" "$d/n1.console"
	grep "^not ok" "$d/n1.console" >&2
	"$DPM" cluster down --dir "$d" >/dev/null
done

vtime_pair fs record
record fs-slowdisk 0 "cluster disklatency=8ms"
q=$TEST_DIR/fs-quiet.csv b=$TEST_DIR/fs-busy.csv s=$TEST_DIR/fs-slowdisk.csv
check_that "fs: all four servers and the users traced ($(wc -l <"$q") traces, $(cut -d, -f1 "$q" | sort -u | grep -c '^[1-4]$') nodes)" \
	'[ "$(cut -d, -f1 "$q" | sort -u | grep -c "^[1-4]$")" = 4 ]'
check_that "fs: the busy host's log equals the quiet host's, times and procTimes included" 'vtime_same_log fs'

disk_waits "$q" 4000000 >"$TEST_DIR/waits-4ms"
disk_waits "$s" 8000000 >"$TEST_DIR/waits-8ms"
# the model's time, then at most 100 us of the kernel's and the DI's work
# (the reply's copies, waiting to be scheduled)
within_model() { awk 'NF != 2 || $1 < $2 || $1 > $2 + 100000 { bad = 1 } END { exit bad || NR == 0 }' "$1"; }
mean() { awk '{ e += $1 } END { printf "%d", e / NR }' "$1"; }
check "fs: $(wc -l <"$TEST_DIR/waits-4ms") disk requests at 4 ms each took the model's time (latency + sectors x 5 us) and less than 100 us more" \
	within_model "$TEST_DIR/waits-4ms"
check "fs: $(wc -l <"$TEST_DIR/waits-8ms") disk requests at 8 ms likewise" within_model "$TEST_DIR/waits-8ms"
m4=$(mean "$TEST_DIR/waits-4ms") m8=$(mean "$TEST_DIR/waits-8ms")
check_that "fs: a disk request's mean elapsed time moved by the latency's 4 ms, within 20 us ($m4 -> $m8 ns)" \
	'[ $((m8 - m4)) -ge 3980000 ] && [ $((m8 - m4)) -le 4020000 ]'
# the disk is the workload's bottleneck (one Disk Interface, one request
# at a time), so node 1's job (its first to its last trace) takes longer
# by the number of requests times the 4 ms
span() { awk -F, '$1 == 1 { if (!s) s = $3; e = $3 } END { printf "%d", e - s }' "$1"; }
j4=$(span "$q") j8=$(span "$s") n8=$(wc -l <"$TEST_DIR/waits-8ms")
check_that "fs: the job's elapsed time moved by $n8 requests x 4 ms, within 1 % ($j4 -> $j8 ns)" \
	'[ $(( (j8 - j4) * 100 )) -ge $((n8 * 4000000 * 99)) ] && [ $(( (j8 - j4) * 100 )) -le $((n8 * 4000000 * 101)) ]'

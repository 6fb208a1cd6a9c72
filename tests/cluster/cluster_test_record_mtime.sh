#!/usr/bin/env bash
# tests/cluster/cluster_test_record_mtime.sh - the delivery-time table that
# belongs to a log (docs/mtime.md): `dpm record -o LOG` keeps the cluster's
# table as LOG.mtime (computed from the models under clock=virtual, the
# one given with --mtime otherwise), `dpm parallel` uses it without a word,
# and where there is none (clock=icount) no stale table is left and the
# analysis says on stderr that it uses the placeholder.  `dpm record`
# booting the built-in cluster boots it in virtual time unless --clock
# says otherwise.
. "$(dirname "$0")/cluster_lib.sh"
has() { grep -qF -- "$1" "$2"; }

# up NAME CLUSTER-LINES...: a one-node cluster with a filter, in its own dir.
up() {
	local name=$1; shift
	d=$(new_cluster_dir "$name")
	{
		echo 'service meter port=0 start="{dpm} filter --port {port} -o {dir}/meter.log"'
		printf '%s\n' "$@"
	} >"$TEST_DIR/$name.cluster"
	expect_status 0 "$name: up" "$DPM" cluster up --dir "$d" -f "$TEST_DIR/$name.cluster" >/dev/null
}
rec() { timeout -k 5 120 "$DPM" record --dir "$d" -q "$@" -- pingpong 0 20 1 100 >/dev/null 2>"$TEST_DIR/rec.err"; }

# ---- clock=virtual: computed from the models --------------------------------------
up virtual 'cluster net=1984' 'node n1 arch=arm clock=virtual'
rec -o "$TEST_DIR/v.log"
check "virtual: record exits 0" [ $? -eq 0 ]
check "virtual: the log's table is beside it, in virtual time" \
	[ "$(head -1 "$TEST_DIR/v.log.mtime" 2>/dev/null)" = "# clock=virtual" ]
# 1 byte: local, the switch's 75 instructions at 1.024 us (the preset's
# copying is the processes' CPU, not in the table); remote, the kernels'
# 1062 at 1.024 us, a 187-byte frame at 3 Mb/s (499 us), 100 us, and the
# preset's txcost and rxcost, 100 us + 4.5 ms per 1000 frame bytes each
# (0.9415 ms)
check "virtual: ...the 1984 preset's figures" grep -qx "1,76800,3569155,502784,842752,498667,1482752" "$TEST_DIR/v.log.mtime"
"$DPM" parallel "$TEST_DIR/v.log" >"$TEST_DIR/v.par" 2>"$TEST_DIR/v.par.err"
check "virtual: dpm parallel uses it" has "v.log.mtime (recorded with the log, clock=virtual)" "$TEST_DIR/v.par"
check_that "virtual: ...and says nothing on stderr" '[ ! -s "$TEST_DIR/v.par.err" ]'
printf 'size_bytes,local_ns,remote_ns\n1,5,50\n' >"$TEST_DIR/given.csv"
rec -o "$TEST_DIR/g.log" --mtime "$TEST_DIR/given.csv"
check "given: record --mtime exits 0" [ $? -eq 0 ]
check_that "given: the table given is kept beside the log, said to be given" \
	'[ "$(cat "$TEST_DIR/g.log.mtime")" = "$(printf "# given to dpm record: %s\nsize_bytes,local_ns,remote_ns\n1,5,50" "$TEST_DIR/given.csv")" ]'
printf 'size_bytes,local_ns\n1,5\n' >"$TEST_DIR/bad.csv"
expect_status 2 "given: a table without remote_ns is refused before the run" \
	"$DPM" record --dir "$d" -q -o "$TEST_DIR/bad.log" --mtime "$TEST_DIR/bad.csv" -- pingpong 0 1 1
"$DPM" cluster down --dir "$d" >/dev/null

# The x86 kernel boots at the 1984 preset's shift 10 too (its clock is not
# calibrated against the PIT in virtual time: the PIT moves on between the
# instructions of one reading at 1.024 us an instruction).
up slow-x86 'cluster net=1984' 'node n1 arch=x86 clock=virtual'
rec -o "$TEST_DIR/x.log"
check "shift 10 on x86: record exits 0" [ $? -eq 0 ]
check "shift 10 on x86: ...with the 1984 preset's table" grep -qx "1,76800,3569155,502784,842752,498667,1482752" "$TEST_DIR/x.log.mtime"
"$DPM" cluster down --dir "$d" >/dev/null

# ---- clock=icount: none known --------------------------------------------------------
up icount 'node n1 clock=icount'
echo stale >"$TEST_DIR/i.log.mtime"
rec -o "$TEST_DIR/i.log"
check "icount: record exits 0" [ $? -eq 0 ]
check "icount: no table for this clock, and the stale one is gone" [ ! -e "$TEST_DIR/i.log.mtime" ]
"$DPM" parallel "$TEST_DIR/i.log" >/dev/null 2>"$TEST_DIR/i.par.err"
check "icount: dpm parallel says it uses the placeholder" \
	has "dpm parallel: no delivery-time table for $TEST_DIR/i.log (no --mtime, no $TEST_DIR/i.log.mtime beside it): using the placeholder" "$TEST_DIR/i.par.err"
"$DPM" parallel --upper-bound "$TEST_DIR/i.log" >/dev/null 2>"$TEST_DIR/i.ub.err"
check_that "icount: ...but not when no delivery time is used (--upper-bound)" '[ ! -s "$TEST_DIR/i.ub.err" ]'
"$DPM" cluster down --dir "$d" >/dev/null

# ---- dpm record boots the built-in cluster in virtual time (--clock to choose) ------
d=$(new_cluster_dir default)
rec --nodes 1 -o "$TEST_DIR/d.log"
check "default: record boots a cluster and exits 0" [ $? -eq 0 ]
check "default: ...in virtual time, its table beside the log" \
	[ "$(head -1 "$TEST_DIR/d.log.mtime" 2>/dev/null)" = "# clock=virtual" ]
check "default: ...the LAN preset's figures" grep -qx "1,75,22558,491,823,1496,1448" "$TEST_DIR/d.log.mtime"
check "default: ...and stops it again" [ ! -e "$d/state" ]
timeout -k 5 120 "$DPM" record --dir "$d" --nodes 1 --clock icount -o "$TEST_DIR/di.log" \
	-- pingpong 0 20 1 100 >/dev/null 2>"$TEST_DIR/di.err"
check "--clock icount: record exits 0" [ $? -eq 0 ]
check "--clock icount: ...the cluster booted in that clock, so no table" [ ! -e "$TEST_DIR/di.log.mtime" ]
check "--clock icount: ...which record says on stderr" \
	has "no delivery-time table for this cluster's clock" "$TEST_DIR/di.err"
expect_status 2 "--clock: an unknown clock is refused before anything boots" \
	"$DPM" record --dir "$d" --clock fast -o "$TEST_DIR/x.log" -- pingpong 0 1 1
check "--clock: ...nothing booted" [ ! -e "$d/state" ]

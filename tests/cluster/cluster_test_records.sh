#!/usr/bin/env bash
# tests/cluster/cluster_test_records.sh - many `dpm record` runs, one after
# another, on one long-lived 4-node cluster metered to a host filter.
#
# Each run's tsp controller (created on n1 by ctld) creates 8 servers over
# n1..n4; n1's process manager forwards the 6 remote creations and keeps,
# for each, the controller's end-notice link (so that it can tell the
# controller should that node go down).  It used never to let go of those
# links: after 7 runs here (about 10 of a 4- and 8-server mix) its 64-slot
# link table was full, every receive of a request carrying a link failed
# with E_NOSPACE, the pm went round its receive loop for ever (one host CPU
# busy) and the next `dpm record` never returned (the old pm fails here at
# run 8).  Now the links go when their creator ends (and the pm keeps at
# most 40 such links, forgetting the oldest remote child beyond that).
. "$(dirname "$0")/cluster_lib.sh"

RUNS=${RECORD_RUNS:-20}
d=$(new_cluster_dir records)
printf '%s\n' 'service meter port=0 start="{dpm} filter --port {port} -o {dir}/meter.log"' \
	'node n1' 'node n2' 'node n3' 'node n4' >"$TEST_DIR/records.cluster"
expect_status 0 "records: up 4 nodes with a host filter" \
	"$DPM" cluster up -f "$TEST_DIR/records.cluster" --dir "$d" >/dev/null

done_runs=0 slow=
for i in $(seq 1 "$RUNS"); do
	v=$(( (i - 1) % 3 + 1 ))
	start=$SECONDS
	if ! timeout -k 10 60 "$DPM" record --dir "$d" -q -o "$TEST_DIR/run$i.log" -- \
		tsp -v "$v" -p 8 --nodes 1,2,3,4 -n 8 -s 1 >"$TEST_DIR/run$i.out" 2>&1; then
		break
	fi
	grep -q '^tour cost: 1817$' "$TEST_DIR/run$i.out" || break
	[ $((SECONDS - start)) -le 20 ] || slow="$slow $i"
	done_runs=$i
done
check_that "records: $RUNS runs of tsp on 8 servers over 4 nodes, one after another, all solved (got $done_runs)" \
	'[ "$done_runs" -eq "$RUNS" ]'
check_that "records: none took more than 20 s (slow:${slow:- none})" '[ -z "$slow" ]'
nodes=$("$DPM" dump --csv "$TEST_DIR/run$RUNS.log" 2>/dev/null |
	awk -F, 'NR > 1 && $2 != "MARK" { m[$1] = 1 } END { print length(m) }')
check_that "records: the last run's log has traces of its processes on all 4 nodes (got ${nodes:-0})" \
	'[ "${nodes:-0}" -eq 4 ]'
check "records: n1's process manager never ran out of links" \
	bash -c "! grep -q 'pm: link table full' '$d/n1.console'"
expect_status 0 "records: down" "$DPM" cluster down --dir "$d" >/dev/null

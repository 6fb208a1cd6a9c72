#!/usr/bin/env bash
# tests/cluster/cluster_test_services.sh - host services: a service with
# port=0 and a start command gets a free 127.0.0.1 port, runs before the
# nodes, is recorded in the state, reached through every node's QEMU NAT
# (not a guestfwd, whose blocking writes stopped a node whose filter
# stopped reading: cluster_test_stall.sh) and stopped by down; a service
# nobody started is a clear error (or skipped with --no-services).  Node
# authentication (docs/network.md): the secret is on no command line,
# QEMU hands it over as a fw_cfg file, and each node proves itself to the
# filter and to the hub.
. "$(dirname "$0")/cluster_lib.sh"

d=$(new_cluster_dir svc)
cat >"$TEST_DIR/svc.cluster" <<CLUSTER
node a
node b
service meter port=0 start="$DPM filter --port {port} -o {dir}/meter.log"
CLUSTER
out=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/svc.cluster"); rc=$?
check "services: up with a started service (exit $rc)" [ "$rc" -eq 0 ]
port=$(status_field "$d" meter 8)
check "services: the state records a real port ($port)" [ "${port:-0}" -gt 0 ]
check "services: up prints it" grep -qx "service meter on 127.0.0.1:$port" <<<"$out"
check_that "services: status shows it running on that port" \
	'[ "$(status_field "$d" meter 6)" = running ] && [ "$(status_field "$d" meter 8)" = "$port" ]'
filter=$(status_field "$d" meter 5)
node=$(status_field "$d" a 5)
cmdline=$(tr '\0' ' ' <"/proc/$node/cmdline")
ctl=$(status_field "$d" ctl 8)
check_that "services: the control hub 'ctl' comes with every cluster ($ctl)" \
	'[ "${ctl:-0}" -gt 0 ] && [ "$(status_field "$d" ctl 6)" = running ]'
check "services: the node's kernel gets host=meter:$port,ctl:$ctl" \
	grep -q -- "-append node=1 peers=1,2 host=meter:$port,ctl:$ctl " <<<"$cmdline"
check "services: ...and a second NIC on QEMU's NAT, no guestfwd" \
	grep -q -- "-netdev user,id=host -device virtio-net-pci,netdev=host,mac=52:54:00:00:01:01" <<<"$cmdline"
check "auth: the kernel authenticates to both (hostauth=meter,ctl)" \
	grep -q -- " hostauth=meter,ctl " <<<"$cmdline"
check "auth: QEMU hands the node the secret's file (fw_cfg opt/dpm/secret)" \
	grep -q -- "-fw_cfg name=opt/dpm/secret,file=$d/secret" <<<"$cmdline"
# (the pattern from the file: a command line holding the secret would
# find itself)
check "auth: the secret is on no command line of the cluster" \
	bash -c '! grep -alF -f "$1" /proc/[0-9]*/cmdline 2>/dev/null | grep -q .' _ "$d/secret"
both_proven() {
	grep -q "connection [0-9]* is node 1 (authenticated)" "$d/meter.service.log" &&
		grep -q "connection [0-9]* is node 2 (authenticated)" "$d/meter.service.log" &&
		grep -q "node 1 authenticated" "$d/ctl.service.log" &&
		grep -q "node 2 authenticated" "$d/ctl.service.log"
}
check "auth: both nodes prove themselves to the filter and to the hub at boot" wait_until 60 both_proven
pids=$(state_pids "$d")
"$DPM" cluster down --dir "$d" >/dev/null
check "services: down stops the service too" cluster_gone "$d" $pids "$filter"

# --- a service nobody started
d=$(new_cluster_dir external)
free=1 # tcpmux: nothing listens there
printf 'node a\nservice ctl port=%s\n' "$free" >"$TEST_DIR/ext.cluster"
msg=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/ext.cluster" 2>&1); rc=$?
check "external: up fails with exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "external: ...saying the service is not listening" \
	grep -q "service 'ctl' is not listening on 127.0.0.1:$free; start it before 'dpm cluster up'" <<<"$msg"
check "external: ...and leaves nothing" cluster_gone "$d"
expect_status 0 "external: --no-services boots without it" \
	"$DPM" cluster up --dir "$d" -f "$TEST_DIR/ext.cluster" --no-services >/dev/null
node=$(status_field "$d" a 5)
check "external: ...with one NIC and no host= word" \
	bash -c "! tr '\0' ' ' </proc/$node/cmdline | grep -q -e 'netdev=host' -e 'host='"
"$DPM" cluster down --dir "$d" >/dev/null

printf 'node a\nservice ctl\n' >"$TEST_DIR/port0.cluster"
msg=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/port0.cluster" 2>&1); rc=$?
check "port0: a port=0 service without start= is bad input, exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "port0: ...saying why" grep -q "service 'ctl' (line 2) has port=0 but no start= command" <<<"$msg"

# --- a started service that dies before it listens
d=$(new_cluster_dir dies)
printf 'node a\nservice x port=0 start="false"\n' >"$TEST_DIR/dies.cluster"
msg=$("$DPM" cluster up --dir "$d" -f "$TEST_DIR/dies.cluster" 2>&1); rc=$?
check "dying service: up fails with exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "dying service: ...saying it exited before listening" grep -q "x exited (1) before its listener on 127.0.0.1:" <<<"$msg"
check "dying service: ...and no node was started" bash -c "! ls '$d'/*.console >/dev/null 2>&1"
check "dying service: ...and nothing is left running" cluster_gone "$d"

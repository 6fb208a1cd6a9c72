#!/usr/bin/env bash
# tests/cluster/cluster_test_switch.sh - the LAN of a cluster is whole at
# boot.  vde_switch mixes up its ports when QEMUs plug in concurrently (one
# node then reaches nobody; docs/network.md), so `up` starts each node only
# once the one before has its port: a QEMU wrapper first on PATH records how
# many ports the switch had when each node started.  Every node of 8 must
# then reach every other, and the nodes' clocks, calibrated while all boot
# at once on a loaded host, must agree (a node whose clock ran slow was
# declared silent by its peers).  A node that never plugs in fails `up`
# with its name, and nothing is left behind.
. "$(dirname "$0")/cluster_lib.sh"

wrapper_dir="$TEST_DIR/bin"
qemu_wrapper <<WRAPPER
# Note the node's name and the switch's ports at this moment, then be QEMU.
name= sock= prev=
for a in "\$@"; do
	[ "\$prev" = -name ] && name=\$a
	case \$a in vde,*sock=*) sock=\${a##*sock=} ;; esac
	prev=\$a
done
ports=\$(ls -A "\$sock" 2>/dev/null | grep -cE '^[0-9]{3,}\.[0-9]+\$')
echo "\$name \$ports" >>"$TEST_DIR/starts"
[ "\$name" = "\${NEVER_PLUGS:-}" ] && exec sleep 600
exec "\$real_qemu" "\$@"
WRAPPER

# --- 8 nodes: plugged in one at a time, all connected, one clock
d=$(new_cluster_dir eight)
: >"$TEST_DIR/starts"
PATH="$wrapper_dir:$PATH" expect_status 0 "eight: up 8 nodes" "$DPM" cluster up --dir "$d" --nodes 8 >/dev/null
in_order=$(awk '$1 == "n" NR && $2 == NR - 1' "$TEST_DIR/starts" | wc -l)
check "eight: node k started when the switch had k-1 ports, for all 8 ($in_order)" [ "$in_order" -eq 8 ]
peer_lines() { cat "$d"/n*.console | tr -d '\r' | grep -c '^peer: node [0-9] up$'; }
all_peers() { [ "$(peer_lines)" -ge 56 ]; }
check "eight: every node reaches the 7 others within 20 s" wait_until 20 all_peers
check "eight: ...and none is later declared down" \
	bash -c "! cat '$d'/n*.console | grep -q '^peer: node [0-9] down'"
clocks=$(cat "$d"/n*.console | tr -d '\r' | sed -n 's/^x86: .*clock \([0-9]*\) MHz$/\1/p' | sort -n)
lo=$(head -1 <<<"$clocks") hi=$(tail -1 <<<"$clocks")
check_that "eight: the 8 clocks agree within 0.5% ($lo-$hi MHz)" \
	'[ "$(wc -l <<<"$clocks")" -eq 8 ] && [ "$lo" -gt 0 ] && [ $((hi * 1000)) -le $((lo * 1005)) ]'
pids=$(state_pids "$d")
"$DPM" cluster down --dir "$d" >/dev/null
check "eight: down cleans up" cluster_gone "$d" $pids

# --- a node whose QEMU never plugs into the switch
d=$(new_cluster_dir unplugged)
: >"$TEST_DIR/starts"
msg=$(PATH="$wrapper_dir:$PATH" NEVER_PLUGS=n2 "$DPM" cluster up --dir "$d" --nodes 3 --timeout 2 2>&1); rc=$?
check "unplugged: up fails with exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "unplugged: ...naming the node and what it lacked" grep -q "n2: no port on the switch after 2 s" <<<"$msg"
check "unplugged: ...and n3 was never started" bash -c "! grep -q '^n3 ' '$TEST_DIR/starts'"
check "unplugged: nothing left" cluster_gone "$d"

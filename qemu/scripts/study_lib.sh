# qemu/scripts/study_lib.sh - what the study drivers (study_fs.sh, study_tsp.sh)
# share: progress lines, clusters booted and always taken down, runs kept
# so that a study stopped half-way resumes where it was, and names files.
#
# A run is kept as OUT/runs/NAME.log (its trace, cut to the run by `dpm
# record`), NAME.names (node.pid NAME ROLE, docs/report.md), NAME.out (what
# the run printed) and NAME.done, written last: a run with a .done file is
# complete and is not run again; one without is run again from the start.
# Sourced with $dpm (the dpm command) and $out (the study's directory) set.
#
# The nodes' clock is $STUDY_CLOCK (the demo: $DEMO_CLOCK): virtual by
# default, one clock for the whole cluster (docs/virtual-time.md), each
# run's delivery-time table the one dpm record keeps beside its log
# (LOG.mtime, computed for the cluster it ran on: docs/mtime.md); icount
# or plain for comparison, with a table measured once per study in that
# clock (study_mtime).

study_name=${study_name:-study}
run_count=0 run_total=0
clock=${clock:-${STUDY_CLOCK:-virtual}}
case $clock in
virtual | icount | plain) ;;
*) printf '%s: the clock (STUDY_CLOCK, DEMO_CLOCK) must be virtual, icount or plain, not '\''%s'\''\n' \
	"$study_name" "$clock" >&2; exit 2 ;;
esac
# In virtual time, the network's preset (docs/cluster.md, the `cluster`
# statement): lan (today's, the default) or 1984 (the thesis's ratio of
# computation to communication: 3 Mb/s, ~1 MIPS nodes).
net=${STUDY_NET:-lan}
case $net in
lan | 1984) ;;
*) printf '%s: the network (STUDY_NET) must be lan or 1984, not '\''%s'\''\n' "$study_name" "$net" >&2; exit 2 ;;
esac
[ "$clock" = virtual ] || [ "$net" = lan ] ||
	{ printf '%s: STUDY_NET=%s needs the virtual clock\n' "$study_name" "$net" >&2; exit 2; }

# study_keep_apart: a study's runs in one clock and network are never
# taken for another's (a run of the LAN preset resumed into a 1984 study,
# its report then mixing both): the default (virtual, lan) keeps OUT,
# any other setting OUT-CLOCK or OUT-1984 (build/study-fs-1984,
# build/study-tsp-icount).  The study drivers call it; the demo and the
# benchmark, which set their clock themselves, do not.
study_keep_apart() {
	[ "$clock" = virtual ] || out=$out-$clock
	[ "$net" = lan ] || out=$out-$net
	return 0
}

# progress TEXT: one line saying where the study is, for the person waiting.
progress() {
	printf '%s: [%d/%d] %s\n' "$study_name" "$run_count" "$run_total" "$*" >&2
}

die() {
	printf '%s: %s\n' "$study_name" "$*" >&2
	exit 1
}

# run_done NAME: whether the run was completed by this or an earlier study.
run_done() { [ -f "$out/runs/$1.done" ]; }

# finish_run NAME: mark the run complete (its log and names are in place).
finish_run() { : >"$out/runs/$1.done"; }

# The cluster the study has up, taken down on every exit.
cluster_dir=
cluster_down() {
	[ -n "$cluster_dir" ] && "$dpm" cluster down --dir "$cluster_dir" >/dev/null 2>&1
	cluster_dir=
	return 0
}
trap cluster_down EXIT
trap 'exit 130' INT TERM

# cluster_up FILE DIR [nowait]: boot the cluster of FILE in DIR (down first
# if one was left there) and, unless nowait, wait until every node has
# reached every other (within $peers_wait tenths of a second, default 60 s,
# or the study stops: docs/network.md).  The nodes' own wait for their
# peers (the kernel's peerwait, 20 s of host time by default) is as long
# (cluster_file): four nodes at the 1984 preset booting beside other
# clusters on a 2-core host took longer than 20 s, and the study stopped
# with "vlink: not every peer came up" (27 November 2026, three times).
peers_wait=${peers_wait:-600}
node_peerwait_ms=$((peers_wait * 100))
cluster_up() {
	cluster_down
	"$dpm" cluster down --dir "$2" >/dev/null 2>&1 || true
	"$dpm" cluster up -f "$1" --dir "$2" >"$2.up.log" 2>&1 ||
		die "cannot boot the cluster of $1: $(tail -3 "$2.up.log")"
	cluster_dir=$2
	[ "${3:-}" = nowait ] && return 0
	peers_up "$2" "$peers_wait" ||
		die "a node of $2 did not reach its peers within $((peers_wait / 10)) s (see $2/*.console)"
}

# peers_up DIR TENTHS: within TENTHS tenths of a second, every node of the
# cluster in DIR says every other is up ("peer: node N up", the console's
# lines ending in CR LF).
peers_up() {
	local n want got i
	n=$(find "$1" -maxdepth 1 -name '*.console' | wc -l)
	want=$((n * (n - 1)))
	for ((i = 0; i < $2; i++)); do
		got=$(cat "$1"/*.console 2>/dev/null | grep -c '^peer: node [0-9]* up.$' || true)
		[ "$got" -ge "$want" ] && return 0
		sleep 0.1
	done
	return 1
}

# cluster_file PATH NODES [DISK_NODE DISK]: NODES nodes n1..nNODES in
# $clock (docs/studies.md: times that do not depend on the host's load)
# and a filter 'meter'; DISK on node DISK_NODE.  Node i's machine is
# ${node_arch[i-1]} (x86 when unset).
cluster_file() {
	local path=$1 nodes=$2 disk_node=${3:-0} disk=${4:-} i line
	{
		echo "# written by $study_name: $nodes nodes, clock=$clock"
		[ "$clock" = virtual ] && echo "cluster net=$net"
		echo 'service meter port=0 start="{dpm} filter --port {port} -o {dir}/meter.log"'
		for i in $(seq 1 "$nodes"); do
			line="node n$i id=$i arch=${node_arch[i - 1]:-x86} clock=$clock"
			line="$line kernel=\"peerwait=$node_peerwait_ms\""
			[ "$i" = "$disk_node" ] && line="$line disk=$disk"
			echo "$line"
		done
	} >"$path"
}

# created_ids FILE: the identifiers of the processes a `--porcelain` run of
# `dpm control` or `dpm record -f` reported creating, in order
# (docs/control.md: created NAME ID MACHINE JOB, tab-separated).
created_ids() {
	awk -F'\t' '$1 == "created" { print $3 }' "$1"
}

# mtime_spec: the report's `,mtime=TABLE` for a run: none in virtual time
# (each log's own LOG.mtime is used), else the study's measured table.
mtime_spec() { [ "$clock" = virtual ] || printf ',mtime=%s' "$out/mtime.csv"; }

# run_table LOG: in virtual time, the log's own delivery-time table must be
# beside it, computed for its cluster (dpm record keeps it), so that no
# analysis falls back to the placeholder.
run_table() {
	[ "$clock" = virtual ] || return 0
	[ "$(head -1 "$1.mtime" 2>/dev/null)" = "# clock=virtual" ] ||
		die "$1.mtime, the run's delivery-time table in virtual time, is missing (dpm record keeps it)"
}

# study_mtime: in virtual time, nothing (each run's table is its LOG.mtime);
# else (unless it is there already) OUT/mtime.csv, the delivery-time table
# (docs/mtime.md) in the clock the study's traces carry: pingpong on a
# 2-node cluster in $clock, local (peer on node 1) and remote (peer on
# node 2), STUDY_MTIME_COUNT round trips per size (default 2000), fastest
# of two runs.  `make bench-mtime` measures the same in plain emulation.
study_mtime() {
	[ "$clock" = virtual ] && return 0
	[ -s "$out/mtime.csv" ] && return 0
	local count=${STUDY_MTIME_COUNT:-2000} sizes="1 10 100 1000 4096" dir=$out/cluster-mtime where
	for where in local remote; do
		local peer=0
		[ "$where" = remote ] && peer=2
		cat >"$out/mtime-$where.cluster" <<CLUSTER
# written by $study_name: delivery times, peer on node ${peer/#0/1}
node n1 id=1 clock=$clock init="--halt pingpong $peer $count $sizes $sizes"
node n2 id=2 clock=$clock
CLUSTER
		cluster_up "$out/mtime-$where.cluster" "$dir" nowait
		local i
		for ((i = 0; i < 3000; i++)); do
			grep -q '^init: .* ended' "$dir/n1.console" && break
			sleep 0.1
		done
		cp "$dir/n1.console" "$out/mtime-$where.console"
		cluster_down
		grep -q '^init: .* ended: normal, status 0' "$out/mtime-$where.console" ||
			die "the $where delivery-time run failed (see $out/mtime-$where.console)"
	done
	{
		echo "size_bytes,local_ns,remote_ns"
		awk '$1 == "pingpong" {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			k = (FILENAME ~ /remote/) ? "r" : "l"; s = f["size"]; d = f["delivery_ns"] + 0
			if (!((k, s) in best) || d < best[k, s]) best[k, s] = d
			sizes[s] = 1
		} END { for (s in sizes) print s "," best["l", s] "," best["r", s] }' \
			"$out/mtime-local.console" "$out/mtime-remote.console" | sort -t, -k1,1n
	} >"$out/mtime.csv.new"
	[ "$(wc -l <"$out/mtime.csv.new")" = 6 ] || die "a size is missing from the delivery times ($out/mtime.csv.new)"
	mv "$out/mtime.csv.new" "$out/mtime.csv"
}

# ---- the file system (docs/fs.md) ------------------------------------------

# fs_start PREFIX RI DM BM DI: start the file system's servers on the nodes
# given (numbers) in the cluster that is up, unmetered, through `dpm
# control` (PREFIX.ctl, PREFIX.out); sets ri dm bm di to their node.pid.
fs_start() {
	local prefix=$1
	cat >"$prefix.ctl" <<CTL
filter meter
newjob fs
add fs n1 fsstart --ri $2 --dm $3 --bm $4 --di $5
startjob fs
wait fs 60
rmjob fs
CTL
	"$dpm" control --dir "$cluster_dir" -f "$prefix.ctl" >"$prefix.out" 2>&1 ||
		die "the file system did not start (see $prefix.out)"
	local up
	up=$(sed -n 's/.*file system up: \(ri .*\)$/\1/p' "$prefix.out")
	read -r _ ri _ dm _ bm _ di <<<"$up"
	[ -n "${di:-}" ] || die "fsstart did not say where its servers are (see $prefix.out)"
}

# fs_users_script FILE PATHPREFIX K: a control script metering the four
# servers (acquired: they run on) and K test users started at once, users
# placed round-robin on n1..n4, odd ones sequential (write a file whole,
# read it back), even ones random (reads and writes at random offsets);
# user i's file is PATHPREFIX-ui, its seed 100+i in every repetition, so
# that repetitions of a configuration do the same work (REP is only in
# the file names, which have the same length in every repetition).
fs_seq_size=24000 fs_rand_size=16000 fs_rand_ops=40
# MOVEDATA is metered as well: BM moves file data to and from its clients
# with it, and a remote one waits for its round trips, which dpm parallel
# models from the event (docs/parallel.md); unmetered, that wait looked
# like CPU-free time inside BM's stretches and the 1984 preset's
# configuration C was predicted 13-15 % short.
fs_flags="send receivecall receive queued movedata"
fs_users_script() {
	local file=$1 path=$2 k=$3 i s
	{
		echo "filter meter"
		echo "newjob users"
		echo "setflags users $fs_flags"
		for s in "$ri" "$dm" "$bm" "$di"; do echo "acquire users n${s%%.*} ${s#*.}"; done
		for i in $(seq 1 "$k"); do
			local node=$(( (i - 1) % 4 + 1 )) seed=$(( 100 + i ))
			if [ $((i % 2)) = 1 ]; then
				echo "add users n$node fsuser seq $path-u$i $fs_seq_size $seed"
			else
				echo "add users n$node fsuser rand $path-u$i $fs_rand_size $fs_rand_ops $seed"
			fi
		done
		echo "startjob users"
		echo "wait users 600"
		echo "rmjob users"
	} >"$file"
}

# fs_record PREFIX K: run PREFIX.ctl with `dpm record -f --porcelain` (log
# PREFIX.log, output PREFIX.out); fails unless all K users verified their data.
fs_record() {
	local prefix=$1 k=$2 verified
	"$dpm" record --dir "$cluster_dir" -q --porcelain -o "$prefix.log" -f "$prefix.ctl" >"$prefix.out" 2>&1 ||
		die "the run $prefix failed (see $prefix.out)"
	verified=$(grep -c "fsuser.*: .*verified" "$prefix.out" || true)
	[ "$verified" = "$k" ] || die "$verified of $k users verified their data (see $prefix.out)"
	run_table "$prefix.log"
}

# fs_names PREFIX COMMENT: PREFIX.names, the servers by their thesis names
# and the users u1..uK (from what PREFIX.out says was created).
fs_names() {
	local prefix=$1 i=0 id
	{
		echo "$2"
		echo "$ri RI server"
		echo "$dm DM server"
		echo "$bm BM server"
		echo "$di DI server"
		for id in $(created_ids "$prefix.out"); do
			i=$((i + 1))
			echo "$id u$i requestor"
		done
	} >"$prefix.names"
}

# ---- TSP (docs/tsp.md) -----------------------------------------------------

# tsp_names LOG P: the names file of a TSP run, from its trace: the process
# that created others is the controller, its first P children the servers
# s1..sP in the order it created them (server i has index i-1 in tsp), the
# rest the watchers of remote servers.
tsp_names() {
	"$dpm" dump --csv "$1" | awk -F, -v p="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["type"] == "CREATEPROCESS" {
			if (!ctl) { ctl = $col["src"]; print ctl " controller requestor" }
			if ($col["src"] != ctl) next
			k++
			if (k <= p) print $col["dst"] " s" k " server"
			else print $col["dst"] " w" (k - p) " system"
		}
		END { if (k < p) exit 1 }'
}

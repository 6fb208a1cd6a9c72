/*
 * qemu/cluster/cluster_mtime.c - the delivery-time table of a cluster (see
 * cluster_mtime.h).
 */
#include "cluster_mtime.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A local delivery's work in no process, in guest instructions: the
 * switch from the sender to the receiver.  Both kernel calls' work is in
 * the processes' CPU times already, and a waiting receiver's RECEIVE is
 * stamped at its SEND's time (docs/metering.md), so the delay the trace
 * does not hold is only this: a 1-node LAN cluster's metered pingpong
 * (dpm record -n 1 --flags send,receive,receivecall,queued -- pingpong 0
 * 1500 SIZE), its elapsed time less both processes' CPU, a message: 75
 * at 1 and 4096 bytes (27 November 2026, the kernel whose fast paths
 * pick and switch in line; 86-88 at 1, 100, 1000, 4096 bytes before).  Until then the
 * column was the pingpong's half round trip (1764 instructions for 1
 * byte), which counted both calls a second time: TSP's p = 4 runs were
 * predicted +7.5 % and +3.9 % long (docs/mtime.md). */
#define LOCAL_INSTRUCTIONS 75u

/* Per message size: the kernels' part of a remote delivery and their
 * transport work, in guest instructions (x86, shift 0).
 * - REMOTE: from a remote SEND's time stamp to its RECEIVE's at a waiting
 *   receiver, less the frame's time on the wire and the latency: the
 *   sending kernel's call up to the frame's leaving, its transport, and
 *   the receiving kernel's taking-in up to the hand-over.  Measured in
 *   virtual time on a 2-node LAN cluster, as the difference of the two
 *   stamps on the one clock (dpm record -n 2 --flags send,receive,
 *   receivecall,queued -- pingpong 2 400 1 10 100 1000 4096: 22558,
 *   22633, 23374, 30799, 56341 ns; 27 November 2026, the kernel whose
 *   taking-in no longer scans the process table for credit waiters on
 *   every frame, 324 less at every size than the 1386, 1389, 1410, 1635,
 *   2409 before it; 1493, 1513, 1577, 2140, 4063 before the block copy).
 * - TX, RX: the transport's work, which runs on the node clock but in no
 *   process (docs/virtual-time.md §2.5), charged by the analyses to the
 *   machines (remote_tx_ns, remote_rx_ns): the sending kernel's part of a
 *   remote SEND (remote.c's send_credited but peer_send, which is left out
 *   of the clock) and the receiving kernel's delivery of the frame at its
 *   stop (vlink.c's deliver_due less what it charged to the receiver: the
 *   message's queueing, its QUEUED trace and its hand-over, ipc.c's
 *   enqueue).  Measured by bracketing both with the node clock in a
 *   metered remote pingpong (dpm record --flags send,receivecall,receive,
 *   queued,createprocess -- pingpong 2 400 SIZE; docs/mtime.md): 491
 *   sending at every size, 1147 receiving 1 byte (the whole of a stop's
 *   deliver_due, 17b2896's kernel); what more bytes add receiving
 *   measured again on the block copy's kernel over the frame's
 *   hand-over alone (deliver_up: 811, 814, 835, 1059, 1831 a frame for 1
 *   to 4096 bytes, so +3, +24, +248, +1020; it was +18, +85, +648, +2571
 *   with the C copy loop); the taking-in's credit scan, 324 a frame at
 *   every size (REMOTE's stamps above, and remote_deliver 396 -> 72 in
 *   make bench-remote's profile), taken out since: 823 for 1 byte. */
enum { P_BYTES, P_REMOTE, P_TX, P_RX, P_COLUMNS };
static const uint64_t kernel_path[][P_COLUMNS] = {
	{ 1, 1062, 491, 823 },     { 10, 1065, 491, 826 },    { 100, 1086, 491, 847 },
	{ 1000, 1311, 491, 1071 }, { 4096, 2085, 491, 1843 },
};
#define ROWS (sizeof kernel_path / sizeof kernel_path[0])

/* The kernel's own work each 10 ms tick, on the node clock in no process,
 * in guest instructions (x86): 1448 a tick, the whole of it (the timer's
 * trap and re-arming, the synchronisation's stop, kernel_timer_tick's
 * network timers, host gate, meter shipping, alarms and credits, the
 * return to the idle loop): an idle net=1984 node's clock less its jumps
 * and its processes' time, over 497 s of node time (1483 us a tick at
 * shift 10; ARM's 2109, 27 November 2026).  kernel_timer_tick alone, the
 * 942 this was until then, left a busy 1984 node's prediction 7 % short.
 * A hundredth of a percent of a LAN node, 14.8 % of a 1984 one: the
 * analyses give processes the rest (tick_ns, docs/mtime.md). */
#define TICK_INSTRUCTIONS 1448u

/* kernel_path's column at `bytes`: interpolated between the measured
 * sizes (rounded to the nearest), the first size's below them, the last
 * segment's slope beyond them. */
static uint64_t path_instructions(uint32_t bytes, int column)
{
	size_t i = 1;
	if (bytes <= kernel_path[0][P_BYTES])
		return kernel_path[0][column];
	while (i < ROWS - 1 && bytes > kernel_path[i][P_BYTES])
		i++;
	uint64_t x0 = kernel_path[i - 1][P_BYTES], x1 = kernel_path[i][P_BYTES];
	uint64_t y0 = kernel_path[i - 1][column], y1 = kernel_path[i][column];
	if (y1 >= y0)
		return y0 + ((y1 - y0) * (bytes - x0) + (x1 - x0) / 2) / (x1 - x0);
	return y0 - ((y0 - y1) * (bytes - x0) + (x1 - x0) / 2) / (x1 - x0);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* The frame of a message of `bytes` on the wire at the model's bandwidth. */
static uint64_t wire_ns(const uint64_t v[VT_FIELDS], uint32_t bytes)
{
	uint64_t frame = (uint64_t)bytes + CLUSTER_MTIME_FRAME_OVERHEAD;
	if (frame < 64)
		frame = 64;
	return ceil_div(frame * 8 * 1000000000ull, v[VT_BANDWIDTH]);
}

void cluster_mtime_transport(const struct cluster_spec *spec, const struct cluster_node *n,
			     uint32_t bytes, uint64_t *tx_ns, uint64_t *rx_ns, uint64_t *link_ns)
{
	int shift = cluster_node_shift(spec, n);
	uint64_t v[VT_FIELDS];
	cluster_vtime_resolve(&spec->vtime, v);
	*tx_ns = path_instructions(bytes, P_TX) << shift;
	*rx_ns = path_instructions(bytes, P_RX) << shift;
	*link_ns = wire_ns(v, bytes);
}

void cluster_mtime_model(const struct cluster_spec *spec, const struct cluster_node *n,
			 uint32_t bytes, uint64_t *local_ns, uint64_t *remote_ns)
{
	uint64_t v[VT_FIELDS];
	cluster_vtime_resolve(&spec->vtime, v);
	uint64_t frame = (uint64_t)bytes + CLUSTER_MTIME_FRAME_OVERHEAD;
	if (frame < 64)
		frame = 64;
	int shift = cluster_node_shift(spec, n);
	/* The modelled machine's copying of the data (copycost) is not in
	 * the table: it is the sender's CPU before its SEND and the receiver's
	 * after its RECEIVE, in the trace, and counted here too it would be
	 * counted twice (a 1-user 1984 file-system run was predicted +7.3 %
	 * with it, -9.0 % without; docs/mtime.md). */
	*local_ns = (uint64_t)LOCAL_INSTRUCTIONS << shift;
	*remote_ns = (path_instructions(bytes, P_REMOTE) << shift) + v[VT_TX_FIXED] +
		     ceil_div(frame * v[VT_TX_PER_KB], 1000) + wire_ns(v, bytes) + v[VT_LATENCY] +
		     v[VT_RX_FIXED] + ceil_div(frame * v[VT_RX_PER_KB], 1000);
}

/* The clock every node booted here runs, or NULL when they differ. */
static const char *cluster_clock(const struct cluster_spec *spec, const struct cluster_node **first)
{
	const char *clock = NULL;
	*first = NULL;
	for (int i = 0; i < spec->nnodes; i++) {
		const struct cluster_node *n = &spec->nodes[i];
		if (n->remote)
			continue;
		const char *c = cluster_clock_name(n);
		if (clock && strcmp(clock, c))
			return NULL;
		clock = c;
		if (!*first)
			*first = n;
	}
	return clock;
}

static int write_model(const struct cluster_spec *spec, const struct cluster_node *n,
		       const char *path, char *what, size_t whatlen)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(what, whatlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	uint64_t v[VT_FIELDS];
	cluster_vtime_resolve(&spec->vtime, v);
	fprintf(f, "# clock=virtual\n"
		"# computed by dpm cluster from the models (docs/mtime.md): node %s at shift %d, "
		"latency %llu ns, %llu bit/s, tx %llu ns + %llu ns/1000 B, rx %llu ns + %llu ns/1000 B, "
		"copying %llu ns/1000 B\n"
		"# remote_tx_ns, remote_rx_ns: the kernels' transport work per remote message, "
		"on each machine's CPU in no process; remote_wire_ns: its frame on the sender's link; "
		"tick_ns: the kernel's own work each 10 ms tick, in no process\n"
		"size_bytes,local_ns,remote_ns,remote_tx_ns,remote_rx_ns,remote_wire_ns,tick_ns\n",
		n->name, cluster_node_shift(spec, n),
		(unsigned long long)v[VT_LATENCY], (unsigned long long)v[VT_BANDWIDTH],
		(unsigned long long)v[VT_TX_FIXED], (unsigned long long)v[VT_TX_PER_KB],
		(unsigned long long)v[VT_RX_FIXED], (unsigned long long)v[VT_RX_PER_KB],
		(unsigned long long)v[VT_COPY]);
	for (size_t i = 0; i < ROWS; i++) {
		uint64_t local, remote, tx, rx, link;
		uint32_t bytes = (uint32_t)kernel_path[i][P_BYTES];
		cluster_mtime_model(spec, n, bytes, &local, &remote);
		cluster_mtime_transport(spec, n, bytes, &tx, &rx, &link);
		fprintf(f, "%u,%llu,%llu,%llu,%llu,%llu,%llu\n", bytes,
			(unsigned long long)local, (unsigned long long)remote, (unsigned long long)tx,
			(unsigned long long)rx, (unsigned long long)link,
			(unsigned long long)TICK_INSTRUCTIONS << cluster_node_shift(spec, n));
	}
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(what, whatlen, "writing %s failed", path);
		return -1;
	}
	snprintf(what, whatlen, "computed from the models of virtual time");
	return 1;
}

int cluster_mtime_copy(const char *from, const char *to, const char *comment, char *err,
		       size_t errlen)
{
	FILE *in = fopen(from, "r");
	if (!in) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -1;
	}
	FILE *out = fopen(to, "w");
	if (!out) {
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
		fclose(in);
		return -1;
	}
	if (comment)
		fprintf(out, "# %s\n", comment);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	int bad = ferror(in) || ferror(out);
	fclose(in);
	if (fclose(out) != 0 || bad) {
		snprintf(err, errlen, "copying %s to %s failed", from, to);
		return -1;
	}
	return 0;
}

int cluster_mtime_write(const struct cluster_spec *spec, const char *bench, const char *path,
			char *what, size_t whatlen)
{
	const struct cluster_node *first;
	const char *clock = cluster_clock(spec, &first);
	if (clock && !strcmp(clock, "virtual"))
		return write_model(spec, first, path, what, whatlen);
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(what, whatlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!clock) {
		snprintf(what, whatlen, "none: the nodes run different clocks");
		return 0;
	}
	if (!strcmp(clock, "icount")) {
		snprintf(what, whatlen, "none: no table known to dpm is in clock=icount's time "
			 "(a study measures its own)");
		return 0;
	}
	if (!bench || access(bench, R_OK) != 0) {
		snprintf(what, whatlen, "none: no table measured in plain emulation (make bench-mtime "
			 "writes %s)", bench ? bench : "build/bench/mtime.csv");
		return 0;
	}
	char comment[4200], err[512];
	snprintf(comment, sizeof comment, "clock=plain\n# measured by make bench-mtime: %s", bench);
	if (cluster_mtime_copy(bench, path, comment, err, sizeof err) < 0) {
		snprintf(what, whatlen, "%s", err);
		return -1;
	}
	snprintf(what, whatlen, "measured in plain emulation (%s)", bench);
	return 1;
}

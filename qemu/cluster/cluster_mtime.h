/*
 * qemu/cluster/cluster_mtime.h - the delivery-time table of a cluster
 * (docs/mtime.md), which `dpm cluster up` keeps in the state directory and
 * `dpm record` copies beside each log, so that every analysis of a log uses
 * the delivery times of the cluster it was recorded on.
 *
 * Under clock=virtual it is computed from the cluster's models: a local
 * delivery is the kernel's work between the two processes that the trace
 * does not hold (the switch), a remote one the kernels' part of it (the
 * sending kernel up to the frame's leaving, the receiving kernel's
 * taking-in), both measured in instructions (docs/mtime.md) at the node's
 * 2^shift ns each, plus the modelled network: the sender's transport cost,
 * the frame's time on the wire at the bandwidth, the latency and the
 * receiver's cost (docs/virtual-time.md §2.4).  Under
 * clock=plain it is the table `make bench-mtime` measured in plain
 * emulation, when there is one.  Under clock=icount, or with nodes in
 * different clocks, there is none: no table known to dpm is in that clock.
 */
#ifndef DPM_CLUSTER_MTIME_H
#define DPM_CLUSTER_MTIME_H

#include <stddef.h>
#include <stdint.h>

#include "cluster_file.h"

/* Bytes a message of B bytes occupies on the wire besides its own, as the
 * kernel's network model counts them (kernel/net/vlink.c's stamp): the
 * remote message's header (struct rm_frame, kernel/remote.h: 108), the
 * peer frame's (FRAME_HDR_BYTES, 4), virtual time's stamp
 * (VSYNC_STAMP_BYTES, 16) and Ethernet with FCS, IPv4 and TCP
 * (VSYNC_WIRE_BYTES, 58); tests/unit/test_cluster_mtime.c checks the sum
 * against those.  A frame is at least 64 bytes. */
#define CLUSTER_MTIME_FRAME_OVERHEAD 186u

/* The table's name in a cluster's state directory. */
#define STATE_MTIME "mtime.csv"

/* The model's delivery times in ns of a message of `bytes` between two
 * processes of node n (local) and from n to another node (remote). */
void cluster_mtime_model(const struct cluster_spec *spec, const struct cluster_node *n,
			 uint32_t bytes, uint64_t *local_ns, uint64_t *remote_ns);

/* The kernels' transport work in ns for a remote message of `bytes` from
 * node n: the sending side's and the receiving side's (the table's
 * remote_tx_ns and remote_rx_ns, which the analyses charge to the two
 * machines' CPUs), and how long its frame holds the sender's link (the
 * table's remote_wire_ns, for which frames sent close together queue). */
void cluster_mtime_transport(const struct cluster_spec *spec, const struct cluster_node *n,
			     uint32_t bytes, uint64_t *tx_ns, uint64_t *rx_ns, uint64_t *link_ns);

/* Write the cluster's table to path (`# clock=MODE` and where it comes
 * from in comment lines, then size_bytes,local_ns,remote_ns); `bench` is
 * the measured table of plain emulation (read if it exists).  1 written,
 * 0 none for this cluster (path removed; why in what), -1 error (in what). */
int cluster_mtime_write(const struct cluster_spec *spec, const char *bench, const char *path,
			char *what, size_t whatlen);

/* Copy a table from `from` to `to`, first the comment line `comment`
 * (without its "# ") when not NULL.  0, or -1 with why in err. */
int cluster_mtime_copy(const char *from, const char *to, const char *comment, char *err,
		       size_t errlen);

#endif

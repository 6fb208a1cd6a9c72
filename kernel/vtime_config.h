/*
 * kernel/vtime_config.h - the models virtual time runs a node by
 * (docs/virtual-time.md §2.4, §2.7): the cluster's network (latency,
 * bandwidth, the kernels' modelled transport paths) and this node's disk
 * (a fixed latency and a cost per sector).  The cluster file sets them and
 * `dpm cluster` passes them on the kernel command line; a word this file
 * does not set keeps the present-day LAN default below.  Only read in
 * virtual time (vtime_on).
 */
#ifndef DPM_VTIME_CONFIG_H
#define DPM_VTIME_CONFIG_H
#include <stdint.h>

#include "kernel/net/vsync.h" /* struct vnet_model */

struct vtime_config {
	struct vnet_model net;
	uint64_t disk_latency_ns; /* per request: seek and rotation          */
	uint64_t disk_sector_ns;  /* per 512-byte sector transferred         */
	uint64_t idle_bounds;     /* 0: the horizon from promises alone       */
	uint64_t stop_ns;         /* a busy node's stops: their spacing       */
	uint64_t copy_ns_per_kbyte; /* copying a process's data: the modelled
	                               machine's memory (0: our kernels' own) */
};

extern struct vtime_config vtime_config;

/* A kernel command-line word of the models (`vlat=NS`, `vbw=BPS`,
 * `vtx=NS,NS_PER_KB`, `vrx=NS,NS_PER_KB`, `vdisk=NS,NS_PER_SECTOR`, `vstop=NS`,
 * the spacing of a busy node's stops, kernel/net/vlink.c; `vcopy=NS`, the
 * cost of copying 1000 bytes of a process's data, vtime_copy_ns) or
 * `vbounds=0`, the synchronisation as it was before the idle peers' bounds
 * (kernel/net/vlink.c), to measure what they save and to check that the
 * results do not change (on every node or none): 1 taken (a bad value is
 * reported and the default kept), 0 not ours. */
int vtime_config_option(const char *w, uint32_t n);
#endif

/*
 * kernel/net/vlink.h - the cluster's conservative time synchronisation in
 * the kernel (docs/virtual-time.md §2.3, Plan step 3): the layer between
 * the peer transport and the remote IPC layer that stamps every frame with
 * its delivery time, holds received frames until the node clock reaches
 * it, and stalls the node where a peer could still send it something.
 * Only in virtual time with peers.
 */
#ifndef DPM_VLINK_H
#define DPM_VLINK_H

/* After net_init and remote_init, before any process runs: wait (node
 * clock standing still) until every peer is up, the cluster's epoch, then
 * put the layer in place. */
void vlink_start(void);
/* Before this node powers off: tell every peer it will send nothing more
 * (a promise of VSYNC_NEVER), so they run on without it, and wait (clock
 * standing still) until that has left. */
void vlink_leave(void);
#endif

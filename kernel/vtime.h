/*
 * kernel/vtime.h - virtual time on this node (docs/virtual-time.md §2.2):
 * whether the node runs in it (`vclock=1` on the kernel command line, put
 * there by a cluster file's `clock=virtual`), and the exclusion of work
 * whose amount depends on the host (the network stack's) from the node
 * clock.  Outside virtual time none of this runs.
 */
#ifndef DPM_VTIME_H
#define DPM_VTIME_H
#include <stdint.h>

extern int vtime_on;

/* A kernel command-line word of ours (`vclock=0|1`): 1 taken, 0 not ours. */
int vtime_cmdline_option(const char *w, uint32_t n);
/* After the command line: switch the tick to node-clock deadlines. */
void vtime_start(void);
/* Around host-dependent work: the node clock stands still in between.
 * Not nested (net_run brackets its outermost entry only). */
void vtime_exclude_begin(void);
void vtime_exclude_end(void);
#endif

/*
 * servers/bench/bench_pair.h - what the two-process benchmarks (pingpong,
 * movebench) share.  Each is a pair: the program started from the command
 * line and its other half, the same program again with a peer argument,
 * created on a chosen node through the process manager and joined to the
 * starter by links both ways (the thesis's "two otherwise idle
 * processes").  The peer's slot BENCH_PEER_PARENT leads back to the
 * starter; its first message hands the starter a link to itself.
 */
#ifndef DPM_BENCH_PAIR_H
#define DPM_BENCH_PAIR_H
#include <stdint.h>

#define BENCH_PEER_PARENT 4   /* the peer's link to its starter */

/* Create argv on `node` (0: this node) with a link back to us, start it and
 * wait for its greeting.  *peer_link: our link to it; *task: its address;
 * notify_link (or -1) gets its end notice.  0 or an E_* code (E_DEAD: it
 * ended before greeting). */
int bench_peer_start(uint32_t node, const char *const argv[], int notify_link,
		     uint32_t *task, int *peer_link);

/* In the peer: send the starter a link to this process.  0 or an E_* code. */
int bench_peer_greet(void);

/* The argument `text` as a whole number in [min, max], or -1 after printing
 * "PROG: WHAT must be ..." (the programs' usage errors, exit status 2). */
long bench_number(const char *prog, const char *what, const char *text, long min, long max);

/* The node clock in ns (node_time). */
uint64_t bench_now(void);
#endif

/*
 * analysis/model/ptiming.h - what timing a computation graph under one
 * configuration takes and leaves (TR 574 §4): the configuration, the
 * per-node results, the weight of a cross arc, and the check that every
 * process was timed.  The two timings (longest_path.h, reweight.h) and P
 * (parallelism.h) are built on it, so neither calls back into the other.
 */
#ifndef DPM_ANALYSIS_MODEL_PTIMING_H
#define DPM_ANALYSIS_MODEL_PTIMING_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "mtime.h"

struct pconfig {
	const uint32_t *machine_of; /* machine index of each process */
	const struct mtime_table *mt;
	int contention;             /* the machines' CPUs shared (reweight.c) */
	double slice_ns;            /* with contention: a process keeps its
	                               machine's CPU until it blocks or has had
	                               it this long, then the next in turn (the
	                               DPM kernel's scheduler); 0: processor
	                               sharing (Appendix A's microscopic slice) */
};

/* The DPM kernel's slice: a running process gives way at its node's next
 * tick, 100 Hz on both machines (kernel/proc.c kernel_tick, kernel/vtime.c
 * TICK_NS); blocking gives the CPU to the next runnable in slot order. */
#define PCONFIG_KERNEL_TICK_NS 10000000.0 /* the table's tick_ns (mtime.h) is per tick */
#define PCONFIG_KERNEL_SLICE_NS PCONFIG_KERNEL_TICK_NS

/* Per-node results of an evaluation. */
struct pwork {
	double *when;   /* time the node happens on the longest path, ns */
	uint8_t *via;   /* 1 if the node's cross arc bound it, else 0 */
	double *queued; /* a message's wait for its sender's link, ns (only
	                   with contention; else 0): see arc_weight */
};

int pwork_alloc(struct pwork *w, size_t nnodes);
void pwork_free(struct pwork *w);

/* Weight of node k's cross arc under configuration c (MTIME for a message,
 * elapsed time for an external wait). */
double cross_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k);

/* cross_weight plus the wait for the sending machine's link that the
 * timing found for node k's message (w->queued). */
double arc_weight(const struct cgraph *g, const struct pconfig *c, const struct pwork *w,
		  uint32_t k);

/* The message of SEND node s (received at node r): its length, and
 * whether its ends are on one machine under c. */
uint32_t message_len(const struct cgraph *g, uint32_t s, uint32_t r);
int same_machine(const struct cgraph *g, const struct pconfig *c, uint32_t s, uint32_t r);

/* Weight of the process arc into node k under configuration c: its CPU
 * time plus the kernel transport work the event before it leaves on its
 * machine (a remote SEND's sending side, a remote message's receiving
 * side: mtime_transport), which no process's CPU time includes
 * (docs/parallel.md).  `waited`: the event before k is a RECEIVE that
 * waited for its message (its cross arc bound it); then the receiving
 * side is not added, since the message's MTIME, measured to its
 * hand-over, holds the taking-in already (docs/mtime.md).  0 for a first
 * node. */
double proc_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k, int waited);

/* A remote MOVEDATA moves its data in page-sized chunks, one round trip
 * to the other node each (kernel/ipc.c). */
#define MOVEDATA_CHUNK_BYTES 4096u

/* The wait that ends the process arc into node k under configuration c: a
 * MOVEDATA's round trips to the owners of the areas it moves from or to
 * that are on a machine other than the mover's under c, each a request and
 * an answer between the machines, MTIME(chunk) + MTIME(0 bytes), per chunk
 * and per such side (docs/parallel.md).  The mover is blocked meanwhile,
 * its machine free for others.  0 for every other node, for a MOVEDATA
 * with both ends on its machine, and for a zero table. */
double wait_weight(const struct cgraph *g, const struct pconfig *c, uint32_t k);

/* After timing: 0 if every process reached its end (pos[p] is the next
 * node of p), else -1 naming the first one that could not (a cycle). */
int check_all_timed(const struct cgraph *g, const uint32_t *pos, char *err, size_t errlen);

#endif

/*
 * analysis/model/stats.h - the basic communication statistics of thesis §5.2.2:
 * who talks to whom, how much, how large, how often, local or remote, each
 * process's share of CPU, messages and bytes (Fig. 5.12), queue lengths and
 * time spent in the queue.
 *
 * One pass over the events fills per-process and per-pair counters; a
 * second pairs each QUEUED with the RECEIVE of the same msg_id.  Sizes and
 * waits are kept as power-of-two histograms, so memory does not grow with
 * the trace beyond the processes and pairs it names.
 */
#ifndef DPM_ANALYSIS_MODEL_STATS_H
#define DPM_ANALYSIS_MODEL_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "hashmap.h"

/* Bucket 0 holds 0; bucket b >= 1 holds [2^(b-1), 2^b). */
#define STATS_BUCKETS 65

struct msg_counts {
	uint64_t sent, sent_bytes, recv, recv_bytes;
	uint64_t local, remote, local_bytes, remote_bytes; /* of those sent */
	uint64_t size_hist[STATS_BUCKETS];                 /* sizes sent */
};

struct wait_stats {
	uint64_t n, min, max;
	double sum;
};

struct proc_stats {
	struct msg_counts m;
	uint64_t first_time, last_time, events;
	uint64_t cpu;              /* the last (largest) PROCTIME seen */
	uint64_t q_samples, q_sum, q_max;
	uint32_t q_now;            /* queue length rebuilt from QUEUED/RECEIVE */
	struct wait_stats w;       /* time its messages spent queued */
};

struct pair_stats {
	uint32_t src, dst;
	struct msg_counts m;
};

struct stats {
	const struct trace *tr;
	struct proc_stats *p;     /* one per process */
	struct pair_stats *pair;
	size_t npairs, paircap;
	struct hashmap pair_index;
	struct msg_counts total;
	uint64_t total_cpu;
	struct wait_stats w;
	uint64_t wait_hist[STATS_BUCKETS];
	int queue_rebuilt;        /* some queue lengths were reconstructed */
};

int stats_compute(struct stats *s, const struct trace *t);
void stats_free(struct stats *s);

unsigned stats_bucket(uint64_t v);
/* Messages per second of process p over its own span of local time
 * (0 if the span is empty). */
double stats_rate(const struct stats *s, uint32_t p, uint64_t messages);

#endif

/*
 * analysis/model/causality.h - paths of causality through a server computation
 * (thesis §5.2.4, §5.3.2).
 *
 * Processes are requestors (the server's customers), servers, or system
 * processes (ignored: messages to and from them are not followed).  Inside
 * each server every message it receives is linked to the next message it
 * sends; when several received messages are still unanswered the most
 * recent one is taken first (a stack), which keeps interleaved requests
 * apart in the usual serve-one-thing-at-a-time structure.  A causality
 * string starts at each receive of a requestor's message by a server and
 * follows links and message arcs while they lead to servers.
 *
 * Strings are stored as symbol sequences (process indices) in one pool;
 * counting substrings hashes each sequence once, so the work is the total
 * length of the strings times the longest substring counted.
 */
#ifndef DPM_ANALYSIS_MODEL_CAUSALITY_H
#define DPM_ANALYSIS_MODEL_CAUSALITY_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "hashmap.h"

enum role { ROLE_SYSTEM = 0, ROLE_SERVER = 1, ROLE_REQUESTOR = 2 };

/* Stand-in process index for "any requestor" in transitions. */
#define REQUESTORS 0xfffffffeu

struct seq {
	uint32_t start, len;  /* in the symbol pool */
	uint64_t count;
};

struct seq_counts {
	struct seq *s;
	size_t n, cap;
	struct hashmap index;
};

struct transition {
	uint32_t at, from, to;  /* at a server: received from `from`, then sent to `to` */
	uint64_t count;
};

struct causality {
	const struct cgraph *g;
	const uint8_t *role;    /* enum role of each process */
	uint32_t *link;         /* receive node -> the send it caused, or NO_NODE */
	uint32_t *pool;         /* symbols of all strings, back to back */
	size_t npool, poolcap;
	struct seq_counts strings, substrings;
	size_t nrequests;
	struct transition *tr;
	size_t ntr, trcap;
	struct hashmap tr_index;
};

/* Build everything; max_len bounds the substrings counted (0: no bound).
 * 0 ok, -1 out of memory. */
int causality_compute(struct causality *c, const struct cgraph *g, const uint8_t *role,
		      size_t max_len);
void causality_free(struct causality *c);

/* Sort counted sequences most common first, then shorter, then by symbols. */
void causality_sort(struct causality *c, struct seq_counts *sc);
/* Sort transitions by (at, from, to). */
void causality_sort_transitions(struct causality *c);

/* How often a request at server `at` that came from `from` went on
 * anywhere (from NO_PROC: from anywhere). */
uint64_t causality_out_count(const struct causality *c, uint32_t at, uint32_t from);
/* How often, at `at`, a message from `from` was followed by one to `to`. */
uint64_t causality_count(const struct causality *c, uint32_t at, uint32_t from, uint32_t to);
/* How often a request at `at` went on to `to`, whatever it came from. */
uint64_t causality_count_to(const struct causality *c, uint32_t at, uint32_t to);

#endif

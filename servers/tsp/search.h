/*
 * servers/tsp/search.h - the controller's half of the branch and bound:
 * which subproblems to hand out, in what order, and what to do with the
 * answers.  A state machine with no DEMOS calls, so the host tests drive it
 * with simulated servers and the controller program (tsp.c) with real ones.
 *
 * The controller owns the top of the search tree, paths of up to `depth`
 * cities after city 0.  To branch at a node it has the bounds of all the
 * node's children computed (one TSP_BOUND subproblem each, run in parallel
 * by the servers), descends into the child with the lowest bound, and
 * backtracks to the next one when a subtree cannot beat the best tour.
 * Children `depth` cities deep are TSP_SOLVE subproblems: a server searches
 * the whole subtree.  The versions differ in what is kept on the way back
 * (docs/tsp.md, "The three versions").
 */
#ifndef DPM_TSP_SEARCH_H
#define DPM_TSP_SEARCH_H
#include <stdint.h>

#include "instance.h"
#include "protocol.h"

enum tsp_version {
	TSP_V1 = 1,     /* as first written: re-expands a node on backtracking   */
	TSP_V2 = 2,     /* low-node caching: keeps each level's sorted children  */
	TSP_V3 = 3      /* v2 with two requests queued at every server           */
};

struct search_child {
	int32_t bound;
	uint8_t city;
};

struct search_level {
	int cached;                 /* children[] holds this node's children   */
	int nchildren, next;        /* sorted by (bound, city); next to descend */
	struct search_child children[TSP_MAX_N];
	int has_chosen;             /* chosen: the child last descended into   */
	struct search_child chosen;
};

struct search_stats {
	uint64_t subproblems;       /* handed out                              */
	uint64_t expansions;        /* nodes whose children were evaluated     */
	uint64_t reexpansions;      /* of which again, after backtracking (v1) */
	uint64_t nodes;             /* lower bounds computed by the servers    */
};

struct search {
	const struct tsp_instance *t;
	int version, depth_limit;
	int depth;                  /* current node: path[0..depth]             */
	uint8_t path[TSP_MAX_N];
	struct search_level level[TSP_MAX_N];
	/* the expansion in progress: children of path[0..depth] */
	uint32_t mode;              /* TSP_BOUND or TSP_SOLVE                   */
	uint8_t pending[TSP_MAX_N];
	int npending, nsent, nanswered;
	uint8_t answered[TSP_MAX_N];
	uint32_t first_id;
	struct search_child got[TSP_MAX_N];
	int ngot;
	int done;
	int32_t best;               /* TSP_INF until a tour is found            */
	uint8_t best_tour[TSP_MAX_N];
	struct search_stats stats;
};

/* The depth used when none is given, n/3 (at least 1): the controller
 * backtracks over a third of the tree and servers search the rest, which
 * keeps N = 16 to some thousands of subproblems (docs/tsp.md). */
int search_default_depth(int n);

/* Start a search of t (t->n >= 2) with depth_limit in 1..n-1. */
void search_start(struct search *s, const struct tsp_instance *t, int version, int depth_limit);

/* The next subproblem to hand out: 1 and *sub, or 0 when none can be
 * given before more answers come (or the search is done). */
int search_next(struct search *s, struct tsp_subproblem *sub);

/* Take a server's answer to a subproblem handed out; -1 if it answers
 * nothing outstanding (a protocol error). */
int search_answer(struct search *s, const struct tsp_answer *ans);

/* How many subproblems a server holds at once: 1, or 2 in v3. */
int search_queue_depth(int version);

/* Outstanding subproblems: handed out, not yet answered. */
int search_outstanding(const struct search *s);
#endif

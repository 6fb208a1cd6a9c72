/*
 * servers/tsp/search.c - the controller's search over the top of the tree
 * (search.h).  One expansion is in progress at a time: the children of the
 * current node are handed out, and only when every answer is in (the
 * thesis's synchronization point) does the controller choose where to go.
 * The levels form the backtracking stack; v1 forgets a level's children
 * when it descends and recomputes them when it comes back, v2 and v3 keep
 * them.
 */
#include <string.h>

#include "search.h"

int search_default_depth(int n)
{
	return n / 3 < 1 ? 1 : n / 3;
}

static int key_after(struct search_child a, struct search_child b)
{
	return a.bound > b.bound || (a.bound == b.bound && a.city > b.city);
}

/* Hand out the children of path[0..depth]. */
static void start_expansion(struct search *s)
{
	uint8_t visited[TSP_MAX_N] = { 0 };
	for (int i = 0; i <= s->depth; i++)
		visited[s->path[i]] = 1;
	s->mode = s->depth + 1 >= s->depth_limit ? TSP_SOLVE : TSP_BOUND;
	s->npending = s->nsent = s->nanswered = s->ngot = 0;
	for (int c = 0; c < s->t->n; c++)
		if (!visited[c])
			s->pending[s->npending++] = (uint8_t)c;
	memset(s->answered, 0, sizeof s->answered);
	s->first_id = (uint32_t)s->stats.subproblems;
	s->stats.expansions++;
	if (s->level[s->depth].has_chosen)
		s->stats.reexpansions++;
}

/* Go to the next node to expand, backtracking over exhausted levels; the
 * search is done when the root is exhausted. */
static void advance(struct search *s)
{
	while (s->depth >= 0) {
		struct search_level *l = &s->level[s->depth];
		if (!l->cached) {
			start_expansion(s);
			return;
		}
		if (l->next < l->nchildren && l->children[l->next].bound < s->best) {
			struct search_child c = l->children[l->next++];
			l->chosen = c;
			l->has_chosen = 1;
			if (s->version == TSP_V1)
				l->cached = 0; /* v1 keeps only the choice */
			s->path[++s->depth] = c.city;
			s->level[s->depth].cached = 0;
			s->level[s->depth].has_chosen = 0;
			continue;
		}
		s->depth--;
	}
	s->done = 1;
}

/* Every child of the current node is answered: keep what to descend into. */
static void finish_expansion(struct search *s)
{
	struct search_level *l = &s->level[s->depth];
	l->cached = 1;
	l->next = l->nchildren = 0;
	if (s->mode == TSP_BOUND) {
		for (int i = 0; i < s->ngot; i++) {
			int at = l->nchildren++;
			while (at > 0 && key_after(l->children[at - 1], s->got[i])) {
				l->children[at] = l->children[at - 1];
				at--;
			}
			l->children[at] = s->got[i];
		}
		/* back after a descent (v1): continue after the child chosen last */
		while (l->has_chosen && l->next < l->nchildren && !key_after(l->children[l->next], l->chosen))
			l->next++;
	}
	advance(s);
}

void search_start(struct search *s, const struct tsp_instance *t, int version, int depth_limit)
{
	memset(s, 0, sizeof *s);
	s->t = t;
	s->version = version;
	s->depth_limit = depth_limit;
	s->best = TSP_INF;
	s->path[0] = 0;
	advance(s);
}

int search_next(struct search *s, struct tsp_subproblem *sub)
{
	if (s->done || s->nsent >= s->npending)
		return 0;
	int i = s->nsent++;
	memset(sub, 0, sizeof *sub);
	sub->id = s->first_id + (uint32_t)i;
	sub->mode = s->mode;
	sub->upper = s->best;
	sub->len = (uint32_t)s->depth + 2;
	memcpy(sub->path, s->path, (size_t)s->depth + 1);
	sub->path[s->depth + 1] = s->pending[i];
	s->stats.subproblems++;
	return 1;
}

static int status_fits_mode(uint32_t mode, uint32_t status)
{
	if (status == TSP_PRUNED)
		return 1;
	return mode == TSP_BOUND ? status == TSP_BOUNDED : status == TSP_SOLVED;
}

int search_answer(struct search *s, const struct tsp_answer *ans)
{
	uint32_t i = ans->id - s->first_id;
	if (s->done || i >= (uint32_t)s->nsent || s->answered[i] || !status_fits_mode(s->mode, ans->status))
		return -1;
	s->answered[i] = 1;
	s->nanswered++;
	s->stats.nodes += ans->nodes;
	if (ans->status == TSP_BOUNDED)
		s->got[s->ngot++] = (struct search_child){ ans->value, s->pending[i] };
	if (ans->status == TSP_SOLVED && ans->value < s->best) {
		s->best = ans->value;
		memcpy(s->best_tour, ans->tour, (size_t)s->t->n);
	}
	if (s->nanswered == s->npending)
		finish_expansion(s);
	return 0;
}

int search_queue_depth(int version)
{
	return version == TSP_V3 ? 2 : 1;
}

int search_outstanding(const struct search *s)
{
	return s->done ? 0 : s->nsent - s->nanswered;
}

/*
 * servers/tsp/bnb.c - the branch-and-bound core (Little et al.'s reduced
 * cost matrix, as in the Cm* study the thesis follows).  The bound is
 * computed from the original matrix for each prefix rather than carried
 * down incrementally: the controller and every server then get the same
 * number for the same prefix, whichever process computes it, so the three
 * versions explore the same tree and differ only in how work flows.
 */
#include <string.h>

#include "bnb.h"

/* Entry (row r, column c) of the matrix of the rest of a tour whose prefix
 * ends in `last` while `open` cities remain: no self loops, and no
 * closing the tour from `last` before the open cities are visited. */
static int32_t rest_cost(const struct tsp_instance *t, int last, int open, int r, int c)
{
	if (r == c || (open > 0 && r == last && c == 0))
		return TSP_INF;
	return tsp_cost(t, r, c);
}

/* The reduction of the rest's matrix: rows are `last` and the open cities,
 * columns the open cities and city 0. */
static int32_t reduction(const struct tsp_instance *t, int last, const uint8_t *open, int nopen)
{
	uint8_t rows[TSP_MAX_N], cols[TSP_MAX_N];
	int32_t row_min[TSP_MAX_N], sum = 0;
	int m = nopen + 1;
	rows[0] = (uint8_t)last;
	memcpy(rows + 1, open, (size_t)nopen);
	memcpy(cols, open, (size_t)nopen);
	cols[nopen] = 0;
	for (int i = 0; i < m; i++) {
		int32_t best = TSP_INF;
		for (int j = 0; j < m; j++) {
			int32_t c = rest_cost(t, last, nopen, rows[i], cols[j]);
			if (c < best)
				best = c;
		}
		row_min[i] = best;
		sum += best;
	}
	for (int j = 0; j < m; j++) {
		int32_t best = TSP_INF;
		for (int i = 0; i < m; i++) {
			int32_t c = rest_cost(t, last, nopen, rows[i], cols[j]);
			if (c < TSP_INF && c - row_min[i] < best)
				best = c - row_min[i];
		}
		sum += best;
	}
	return sum;
}

int32_t bnb_bound(const struct tsp_instance *t, const uint8_t *path, int len)
{
	uint8_t visited[TSP_MAX_N] = { 0 }, open[TSP_MAX_N];
	int32_t cost = 0;
	int nopen = 0;
	for (int i = 0; i < len; i++) {
		visited[path[i]] = 1;
		if (i > 0)
			cost += tsp_cost(t, path[i - 1], path[i]);
	}
	int last = path[len - 1];
	if (len == t->n)
		return cost + tsp_cost(t, last, 0);
	for (int c = 0; c < t->n; c++)
		if (!visited[c])
			open[nopen++] = (uint8_t)c;
	return cost + reduction(t, last, open, nopen);
}

struct solver {
	const struct tsp_instance *t;
	uint8_t path[TSP_MAX_N];
	uint8_t visited[TSP_MAX_N];
	struct bnb_result *out;
	int32_t best;            /* out->cost, or the caller's upper bound */
};

struct child {
	int32_t bound;
	uint8_t city;
};

/* The children of path[0..len-1] whose bound is below the best, in
 * increasing (bound, city). */
static int children_by_bound(struct solver *s, int len, struct child *kids)
{
	int k = 0;
	for (int c = 0; c < s->t->n; c++) {
		if (s->visited[c])
			continue;
		s->path[len] = (uint8_t)c;
		int32_t b = bnb_bound(s->t, s->path, len + 1);
		s->out->nodes++;
		if (b >= s->best)
			continue;
		int at = k++;
		while (at > 0 && kids[at - 1].bound > b) {
			kids[at] = kids[at - 1];
			at--;
		}
		kids[at] = (struct child){ b, (uint8_t)c };
	}
	return k;
}

static void search_below(struct solver *s, int len)
{
	if (len == s->t->n) {
		/* a complete tour: its bound (< best) was its exact cost */
		s->best = s->out->cost = bnb_bound(s->t, s->path, len);
		s->out->found = 1;
		memcpy(s->out->tour, s->path, (size_t)len);
		return;
	}
	struct child kids[TSP_MAX_N];
	int k = children_by_bound(s, len, kids);
	for (int i = 0; i < k && kids[i].bound < s->best; i++) {
		s->path[len] = kids[i].city;
		s->visited[kids[i].city] = 1;
		search_below(s, len + 1);
		s->visited[kids[i].city] = 0;
	}
}

void bnb_solve(const struct tsp_instance *t, const uint8_t *path, int len, int32_t upper,
	       struct bnb_result *out)
{
	static struct solver s; /* off the stack: programs get 64 KiB of it */
	memset(out, 0, sizeof *out);
	s = (struct solver){ .t = t, .out = out, .best = upper };
	memcpy(s.path, path, (size_t)len);
	for (int i = 0; i < len; i++)
		s.visited[path[i]] = 1;
	out->nodes = 1;
	if (bnb_bound(t, path, len) < upper)
		search_below(&s, len);
}

void bnb_answer(const struct tsp_instance *t, const struct tsp_subproblem *sub, struct tsp_answer *ans)
{
	memset(ans, 0, sizeof *ans);
	ans->id = sub->id;
	if (sub->mode == TSP_BOUND) {
		ans->value = bnb_bound(t, sub->path, (int)sub->len);
		ans->nodes = 1;
		ans->status = ans->value < sub->upper ? TSP_BOUNDED : TSP_PRUNED;
		return;
	}
	struct bnb_result r;
	bnb_solve(t, sub->path, (int)sub->len, sub->upper, &r);
	ans->nodes = r.nodes;
	ans->status = r.found ? TSP_SOLVED : TSP_PRUNED;
	ans->value = r.found ? r.cost : sub->upper;
	if (r.found)
		memcpy(ans->tour, r.tour, (size_t)t->n);
}

/*
 * analysis/model/causality.c - linking receives to sends inside servers,
 * following requests into causality strings, and counting strings,
 * substrings and transitions (see causality.h).
 */
#include "causality.h"

#include <stdlib.h>
#include <string.h>

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 256;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

static uint32_t role_of(const struct causality *c, uint32_t p)
{
	return p == NO_PROC ? ROLE_SYSTEM : c->role[p];
}

/* Each server's receives, stacked until its next send claims the top. */
static void link_receives(struct causality *c, uint32_t *stack)
{
	const struct cgraph *g = c->g;
	const struct trace *t = g->tr;
	for (uint32_t p = 0; p < t->nproc; p++) {
		if (c->role[p] != ROLE_SERVER)
			continue;
		size_t depth = 0;
		for (uint32_t k = g->first[p]; k < g->first[p + 1]; k++) {
			const struct event *e = cgraph_event(g, k);
			if (e->type == TRACE_RECEIVE && role_of(c, e->src) != ROLE_SYSTEM)
				stack[depth++] = k;
			else if (e->type == TRACE_SEND && role_of(c, e->dst) != ROLE_SYSTEM && depth)
				c->link[stack[--depth]] = k;
		}
	}
}

static uint32_t group(const struct causality *c, uint32_t p)
{
	return role_of(c, p) == ROLE_REQUESTOR ? REQUESTORS : p;
}

static int count_transition(struct causality *c, uint32_t at, uint32_t from, uint32_t to)
{
	/* Process indices fit in 21 bits for any trace this tool can hold. */
	uint64_t key = ((uint64_t)at << 42) | ((uint64_t)(from & 0x1fffff) << 21) | (to & 0x1fffff);
	uint32_t i = hashmap_get(&c->tr_index, key);
	if (i == HASHMAP_NONE) {
		if (grow((void **)&c->tr, &c->trcap, c->ntr + 1, sizeof *c->tr) < 0 ||
		    hashmap_put(&c->tr_index, key, (uint32_t)c->ntr) < 0)
			return -1;
		i = (uint32_t)c->ntr++;
		c->tr[i] = (struct transition){ at, from, to, 0 };
	}
	c->tr[i].count++;
	return 0;
}

static int push_symbol(struct causality *c, uint32_t p)
{
	if (grow((void **)&c->pool, &c->poolcap, c->npool + 1, sizeof *c->pool) < 0)
		return -1;
	c->pool[c->npool++] = p;
	return 0;
}

/* Follow the request received at node r; its string goes on the pool. */
static int follow(struct causality *c, uint32_t r)
{
	const struct cgraph *g = c->g;
	uint32_t at = g->node_proc[r];
	if (push_symbol(c, at) < 0)
		return -1;
	for (size_t steps = 0; steps < g->nnodes; steps++) {
		uint32_t s = c->link[r];
		if (s == NO_NODE)
			break;
		uint32_t to = cgraph_event(g, s)->dst;
		if (count_transition(c, at, group(c, cgraph_event(g, r)->src), group(c, to)) < 0)
			return -1;
		if (role_of(c, to) != ROLE_SERVER || g->succ[s] == NO_NODE)
			break;
		r = g->succ[s];
		at = to;
		if (push_symbol(c, at) < 0)
			return -1;
	}
	return 0;
}

static uint64_t seq_hash(const uint32_t *sym, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ len;
	for (size_t i = 0; i < len; i++) {
		h ^= sym[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Count one occurrence of pool[start .. start+len). */
static int seq_add(struct causality *c, struct seq_counts *sc, uint32_t start, uint32_t len)
{
	const uint32_t *sym = c->pool + start;
	for (uint64_t key = seq_hash(sym, len);; key = key * 31 + 1) {
		uint32_t i = hashmap_get(&sc->index, key);
		if (i == HASHMAP_NONE) {
			if (grow((void **)&sc->s, &sc->cap, sc->n + 1, sizeof *sc->s) < 0 ||
			    hashmap_put(&sc->index, key, (uint32_t)sc->n) < 0)
				return -1;
			sc->s[sc->n++] = (struct seq){ start, len, 1 };
			return 0;
		}
		struct seq *q = &sc->s[i];
		if (q->len == len && !memcmp(c->pool + q->start, sym, len * sizeof *sym)) {
			q->count++;
			return 0;
		}
	}
}

static int count_strings(struct causality *c, const uint32_t *starts, size_t max_len)
{
	for (size_t i = 0; i < c->nrequests; i++) {
		uint32_t a = starts[i], len = starts[i + 1] - a;
		if (seq_add(c, &c->strings, a, len) < 0)
			return -1;
		for (uint32_t l = 2; l <= len && (!max_len || l <= max_len); l++)
			for (uint32_t o = a; o + l <= a + len; o++)
				if (seq_add(c, &c->substrings, o, l) < 0)
					return -1;
	}
	return 0;
}

static int collect_strings(struct causality *c, uint32_t **starts)
{
	const struct cgraph *g = c->g;
	size_t cap = 0;
	*starts = NULL;
	for (uint32_t k = 0; k < g->nnodes; k++) {
		const struct event *e = cgraph_event(g, k);
		if (e->type != TRACE_RECEIVE || c->role[g->node_proc[k]] != ROLE_SERVER ||
		    role_of(c, e->src) != ROLE_REQUESTOR)
			continue;
		if (grow((void **)starts, &cap, c->nrequests + 2, sizeof **starts) < 0)
			return -1;
		(*starts)[c->nrequests++] = (uint32_t)c->npool;
		if (follow(c, k) < 0)
			return -1;
	}
	if (grow((void **)starts, &cap, c->nrequests + 1, sizeof **starts) < 0)
		return -1;
	(*starts)[c->nrequests] = (uint32_t)c->npool;
	return 0;
}

int causality_compute(struct causality *c, const struct cgraph *g, const uint8_t *role,
		      size_t max_len)
{
	memset(c, 0, sizeof *c);
	c->g = g;
	c->role = role;
	c->link = malloc((g->nnodes + 1) * sizeof *c->link);
	uint32_t *stack = malloc((g->nnodes + 1) * sizeof *stack), *starts = NULL;
	int rc = -1;
	if (!c->link || !stack || hashmap_init(&c->tr_index, 64) < 0 ||
	    hashmap_init(&c->strings.index, 64) < 0 || hashmap_init(&c->substrings.index, 64) < 0)
		goto out;
	memset(c->link, 0xff, g->nnodes * sizeof *c->link);
	link_receives(c, stack);
	if (collect_strings(c, &starts) == 0 && count_strings(c, starts, max_len) == 0)
		rc = 0;
out:
	free(stack);
	free(starts);
	return rc;
}

void causality_free(struct causality *c)
{
	free(c->link);
	free(c->pool);
	free(c->strings.s);
	free(c->substrings.s);
	free(c->tr);
	hashmap_free(&c->strings.index);
	hashmap_free(&c->substrings.index);
	hashmap_free(&c->tr_index);
	memset(c, 0, sizeof *c);
}

static const uint32_t *sort_pool;

static int by_count(const void *a, const void *b)
{
	const struct seq *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (uint32_t i = 0; i < x->len; i++)
		if (sort_pool[x->start + i] != sort_pool[y->start + i])
			return sort_pool[x->start + i] < sort_pool[y->start + i] ? -1 : 1;
	return 0;
}

void causality_sort(struct causality *c, struct seq_counts *sc)
{
	sort_pool = c->pool;
	if (sc->n) /* none at all: no array to sort (qsort wants one) */
		qsort(sc->s, sc->n, sizeof *sc->s, by_count);
	/* The index now points at old places; nothing looks things up after
	 * sorting, so it is simply dropped. */
	hashmap_free(&sc->index);
}

static int by_place(const void *a, const void *b)
{
	const struct transition *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

void causality_sort_transitions(struct causality *c)
{
	if (c->ntr) /* none at all: no array to sort */
		qsort(c->tr, c->ntr, sizeof *c->tr, by_place);
	hashmap_free(&c->tr_index);
}

/* ---- queries on the transitions ------------------------------------------ */

uint64_t causality_out_count(const struct causality *c, uint32_t at, uint32_t from)
{
	uint64_t n = 0;
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && (from == NO_PROC || c->tr[i].from == from))
			n += c->tr[i].count;
	return n;
}

uint64_t causality_count(const struct causality *c, uint32_t at, uint32_t from, uint32_t to)
{
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && c->tr[i].from == from && c->tr[i].to == to)
			return c->tr[i].count;
	return 0;
}

uint64_t causality_count_to(const struct causality *c, uint32_t at, uint32_t to)
{
	uint64_t n = 0;
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && c->tr[i].to == to)
			n += c->tr[i].count;
	return n;
}

/*
 * analysis/model/critical_sum.c - what `dpm critical` and the report's
 * "where the time went" add up from the walk (critical_sum.h): the path's
 * states per job, node and process, every process's whole life, each
 * request's own walk summed per server with the slowest kept, and the
 * what-if's path.  Kept apart from the walk (critical.c) so the network
 * stays the part that is tested against hand-made answers, and from the
 * command so the report reads the same figures.
 */
#include "critical_sum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void critical_result_free(struct critical_result *r)
{
	if (r->whatif) {
		cpath_free(&r->wpath);
		cnet_whatif_free(&r->wnet);
	}
	cpath_free(&r->path);
	cnet_free(&r->net);
	free(r->proc);
	free(r->server);
	free(r->slow);
	free(r->machines);
	free(r->by_machine);
}

size_t critical_machine_index(const struct critical_result *r, uint32_t m)
{
	size_t lo = 0, hi = r->nmachines;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->machines[mid] < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int collect_machines(struct critical_result *r)
{
	const struct trace *t = r->net.g.tr;
	r->machines = malloc((t->nproc + 1) * sizeof *r->machines);
	r->by_machine = calloc(t->nproc + 1, sizeof *r->by_machine);
	if (!r->machines || !r->by_machine)
		return -1;
	for (size_t p = 0; p < t->nproc; p++)
		r->machines[p] = t->proc[p].machine;
	qsort(r->machines, t->nproc, sizeof *r->machines, cmp_u32);
	size_t n = 0;
	for (size_t i = 0; i < t->nproc; i++)
		if (n == 0 || r->machines[n - 1] != r->machines[i])
			r->machines[n++] = r->machines[i];
	r->nmachines = n;
	return 0;
}

static void sum_path(struct critical_result *r)
{
	const struct cnet *n = &r->net;
	for (size_t i = 0; i < r->path.nsteps; i++) {
		struct cstates s;
		cstep_states(n, &r->path, i, &s);
		uint32_t p = cstep_process(n, &r->path.steps[i]);
		cstates_add(&r->job, &s);
		cstates_add(&r->proc[p].path, &s);
		cstates_add(&r->by_machine[critical_machine_index(r, n->g.tr->proc[p].machine)], &s);
	}
	r->length = cstates_total(&r->job);
	r->elapsed = cnet_time(n, n->last) - n->t0;
}

static void sum_processes(struct critical_result *r)
{
	const struct cnet *n = &r->net;
	for (uint32_t k = 0; k < n->g.nnodes; k++) {
		struct cstates s;
		uint32_t p = n->g.node_proc[k];
		cstretch_states(n, k, &s);
		cstates_add(&r->proc[p].all, &s);
		r->proc[p].queued += cnet_queued_wait(n, k);
		r->clamped_cpu += cgraph_proc_arc(&n->g, k) - s.ns[CS_RUNNING];
	}
	for (size_t p = 0; p < n->g.tr->nproc; p++)
		r->proc[p].cpu = cgraph_tproc(&n->g, (uint32_t)p);
}

void critical_sum_steps(const struct cnet *n, const struct cpath *p, struct cstates *into)
{
	for (size_t i = 0; i < p->nsteps; i++) {
		struct cstates s;
		cstep_states(n, p, i, &s);
		cstates_add(into, &s);
	}
}

/* Keep the slowest requests, longest first (insertion: the list is short). */
static void keep_slow(struct critical_result *r, size_t want, const struct critical_request *q)
{
	if (want == 0 || (r->nslow == want && r->slow[want - 1].response >= q->response))
		return;
	size_t i = r->nslow < want ? r->nslow++ : want - 1;
	while (i > 0 && r->slow[i - 1].response < q->response) {
		r->slow[i] = r->slow[i - 1];
		i--;
	}
	r->slow[i] = *q;
}

static int sum_requests(struct critical_result *r, size_t want)
{
	const struct cnet *n = &r->net;
	r->slow = calloc(want + 1, sizeof *r->slow);
	if (!r->slow)
		return -1;
	struct cpath p;
	memset(&p, 0, sizeof p);
	for (uint32_t k = 0; k < n->g.nnodes; k++) {
		uint32_t s = cnet_call_of(n, k);
		if (s == NO_NODE)
			continue;
		struct critical_request q = { .send = s, .reply = k,
				     .response = cnet_time(n, k) - cnet_time(n, s) };
		cpath_free(&p);
		if (critical_walk_request(n, s, k, &p) < 0) {
			cpath_free(&p);
			return -1;
		}
		critical_sum_steps(n, &p, &q.states);
		r->request_mismatch += cstates_total(&q.states) != q.response;
		struct critical_server *sv = &r->server[cgraph_event(&n->g, s)->dst];
		sv->count++;
		sv->response += q.response;
		cstates_add(&sv->states, &q.states);
		r->nrequests++;
		keep_slow(r, want, &q);
	}
	cpath_free(&p);
	return 0;
}

/* Each process's events with no slack, and the least slack of the rest. */
static int sum_slack(struct critical_result *r)
{
	const struct cnet *n = &r->net;
	uint64_t *slack = malloc((n->g.nnodes + 1) * sizeof *slack);
	if (!slack || cnet_slack(n, slack) < 0) {
		free(slack);
		return -1;
	}
	for (size_t p = 0; p < n->g.tr->nproc; p++)
		r->proc[p].least_slack = UINT64_MAX;
	for (uint32_t k = 0; k < n->g.nnodes; k++) {
		struct critical_proc *c = &r->proc[n->g.node_proc[k]];
		c->events++;
		if (!slack[k])
			c->critical_events++;
		else if (slack[k] < c->least_slack)
			c->least_slack = slack[k];
	}
	free(slack);
	return 0;
}

int critical_result_whatif(struct critical_result *r, const struct cwhatif *c, char *err,
			   size_t errlen)
{
	if (cnet_whatif(&r->net, c, &r->wnet, err, errlen) < 0)
		return -1;
	r->whatif = 1;
	if (critical_walk(&r->wnet, &r->wpath, err, errlen) < 0)
		return -1;
	critical_sum_steps(&r->wnet, &r->wpath, &r->wjob);
	r->wlength = cstates_total(&r->wjob);
	r->welapsed = cnet_time(&r->wnet, r->wnet.last) - r->wnet.t0;
	return 0;
}

int critical_analyse(const struct trace *t, size_t slowest, struct critical_result *r, char *err,
		     size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (cnet_build(&r->net, t, err, errlen) < 0 || critical_walk(&r->net, &r->path, err, errlen) < 0)
		return -1;
	r->proc = calloc(t->nproc + 1, sizeof *r->proc);
	r->server = calloc(t->nproc + 1, sizeof *r->server);
	if (!r->proc || !r->server || collect_machines(r) < 0 || sum_requests(r, slowest) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -2;
	}
	sum_path(r);
	sum_processes(r);
	if (sum_slack(r) < 0) {
		snprintf(err, errlen, "%s: out of memory", t->path);
		return -2;
	}
	return 0;
}

/*
 * analysis/model/configs.c - planning and evaluating configurations of P (see
 * configs.h).  Evaluation only re-times the graph, so each configuration
 * costs one linear pass, or an O(n log n) simulation with CPU sharing.
 */
#include "configs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	char kind;
	const char *name;
	const char *label, *label_shared;
} kinds[] = {
	{ CONFIG_MEASURED, "measured", "measured (with delivery times)",
	  "measured, with CPU contention" },
	{ CONFIG_UPPER, "upper-bound", "upper bound (no delivery time, no contention)",
	  "upper bound (no delivery time, no contention)" },
	{ CONFIG_EACH_OWN, "each-own-machine", "each process on its own machine",
	  "each process on its own machine" },
	{ CONFIG_ONE, "one-machine", "all on one machine", "all on one machine, with CPU contention" },
	{ CONFIG_ASSIGN, "assign", "another assignment", "another assignment, with CPU contention" },
};

static int build_assignment(struct config_run *c, const struct trace *t, enum config_kind kind,
			    const char *arg, char *err, size_t errlen)
{
	int rc;
	switch (kind) {
	case CONFIG_UPPER:
	case CONFIG_EACH_OWN: rc = assign_each_own(&c->a, t); break;
	case CONFIG_ONE: rc = assign_one(&c->a, t); break;
	case CONFIG_ASSIGN: return assign_parse(&c->a, t, arg, err, errlen);
	default: rc = assign_measured(&c->a, t); break;
	}
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int config_plan(struct config_run *c, const struct trace *t, enum config_kind kind,
		const char *arg, int contention, char *err, size_t errlen)
{
	size_t k = 0;
	while (k < sizeof kinds / sizeof kinds[0] - 1 && kinds[k].kind != (char)kind)
		k++;
	memset(c, 0, sizeof *c);
	c->contention = contention;
	c->slice_ns = PCONFIG_KERNEL_SLICE_NS;
	c->zero_delivery = kind == CONFIG_UPPER;
	c->label = contention ? kinds[k].label_shared : kinds[k].label;
	snprintf(c->mode, sizeof c->mode, "%s%s", kinds[k].name, contention ? "+contention" : "");
	return build_assignment(c, t, kind, arg, err, errlen);
}

int configs_plan_thesis(struct config_run *c, const struct trace *t, char *err, size_t errlen)
{
	static const struct { enum config_kind kind; int contention; } thesis[CONFIGS_THESIS] = {
		{ CONFIG_UPPER, 0 }, { CONFIG_MEASURED, 0 }, { CONFIG_MEASURED, 1 },
		{ CONFIG_EACH_OWN, 0 }, { CONFIG_ONE, 1 },
	};
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		if (config_plan(&c[i], t, thesis[i].kind, NULL, thesis[i].contention, err, errlen) < 0)
			return -1;
	return 0;
}

int config_eval(struct config_run *c, const struct cgraph *g, const struct mtime_table *mt,
		struct pwork *w, char *err, size_t errlen)
{
	struct mtime_table zero;
	mtime_zero(&zero);
	struct pconfig pc = { c->a.machine_of, c->zero_delivery ? &zero : mt, c->contention,
			      c->slice_ns };
	if (parallel_eval(g, &pc, w, &c->r, err, errlen) < 0)
		return -1;
	c->path = max_path(g, &pc, w, &c->r, &c->npath);
	return 0;
}

int configs_eval(struct config_run *c, size_t n, const struct cgraph *g,
		 const struct mtime_table *mt, char *err, size_t errlen)
{
	struct pwork w;
	if (pwork_alloc(&w, g->nnodes) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = config_eval(&c[i], g, mt, &w, err, errlen);
	pwork_free(&w);
	return rc;
}

double config_path_cpu(const struct config_run *c, uint32_t p)
{
	double cpu = 0;
	for (size_t i = 0; i < c->npath; i++)
		if (c->path[i].proc == p)
			cpu += c->path[i].cpu;
	return cpu;
}

size_t config_path_messages(const struct config_run *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->npath; i++)
		n += c->path[i].out_kind == CROSS_MESSAGE;
	return n;
}

void config_free(struct config_run *c)
{
	assign_free(&c->a);
	free(c->path);
	c->path = NULL;
	c->npath = 0;
}

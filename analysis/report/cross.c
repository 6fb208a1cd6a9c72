/*
 * analysis/report/cross.c - how well P predicts (thesis Fig. 5.17): the P
 * of run X's configuration computed from run Y's trace, beside X's own
 * measured P.
 *
 * Processes are matched across runs by name (a names file), else by
 * node.pid.  The prediction is an ordinary --assign of Y's trace: each
 * process Y shares with X goes to the machine X ran it on, which is the
 * same code path as `dpm parallel --assign`.  Both the measured mode and
 * the mode with CPU contention are predicted; the diagonal is each run's
 * own measured P.
 */
#include "cross.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The traced process of run x called like process q of run y, or NO_PROC. */
static uint32_t same_process(const struct report_run *x, const struct report_run *y, uint32_t q)
{
	const char *name = report_process(y, q);
	for (uint32_t p = 0; p < x->tr.nproc; p++)
		if (report_traced(x, p) && !strcmp(report_process(x, p), name))
			return p;
	return NO_PROC;
}

int report_assign_add(char **s, size_t *len, size_t *cap, const struct report_run *y,
		      uint32_t q, const char *machine)
{
	/* node.pid, never the process's name: --assign takes only that, and a
	 * recorded log's processes are named (LOG.names: "fsuser#1") */
	char item[160];
	uint32_t id = y->tr.proc[q].id;
	int n = snprintf(item, sizeof item, "%s%u.%u=%s", *len ? "," : "", TASK_NODE(id),
			 TASK_PID(id), machine);
	if (!*s || *len + (size_t)n + 1 > *cap) {
		size_t want = 2 * (*len + (size_t)n + 1);
		char *grown = realloc(*s, want);
		if (!grown)
			return -1;
		*s = grown;
		*cap = want;
	}
	memcpy(*s + *len, item, (size_t)n + 1);
	*len += (size_t)n;
	return 0;
}

/* "node.pid=MACHINE,..." moving y's processes to x's machines; NULL out of
 * memory.  *shared counts them. */
static char *assignment_of(const struct report_run *x, const struct report_run *y, size_t *shared)
{
	const struct assignment *xa = &x->cfg[CFG_MEASURED].a;
	size_t cap = 64, len = 0;
	char *spec = malloc(cap);
	*shared = 0;
	if (!spec)
		return NULL;
	spec[0] = '\0';
	for (uint32_t q = 0; q < y->tr.nproc; q++) {
		uint32_t p = report_traced(y, q) ? same_process(x, y, q) : NO_PROC;
		if (p == NO_PROC)
			continue;
		if (report_assign_add(&spec, &len, &cap, y, q, xa->label[xa->machine_of[p]]) < 0) {
			free(spec);
			return NULL;
		}
		++*shared;
	}
	return spec;
}

int report_predict(const struct report_run *y, const char *spec, int contention,
		   struct pwork *w, double *p, char *err, size_t errlen)
{
	struct config_run c;
	int rc = config_plan(&c, &y->tr, CONFIG_ASSIGN, spec, contention, err, errlen);
	if (rc == 0)
		rc = config_eval(&c, &y->g, &y->mt, w, err, errlen);
	*p = c.r.P;
	config_free(&c);
	return rc;
}

/* Column y: every other run's assignment applied to y's trace. */
static int column(struct report_cross *x, size_t y, char *err, size_t errlen)
{
	struct report_run *const *runs = x->run;
	struct pwork w;
	if (pwork_alloc(&w, runs[y]->g.nnodes) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	for (size_t row = 0; row < x->n && rc == 0; row++) {
		size_t k = row * x->n + y;
		if (row == y) {
			x->p[0][k] = runs[y]->cfg[CFG_MEASURED].r.P;
			x->p[1][k] = runs[y]->cfg[CFG_CONTENTION].r.P;
			x->shared[k] = 0;
			continue;
		}
		char *spec = assignment_of(runs[row], runs[y], &x->shared[k]);
		if (!spec) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		} else if (x->shared[k] == 0) {
			x->p[0][k] = x->p[1][k] = NAN;
		} else {
			x->any = 1;
			rc = report_predict(runs[y], spec, 0, &w, &x->p[0][k], err, errlen);
			if (rc == 0)
				rc = report_predict(runs[y], spec, 1, &w, &x->p[1][k], err, errlen);
		}
		free(spec);
	}
	pwork_free(&w);
	return rc;
}

int report_cross_compute(struct report_cross *x, struct report_run *runs, const size_t *pick,
			 size_t n, char *err, size_t errlen)
{
	memset(x, 0, sizeof *x);
	x->n = n;
	x->run = calloc(n + 1, sizeof *x->run);
	x->p[0] = calloc(n * n + 1, sizeof(double));
	x->p[1] = calloc(n * n + 1, sizeof(double));
	x->shared = calloc(n * n + 1, sizeof(size_t));
	if (!x->run || !x->p[0] || !x->p[1] || !x->shared) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		x->run[i] = &runs[pick ? pick[i] : i];
	for (size_t y = 0; y < n; y++)
		if (column(x, y, err, errlen) < 0)
			return -1;
	return 0;
}

size_t report_cross_related(const struct report_run *runs, size_t n, size_t *pick)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		int related = 0;
		for (size_t j = 0; j < n && !related; j++)
			for (uint32_t q = 0; j != i && q < runs[j].tr.nproc && !related; q++)
				related = report_traced(&runs[j], q) &&
					  same_process(&runs[i], &runs[j], q) != NO_PROC;
		if (related)
			pick[kept++] = i;
	}
	return kept;
}

void report_cross_free(struct report_cross *x)
{
	free(x->run);
	free(x->p[0]);
	free(x->p[1]);
	free(x->shared);
	memset(x, 0, sizeof *x);
}

double report_cross_diff(const struct report_cross *x, int mode, size_t row, size_t col)
{
	double own = x->run[row]->cfg[mode ? CFG_CONTENTION : CFG_MEASURED].r.P;
	double predicted = x->p[mode][row * x->n + col];
	return own > 0 ? 100.0 * (predicted - own) / own : NAN;
}

/*
 * analysis/report/run.c - the analyses of one run of `dpm report`,
 * computed in-process with the same library calls `dpm stats`,
 * `dpm parallel --all` and `dpm causality` make, so the page and the
 * commands agree to the last digit.
 *
 * The graph is built once; the five configurations re-time it.  The node
 * times of two of them (upper bound and measured) are kept for the
 * parallelism profile and the timeline; the rest of each timing is
 * dropped as soon as its P and maximum path are known.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "analysis/model/mtime_log.h"
#include "analysis/model/trace_load.h"
#include "hostfilter/tracelog/log.h"

/* mtime=, else the table recorded beside the log, else the placeholder
 * (said on stderr). */
static int load_mtime(struct report_run *r, char *err, size_t errlen)
{
	if (mtime_for_log(&r->mt, r->spec->mtime, r->spec->log, "dpm report", "mtime=", stderr,
			  r->mtime_what, sizeof r->mtime_what, err, errlen) < 0)
		return -1;
	mtime_log_clock(r->spec->log, &r->mt, r->clock, sizeof r->clock);
	return 0;
}

static int load(struct report_run *r, char *err, size_t errlen)
{
	const char *path = r->spec->log;
	trace_init(&r->tr, path);
	r->raw_is_log = dpm_log_sniff(path);
	char names[4096];
	if (trace_load(&r->tr, path, err, errlen) < 0 ||
	    (names_beside(path, names, sizeof names) &&
	     trace_names_load(&r->tr, names, err, errlen) < 0))
		return EXIT_BADINPUT;
	if (r->tr.nev == 0) {
		snprintf(err, errlen, "%s: the trace has no events", path);
		return EXIT_BADINPUT;
	}
	return load_mtime(r, err, errlen) < 0 ? EXIT_BADINPUT : EXIT_OK;
}

/* Evaluate the five configurations; keep the node times of two. */
static int parallelism(struct report_run *r, char *err, size_t errlen)
{
	struct pwork w;
	if (configs_plan_thesis(r->cfg, &r->tr, err, errlen) < 0)
		return EXIT_FAILED;
	if (pwork_alloc(&w, r->g.nnodes) < 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	size_t bytes = (r->g.nnodes + 1) * sizeof(double);
	r->when_upper = malloc(bytes);
	r->when_measured = malloc(bytes);
	int rc = r->when_upper && r->when_measured ? EXIT_OK : EXIT_FAILED;
	if (rc)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; i < CONFIGS_THESIS && rc == EXIT_OK; i++) {
		if (config_eval(&r->cfg[i], &r->g, &r->mt, &w, err, errlen) < 0)
			rc = EXIT_BADINPUT;
		else if (i == CFG_UPPER || i == CFG_MEASURED)
			memcpy(i == CFG_UPPER ? r->when_upper : r->when_measured, w.when,
			       r->g.nnodes * sizeof(double));
	}
	pwork_free(&w);
	return rc;
}

static int causality(struct report_run *r, char *err, size_t errlen)
{
	const struct report_spec *s = r->spec;
	struct role_sources src = { s->requestors, s->servers, s->system, s->names, NULL };
	char beside[4096];
	if (!s->requestors && !s->servers && !s->system && !s->names &&
	    names_beside(s->log, beside, sizeof beside)) {
		src.names = beside; /* what dpm record wrote beside its log */
	}
	if (roles_assign(&r->roles, &r->tr, &src, err, errlen) < 0)
		return EXIT_BADINPUT;
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		r->have_causality |= r->roles.role[p] == ROLE_REQUESTOR;
	if (!r->have_causality)
		return EXIT_OK;
	if (causality_compute(&r->cz, &r->g, r->roles.role, 16) < 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	causality_sort(&r->cz, &r->cz.strings);
	causality_sort(&r->cz, &r->cz.substrings);
	causality_sort_transitions(&r->cz);
	return EXIT_OK;
}

/* The critical path compares times across nodes: only on one clock
 * (virtual time) or one machine; otherwise the section says why not. */
static int critical(struct report_run *r, char *err, size_t errlen)
{
	int one_machine = 1;
	for (size_t p = 1; p < r->tr.nproc; p++)
		one_machine &= r->tr.proc[p].machine == r->tr.proc[0].machine;
	if (strcmp(r->clock, "virtual") && !one_machine) {
		snprintf(r->critical_why, sizeof r->critical_why,
			 "the run was recorded on several clocks (clock=%s), and the critical path "
			 "compares times across nodes", r->clock[0] ? r->clock : "unknown");
		return EXIT_OK;
	}
	int rc = critical_analyse(&r->tr, 5, &r->crit, err, errlen);
	if (rc == -2)
		return EXIT_FAILED;
	r->have_critical = rc == 0;
	if (rc < 0)
		snprintf(r->critical_why, sizeof r->critical_why, "%s", err);
	return EXIT_OK;
}

int report_run_analyse(struct report_run *r, const struct report_spec *s, char *err,
		       size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->spec = s;
	int rc = load(r, err, errlen);
	if (rc)
		return rc;
	if (stats_compute(&r->st, &r->tr) < 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	if (cgraph_build(&r->g, &r->tr, err, errlen) < 0)
		return EXIT_BADINPUT;
	rc = parallelism(r, err, errlen);
	if (!rc)
		rc = critical(r, err, errlen);
	return rc ? rc : causality(r, err, errlen);
}

void report_run_free(struct report_run *r)
{
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		config_free(&r->cfg[i]);
	free(r->when_upper);
	free(r->when_measured);
	causality_free(&r->cz);
	critical_result_free(&r->crit);
	roles_free(&r->roles, r->tr.nproc);
	cgraph_free(&r->g);
	stats_free(&r->st);
	trace_free(&r->tr);
	memset(r, 0, sizeof *r);
}

const char *report_process(const struct report_run *r, uint32_t p)
{
	return roles_who(&r->roles, p);
}

int report_traced(const struct report_run *r, uint32_t p)
{
	return r->g.first[p] != r->g.first[p + 1];
}

uint32_t report_busiest(const struct report_run *r)
{
	uint32_t busiest = NO_PROC;
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		if (report_traced(r, p) &&
		    (busiest == NO_PROC || r->st.p[p].cpu > r->st.p[busiest].cpu))
			busiest = p;
	return busiest;
}

static const struct report_run *ranking_run;

static int by_cpu(const void *a, const void *b)
{
	uint64_t x = ranking_run->st.p[*(const uint32_t *)a].cpu;
	uint64_t y = ranking_run->st.p[*(const uint32_t *)b].cpu;
	if (x != y)
		return x < y ? 1 : -1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

size_t report_cpu_ranking(const struct report_run *r, uint32_t *order)
{
	size_t n = 0;
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		if (report_traced(r, p))
			order[n++] = p;
	ranking_run = r;
	qsort(order, n, sizeof *order, by_cpu);
	return n;
}

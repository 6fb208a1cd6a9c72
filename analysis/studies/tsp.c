/*
 * analysis/studies/tsp.c - the TSP study (thesis §5.3.3):
 * its numbers, CSV files and plots.
 *
 * Each run is one TSP program of size n with p servers (version 1..3); its
 * names file calls the controller `controller` and the servers s1..sP.
 * Three P per run, as in the thesis's Fig. 5.20: the upper bound (the
 * report's own), one server per machine (the controller on a machine of
 * its own, each server on another) and two servers per machine (the
 * controller alone, s1+s2, s3+s4, ... paired), both with delivery times
 * and CPU contention and computed as `dpm parallel --assign` would, on the
 * run's own trace.  Processes the names file does not call so stay where
 * they ran.  Repeats (runs differing only in rep) are summed up as mean
 * and min..max per (version, n, p).  Each run's predicted completion (t_max
 * of the measured placement with contention) against its measured one, as
 * in the file-system study (study_completion_set).
 */
#include "tsp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"

static const char *const kind_key[TSP_KINDS] = { "max", "one-per-machine", "two-per-machine" };
static const char *const kind_words[TSP_KINDS] = {
	"upper bound", "one server per machine", "two servers per machine",
};

/* The --assign spec of placement kind (TSP_ONE, TSP_TWO) for run r;
 * NULL out of memory. */
static char *placement(const struct report_run *r, uint32_t controller, int kind)
{
	size_t len = 0, cap = 0;
	char *spec = NULL, machine[48];
	if (report_assign_add(&spec, &len, &cap, r, controller, "tsp-controller") < 0)
		return NULL;
	for (long i = 1; i <= r->spec->num[KEY_P]; i++) {
		char name[24];
		snprintf(name, sizeof name, "s%ld", i);
		uint32_t q = study_process(r, name);
		if (q == NO_PROC)
			continue;
		snprintf(machine, sizeof machine, "tsp-%s%ld", kind == TSP_ONE ? "server" : "pair",
			 kind == TSP_ONE ? i : (i + 1) / 2);
		if (report_assign_add(&spec, &len, &cap, r, q, machine) < 0) {
			free(spec);
			return NULL;
		}
	}
	return spec;
}

static int check_run(const struct report_run *r, uint32_t *controller, char *err, size_t errlen)
{
	const struct report_spec *sp = r->spec;
	const char *missing = sp->num[KEY_N] == REPORT_UNSET ? "n"
			    : sp->num[KEY_P] == REPORT_UNSET ? "p"
			    : sp->num[KEY_VERSION] == REPORT_UNSET ? "version" : NULL;
	if (missing) {
		snprintf(err, errlen, "run '%s': --study tsp wants n=N, p=P and version=V of every "
			 "run (%s is not given)", sp->name, missing);
		return -1;
	}
	*controller = study_process(r, "controller");
	int servers = 0;
	for (long i = 1; i <= sp->num[KEY_P]; i++) {
		char name[24];
		snprintf(name, sizeof name, "s%ld", i);
		servers += study_process(r, name) != NO_PROC;
	}
	if (*controller == NO_PROC || !servers) {
		snprintf(err, errlen, "run '%s': --study tsp: no traced process is called '%s' (the "
			 "names file must call the controller 'controller' and the servers s1..s%ld)",
			 sp->name, *controller == NO_PROC ? "controller" : "s1", sp->num[KEY_P]);
		return -1;
	}
	return 0;
}

static int analyse_run(const struct report_run *r, struct study_tsp_run *t, char *err,
		       size_t errlen)
{
	uint32_t controller;
	if (check_run(r, &controller, err, errlen) < 0)
		return EXIT_BADINPUT;
	const struct presult *upper = &r->cfg[CFG_UPPER].r;
	t->P[TSP_MAX] = upper->P;
	t->t_ms = upper->T / 1e6;
	t->controller_pct = upper->T > 0 ? 100.0 * (double)cgraph_tproc(&r->g, controller) / upper->T
					 : NAN;
	struct pwork w;
	if (pwork_alloc(&w, r->g.nnodes) < 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	int rc = EXIT_OK;
	for (int kind = TSP_ONE; kind <= TSP_TWO && rc == EXIT_OK; kind++) {
		char *spec = placement(r, controller, kind);
		if (!spec) {
			snprintf(err, errlen, "out of memory");
			rc = EXIT_FAILED;
		} else if (report_predict(r, spec, 1, &w, &t->P[kind], err, errlen) < 0) {
			rc = EXIT_BADINPUT;
		}
		free(spec);
	}
	pwork_free(&w);
	return rc;
}

/* The group of (version, n, p) in the sorted groups[0..*ng), added if new. */
static struct study_tsp_group *group_of(struct study_tsp_group *groups, size_t *ng, long version,
					long n, long p)
{
	size_t k = 0;
	while (k < *ng && (groups[k].version < version ||
			   (groups[k].version == version && (groups[k].n < n ||
							     (groups[k].n == n && groups[k].p < p)))))
		k++;
	if (k < *ng && groups[k].version == version && groups[k].n == n && groups[k].p == p)
		return &groups[k];
	memmove(&groups[k + 1], &groups[k], (*ng - k) * sizeof *groups);
	++*ng;
	memset(&groups[k], 0, sizeof groups[k]);
	groups[k].version = version;
	groups[k].n = n;
	groups[k].p = p;
	return &groups[k];
}

static void group_add(struct study_tsp_group *g, const struct study_tsp_run *t)
{
	g->runs++;
	for (int k = 0; k < TSP_KINDS; k++)
		study_agg_add(&g->P[k], t->P[k]);
	study_agg_add(&g->t_ms, t->t_ms);
	study_agg_add(&g->controller_pct, t->controller_pct);
}

/* The n the versions are compared at: the largest with two versions, else
 * the largest. */
static long versions_n(const struct report_study *s)
{
	long best = REPORT_UNSET, largest = REPORT_UNSET;
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		largest = g->n > largest ? g->n : largest;
		for (size_t j = 0; j < s->ngroups; j++)
			if (s->groups[j].n == g->n && s->groups[j].version != g->version && g->n > best)
				best = g->n;
	}
	return best != REPORT_UNSET ? best : largest;
}

int tsp_study_compute(struct report_study *s, const struct report_run *runs, size_t n,
		      char *err, size_t errlen)
{
	s->tsp = calloc(n + 1, sizeof *s->tsp);
	s->groups = calloc(n + 1, sizeof *s->groups);
	s->cpu = calloc(n + 1, sizeof *s->cpu);
	s->completion = calloc(n + 1, sizeof *s->completion);
	if (!s->tsp || !s->groups || !s->cpu || !s->completion) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	long base = 4;
	s->ntsp = n;
	for (size_t i = 0; i < n; i++) {
		s->tsp[i].run = i;
		study_completion_set(&s->completion[i], runs, i);
		s->ncompletion = i + 1;
		int rc = analyse_run(&runs[i], &s->tsp[i], err, errlen);
		if (rc)
			return rc;
		base = runs[i].spec->num[KEY_VERSION] < base ? runs[i].spec->num[KEY_VERSION] : base;
	}
	for (size_t i = 0; i < n; i++) {
		const struct report_spec *sp = runs[i].spec;
		group_add(group_of(s->groups, &s->ngroups, sp->num[KEY_VERSION], sp->num[KEY_N],
				   sp->num[KEY_P]), &s->tsp[i]);
		if (sp->num[KEY_VERSION] == base)
			group_add(group_of(s->cpu, &s->ncpu, sp->num[KEY_VERSION], sp->num[KEY_N], 0), &s->tsp[i]);
	}
	s->versions_n = versions_n(s);
	return EXIT_OK;
}

/* ---- files ------------------------------------------------------------------ */

/* The thesis's Fig. 5.20 value of a cell, or NULL. */
const struct thesis_value *tsp_thesis_value(const struct thesis_ref *ref, long p, long n,
					    int kind)
{
	char key[64];
	snprintf(key, sizeof key, "p=%ld/N=%ld/%s", p, n, kind_key[kind]);
	return ref ? thesis_ref_find(ref, "tsp_p", key) : NULL;
}

const char *tsp_kind_name(int kind)
{
	return kind_words[kind];
}

static void thesis_csv(FILE *f, const struct thesis_value *v)
{
	study_csv_real(f, v ? v->value : NAN);
}

static void runs_rows(FILE *f, const struct study_csv_ctx *c)
{
	for (size_t i = 0; i < c->s->ntsp; i++) {
		const struct study_tsp_run *t = &c->s->tsp[i];
		const struct report_spec *sp = c->runs[t->run].spec;
		fprintf(f, "%s,%ld,%ld,%ld,", sp->name, sp->num[KEY_VERSION], sp->num[KEY_N],
			sp->num[KEY_P]);
		if (sp->num[KEY_REP] != REPORT_UNSET)
			fprintf(f, "%ld", sp->num[KEY_REP]);
		for (int k = 0; k < TSP_KINDS; k++)
			study_csv_real(f, t->P[k]);
		study_csv_real(f, t->t_ms);
		study_csv_real(f, t->controller_pct);
		study_completion_csv(f, &c->s->completion[i]);
		fputc('\n', f);
	}
}

/* The groups (of only_n, or all), with the thesis's Fig. 5.20 values. */
static void groups_rows(FILE *f, const struct study_csv_ctx *c)
{
	for (size_t i = 0; i < c->s->ngroups; i++) {
		const struct study_tsp_group *g = &c->s->groups[i];
		if (c->only_n != REPORT_UNSET && g->n != c->only_n)
			continue;
		fprintf(f, "%ld,%ld,%ld,%zu", g->version, g->n, g->p, g->runs);
		for (int k = 0; k < TSP_KINDS; k++)
			study_csv_agg(f, &g->P[k]);
		study_csv_agg(f, &g->t_ms);
		study_csv_agg(f, &g->controller_pct);
		for (int k = 0; k < TSP_KINDS; k++)
			thesis_csv(f, g->version == 1 ? tsp_thesis_value(c->ref, g->p, g->n, k) : NULL);
		fputc('\n', f);
	}
}

static void cpu_rows(FILE *f, const struct study_csv_ctx *c)
{
	for (size_t i = 0; i < c->s->ncpu; i++) {
		const struct study_tsp_group *g = &c->s->cpu[i];
		int v1 = c->ref && g->version == 1;
		char key[32];
		snprintf(key, sizeof key, "N=%ld", g->n);
		fprintf(f, "%ld,%ld,%zu", g->version, g->n, g->runs);
		study_csv_agg(f, &g->t_ms);
		study_csv_agg(f, &g->controller_pct);
		thesis_csv(f, v1 ? thesis_ref_find(c->ref, "tsp_cpu_ms", key) : NULL);
		thesis_csv(f, v1 ? thesis_ref_find(c->ref, "tsp_controller_pct", key) : NULL);
		fputc('\n', f);
	}
}

static int write_csv(const struct report_study *s, const struct report_run *runs,
		     const struct thesis_ref *ref, const char *dir, char *why, size_t whylen)
{
	static const char groups[] = "version,n,p,runs,p_max_mean,p_max_min,p_max_max,p_one_mean,"
		"p_one_min,p_one_max,p_two_mean,p_two_min,p_two_max,t_ms_mean,t_ms_min,t_ms_max,"
		"controller_pct_mean,controller_pct_min,controller_pct_max,thesis_p_max,"
		"thesis_p_one,thesis_p_two";
	struct study_csv_ctx c = { s, runs, NULL, ref, REPORT_UNSET };
	if (study_csv(dir, "study-tsp-runs.csv", "run,version,n,p,rep,p_max,p_one,p_two,t_ms,"
		      "controller_pct,predicted_ms,measured_ms,error_pct,measured_on", runs_rows, &c, why, whylen) < 0 ||
	    study_csv(dir, "study-tsp-p.csv", groups, groups_rows, &c, why, whylen) < 0 ||
	    study_csv(dir, "study-tsp-cpu.csv", "version,n,runs,t_ms_mean,t_ms_min,t_ms_max,"
		      "controller_pct_mean,controller_pct_min,controller_pct_max,thesis_t_ms,"
		      "thesis_controller_pct", cpu_rows, &c, why, whylen) < 0)
		return -1;
	c.only_n = s->versions_n;
	return study_csv(dir, "study-tsp-versions.csv", groups, groups_rows, &c, why, whylen);
}

/* ---- plots ------------------------------------------------------------------ */

/* P of one kind of the base version: against n, a line per p (by_n), or
 * against p, a line per n. */
static int p_plot(struct report_study *s, struct report_tools *tools, int kind, int by_n,
		  char *why, size_t whylen)
{
	struct study_plot *pl = calloc(1, sizeof *pl);
	if (!pl) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	long base = s->ncpu ? s->cpu[0].version : 1;
	pl->xlabel = by_n ? "N (matrix size)" : "p (servers)";
	pl->ylabel = "P";
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		char title[64];
		if (g->version != base)
			continue;
		snprintf(title, sizeof title, by_n ? "p = %ld" : "N = %ld", by_n ? g->p : g->n);
		study_point(study_series(pl, title, 0), (double)(by_n ? g->n : g->p), &g->P[kind]);
	}
	char id[64], caption[400];
	snprintf(id, sizeof id, "study-tsp-p%s-%s", by_n ? "n" : "p", kind_key[kind]);
	snprintf(caption, sizeof caption, "P, %s, against %s, a line per %s (version %ld; thesis "
		 "Figs. %s): means of the repeats, bars from the least to the greatest.",
		 kind_words[kind], by_n ? "N" : "the number of servers p", by_n ? "p" : "N", base,
		 by_n ? "5.22-5.24" : "5.25-5.27");
	int rc = study_plot_draw(s, tools, id, pl, caption, why, whylen);
	free(pl);
	return rc;
}

/* The versions at versions_n: P (one server per machine, and the upper
 * bound) or T against p, a line per version (thesis Figs. 5.28, 5.29). */
static int versions_plot(struct report_study *s, struct report_tools *tools, int time,
			 char *why, size_t whylen)
{
	struct study_plot *pl = calloc(1, sizeof *pl);
	if (!pl) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	pl->xlabel = "p (servers)";
	pl->ylabel = time ? "T, total CPU (ms)" : "P";
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		char title[64];
		if (g->n != s->versions_n)
			continue;
		snprintf(title, sizeof title, time ? "version %ld" : "version %ld, one per machine",
			 g->version);
		study_point(study_series(pl, title, 0), (double)g->p, time ? &g->t_ms : &g->P[TSP_ONE]);
		if (time)
			continue;
		snprintf(title, sizeof title, "version %ld, upper bound", g->version);
		study_point(study_series(pl, title, 0), (double)g->p, &g->P[TSP_MAX]);
	}
	char caption[400];
	snprintf(caption, sizeof caption, "%s of versions 1, 2 and 3 at N = %ld against the number of "
		 "servers (thesis Fig. %s): means of the repeats, bars from the least to the greatest.",
		 time ? "Total CPU T" : "P (one server per machine, and the upper bound)",
		 s->versions_n, time ? "5.29" : "5.28");
	int rc = study_plot_draw(s, tools, time ? "study-tsp-versions-t" : "study-tsp-versions-p",
				 pl, caption, why, whylen);
	free(pl);
	return rc;
}

int tsp_study_write(struct report_study *s, const struct report_run *runs,
		    const struct thesis_ref *ref, struct report_tools *tools, char *why,
		    size_t whylen)
{
	if (write_csv(s, runs, ref, tools->dir, why, whylen) < 0)
		return -1;
	for (int by_n = 1; by_n >= 0; by_n--)
		for (int kind = 0; kind < TSP_KINDS; kind++)
			if (p_plot(s, tools, kind, by_n, why, whylen) < 0)
				return -1;
	return versions_plot(s, tools, 0, why, whylen) < 0 ? -1
	       : versions_plot(s, tools, 1, why, whylen);
}

/*
 * analysis/studies/fs.c - the file-system study (thesis §5.3.1-5.3.2): its numbers, CSV files and plot.
 *
 * Users versus P: the runs with users=K, repeats of one K together, with
 * P of the measured configuration (with and without CPU contention) and
 * the Request Interpreter's queue (the process called RI in the run's
 * names file; its longest and mean queue as `dpm stats` computes them).
 * Predicted versus measured completion: for each run with config=, t_max
 * of its measured configuration with contention against the time the run
 * actually took, the longest span of one machine's events on that
 * machine's own clock (clocks of different machines are never compared).
 * The configurations, in config order, are also the runs the predictions
 * across runs (report_cross.c) are made among.
 */
#include "fs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"

/* Config runs in config order, then rep, then as given. */
static int config_before(const struct report_spec *a, const struct report_spec *b)
{
	int c = strcmp(a->text[KEY_CONFIG], b->text[KEY_CONFIG]);
	return c ? c < 0 : a->num[KEY_REP] < b->num[KEY_REP];
}

static int config_runs(struct report_study *s, const struct report_run *runs, size_t n)
{
	s->config_runs = calloc(n + 1, sizeof *s->config_runs);
	s->completion = calloc(n + 1, sizeof *s->completion);
	if (!s->config_runs || !s->completion)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!runs[i].spec->text[KEY_CONFIG][0])
			continue;
		size_t k = s->nconfig++;
		for (; k > 0 && config_before(runs[i].spec, runs[s->config_runs[k - 1]].spec); k--)
			s->config_runs[k] = s->config_runs[k - 1];
		s->config_runs[k] = i;
	}
	for (size_t k = 0; k < s->nconfig; k++)
		study_completion_set(&s->completion[k], runs, s->config_runs[k]);
	s->ncompletion = s->nconfig;
	return 0;
}

static struct study_users *users_row(struct report_study *s, long users)
{
	size_t k = 0;
	while (k < s->nusers && s->users[k].users < users)
		k++;
	if (k < s->nusers && s->users[k].users == users)
		return &s->users[k];
	memmove(&s->users[k + 1], &s->users[k], (s->nusers - k) * sizeof *s->users);
	s->nusers++;
	memset(&s->users[k], 0, sizeof s->users[k]);
	s->users[k].users = users;
	return &s->users[k];
}

static int users_rows(struct report_study *s, const struct report_run *runs, size_t n)
{
	s->users = calloc(n + 1, sizeof *s->users);
	if (!s->users)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct report_run *r = &runs[i];
		if (r->spec->num[KEY_USERS] == REPORT_UNSET)
			continue;
		struct study_users *u = users_row(s, r->spec->num[KEY_USERS]);
		u->runs++;
		study_agg_add(&u->p_measured, r->cfg[CFG_MEASURED].r.P);
		study_agg_add(&u->p_contention, r->cfg[CFG_CONTENTION].r.P);
		uint32_t ri = study_process(r, "RI");
		if (ri == NO_PROC) {
			s->no_ri = 1;
			continue;
		}
		const struct proc_stats *ps = &r->st.p[ri];
		study_agg_add(&u->q_max, (double)ps->q_max);
		study_agg_add(&u->q_mean, ps->q_samples ? (double)ps->q_sum / (double)ps->q_samples : 0);
	}
	return 0;
}

int fs_study_compute(struct report_study *s, const struct report_run *runs, size_t n,
		     char *err, size_t errlen)
{
	if (config_runs(s, runs, n) < 0 || users_rows(s, runs, n) < 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_FAILED;
	}
	return 0;
}

/* ---- files ------------------------------------------------------------------ */

static void users_csv_rows(FILE *f, const struct study_csv_ctx *c)
{
	for (size_t k = 0; k < c->s->nusers; k++) {
		const struct study_users *u = &c->s->users[k];
		fprintf(f, "%ld,%zu", u->users, u->runs);
		study_csv_agg(f, &u->p_measured);
		study_csv_agg(f, &u->p_contention);
		study_csv_agg(f, &u->q_max);
		study_csv_agg(f, &u->q_mean);
		fputc('\n', f);
	}
}

static void completion_rows(FILE *f, const struct study_csv_ctx *c)
{
	for (size_t k = 0; k < c->s->nconfig; k++) {
		const struct study_completion *m = &c->s->completion[k];
		const struct report_spec *sp = c->runs[m->run].spec;
		fprintf(f, "%s,%s,", sp->name, sp->text[KEY_CONFIG]);
		if (sp->num[KEY_REP] != REPORT_UNSET)
			fprintf(f, "%ld", sp->num[KEY_REP]);
		study_completion_csv(f, m);
		fputc('\n', f);
	}
}

static void cross_rows(FILE *f, const struct study_csv_ctx *c)
{
	const struct report_cross *x = c->x;
	for (size_t row = 0; row < x->n; row++)
		for (size_t col = 0; col < x->n; col++) {
			const struct report_spec *a = x->run[row]->spec, *b = x->run[col]->spec;
			char key[40];
			snprintf(key, sizeof key, "%s/%s", a->text[KEY_CONFIG], b->text[KEY_CONFIG]);
			const struct thesis_value *t = c->ref && row != col
				? thesis_ref_find(c->ref, "fs_cross_pct", key) : NULL;
			fprintf(f, "%s,%s,%s,%s", a->text[KEY_CONFIG], a->name, b->text[KEY_CONFIG],
				b->name);
			for (int mode = 0; mode < 2; mode++) {
				int cfg = mode ? CFG_CONTENTION : CFG_MEASURED;
				study_csv_real(f, x->run[row]->cfg[cfg].r.P);
				study_csv_real(f, x->p[mode][row * x->n + col]);
				study_csv_real(f, row == col ? NAN : report_cross_diff(x, mode, row, col));
			}
			study_csv_real(f, t ? t->value : NAN);
			fputc('\n', f);
		}
}

static int users_plot(struct report_study *s, struct report_tools *tools, char *why,
		      size_t whylen)
{
	struct study_plot *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	p->xlabel = "concurrent test users";
	p->ylabel = "P";
	p->y2label = "RI queue length (messages)";
	struct study_series *pm = study_series(p, "P measured", 0);
	struct study_series *pc = study_series(p, "P with CPU contention", 0);
	struct study_series *qm = study_series(p, "RI longest queue (right axis)", 1);
	struct study_series *qa = study_series(p, "RI mean queue (right axis)", 1);
	for (size_t k = 0; k < s->nusers; k++) {
		const struct study_users *u = &s->users[k];
		study_point(pm, (double)u->users, &u->p_measured);
		study_point(pc, (double)u->users, &u->p_contention);
		study_point(qm, (double)u->users, &u->q_max);
		study_point(qa, (double)u->users, &u->q_mean);
	}
	int rc = study_plot_draw(s, tools, "study-fs-users", p, "P and the Request Interpreter's "
				 "queue against the number of concurrent test users (thesis Fig. "
				 "5.15): means of the repeats, bars from the least to the greatest.",
				 why, whylen);
	free(p);
	return rc;
}

int fs_study_write(struct report_study *s, const struct report_run *runs,
		   const struct report_cross *x, const struct thesis_ref *ref,
		   struct report_tools *tools, char *why, size_t whylen)
{
	const struct study_csv_ctx c = { s, runs, x, ref, REPORT_UNSET };
	const char *dir = tools->dir;
	if (study_csv(dir, "study-fs-users.csv", "users,runs,p_measured_mean,p_measured_min,"
		      "p_measured_max,p_contention_mean,p_contention_min,p_contention_max,"
		      "ri_queue_max_mean,ri_queue_max_min,ri_queue_max_max,ri_queue_mean_mean,"
		      "ri_queue_mean_min,ri_queue_mean_max", users_csv_rows, &c, why, whylen) < 0 ||
	    study_csv(dir, "study-fs-completion.csv", "run,config,rep,predicted_ms,measured_ms,"
		      "error_pct,measured_on", completion_rows, &c, why, whylen) < 0 ||
	    study_csv(dir, "study-fs-cross.csv", "configuration,run,from_configuration,from_run,"
		      "own_p,predicted_p,diff_pct,own_p_contention,predicted_p_contention,"
		      "diff_pct_contention,thesis_diff_pct", cross_rows, &c, why, whylen) < 0)
		return -1;
	return users_plot(s, tools, why, whylen);
}

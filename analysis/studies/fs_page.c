/*
 * analysis/studies/fs_page.c - the file-system study on the page:
 * users versus P and the RI's queue (thesis Fig. 5.15), predicted versus
 * measured completion, and the configurations' prediction matrix beside
 * the thesis's Fig. 5.17, each with sentences computed from our numbers
 * saying where they agree with the thesis's conclusions.
 */
#include "fs.h"

#include <math.h>
#include <string.h>

#include "analysis/report/html.h"
#include "analysis/report/page_parts.h"
#include "thesis.h"

/* Share of the greatest mean P a number of users must reach to count as
 * saturated. */
#define SATURATED 0.95

static void users_table(FILE *f, const struct report_study *s)
{
	html_table_begin(f, "study-fs-users", NULL, "P and the Request Interpreter's queue against "
			 "the number of concurrent test users (mean of the repeats, min..max in "
			 "brackets)", "users|#runs|#P measured|#P with contention|#RI longest queue|"
			 "#RI mean queue");
	for (size_t k = 0; k < s->nusers; k++) {
		const struct study_users *u = &s->users[k];
		html_row_begin(f);
		html_cell(f, "%ld", u->users);
		html_cell_u64(f, u->runs);
		study_agg_cell(f, &u->p_measured, "%.3f");
		study_agg_cell(f, &u->p_contention, "%.3f");
		study_agg_cell(f, &u->q_max, "%.1f");
		study_agg_cell(f, &u->q_mean, "%.2f");
		html_row_end(f);
	}
	html_table_end(f);
}

/* Least-squares slope of the mean queue over users >= from, and R^2. */
static double queue_slope(const struct report_study *s, long from, double *r2, size_t *points)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, n = 0;
	for (size_t k = 0; k < s->nusers; k++) {
		double x = (double)s->users[k].users, y = study_agg_mean(&s->users[k].q_mean);
		if (s->users[k].users < from || isnan(y))
			continue;
		sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y, n++;
	}
	*points = (size_t)n;
	double vx = n * sxx - sx * sx, vy = n * syy - sy * sy, cov = n * sxy - sx * sy;
	*r2 = vx > 0 && vy > 0 ? cov * cov / (vx * vy) : 1;
	return vx > 0 ? cov / vx : NAN;
}

/* The users at which P with contention first reaches SATURATED of its
 * greatest mean. */
static size_t saturation(const struct report_study *s)
{
	double top = 0;
	for (size_t k = 0; k < s->nusers; k++)
		top = fmax(top, study_agg_mean(&s->users[k].p_contention));
	size_t k = 0;
	while (k + 1 < s->nusers && !(study_agg_mean(&s->users[k].p_contention) >= SATURATED * top))
		k++;
	return k;
}

static void queue_say(const struct report_study *s, size_t sat, char *out, size_t len)
{
	const struct study_users *first = &s->users[0], *at = &s->users[sat];
	double before = sat ? (study_agg_mean(&at->q_mean) - study_agg_mean(&first->q_mean)) /
			      (double)(at->users - first->users) : NAN;
	double r2;
	size_t points;
	double after = queue_slope(s, at->users, &r2, &points);
	if (isnan(study_agg_mean(&at->q_mean))) {
		study_say(out, len, " No users run has a process called RI, so its queue cannot be "
			   "compared.");
		return;
	}
	if (isnan(before) || points < 2) {
		study_say(out, len, " There are too few numbers of users %s saturation to tell the "
			   "queue's shape.", isnan(before) ? "before" : "after");
		return;
	}
	int flat_then_linear = after > 0 && before <= 0.5 * after && (points < 3 || r2 >= 0.9);
	study_say(out, len, " The RI's mean queue grows by %.3f messages per user up to %ld users "
		   "and by %.3f per user after (least squares over %zu points, R^2 = %.2f): %s.",
		   before, at->users, after, points, r2,
		   flat_then_linear ? "flat and then linear, as in the thesis"
				    : "not the thesis's flat-then-linear shape");
}

static void users_say(const struct report_study *s, const struct thesis_ref *ref, char *out,
		      size_t len)
{
	const struct thesis_value *v = ref ? thesis_ref_find(ref, "fs_users_at_peak", "P") : NULL;
	out[0] = '\0';
	if (v)
		study_say(out, len, "The thesis (reference, Fig. 5.15) found P saturating at %.0f "
			   "users, the RI's queue flat up to there and growing linearly after.",
			   v->value);
	if (s->nusers < 2) {
		study_say(out, len, " With one number of users only, there is no curve to compare.");
		return;
	}
	size_t sat = saturation(s);
	const struct study_users *at = &s->users[sat], *last = &s->users[s->nusers - 1];
	study_say(out, len, " Here P with CPU contention reaches %.0f%% of its greatest mean at %ld "
		   "users (%.3f; %.3f at %ld users)", 100 * SATURATED, at->users,
		   study_agg_mean(&at->p_contention), study_agg_mean(&last->p_contention), last->users);
	if (sat + 1 == s->nusers && s->nusers >= 3)
		study_say(out, len, ": it is still rising at the most users measured, so no saturation "
			   "shows in %ld..%ld users%s.", s->users[0].users, last->users,
			   v ? ", unlike the thesis" : "");
	else if (v)
		study_say(out, len, ": it saturates at %ld users, %s.", at->users,
			   (double)at->users == v->value ? "as in the thesis"
							 : "not where the thesis's did");
	else
		study_say(out, len, ".");
	queue_say(s, sat, out, len);
}

static void completion_table(FILE *f, const struct report_study *s, const struct report_run *runs)
{
	html_table_begin(f, "study-fs-completion", NULL, "Predicted completion (t_max of the "
			 "measured configuration with CPU contention) against the completion "
			 "measured: the job's elapsed time from its first to its last event on the "
			 "cluster's one clock (virtual time); where the nodes' clocks were not one "
			 "(plain, icount), the longest span of one machine's events on its own clock",
			 "run|configuration|rep|#predicted (ms)|#measured (ms)|#error %|measured on");
	for (size_t k = 0; k < s->nconfig; k++) {
		const struct study_completion *c = &s->completion[k];
		const struct report_spec *sp = runs[c->run].spec;
		html_row_begin(f);
		html_cell(f, "%s", sp->name);
		html_cell(f, "%s", sp->text[KEY_CONFIG]);
		if (sp->num[KEY_REP] == REPORT_UNSET)
			html_cell(f, "%s", "");
		else
			html_cell(f, "%ld", sp->num[KEY_REP]);
		html_cell_real(f, "%.3f", c->predicted_ns / 1e6);
		html_cell_real(f, "%.3f", c->measured_ns / 1e6);
		if (isnan(c->error_pct))
			html_cell_none(f);
		else
			html_cell_real(f, "%+.1f", c->error_pct);
		html_cell(f, "%s", c->one_clock ? "one clock" : "one machine");
		html_row_end(f);
	}
	html_table_end(f);
}

/* The configurations' matrix: % difference of each prediction from the
 * row's own P, with the thesis's beside. */
static void cross_table(FILE *f, const struct report_cross *x, const struct thesis_ref *ref)
{
	char heads[2048] = "configuration|run|#own P";
	for (size_t col = 0; col < x->n; col++) {
		size_t used = strlen(heads);
		snprintf(heads + used, sizeof heads - used, "|#from %s|#thesis from %s (reference)",
			 x->run[col]->spec->text[KEY_CONFIG], x->run[col]->spec->text[KEY_CONFIG]);
	}
	html_table_begin(f, "study-fs-cross", NULL, "% difference of P predicted from each column's "
			 "trace for each row's configuration, from the row's own measured P (with "
			 "delivery times), beside the thesis's Fig. 5.17", heads);
	for (size_t row = 0; row < x->n; row++) {
		html_row_begin(f);
		html_cell(f, "%s", x->run[row]->spec->text[KEY_CONFIG]);
		html_cell(f, "%s", x->run[row]->spec->name);
		html_cell_real(f, "%.3f", x->run[row]->cfg[CFG_MEASURED].r.P);
		for (size_t col = 0; col < x->n; col++) {
			double d = report_cross_diff(x, 0, row, col);
			char key[40];
			snprintf(key, sizeof key, "%s/%s", x->run[row]->spec->text[KEY_CONFIG],
				 x->run[col]->spec->text[KEY_CONFIG]);
			if (row == col || isnan(d))
				html_cell_none(f);
			else
				html_cell_real(f, "%+.1f%%", d);
			thesis_cell(f, ref && row != col ? thesis_ref_find(ref, "fs_cross_pct", key)
							     : NULL, "%+.0f%%");
		}
		html_row_end(f);
	}
	html_table_end(f);
}

void fs_study_section(FILE *f, const struct report_page_data *d,
		      const struct report_study *s, const struct thesis_ref *ref)
{
	static const char *const files[] = { "study-fs-users.csv", "study-fs-completion.csv",
					     "study-fs-cross.csv" };
	char sentence[2048];
	html_heading(f, 2, "study", "File-system study (thesis §5.3.1-5.3.2)");
	html_para(f, NULL, "The runs with users=K measure how P and the Request Interpreter's queue "
		  "grow with the number of concurrent test users; the runs with config=X are the "
		  "configurations whose P each predicts from the others' traces, and whose "
		  "completion time is predicted from their own. Repeats (runs that differ only in "
		  "rep) are shown as their mean with the least and greatest value in brackets.");
	html_heading(f, 3, "study-fs-users-section", "Users versus P (thesis Fig. 5.15)");
	if (!s->nusers) {
		html_para(f, NULL, "No run has users=K.");
	} else {
		users_table(f, s);
		report_figure_html(f, &s->fig[0]);
		if (s->no_ri)
			html_para(f, "note", "Some runs have no process called RI in their names file; "
				  "their queue is left out.");
		users_say(s, ref, sentence, sizeof sentence);
		html_para(f, "ref", "%s", sentence);
	}
	html_heading(f, 3, "study-fs-completion-section", "Predicted versus measured completion");
	if (!s->nconfig) {
		html_para(f, NULL, "No run has config=X.");
	} else {
		completion_table(f, s, d->runs);
		sentence[0] = '\0';
		study_completion_say(s, d->runs, sentence, sizeof sentence);
		html_para(f, NULL, "%s", sentence);
	}
	html_heading(f, 3, "study-fs-configurations", "Configurations predicting each other "
		     "(thesis Fig. 5.17)");
	if (d->cross.n < 2 || !d->cross.any) {
		html_para(f, NULL, "Predictions need two or more runs with config=X that name the "
			  "same processes alike.");
	} else {
		cross_table(f, &d->cross, ref);
		html_para(f, NULL, "The full matrices, with the predicted P and with CPU contention, "
			  "are in the section on predictions across runs below.");
	}
	study_csv_links(f, files, sizeof files / sizeof files[0]);
}

/*
 * analysis/studies/study.c - what both studies of `dpm report --study`
 * share (see study.h): repeats summed up as mean and min..max, CSV files
 * beside the page, plots of series with their spread, sentences.
 */
#include "study.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/tool.h"
#include "analysis/report/html.h"

const struct report_key study_keys[STUDY_KEYS] = {
	[KEY_CONFIG] = { "config", 1, 0, 0 },
	[KEY_USERS] = { "users", 0, 1, 100000 },
	[KEY_N] = { "n", 0, 1, 100000 },
	[KEY_P] = { "p", 0, 1, 100000 },
	[KEY_VERSION] = { "version", 0, 1, 3 },
	[KEY_REP] = { "rep", 0, 0, 100000 },
};

void study_agg_add(struct study_agg *a, double v)
{
	if (isnan(v))
		return;
	if (a->n == 0 || v < a->min)
		a->min = v;
	if (a->n == 0 || v > a->max)
		a->max = v;
	a->sum += v;
	a->n++;
}

double study_agg_mean(const struct study_agg *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

double study_pct(double a, double b)
{
	return b > 0 ? 100.0 * (a - b) / b : NAN;
}

uint32_t study_process(const struct report_run *r, const char *name)
{
	for (uint32_t p = 0; p < r->tr.nproc; p++)
		if (report_traced(r, p) && !strcmp(report_process(r, p), name))
			return p;
	return NO_PROC;
}

double study_elapsed(const struct report_run *r, int *one_clock)
{
	*one_clock = !strcmp(r->clock, "virtual");
	return trace_elapsed(&r->tr, *one_clock);
}

void study_completion_set(struct study_completion *c, const struct report_run *runs, size_t run)
{
	c->run = run;
	c->predicted_ns = runs[run].cfg[CFG_CONTENTION].r.t_max;
	c->measured_ns = study_elapsed(&runs[run], &c->one_clock);
	c->error_pct = study_pct(c->predicted_ns, c->measured_ns);
}

void study_completion_say(const struct report_study *s, const struct report_run *runs, char *out,
			  size_t len)
{
	double sum = 0, worst = -1;
	size_t n = 0, under = 0, at = 0;
	for (size_t k = 0; k < s->ncompletion; k++) {
		double e = s->completion[k].error_pct;
		if (isnan(e))
			continue;
		sum += fabs(e);
		n++;
		under += e < 0;
		if (fabs(e) > worst) {
			worst = fabs(e);
			at = k;
		}
	}
	if (!n)
		return;
	study_say(out, len, "The thesis did not check its predictions against completion times. "
		   "Here the predicted completion differs from the measured one by %.1f%% on "
		   "average (at most %.1f%%, run %s); it is below the measured time in %zu of %zu "
		   "runs%s.", sum / (double)n, worst, runs[s->completion[at].run].spec->name, under, n,
		   under * 2 > n ? ": the graph leaves out time no traced process spent (the disk, "
				   "the kernel between events)" : "");
}

/* ---- CSV ------------------------------------------------------------------- */

int study_csv(const char *dir, const char *name, const char *header, study_rows_fn *rows,
	      const struct study_csv_ctx *c, char *why, size_t whylen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%s\n", header);
	rows(f, c);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(why, whylen, "writing %s failed", path);
		return -1;
	}
	return 0;
}

void study_csv_real(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%.6g", v);
}

void study_completion_csv(FILE *f, const struct study_completion *c)
{
	study_csv_real(f, c->predicted_ns / 1e6);
	study_csv_real(f, c->measured_ns / 1e6);
	study_csv_real(f, c->error_pct);
	fprintf(f, ",%s", c->one_clock ? "one clock" : "one machine");
}

void study_csv_agg(FILE *f, const struct study_agg *a)
{
	study_csv_real(f, study_agg_mean(a));
	study_csv_real(f, a->n ? a->min : NAN);
	study_csv_real(f, a->n ? a->max : NAN);
}

/* ---- plots of series ------------------------------------------------------- */

struct study_series *study_series(struct study_plot *p, const char *title, int y2)
{
	for (size_t i = 0; i < p->nseries; i++)
		if (!strcmp(p->s[i].title, title))
			return &p->s[i];
	if (p->nseries == STUDY_SERIES)
		return NULL;
	struct study_series *s = &p->s[p->nseries++];
	snprintf(s->title, sizeof s->title, "%s", title);
	s->y2 = y2;
	return s;
}

void study_point(struct study_series *s, double x, const struct study_agg *a)
{
	if (!s || !a->n || s->n == STUDY_POINTS)
		return;
	size_t i = s->n++;
	for (; i > 0 && s->x[i - 1] > x; i--) {
		s->x[i] = s->x[i - 1];
		s->y[i] = s->y[i - 1];
	}
	s->x[i] = x;
	s->y[i] = *a;
}

static int series_data(FILE *f, const void *v)
{
	const struct study_plot *p = v;
	int points = 0;
	for (size_t i = 0; i < p->nseries; i++) {
		const struct study_series *s = &p->s[i];
		fprintf(f, "%s# block %zu, %s: x mean min max\n", i ? "\n\n" : "", i, s->title);
		for (size_t k = 0; k < s->n; k++)
			fprintf(f, "%g %.6g %.6g %.6g\n", s->x[k], study_agg_mean(&s->y[k]), s->y[k].min,
				s->y[k].max);
		points += (int)s->n;
	}
	return points;
}

static void series_script(FILE *f, const struct report_figure *fig, const void *v)
{
	const struct study_plot *p = v;
	report_gp_preamble(f, fig, 720, 380);
	fprintf(f, "set xlabel \"%s\"\nset ylabel \"%s\"\nset yrange [0:*]\n"
		   "set offsets graph 0.03, graph 0.03, 0, 0\nset key outside right\n",
		p->xlabel, p->ylabel);
	if (p->y2label)
		fprintf(f, "set y2label \"%s\"\nset y2range [0:*]\nset y2tics\n", p->y2label);
	fprintf(f, "plot ");
	for (size_t i = 0; i < p->nseries; i++) {
		fprintf(f, "%s\"%s.dat\" index %zu using 1:2:3:4 %swith yerrorlines lw 1.5 pt %zu "
			   "%stitle ", i ? ", \\\n     " : "", fig->id, i, p->s[i].y2 ? "axes x1y2 " : "",
			5 + i % 8, p->s[i].y2 ? "dt 2 " : "");
		tool_quoted(f, p->s[i].title);
	}
	fprintf(f, "\n");
}

int study_plot_draw(struct report_study *s, struct report_tools *tools, const char *id,
		    const struct study_plot *p, const char *caption, char *why, size_t whylen)
{
	if (s->nfig == STUDY_FIGURES) {
		snprintf(why, whylen, "too many study figures");
		return -1;
	}
	struct report_figure *fig = &s->fig[s->nfig++];
	memset(fig, 0, sizeof *fig);
	snprintf(fig->id, sizeof fig->id, "%s", id);
	snprintf(fig->caption, sizeof fig->caption, "%s", caption);
	return report_plot(tools, fig, p, series_data, series_script,
			   "no run of the study has the values this plot shows", why, whylen);
}

void report_study_free(struct report_study *s)
{
	free(s->users);
	free(s->config_runs);
	free(s->completion);
	free(s->tsp);
	free(s->groups);
	free(s->cpu);
	memset(s, 0, sizeof *s);
}

void study_agg_cell(FILE *f, const struct study_agg *a, const char *fmt)
{
	if (!a->n) {
		html_cell_none(f);
		return;
	}
	char mean[64], lo[64], hi[64];
	snprintf(mean, sizeof mean, fmt, study_agg_mean(a));
	fprintf(f, "<td class=\"n\" data-v=\"%.10g\" data-min=\"%.10g\" data-max=\"%.10g\">%s",
		study_agg_mean(a), a->min, a->max, mean);
	if (a->n > 1 && a->min < a->max) {
		snprintf(lo, sizeof lo, fmt, a->min);
		snprintf(hi, sizeof hi, fmt, a->max);
		fprintf(f, " <small>(%s..%s)</small>", lo, hi);
	}
	fputs("</td>", f);
}

void study_csv_links(FILE *f, const char *const *files, size_t n)
{
	fputs("<p>The tables as CSV, for scripts:", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", <a href=\"" : " <a href=\"", f);
		html_escape(f, files[i]);
		fputs("\">", f);
		html_escape(f, files[i]);
		fputs("</a>", f);
	}
	fputs(".</p>\n", f);
}

void study_say(char *out, size_t len, const char *fmt, ...)
{
	size_t used = strlen(out);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out + used, len - used, fmt, ap);
	va_end(ap);
}

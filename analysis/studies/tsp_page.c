/*
 * analysis/studies/tsp_page.c - the TSP study on the page: P for the
 * upper bound, one and two servers per machine (thesis Fig. 5.20) with
 * its plots against N and p (Figs. 5.22-5.27), CPU and the controller's
 * share (Fig. 5.21), the versions compared (Figs. 5.28-5.29), and
 * sentences computed from our numbers saying where they agree with the
 * thesis's conclusions.
 */
#include "tsp.h"

#include <math.h>
#include <string.h>

#include "analysis/report/html.h"
#include "analysis/report/page_parts.h"
#include "thesis.h"

/* A change counts as "about unchanged" below this many percent. */
#define UNCHANGED_PCT 5.0

static long base_version(const struct report_study *s)
{
	return s->ncpu ? s->cpu[0].version : 1;
}

static const struct study_tsp_group *group(const struct report_study *s, long version, long n,
					   long p)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (s->groups[i].version == version && s->groups[i].n == n && s->groups[i].p == p)
			return &s->groups[i];
	return NULL;
}

/* The distinct values of n (or p) of a version's groups, ascending. */
static size_t values(const struct report_study *s, long version, int of_p, long *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		long v = of_p ? g->p : g->n;
		size_t j = 0;
		if (g->version != version)
			continue;
		while (j < k && out[j] < v)
			j++;
		if ((j < k && out[j] == v) || k == max)
			continue;
		memmove(&out[j + 1], &out[j], (k - j) * sizeof *out);
		out[j] = v;
		k++;
	}
	return k;
}

/* ---- Fig. 5.20 -------------------------------------------------------------- */

static void three(FILE *f, const double v[TSP_KINDS], const int uncertain[TSP_KINDS], int digits)
{
	fputs("<td class=\"n\">", f);
	for (int k = 0; k < TSP_KINDS; k++) {
		if (isnan(v[k]))
			fputs(k ? " / -" : "-", f);
		else
			fprintf(f, "%s%.*f%s", k ? " / " : "", digits, v[k], uncertain[k] ? " (?)" : "");
	}
	fputs("</td>", f);
}

static void grid(FILE *f, const struct report_study *s, const struct thesis_ref *ref, int thesis)
{
	static const long thesis_n[] = { 4, 8, 12, 16, 20 }, thesis_p[] = { 4, 8, 12, 16 };
	long ns[16], ps[16], base = base_version(s);
	size_t nn = thesis ? 5 : values(s, base, 0, ns, 16);
	size_t np = thesis ? 4 : values(s, base, 1, ps, 16);
	char heads[512] = "p \\ N";
	for (size_t j = 0; j < nn; j++) {
		size_t used = strlen(heads);
		snprintf(heads + used, sizeof heads - used, "|#%ld", thesis ? thesis_n[j] : ns[j]);
	}
	char caption[300];
	snprintf(caption, sizeof caption, thesis ? "The thesis's Fig. 5.20 (reference, not ours): "
		 "P upper bound / one server per machine / two per machine" : "P upper bound / one "
		 "server per machine / two per machine, version %ld (means of the repeats)", base);
	html_table_begin(f, thesis ? "study-tsp-thesis-grid" : "study-tsp-grid", thesis ? "ref" : NULL,
			 caption, heads);
	for (size_t i = 0; i < np; i++) {
		long p = thesis ? thesis_p[i] : ps[i];
		html_row_begin(f);
		html_cell(f, "%ld", p);
		for (size_t j = 0; j < nn; j++) {
			long n = thesis ? thesis_n[j] : ns[j];
			const struct study_tsp_group *g = thesis ? NULL : group(s, base, n, p);
			double v[TSP_KINDS];
			int unc[TSP_KINDS] = { 0 }, any = 0;
			for (int k = 0; k < TSP_KINDS; k++) {
				const struct thesis_value *t = thesis ? tsp_thesis_value(ref, p, n, k) : NULL;
				v[k] = t ? t->value : g ? study_agg_mean(&g->P[k]) : NAN;
				unc[k] = t && t->uncertain;
				any |= !isnan(v[k]);
			}
			if (any)
				three(f, v, unc, thesis ? 1 : 2);
			else
				html_cell_none(f);
		}
		html_row_end(f);
	}
	html_table_end(f);
}

static void p_table(FILE *f, const struct report_study *s, const struct thesis_ref *ref)
{
	html_table_begin(f, "study-tsp-p", NULL, "Each measurement (version, N, p): P, total CPU T "
			 "and the controller's share, the mean of its repeats with min..max in "
			 "brackets, and the thesis's Fig. 5.20 value for version 1",
			 "measurement|#runs|#P upper bound|#P one server per machine|"
			 "#P two servers per machine|#T (ms)|#controller %|"
			 "#thesis upper bound (reference)|#thesis one per machine (reference)|"
			 "#thesis two per machine (reference)");
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		html_row_begin(f);
		html_cell(f, "v%ld N=%ld p=%ld", g->version, g->n, g->p);
		html_cell_u64(f, g->runs);
		for (int k = 0; k < TSP_KINDS; k++)
			study_agg_cell(f, &g->P[k], "%.3f");
		study_agg_cell(f, &g->t_ms, "%.1f");
		study_agg_cell(f, &g->controller_pct, "%.1f");
		for (int k = 0; k < TSP_KINDS; k++)
			thesis_cell(f, g->version == 1 ? tsp_thesis_value(ref, g->p, g->n, k) : NULL,
					"%.1f");
		html_row_end(f);
	}
	html_table_end(f);
}

/* ---- what the P table says ------------------------------------------------ */

/* Steps along n (for each p) or along p (for each n) where mean P of kind
 * rises, of all steps. */
static void rises(const struct report_study *s, int kind, int along_p, size_t *up, size_t *all)
{
	long ns[16], ps[16], base = base_version(s);
	size_t nn = values(s, base, 0, ns, 16), np = values(s, base, 1, ps, 16);
	*up = *all = 0;
	for (size_t i = 0; i < (along_p ? nn : np); i++) {
		double prev = NAN;
		for (size_t j = 0; j < (along_p ? np : nn); j++) {
			const struct study_tsp_group *g = along_p ? group(s, base, ns[i], ps[j])
								  : group(s, base, ns[j], ps[i]);
			double v = g ? study_agg_mean(&g->P[kind]) : NAN;
			if (isnan(v))
				continue;
			if (!isnan(prev)) {
				++*all;
				*up += v > prev;
			}
			prev = v;
		}
	}
}

static void growth_say(const struct report_study *s, char *out, size_t len)
{
	size_t up[2][2], all[2][2];
	for (int k = 0; k < 2; k++)
		for (int along_p = 0; along_p < 2; along_p++)
			rises(s, k, along_p, &up[k][along_p], &all[k][along_p]);
	study_say(out, len, "The thesis found P growing with N and with p, but far from linearly.");
	if (all[0][0] + all[0][1])
		study_say(out, len, " Here the upper bound rises with N in %zu of %zu steps and with p "
			   "in %zu of %zu; one server per machine in %zu of %zu and %zu of %zu.",
			   up[0][0], all[0][0], up[0][1], all[0][1], up[1][0], all[1][0], up[1][1],
			   all[1][1]);
	size_t steps = all[0][0] + all[0][1] + all[1][0] + all[1][1];
	size_t ups = up[0][0] + up[0][1] + up[1][0] + up[1][1];
	study_say(out, len, " %s", !steps ? "With one N and one p there is no growth to see."
		   : 4 * ups >= 3 * steps ? "P grows with both, as in the thesis."
		   : "P does not grow steadily with both, unlike the thesis.");
	/* Linearity: at the largest n with two p, the upper bound's growth
	 * against the servers'. */
	long ns[16], ps[16], base = base_version(s);
	size_t nn = values(s, base, 0, ns, 16), np = values(s, base, 1, ps, 16);
	for (size_t i = nn; i-- > 0; ) {
		const struct study_tsp_group *lo = NULL, *hi = NULL;
		for (size_t j = 0; j < np; j++) {
			const struct study_tsp_group *g = group(s, base, ns[i], ps[j]);
			if (g && g->P[TSP_MAX].n) {
				lo = lo ? lo : g;
				hi = g;
			}
		}
		if (!lo || lo == hi)
			continue;
		double grew = study_agg_mean(&hi->P[TSP_MAX]) / study_agg_mean(&lo->P[TSP_MAX]);
		double servers = (double)hi->p / (double)lo->p;
		study_say(out, len, " At N = %ld, going from %ld to %ld servers multiplies the upper "
			   "bound by %.2f against %.2f for the servers: %s.", ns[i], lo->p, hi->p, grew,
			   servers, grew <= 0.75 * servers ? "far from linear, as in the thesis"
							   : "close to linear, unlike the thesis");
		return;
	}
}

static void small_say(const struct report_study *s, char *out, size_t len)
{
	long ns[16], ps[16], base = base_version(s);
	size_t nn = values(s, base, 0, ns, 16), np = values(s, base, 1, ps, 16);
	if (!nn)
		return;
	struct study_agg at[2] = { { 0 }, { 0 } };
	size_t below = 0;
	for (size_t j = 0; j < np; j++)
		for (int end = 0; end < 2; end++) {
			const struct study_tsp_group *g = group(s, base, end ? ns[nn - 1] : ns[0], ps[j]);
			double v = g ? study_agg_mean(&g->P[TSP_ONE]) : NAN;
			study_agg_add(&at[end], v);
			below += !end && v < 1;
		}
	study_say(out, len, " The thesis: small problems do better on one machine (P < 1 when "
		   "distributed). Here, at the smallest N = %ld, one server per machine gives P from "
		   "%.2f to %.2f (below 1 for %zu of %zu p)", ns[0], at[0].min, at[0].max, below,
		   at[0].n);
	if (nn > 1)
		study_say(out, len, " and at N = %ld from %.2f to %.2f", ns[nn - 1], at[1].min,
			   at[1].max);
	study_say(out, len, ": %s.", below * 2 > at[0].n
		   ? "the small problem is better run on one machine, as in the thesis"
		   : "even the smallest problem gains from being distributed, unlike the thesis's");
}

static void gap_say(const struct report_study *s, char *out, size_t len)
{
	long ns[16], ps[16], base = base_version(s);
	size_t nn = values(s, base, 0, ns, 16), np = values(s, base, 1, ps, 16), shown = 0;
	double prev = NAN;
	int widens = 1;
	for (size_t i = 0; i < nn; i++) {
		struct study_agg gap = { 0 };
		for (size_t j = 0; j < np; j++) {
			const struct study_tsp_group *g = group(s, base, ns[i], ps[j]);
			if (g)
				study_agg_add(&gap, study_agg_mean(&g->P[TSP_ONE]) -
						    study_agg_mean(&g->P[TSP_TWO]));
		}
		if (!gap.n)
			continue;
		double v = study_agg_mean(&gap);
		study_say(out, len, "%s %.3f at N = %ld", shown++ ? "," : " The thesis: the gap between "
			   "one and two servers per machine widens with N. Here P one minus P two "
			   "(mean over p) is", v, ns[i]);
		widens &= isnan(prev) || v > prev;
		prev = v;
	}
	if (shown > 1)
		study_say(out, len, ": %s.", widens ? "it widens with N, as in the thesis"
			   : "it does not widen steadily with N, unlike the thesis");
	else if (shown)
		study_say(out, len, ".");
}

/* ---- CPU (Fig. 5.21) -------------------------------------------------------- */

static void cpu_table(FILE *f, const struct report_study *s, const struct thesis_ref *ref)
{
	char caption[300];
	snprintf(caption, sizeof caption, "Total CPU T and the controller's share by N (version %ld, "
		 "all p and repeats: mean, min..max), beside the thesis's Fig. 5.21",
		 base_version(s));
	html_table_begin(f, "study-tsp-cpu", NULL, caption, "N|#runs|#T (ms)|#controller %|"
			 "#thesis T (ms) (reference)|#thesis controller % (reference)");
	for (size_t i = 0; i < s->ncpu; i++) {
		const struct study_tsp_group *g = &s->cpu[i];
		char key[32];
		snprintf(key, sizeof key, "N=%ld", g->n);
		html_row_begin(f);
		html_cell(f, "%ld", g->n);
		html_cell_u64(f, g->runs);
		study_agg_cell(f, &g->t_ms, "%.1f");
		study_agg_cell(f, &g->controller_pct, "%.1f");
		int v1 = ref && g->version == 1;
		thesis_cell(f, v1 ? thesis_ref_find(ref, "tsp_cpu_ms", key) : NULL, "%.0f");
		thesis_cell(f, v1 ? thesis_ref_find(ref, "tsp_controller_pct", key) : NULL, "%.0f");
		html_row_end(f);
	}
	html_table_end(f);
}

/* ---- versions (Figs. 5.28, 5.29) --------------------------------------------- */

/* Mean change in % of version v from version v-1 at versions_n, over the
 * p both have: of T (time) or of P one server per machine. */
static double version_change(const struct report_study *s, long v, int time)
{
	struct study_agg change = { 0 };
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		const struct study_tsp_group *b = group(s, v - 1, s->versions_n, g->p);
		if (g->version != v || g->n != s->versions_n || !b)
			continue;
		study_agg_add(&change, time ? study_pct(study_agg_mean(&g->t_ms), study_agg_mean(&b->t_ms))
				       : study_pct(study_agg_mean(&g->P[TSP_ONE]),
						   study_agg_mean(&b->P[TSP_ONE])));
	}
	return study_agg_mean(&change);
}

static void versions_table(FILE *f, const struct report_study *s)
{
	char caption[300];
	snprintf(caption, sizeof caption, "Versions compared at N = %ld: T and P (mean, min..max), "
		 "and the change from the version before at the same p", s->versions_n);
	html_table_begin(f, "study-tsp-versions", NULL, caption, "measurement|#runs|#T (ms)|"
			 "#T change %|#P upper bound|#P one server per machine|"
			 "#P two servers per machine|#P one per machine change %");
	for (size_t i = 0; i < s->ngroups; i++) {
		const struct study_tsp_group *g = &s->groups[i];
		if (g->n != s->versions_n)
			continue;
		const struct study_tsp_group *b = group(s, g->version - 1, g->n, g->p);
		html_row_begin(f);
		html_cell(f, "v%ld p=%ld", g->version, g->p);
		html_cell_u64(f, g->runs);
		study_agg_cell(f, &g->t_ms, "%.1f");
		double dt = b ? study_pct(study_agg_mean(&g->t_ms), study_agg_mean(&b->t_ms)) : NAN;
		double dp = b ? study_pct(study_agg_mean(&g->P[TSP_ONE]), study_agg_mean(&b->P[TSP_ONE]))
			      : NAN;
		if (isnan(dt))
			html_cell_none(f);
		else
			html_cell_real(f, "%+.1f", dt);
		for (int k = 0; k < TSP_KINDS; k++)
			study_agg_cell(f, &g->P[k], "%.3f");
		if (isnan(dp))
			html_cell_none(f);
		else
			html_cell_real(f, "%+.1f", dp);
		html_row_end(f);
	}
	html_table_end(f);
}

static void versions_say(const struct report_study *s, const struct thesis_ref *ref, char *out,
			 size_t len)
{
	const struct thesis_value *lo = ref ? thesis_ref_find(ref, "tsp_version_t_cut_pct", "v2/low")
					    : NULL;
	const struct thesis_value *hi = ref ? thesis_ref_find(ref, "tsp_version_t_cut_pct", "v2/high")
					    : NULL;
	double t2 = version_change(s, 2, 1), p2 = version_change(s, 2, 0);
	double t3 = version_change(s, 3, 1), p3 = version_change(s, 3, 0);
	if (!isnan(t2) && lo && hi) {
		double cut = -t2;
		study_say(out, len, "The thesis: version 2 cut T by %.0f-%.0f%% and raised P. Here, at "
			   "N = %ld, version 2 changes T by %+.1f%% and P (one server per machine) by "
			   "%+.1f%%: T is %s and P %s.", lo->value, hi->value, s->versions_n, t2, p2,
			   cut >= lo->value - UNCHANGED_PCT && cut <= hi->value + UNCHANGED_PCT
			   ? "cut about as much as in the thesis"
			   : cut > 0 ? "cut, but not by the thesis's amount" : "not cut, unlike the thesis",
			   p2 > 0 ? "raised, as in the thesis" : "not raised, unlike the thesis");
	}
	if (!isnan(t3))
		study_say(out, len, "%sThe thesis: version 3 raised P again with T about unchanged. "
			   "Here version 3 changes T by %+.1f%% and P by %+.1f%% from version 2: %s.",
			   out[0] ? " " : "", t3, p3,
			   p3 > 0 && fabs(t3) < UNCHANGED_PCT ? "as in the thesis"
			   : p3 > 0 ? "P is raised but T changes too" : "P is not raised, unlike the thesis");
	if (isnan(t2) && isnan(t3))
		study_say(out, len, "No two versions were run at the same N and p, so they cannot be "
			   "compared.");
}

void tsp_study_section(FILE *f, const struct report_page_data *d, const struct report_study *s,
		       const struct thesis_ref *ref)
{
	static const char *const files[] = { "study-tsp-p.csv", "study-tsp-runs.csv",
					     "study-tsp-cpu.csv", "study-tsp-versions.csv" };
	char sentence[4096] = "";
	html_heading(f, 2, "study", "TSP study (thesis §5.3.3)");
	html_para(f, NULL, "Each run is the TSP program of size N with p servers, version 1, 2 or "
		  "3. P is computed three ways from its trace: the upper bound (no delivery time, no "
		  "contention), one server per machine (the controller on a machine of its own, each "
		  "server on another) and two servers per machine (the controller alone, s1 with s2, "
		  "s3 with s4, ...), the last two with delivery times and CPU contention. Repeats "
		  "(runs that differ only in rep) are shown as their mean with the least and greatest "
		  "value in brackets.");
	html_heading(f, 3, "study-tsp-p-section", "P (thesis Figs. 5.20, 5.22-5.27)");
	grid(f, s, ref, 0);
	if (ref && thesis_ref_count(ref, "tsp_p"))
		grid(f, s, ref, 1);
	p_table(f, s, ref);
	for (size_t i = 0; i < 6 && i < s->nfig; i++)
		report_figure_html(f, &s->fig[i]);
	growth_say(s, sentence, sizeof sentence);
	small_say(s, sentence, sizeof sentence);
	gap_say(s, sentence, sizeof sentence);
	html_para(f, "ref", "%s", sentence);
	html_heading(f, 3, "study-tsp-completion-section", "Predicted versus measured completion");
	sentence[0] = '\0';
	study_completion_say(s, d->runs, sentence, sizeof sentence);
	html_para(f, NULL, "Predicted: t_max of the measured placement with CPU contention; "
		  "measured: the job's elapsed time from its first to its last event on the "
		  "cluster's one clock (virtual time), else the longest span of one machine's "
		  "events on its own clock (study-tsp-runs.csv has every run's). %s", sentence);
	html_heading(f, 3, "study-tsp-cpu-section", "CPU time and the controller (thesis Fig. 5.21)");
	cpu_table(f, s, ref);
	html_heading(f, 3, "study-tsp-versions-section", "Versions (thesis Figs. 5.28, 5.29)");
	if (s->versions_n == REPORT_UNSET) {
		html_para(f, NULL, "No runs.");
	} else {
		versions_table(f, s);
		for (size_t i = 6; i < s->nfig; i++)
			report_figure_html(f, &s->fig[i]);
		sentence[0] = '\0';
		versions_say(s, ref, sentence, sizeof sentence);
		html_para(f, "ref", "%s", sentence);
	}
	study_csv_links(f, files, sizeof files / sizeof files[0]);
}

/*
 * analysis/studies/thesis.c - the thesis beside us, plugged into the
 * report as an extension (thesis.h): its published values in our tables
 * and plot of P, its Fig. 5.17 and 5.18 panels, sentences that say where
 * a run agrees in shape with what the thesis published and where not, and
 * the section listing the reference values.
 *
 * Absolute values cannot match (VAXes on a 3 Mb/s Ethernet against an
 * emulated cluster), so the sentences compare shapes: the order of the
 * five configurations and what delivery and sharing cost, whether one
 * process dominates the CPU, whether requests at the second stage mostly
 * come straight back, how far predictions stray.  Every thesis value
 * quoted is named as the thesis's.
 */
#include "thesis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/html.h"
#include "analysis/report/page_parts.h"
#include "study.h"

static const char *const config_words[CONFIGS_THESIS] = {
	"upper bound", "measured", "with contention", "each on its own machine", "all on one machine",
};

/* ---- P of the five configurations ---------------------------------------- */

static int thesis_p(const struct report_run *r, const struct thesis_ref *ref, double tp[])
{
	for (size_t i = 0; i < CONFIGS_THESIS; i++) {
		const struct thesis_value *v = thesis_ref_find(ref, "fs_p", r->cfg[i].mode);
		if (!v)
			return -1;
		tp[i] = v->value;
	}
	return 0;
}

/* Pairs ordered one way by the thesis and the other way by us. */
static void compare_order(const double tp[], const double op[], char *out, size_t len)
{
	int reversed = 0;
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		for (size_t j = i + 1; j < CONFIGS_THESIS; j++) {
			int thesis = (tp[i] > tp[j]) - (tp[i] < tp[j]);
			int ours = (op[i] > op[j] * 1.005) - (op[i] * 1.005 < op[j]);
			if (!thesis || !ours || thesis == ours)
				continue;
			study_say(out, len, "%s '%s' comes out %s '%s'", reversed ? ";" : " Where not:",
			    config_words[i], ours > 0 ? "above" : "below", config_words[j]);
			study_say(out, len, " (the thesis has it %s)", thesis > 0 ? "above" : "below");
			reversed++;
		}
	if (!reversed)
		study_say(out, len, " The five fall in the same order as the thesis's.");
	else
		study_say(out, len, ".");
}

static void compare_p(const struct report_run *r, const struct thesis_ref *ref, char *out,
		      size_t len)
{
	double tp[CONFIGS_THESIS], op[CONFIGS_THESIS];
	if (thesis_p(r, ref, tp) < 0)
		return;
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		op[i] = r->cfg[i].r.P;
	study_say(out, len, "The thesis's file system (reference) gave");
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		study_say(out, len, "%s %s %.2f", i ? "," : "", config_words[i], tp[i]);
	study_say(out, len, "; this run gives");
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		study_say(out, len, "%s %s %.3f", i ? "," : "", config_words[i], op[i]);
	study_say(out, len, ".");
	compare_order(tp, op, out, len);
	study_say(out, len, " Delivery times cost the thesis %.0f%% of its upper bound and this run "
		"%.0f%%; CPU contention cost a further %.0f%% there and %.0f%% here.",
	    100 * (1 - tp[1] / tp[0]), op[0] > 0 ? 100 * (1 - op[1] / op[0]) : 0,
	    100 * (1 - tp[2] / tp[1]), op[1] > 0 ? 100 * (1 - op[2] / op[1]) : 0);
	int below = op[CFG_ONE] < 1, thesis_below = tp[CFG_ONE] < 1;
	study_say(out, len, " %s the thesis, all on one machine %s below 1 (%s).",
	    below == thesis_below ? "As in" : "Unlike", below ? "is" : "is not",
	    below ? "local delivery makes it slower than running the processes one after another"
		  : "the work between messages outweighs local delivery");
}

/* ---- CPU shares ------------------------------------------------------------ */

/* The processes the thesis's shares compare with: the servers when roles
 * are known (its shares were of the file system's four processes), else
 * every traced process; busiest first, and their CPU together. */
static size_t cpu_group(const struct report_run *r, uint32_t *order, uint64_t *total)
{
	size_t n = report_cpu_ranking(r, order), kept = 0;
	*total = 0;
	for (size_t i = 0; i < n; i++)
		if (!r->have_causality || r->roles.role[order[i]] == ROLE_SERVER) {
			order[kept++] = order[i];
			*total += r->st.p[order[i]].cpu;
		}
	return kept;
}

static void compare_cpu(const struct report_run *r, const struct thesis_ref *ref, char *out,
			size_t len)
{
	static const char *const fs[] = { "BM", "DI", "RI", "DM" };
	double share[4];
	for (size_t i = 0; i < 4; i++) {
		const struct thesis_value *v = thesis_ref_find(ref, "fs_cpu_pct", fs[i]);
		if (!v)
			return;
		share[i] = v->value;
	}
	uint32_t *order = malloc((r->tr.nproc + 1) * sizeof *order);
	uint64_t total = 0;
	size_t n = order ? cpu_group(r, order, &total) : 0;
	if (n == 0 || total == 0) {
		free(order);
		return;
	}
	double top = 100.0 * (double)r->st.p[order[0]].cpu / (double)total;
	double low = 100.0 * (double)r->st.p[order[n - 1]].cpu / (double)total;
	double even = 100.0 / (double)n;
	study_say(out, len, "In the thesis's file system (reference) the CPU of its four processes was "
		"uneven: BM %.0f%%, DI %.0f%%, RI %.0f%%, DM %.0f%%. Here, of the CPU of %zu %s, the "
		"busiest, %s, took %.1f%% and the least busy, %s, %.1f%%.", share[0], share[1],
	    share[2], share[3], n, r->have_causality ? "servers" : "processes",
	    report_process(r, order[0]), top, report_process(r, order[n - 1]), low);
	int dominant = n > 1 && top >= 1.5 * even, negligible = n > 1 && low < 0.2 * even;
	study_say(out, len, " %s the thesis, one process %s (%.1f%% against an even share of %.1f%%)",
	    dominant ? "Like" : "Unlike", dominant ? "dominates" : "does not dominate", top, even);
	study_say(out, len, "; %s, %s.", negligible ? "and as there" : "but unlike there",
	    negligible ? "one process is negligible (the thesis left DM out for that reason)"
		       : "no process is negligible");
	free(order);
}

/* ---- branching at the second stage ----------------------------------------- */

/* Whether requests from requestors enter the servers at p. */
static int entry_server(const struct causality *c, uint32_t p)
{
	for (size_t i = 0; i < c->strings.n; i++)
		if (c->pool[c->strings.s[i].start] == p)
			return 1;
	return 0;
}

/* The second stage, like the thesis's BM behind RI: the server that
 * received the most requests from an entry server other than itself. */
static int busiest_second_stage(const struct causality *c, const struct roles *ro,
				uint32_t *at, uint32_t *from, uint64_t *total)
{
	*total = 0;
	for (size_t i = 0; i < c->ntr; i++) {
		const struct transition *x = &c->tr[i];
		if (x->from == REQUESTORS || x->from == x->at || ro->role[x->from] != ROLE_SERVER ||
		    !entry_server(c, x->from))
			continue;
		uint64_t n = causality_out_count(c, x->at, x->from);
		if (n > *total) {
			*total = n;
			*at = x->at;
			*from = x->from;
		}
	}
	return *total ? 0 : -1;
}

static void compare_branch(const struct report_run *r, const struct thesis_ref *ref, char *out,
			   size_t len)
{
	const struct thesis_value *v = thesis_ref_find(ref, "fs_branch_pct", "BM/DI");
	if (!v || !r->have_causality)
		return;
	study_say(out, len, "In the thesis (reference, Fig. 5.19), a request that reached BM went on to DI "
		"only %.0f%% of the time; the rest was answered from BM's buffers.", v->value);
	uint32_t at, from;
	uint64_t total;
	if (busiest_second_stage(&r->cz, &r->roles, &at, &from, &total) < 0) {
		study_say(out, len, " In this run no server that requests enter passed them on to another "
			"server, so there is no second stage to compare.");
		return;
	}
	uint64_t back = causality_count(&r->cz, at, from, from);
	double onward = 100.0 * (double)(total - back) / (double)total;
	study_say(out, len, " Here, of the %llu requests that reached %s from %s, %.1f%% went on to "
		"another process and %.1f%% came straight back to %s: %s the thesis, most were %s.",
	    (unsigned long long)total, report_process(r, at), report_process(r, from), onward,
	    100 - onward, report_process(r, from), (onward < 50) == (v->value < 50) ? "like" : "unlike",
	    onward < 50 ? "answered at once" : "passed on");
}

static void compare(const struct report_run *r, const struct thesis_ref *ref, const char *what,
		    char *out, size_t len)
{
	out[0] = '\0';
	if (!ref)
		return;
	if (!strcmp(what, "p"))
		compare_p(r, ref, out, len);
	else if (!strcmp(what, "cpu"))
		compare_cpu(r, ref, out, len);
	else if (!strcmp(what, "branch"))
		compare_branch(r, ref, out, len);
}

/* ---- predictions ----------------------------------------------------------- */

static void compare_cross(const struct report_cross *x, const struct thesis_ref *ref, char *out,
			  size_t len)
{
	out[0] = '\0';
	if (!ref || !x->any || !thesis_ref_count(ref, "fs_cross_pct"))
		return;
	double thesis = 0, ours = 0;
	for (size_t i = 0; i < ref->n; i++)
		if (!strcmp(ref->v[i].figure, "fs_cross_pct"))
			thesis = fmax(thesis, fabs(ref->v[i].value));
	size_t worst_row = 0, worst_col = 0;
	for (size_t row = 0; row < x->n; row++)
		for (size_t col = 0; col < x->n; col++) {
			double d = row == col ? NAN : report_cross_diff(x, 0, row, col);
			if (!isnan(d) && fabs(d) > ours) {
				ours = fabs(d);
				worst_row = row;
				worst_col = col;
			}
		}
	study_say(out, len, "The thesis's predictions (reference, Fig. 5.17) differed from the measured P "
		"by at most %.0f%%. Here, with delivery times and no contention, they differ by at "
		"most %.1f%% (run %s predicted from the trace of run %s): %s.", thesis, ours,
	    x->run[worst_row]->spec->name, x->run[worst_col]->spec->name,
	    ours <= thesis + 1 ? "as close as the thesis found"
			       : "further apart than the thesis found, so these runs' traces do not "
				 "carry over to each other's placements as well");
}

void thesis_cell(FILE *f, const struct thesis_value *v, const char *fmt)
{
	struct report_refval rv = { v ? v->value : 0, v ? v->uncertain : 0 };
	report_ref_cell(f, v ? &rv : NULL, fmt);
}

/* ---- the reference panel ---------------------------------------------------- */

static void reference_section(FILE *f, const struct thesis_ref *ref)
{
	html_heading(f, 2, "thesis", "The thesis's published values (reference)");
	html_para(f, "ref", "These values are the thesis's, not ours: read from %s (source: %s). "
		  "They were measured on VAX 11/750-780 machines on a 3 Mb/s Ethernet, so only their "
		  "shapes can be compared with an emulated cluster. Values marked (?) were garbled in "
		  "the OCR of the thesis and are uncertain.", ref->path, ref->source);
	fputs("<details>\n<summary>All values in the reference file</summary>\n", f);
	html_table_begin(f, "thesis-reference", "ref", "Thesis reference values",
			 "figure|key|#value|where in the thesis");
	for (size_t i = 0; i < ref->n; i++) {
		const struct thesis_value *v = &ref->v[i];
		html_row_begin(f);
		html_cell(f, "%s", v->figure);
		html_cell(f, "%s", v->key);
		thesis_cell(f, v, "%g");
		html_cell(f, "%s", v->where);
		html_row_end(f);
	}
	html_table_end(f);
	fputs("</details>\n", f);
}

/* ---- the thesis's panels ---------------------------------------------------- */

/* The thesis's Fig. 5.18 counts, as a reference panel. */
static void thesis_transitions(FILE *f, const struct report_run *r, const struct thesis_ref *ref)
{
	char id[96];
	snprintf(id, sizeof id, "%s-thesis-fromto", r->spec->name);
	html_table_begin(f, id, "ref", "The thesis's Fig. 5.18 (reference, not ours): DEMOS/MP "
			 "file system, at S received from X then sent to Y",
			 "at|from|to|#count");
	for (size_t i = 0; i < ref->n; i++) {
		const struct thesis_value *v = &ref->v[i];
		char at[16], from[16], to[16];
		if (strcmp(v->figure, "fs_transitions") ||
		    sscanf(v->key, "%15[^/]/%15[^/]/%15s", at, from, to) != 3)
			continue;
		html_row_begin(f);
		html_cell(f, "%s", at);
		html_cell(f, "%s", from);
		html_cell(f, "%s", to);
		html_cell_real(f, "%.0f", v->value);
		html_row_end(f);
	}
	html_table_end(f);
}

static void thesis_cross_table(FILE *f, const struct thesis_ref *ref)
{
	static const char *const cfg[3] = { "A", "B", "C" };
	html_table_begin(f, "thesis-cross", "ref", "The thesis's Fig. 5.17 (reference, not ours): "
			 "% difference of predicted from measured P, DEMOS/MP file system; its worked "
			 "example reads a row as the configuration and a column as the trace the "
			 "prediction came from, as in the tables above",
			 "measured \\ predicted|#A|#B|#C");
	for (size_t row = 0; row < 3; row++) {
		html_row_begin(f);
		html_cell(f, "%s", cfg[row]);
		for (size_t col = 0; col < 3; col++) {
			char key[8];
			snprintf(key, sizeof key, "%s/%s", cfg[row], cfg[col]);
			thesis_cell(f, thesis_ref_find(ref, "fs_cross_pct", key), "%+.0f%%");
		}
		html_row_end(f);
	}
	html_table_end(f);
}

/* Whether run r is a file system like the thesis's: it names at least two
 * of its servers (RI, DM, BM, DI).  Its published values are set beside
 * such a run only - never beside another program (TSP, a generated
 * trace) that they would say nothing about. */
static int is_file_system(const void *ctx, const struct report_run *r)
{
	static const char *const servers[] = { "RI", "DM", "BM", "DI" };
	(void)ctx;
	int found = 0;
	for (size_t i = 0; i < sizeof servers / sizeof servers[0]; i++)
		for (uint32_t p = 0; p < r->tr.nproc; p++)
			if (report_traced(r, p) && !strcmp(report_process(r, p), servers[i])) {
				found++;
				break;
			}
	return found >= 2;
}

/* A sentence of compare() or compare_cross(), as a paragraph when there is one. */
static void say(FILE *f, const char *sentence)
{
	if (sentence[0])
		html_para(f, "ref", "%s", sentence);
}

static void panel(void *ctx, FILE *f, const struct report_page_data *d, enum report_place place,
		  size_t run)
{
	const struct thesis_panels *t = ctx;
	const struct report_run *r = place == PLACE_RUN_CPU || place == PLACE_RUN_P ||
				     place == PLACE_RUN_CAUSALITY ? &d->runs[run] : NULL;
	char sentence[2048];
	if (place == PLACE_CROSS) {
		if (t->cross && thesis_ref_count(t->ref, "fs_cross_pct")) {
			thesis_cross_table(f, t->ref);
			compare_cross(&d->cross, t->ref, sentence, sizeof sentence);
			say(f, sentence);
		}
		return;
	}
	if (!t->values || (r && !is_file_system(t, r)))
		return;
	switch (place) {
	case PLACE_RUN_CPU:
		compare(r, t->ref, "cpu", sentence, sizeof sentence);
		say(f, sentence);
		break;
	case PLACE_RUN_P:
		compare(r, t->ref, "p", sentence, sizeof sentence);
		say(f, sentence);
		break;
	case PLACE_RUN_CAUSALITY:
		if (thesis_ref_count(t->ref, "fs_transitions")) {
			thesis_transitions(f, r, t->ref);
			compare(r, t->ref, "branch", sentence, sizeof sentence);
			say(f, sentence);
		}
		break;
	case PLACE_BEFORE_RAW:
		reference_section(f, t->ref);
		break;
	default:
		break;
	}
}

/* The thesis's P of its file system by configuration mode, and %CPU of its
 * processes by name. */
static int ref_value(const void *ctx, enum report_ref_kind kind, const char *key,
		     struct report_refval *v)
{
	const struct thesis_panels *t = ctx;
	const struct thesis_value *tv = thesis_ref_find(t->ref, kind == REF_P ? "fs_p" : "fs_cpu_pct",
							key);
	if (!tv)
		return 0;
	*v = (struct report_refval){ tv->value, tv->uncertain };
	return 1;
}

void thesis_extension(struct report_extension *e, struct thesis_panels *t)
{
	memset(e, 0, sizeof *e);
	e->ctx = t;
	e->panel = panel;
	if (!t->values)
		return;
	e->ref_value = ref_value;
	e->ref_applies = is_file_system;
	e->ref_head[REF_P] = "thesis P (reference, file system)";
	e->ref_head[REF_CPU_PCT] = "thesis %CPU (reference)";
	e->ref_plot_title = "thesis (reference: file system, VAX)";
	e->ref_plot_caption = ", beside the values the thesis published for the DEMOS/MP file system "
			      "(reference, not ours)";
}

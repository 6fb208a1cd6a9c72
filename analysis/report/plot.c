/*
 * analysis/report/plot.c - the plots of a report: for each, a data file
 * (.dat) and a gnuplot script (.gp) that reads it and writes an SVG, all
 * beside the page, so a person can change a script and run
 * `gnuplot NAME.gp` in the report directory to redraw it (figure.c writes
 * and draws them); and the request state diagram, drawn by dot.
 */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/causality_dot.h"
#include "analysis/model/cli.h"
#include "analysis/model/tool.h"
#include "timeline.h"

#define PROFILE_BINS 200
#define CPU_BARS 30

/* Short names of the five configurations, for axes. */
static const char *const config_short[CONFIGS_THESIS] = {
	"upper bound", "measured", "+contention", "own machines", "one machine",
};

static void figure_init(struct report_figure *fig, const char *run, const char *what)
{
	memset(fig, 0, sizeof *fig);
	snprintf(fig->id, sizeof fig->id, "%s-%s", run, what);
}

/* ---- P of the five configurations ---------------------------------------- */

struct p_ctx {
	const struct report_run *r;
	const struct report_extension *refs;
};

static int p_data(FILE *f, const void *v)
{
	const struct p_ctx *c = v;
	fprintf(f, "# configuration, P of this run, P the thesis published for its file "
		   "system (reference; NaN where none)\n");
	for (size_t i = 0; i < CONFIGS_THESIS; i++) {
		const char *mode = c->r->cfg[i].mode;
		struct report_refval t;
		fprintf(f, "\"%s\" %.6f ", config_short[i], c->r->cfg[i].r.P);
		if (report_ref(c->refs, REF_P, mode, &t))
			fprintf(f, "%.4f\n", t.value);
		else
			fprintf(f, "NaN\n");
	}
	return CONFIGS_THESIS;
}

static void p_script(FILE *f, const struct report_figure *fig, const void *v)
{
	const struct p_ctx *c = v;
	report_gp_preamble(f, fig, 720, 340);
	fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
		   "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
		   "set ylabel \"P = T / t_max\"\nset yrange [0:*]\nset key top right\n");
	fprintf(f, "plot \"%s.dat\" using 2:xtic(1) title \"this run\" lc rgb \"#3b6ea5\"", fig->id);
	if (c->refs)
		fprintf(f, ", \"\" using 3 title \"%s\" lc rgb \"#c9a54a\"", c->refs->ref_plot_title);
	fprintf(f, "\n");
}

/* ---- CPU share of each process -------------------------------------------- */

static int cpu_data(FILE *f, const void *v)
{
	const struct report_run *r = v;
	uint32_t *order = malloc((r->tr.nproc + 1) * sizeof *order);
	if (!order)
		return -1;
	size_t n = report_cpu_ranking(r, order);
	double rest = 0;
	fprintf(f, "# process, %% of the CPU time of all processes (busiest first)\n");
	for (size_t i = 0; i < n; i++) {
		const struct proc_stats *p = &r->st.p[order[i]];
		double pct = r->st.total_cpu ? 100.0 * (double)p->cpu / (double)r->st.total_cpu : 0;
		if (i < CPU_BARS) {
			tool_quoted(f, report_process(r, order[i]));
			fprintf(f, " %.4f\n", pct);
		} else {
			rest += pct;
		}
	}
	if (n > CPU_BARS)
		fprintf(f, "\"%zu others\" %.4f\n", n - CPU_BARS, rest);
	free(order);
	return (int)n;
}

/* One bar per row of the .dat file: "label" value. */
static void bar_script(FILE *f, const struct report_figure *fig, int height, const char *xlabel,
		       const char *ylabel, const char *colour)
{
	report_gp_preamble(f, fig, 720, height);
	fprintf(f, "set style data histograms\nset style histogram gap 1\n"
		   "set style fill solid 0.85 border -1\nset boxwidth 0.8\nset yrange [0:*]\n"
		   "set xtics rotate by -45\nunset key\nset xlabel \"%s\"\nset ylabel \"%s\"\n"
		   "plot \"%s.dat\" using 2:xtic(1) lc rgb \"%s\"\n", xlabel, ylabel, fig->id, colour);
}

static void cpu_script(FILE *f, const struct report_figure *fig, const void *v)
{
	(void)v;
	bar_script(f, fig, 340, "process", "% of total CPU", "#3b6ea5");
}

/* ---- message sizes -------------------------------------------------------- */

static int sizes_data(FILE *f, const void *v)
{
	const struct report_run *r = v;
	int rows = 0;
	fprintf(f, "# size range in bytes (power-of-two buckets), messages sent\n");
	for (unsigned b = 0; b < STATS_BUCKETS; b++) {
		if (!r->st.total.size_hist[b])
			continue;
		if (b <= 1)
			fprintf(f, "\"%u\"", b);
		else
			fprintf(f, "\"%llu-%llu\"", 1ull << (b - 1), b >= 64 ? ~0ull : (1ull << b) - 1);
		fprintf(f, " %llu\n", (unsigned long long)r->st.total.size_hist[b]);
		rows++;
	}
	return rows;
}

static void sizes_script(FILE *f, const struct report_figure *fig, const void *v)
{
	(void)v;
	bar_script(f, fig, 320, "message size (bytes)", "messages", "#5a9a5a");
}

/* ---- parallelism profile -------------------------------------------------- */

static int profile_data(FILE *f, const void *v)
{
	const struct report_run *r = v;
	double bins[PROFILE_BINS];
	const double *when[2] = { r->when_measured, r->when_upper };
	const struct config_run *cfg[2] = { &r->cfg[CFG_MEASURED], &r->cfg[CFG_UPPER] };
	for (int b = 0; b < 2; b++) {
		report_profile(r, when[b], cfg[b]->r.t_max, bins, PROFILE_BINS);
		fprintf(f, "%s# block %d, %s (P %.6f): time_ns processes_running\n", b ? "\n\n" : "",
			b, cfg[b]->mode, cfg[b]->r.P);
		double width = cfg[b]->r.t_max / PROFILE_BINS;
		for (size_t i = 0; i < PROFILE_BINS; i++)
			fprintf(f, "%.0f %.6f\n", ((double)i + 0.5) * width, bins[i]);
	}
	return r->cfg[CFG_MEASURED].r.T > 0 ? PROFILE_BINS : 0;
}

/* Divisor and name of the time unit that suits a span of ns. */
static double time_unit(double ns, const char **name)
{
	static const struct { double div; const char *name; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i = 0;
	while (i < 3 && ns < 10 * units[i].div)
		i++;
	*name = units[i].name;
	return units[i].div;
}

static void profile_script(FILE *f, const struct report_figure *fig, const void *v)
{
	const struct report_run *r = v;
	const char *unit;
	double t_max = fmax(r->cfg[CFG_MEASURED].r.t_max, r->cfg[CFG_UPPER].r.t_max);
	double div = time_unit(t_max, &unit);
	report_gp_preamble(f, fig, 720, 320);
	fprintf(f, "set xlabel \"time on the longest-path timing (%s)\"\n"
		   "set ylabel \"processes running\"\nset yrange [0:*]\nset key below\n", unit);
	fprintf(f, "plot \"%s.dat\" index 0 using ($1/%g):2 with steps lw 1.5 lc rgb \"#3b6ea5\" "
		   "title \"measured (mean = P = %.3f)\", \\\n", fig->id, div,
		r->cfg[CFG_MEASURED].r.P);
	fprintf(f, "     \"\" index 1 using ($1/%g):2 with steps lw 1 lc rgb \"#999999\" "
		   "title \"upper bound (mean = P = %.3f)\"\n", div, r->cfg[CFG_UPPER].r.P);
}

/* ---- timeline ------------------------------------------------------------- */

struct timeline_ctx {
	const struct report_run *r;
	struct timeline *tl;     /* what the data showed, for the script and caption */
};

static int timeline_data(FILE *f, const void *v)
{
	const struct timeline_ctx *c = v;
	if (report_timeline(c->r, f, c->tl) < 0)
		return -1;
	return c->tl->until > 0 ? (int)(c->tl->nruns + c->tl->nmsgs) : 0;
}

static void timeline_script(FILE *f, const struct report_figure *fig, const void *v)
{
	const struct timeline_ctx *c = v;
	const char *unit;
	double div = time_unit(c->tl->until, &unit);
	int height = 120 + 22 * (int)c->tl->nlanes;
	report_gp_preamble(f, fig, 900, height < 260 ? 260 : height);
	fprintf(f, "set xlabel \"time on the longest-path timing of the measured configuration (%s)\"\n"
		   "set xrange [0:%g]\nset yrange [-0.7:%g]\nunset key\nset grid xtics\nset ytics (",
		unit, c->tl->until / div, (double)c->tl->nlanes - 0.3);
	for (size_t i = 0; i < c->tl->nlanes; i++) {
		fprintf(f, "%s", i ? ", " : "");
		tool_quoted(f, report_process(c->r, c->tl->lane_proc[i]));
		fprintf(f, " %zu", i);
	}
	fprintf(f, ")\n");
	fprintf(f, "plot \"%s.dat\" index 0 using ($1/%g):2:($3/%g):4 with vectors nohead lw 7 "
		   "lc rgb \"#3b6ea5\", \\\n", fig->id, div, div);
	fprintf(f, "     \"\" index 1 using ($1/%g):2:($3/%g):4 with vectors head filled size "
		   "screen 0.006,20 lw 0.7 lc rgb \"#c0392b\"\n", div, div);
}

/* ---- the plots of a run --------------------------------------------------- */

int report_plots(const struct report_run *r, const struct report_extension *refs,
		 struct report_tools *tools, struct report_figure fig[REPORT_PLOTS], char *why,
		 size_t whylen)
{
	const char *name = r->spec->name;
	struct p_ctx pc = { r, refs };
	struct timeline tl = { 0 };
	struct timeline_ctx tc = { r, &tl };
	char a[32], b[32];
	figure_init(&fig[PLOT_P], name, "p");
	figure_init(&fig[PLOT_CPU], name, "cpu");
	figure_init(&fig[PLOT_SIZES], name, "sizes");
	figure_init(&fig[PLOT_PROFILE], name, "profile");
	figure_init(&fig[PLOT_TIMELINE], name, "timeline");
	if (report_plot(tools, &fig[PLOT_P], &pc, p_data, p_script, "", why, whylen) < 0 ||
	    report_plot(tools, &fig[PLOT_CPU], r, cpu_data, cpu_script, "", why, whylen) < 0 ||
	    report_plot(tools, &fig[PLOT_SIZES], r, sizes_data, sizes_script,
		 "the trace has no messages sent", why, whylen) < 0 ||
	    report_plot(tools, &fig[PLOT_PROFILE], r, profile_data, profile_script,
		 "the processes used no CPU time between their events", why, whylen) < 0 ||
	    report_plot(tools, &fig[PLOT_TIMELINE], &tc, timeline_data, timeline_script,
		 "nothing ran and no message went in the measured timing", why, whylen) < 0)
		return -1;
	snprintf(fig[PLOT_P].caption, sizeof fig->caption,
		 "P of run %s in the thesis's five configurations%s.", name,
		 refs ? refs->ref_plot_caption : "");
	snprintf(fig[PLOT_CPU].caption, sizeof fig->caption,
		 "Share of the CPU time of all processes of run %s, busiest first (thesis Fig. 5.13).",
		 name);
	snprintf(fig[PLOT_SIZES].caption, sizeof fig->caption,
		 "Sizes of the messages sent in run %s, in power-of-two ranges.", name);
	snprintf(fig[PLOT_PROFILE].caption, sizeof fig->caption,
		 "Parallelism profile of run %s: how many processes run at each moment of the "
		 "longest-path timing, with delivery times (measured) and without (upper bound); "
		 "the mean of each curve is its P.", name);
	snprintf(fig[PLOT_TIMELINE].caption, sizeof fig->caption,
		 "Space-time diagram of run %s: a lane per process (grouped by machine, busiest %d "
		 "at most), bars while it runs, arrows for messages from SEND to RECEIVE, on the "
		 "timing of the measured configuration (not the nodes' clocks). Shown: 0 to %s of %s, "
		 "%zu of %zu messages.", name, TIMELINE_MAX_LANES, fmt_ns(tl.until, a, sizeof a),
		 fmt_ns(tl.t_max, b, sizeof b), tl.nmsgs, tl.all_msgs);
	return 0;
}

/* ---- P across runs -------------------------------------------------------- */

struct runs_ctx {
	const struct report_run *runs;
	size_t n;
};

static int runs_data(FILE *f, const void *v)
{
	const struct runs_ctx *c = v;
	fprintf(f, "# run");
	for (size_t k = 0; k < CONFIGS_THESIS; k++)
		fprintf(f, ", P %s", c->runs[0].cfg[k].mode);
	fprintf(f, "\n");
	for (size_t i = 0; i < c->n; i++) {
		tool_quoted(f, c->runs[i].spec->name);
		for (size_t k = 0; k < CONFIGS_THESIS; k++)
			fprintf(f, " %.6f", c->runs[i].cfg[k].r.P);
		fprintf(f, "\n");
	}
	return (int)c->n;
}

static void runs_script(FILE *f, const struct report_figure *fig, const void *v)
{
	(void)v;
	report_gp_preamble(f, fig, 720, 340);
	fprintf(f, "set ylabel \"P\"\nset yrange [0:*]\nset offsets 0.3,0.3,0,0\n"
		   "set key outside right\nplot ");
	for (int k = 0; k < CONFIGS_THESIS; k++)
		/* points, not lines: the runs are categories (often different
		 * programs), not a series to join */
		fprintf(f, "%s\"%s.dat\" using 0:%d:xtic(1) with points ps 1.5 pt %d title \"%s\"",
			k ? ", \\\n     " : "", fig->id, k + 2, k + 5, config_short[k]);
	fprintf(f, "\n");
}

int report_plot_runs(const struct report_run *runs, size_t n, struct report_tools *tools,
		     struct report_figure *fig, char *why, size_t whylen)
{
	struct runs_ctx c = { runs, n };
	memset(fig, 0, sizeof *fig);
	snprintf(fig->id, sizeof fig->id, "runs-p");
	snprintf(fig->caption, sizeof fig->caption,
		 "P of each run in the five configurations, runs in the order given.");
	return report_plot(tools, fig, &c, runs_data, runs_script, "", why, whylen);
}

/* ---- the request state diagram ------------------------------------------ */

int report_diagram(const struct report_run *r, struct report_tools *tools,
		   struct report_figure *fig, char *why, size_t whylen)
{
	memset(fig, 0, sizeof *fig);
	fig->diagram = 1;
	snprintf(fig->id, sizeof fig->id, "%s-causality", r->spec->name);
	snprintf(fig->caption, sizeof fig->caption, "Request state diagram of run %s (thesis "
		 "Fig. 5.19): a state per server, arcs labelled with how often a request at a "
		 "server went next to each process and the share of that server's steps.",
		 r->spec->name);
	FILE *f = report_file(tools->dir, fig->id, ".dot", why, whylen);
	if (!f)
		return -1;
	int rc = causality_write_dot(&r->cz, &r->roles, f);
	if (fclose(f) != 0 || rc < 0) {
		snprintf(why, whylen, "writing %s.dot failed", fig->id);
		return -1;
	}
	report_draw(tools, fig, "dot");
	return 0;
}

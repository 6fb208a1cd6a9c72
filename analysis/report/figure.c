/*
 * analysis/report/figure.c - a figure's files beside the page and drawing
 * them with gnuplot or dot (see figure.h).
 *
 * Scripts use the svg terminal without mouse support (no script in the
 * SVG) and noenhanced text, so process names are shown as they are.
 */
#include "figure.h"

#include <errno.h>
#include <string.h>

#include "analysis/model/tool.h"

FILE *report_file(const char *dir, const char *id, const char *ext, char *why, size_t whylen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s%s", dir, id, ext);
	FILE *f = fopen(path, "w");
	if (!f)
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
	return f;
}

void report_gp_preamble(FILE *f, const struct report_figure *fig, int width, int height)
{
	fprintf(f, "# %s.gp - written by dpm report; redraw with: gnuplot %s.gp\n", fig->id, fig->id);
	fprintf(f, "# data: %s.dat\n", fig->id);
	fprintf(f, "set terminal svg size %d,%d noenhanced font \"sans,11\" background rgb \"white\"\n",
		width, height);
	fprintf(f, "set output \"%s.svg\"\n", fig->id);
	fprintf(f, "set grid ytics lc rgb \"#dddddd\"\nset border 3\nset tics nomirror\n");
}

/* Close f; -1 with why if writing failed. */
static int finish(FILE *f, const struct report_figure *fig, const char *ext, char *why,
		  size_t whylen)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(why, whylen, "writing %s%s failed", fig->id, ext);
		return -1;
	}
	return 0;
}

void report_draw(struct report_tools *tools, struct report_figure *fig, const char *program)
{
	char in[128], out[128], why[300];
	snprintf(in, sizeof in, "%s.%s", fig->id, !strcmp(program, "dot") ? "dot" : "gp");
	snprintf(out, sizeof out, "%s.svg", fig->id);
	char *gnuplot[] = { (char *)program, in, NULL };
	char *dot[] = { (char *)program, "-Tsvg", "-o", out, in, NULL };
	int rc = tool_run(tools->dir, "tools.log", !strcmp(program, "dot") ? dot : gnuplot, why,
			  sizeof why);
	fig->made = rc == TOOL_OK;
	if (rc == TOOL_MISSING) {
		tools->missing = 1;
		const char *redraw = !strcmp(program, "dot") ? "dot -Tsvg -o FILE.svg FILE.dot"
							      : "gnuplot FILE.gp";
		snprintf(fig->note, sizeof fig->note, "%s; install it and run '%s' in this directory",
			 why, redraw);
	} else if (rc != TOOL_OK) {
		tools->failed = 1;
		snprintf(fig->note, sizeof fig->note, "%s", why);
	}
	if (rc != TOOL_OK && !tools->first_problem[0])
		snprintf(tools->first_problem, sizeof tools->first_problem, "%s", why);
}

int report_plot(struct report_tools *tools, struct report_figure *fig, const void *ctx,
		report_data_fn *data, report_script_fn *script, const char *empty, char *why,
		size_t whylen)
{
	FILE *f = report_file(tools->dir, fig->id, ".dat", why, whylen);
	if (!f)
		return -1;
	int points = data(f, ctx);
	if (finish(f, fig, ".dat", why, whylen) < 0 || points < 0)
		return -1;
	if (!(f = report_file(tools->dir, fig->id, ".gp", why, whylen)))
		return -1;
	script(f, fig, ctx);
	if (finish(f, fig, ".gp", why, whylen) < 0)
		return -1;
	if (points > 0)
		report_draw(tools, fig, "gnuplot");
	else
		snprintf(fig->note, sizeof fig->note, "%s", empty);
	return 0;
}

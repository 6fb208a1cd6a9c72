/*
 * analysis/model/critical_svg.c - the critical path as a space-time diagram
 * in SVG (critical_svg.h): a lane per traced process (by machine), every
 * message a thin grey line from its SEND to its RECEIVE, and over them the
 * path: a bar per process stretch and a thick line per message step (dashed: a creation, a child's end),
 * coloured by the state that holds most of the step.  Written directly (no
 * plotting tool), since it is only lines and rectangles on the run's own
 * times, and `dpm critical` must not depend on gnuplot.
 */
#include "critical_svg.h"

#include <stdlib.h>

#define WIDTH 1200.0
#define LEFT 80.0
#define RIGHT 20.0
#define TOP 40.0
#define LANE 22.0

static const char *const colour[CS_COUNT] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#bcbd22", "#e377c2", "#7f7f7f",
};

struct layout {
	const struct critical_result *r;
	uint32_t *lane;   /* per process, or UINT32_MAX without events */
	uint32_t nlanes;
	uint64_t t0, span;
};

static double x_of(const struct layout *l, uint64_t t)
{
	double f = l->span ? (double)(t - l->t0) / (double)l->span : 0;
	return LEFT + f * (WIDTH - LEFT - RIGHT);
}

static double y_of(const struct layout *l, uint32_t p)
{
	return TOP + LANE * (l->lane[p] + 0.5);
}

static int lanes(struct layout *l)
{
	const struct trace *t = l->r->net.g.tr;
	l->lane = malloc((t->nproc + 1) * sizeof *l->lane);
	if (!l->lane)
		return -1;
	l->nlanes = 0;
	for (size_t m = 0; m < l->r->nmachines; m++)
		for (size_t p = 0; p < t->nproc; p++)
			if (t->proc[p].traced && t->proc[p].machine == l->r->machines[m])
				l->lane[p] = l->nlanes++;
	for (size_t p = 0; p < t->nproc; p++)
		if (!t->proc[p].traced)
			l->lane[p] = UINT32_MAX;
	return 0;
}

static int dominant(const struct cstates *s)
{
	int best = 0;
	for (int i = 1; i < CS_COUNT; i++)
		if (s->ns[i] > s->ns[best])
			best = i;
	return best;
}

static void step_title(FILE *f, const struct cstates *s)
{
	fputs("<title>", f);
	for (int i = 0; i < CS_COUNT; i++)
		if (s->ns[i])
			fprintf(f, "%s %llu ns ", cstate_name[i], (unsigned long long)s->ns[i]);
	fputs("</title>", f);
}

static void messages(FILE *f, const struct layout *l, size_t max)
{
	const struct cnet *n = &l->r->net;
	size_t drawn = 0;
	fputs("<g stroke=\"#bbbbbb\" stroke-width=\"0.6\">\n", f);
	for (uint32_t k = 0; k < n->g.nnodes && drawn < max; k++) {
		if (n->g.kind[k] != CROSS_MESSAGE)
			continue;
		uint32_t s = n->g.cross[k];
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x_of(l, cnet_time(n, s)), y_of(l, n->g.node_proc[s]), x_of(l, cnet_time(n, k)),
			y_of(l, n->g.node_proc[k]));
		drawn++;
	}
	fputs("</g>\n", f);
}

static void path(FILE *f, const struct layout *l)
{
	const struct critical_result *r = l->r;
	const struct cnet *n = &r->net;
	for (size_t i = 0; i < r->path.nsteps; i++) {
		const struct cstep *st = &r->path.steps[i];
		uint32_t tail = cstep_tail(n, st), h = st->head;
		struct cstates s;
		cstep_states(n, &r->path, i, &s);
		const char *c = colour[dominant(&s)];
		double x1 = x_of(l, cnet_time(n, tail)), x2 = x_of(l, cnet_time(n, h));
		if (st->kind == STEP_PROCESS) {
			double w = x2 - x1 < 0.5 ? 0.5 : x2 - x1;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" fill=\"%s\">",
				x1, y_of(l, n->g.node_proc[h]) - 4, w, c);
			step_title(f, &s);
			fputs("</rect>\n", f);
		} else {
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"2.5\"%s>", x1, y_of(l, n->g.node_proc[tail]), x2,
				y_of(l, n->g.node_proc[h]), c,
				st->kind == STEP_FORK || st->kind == STEP_EXIT ? " stroke-dasharray=\"4 3\""
									       : "");
			step_title(f, &s);
			fputs("</line>\n", f);
		}
	}
}

static void legend(FILE *f, const struct layout *l, double y)
{
	const struct critical_result *r = l->r;
	double x = LEFT;
	for (int i = 0; i < CS_COUNT; i++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>", x,
			y, colour[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s %.1f%%</text>\n", x + 16, y + 11,
			cstate_name[i],
			r->length ? 100.0 * (double)r->job.ns[i] / (double)r->length : 0.0);
		x += 138;
	}
}

int critical_svg(FILE *f, const struct critical_result *r, size_t max_messages)
{
	struct layout l = { .r = r };
	if (lanes(&l) < 0)
		return -1;
	const struct cnet *n = &r->net;
	l.t0 = n->t0;
	l.span = cnet_time(n, n->last) - n->t0;
	double height = TOP + LANE * l.nlanes + 50;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", WIDTH, height);
	fprintf(f, "<text x=\"%.0f\" y=\"18\" font-size=\"13\">critical path: %llu ns of %llu ns "
		"elapsed, %zu steps (time from the first event, left to right)</text>\n", LEFT,
		(unsigned long long)r->length, (unsigned long long)r->elapsed, r->path.nsteps);
	const struct trace *t = n->g.tr;
	for (size_t p = 0; p < t->nproc; p++) {
		if (l.lane[p] == UINT32_MAX)
			continue;
		char name[32];
		double y = y_of(&l, (uint32_t)p);
		fprintf(f, "<text x=\"4\" y=\"%.1f\">%s</text><line x1=\"%.0f\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", y + 4,
			process_name(t, (uint32_t)p, name, sizeof name), LEFT, y, WIDTH - RIGHT, y);
	}
	messages(f, &l, max_messages);
	path(f, &l);
	legend(f, &l, TOP + LANE * l.nlanes + 20);
	fputs("</svg>\n", f);
	free(l.lane);
	return ferror(f) ? -1 : 0;
}

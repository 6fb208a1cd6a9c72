/*
 * analysis/report/timeline_section.c - a run's timelines on the page: the
 * whole run at a glance and a zoomed window, on the run's own clock, per
 * process and coloured by state (overview.c draws them), then the
 * space-time diagram of the computation graph's timing (timeline.c,
 * plot.c), whose times are those P is computed from.
 */
#include "sections.h"

#include <string.h>

#include "analysis/model/cli.h"
#include "html.h"
#include "page_parts.h"

void report_section_timelines(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	const struct report_overview *o = &r->overview;
	char id[160], svg[170], caption[900], a[32], b[32], c[32];
	snprintf(id, sizeof id, "%s-timelines", r->spec->name);
	html_heading(f, 3, id, "Timelines");
	if (!o->made) {
		html_para(f, "note", "No timeline on the run's own clock: %s.", r->critical_why);
	} else {
		report_state_legend(f);
		snprintf(id, sizeof id, "%s-overview", r->spec->name);
		snprintf(svg, sizeof svg, "%s.svg", id);
		char lines[160];
		if (o->every > 1)
			snprintf(lines, sizeof lines, "one message in %zu drawn (%zu of %zu)", o->every,
				 o->drawn, o->messages);
		else
			snprintf(lines, sizeof lines, "all %zu drawn", o->messages);
		snprintf(caption, sizeof caption, "The whole run, %s, on its clock: a lane per process "
			 "(the %zu busiest, grouped by machine), coloured by what it was doing (each of "
			 "400 columns: running or ready when that fills a quarter of it, else the "
			 "longest wait); lines are messages from "
			 "SEND to RECEIVE, %s.", fmt_ns(o->t1 - o->t0, a, sizeof a), o->lanes, lines);
		html_figure(f, id, svg, 1, NULL, caption, NULL);
		snprintf(id, sizeof id, "%s-zoom", r->spec->name);
		snprintf(svg, sizeof svg, "%s.svg", id);
		snprintf(caption, sizeof caption, "Zoomed: %s to %s of the run (%s), from its middle "
			 "message on, every message sent in the window (%zu).",
			 fmt_ns(o->z0 - o->t0, a, sizeof a), fmt_ns(o->z1 - o->t0, b, sizeof b),
			 fmt_ns(o->z1 - o->z0, c, sizeof c), o->zdrawn);
		html_figure(f, id, svg, 1, NULL, caption, NULL);
	}
	report_figure_html(f, &d->plots[i][PLOT_TIMELINE]);
}

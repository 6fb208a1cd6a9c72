/*
 * analysis/report/page.c - DIR/index.html: the summary a reader sees first
 * (what was run, the key figures, a table comparing the runs), a section
 * per run, the predictions across runs and the raw data (sections.h), with
 * the extensions' panels at their places (a study after the summary,
 * published values before the raw data).
 *
 * The page is written to a temporary file and renamed into place, so a
 * reader never sees half a page and a failed run leaves the old one.
 */
#include "page.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "page_parts.h"
#include "sections.h"

/* ---- the page --------------------------------------------------------------- */

static void run_section(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	char title[160];
	snprintf(title, sizeof title, "Run %s", r->spec->name);
	html_heading(f, 2, r->spec->name, title);
	html_para(f, NULL, "Input: %s (%s). Delivery times: %s.", r->spec->log,
		  r->raw_is_log ? "a filter log" : "a trace CSV", r->mtime_what);
	report_section_stats(f, d, i);
	report_section_parallel(f, d, i);
	report_section_critical(f, d, i);
	report_section_timelines(f, d, i);
	report_section_causality(f, d, i);
}

static void write_page(FILE *f, const struct report_page_data *d)
{
	html_page_begin(f, d->o->title);
	report_section_summary(f, d);
	report_panels(f, d, PLACE_AFTER_SUMMARY, 0);
	for (size_t i = 0; i < d->nruns; i++)
		run_section(f, d, i);
	if (d->cross.n > 1)
		report_section_cross(f, d);
	report_panels(f, d, PLACE_BEFORE_RAW, 0);
	report_section_raw(f, d);
	html_page_end(f);
}

int report_page(const struct report_page_data *d, char *why, size_t whylen)
{
	char tmp[4096], path[4096];
	snprintf(tmp, sizeof tmp, "%s/.index.html.tmp", d->o->dir);
	snprintf(path, sizeof path, "%s/index.html", d->o->dir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	write_page(f, d);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(why, whylen, "writing %s failed", tmp);
		remove(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

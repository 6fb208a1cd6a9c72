/*
 * analysis/studies/studies.c - the table of studies, and a study as a
 * report extension (see studies.h): after the runs are analysed it
 * computes the study's numbers and chooses the runs predicted across
 * (its configurations), after the figures it writes its CSV files and
 * plots, and after the summary it adds its section.  The studies
 * themselves are fs*.c and tsp*.c; what they share is study.c, below
 * this file.
 */
#include "studies.h"

#include <string.h>

#include "fs.h"
#include "tsp.h"

static const struct {
	const char *name;
	int kind;
	int cross_reference;
} studies[] = {
	{ "fs", STUDY_FS, 1 },
	{ "tsp", STUDY_TSP, 0 },
};

int study_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof studies / sizeof studies[0]; i++)
		if (!strcmp(studies[i].name, name))
			return studies[i].kind;
	return STUDY_NONE;
}

int study_cross_reference(int kind)
{
	for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++)
		if (studies[i].kind == kind)
			return studies[i].cross_reference;
	return 0;
}

int report_study_compute(struct report_study *s, int kind, const struct report_run *runs,
			 size_t n, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->versions_n = REPORT_UNSET;
	return kind == STUDY_FS ? fs_study_compute(s, runs, n, err, errlen)
				: tsp_study_compute(s, runs, n, err, errlen);
}

/* ---- the extension ---------------------------------------------------------- */

static int analysed(void *ctx, const struct report_run *runs, size_t n, char *err, size_t errlen)
{
	struct study_plugin *p = ctx;
	return report_study_compute(&p->s, p->kind, runs, n, err, errlen);
}

static int cross_runs(void *ctx, const size_t **pick, size_t *n)
{
	struct study_plugin *p = ctx;
	*pick = p->s.config_runs;
	*n = p->s.nconfig;
	return 1;
}

static int draw(void *ctx, const struct report_run *runs, size_t n, const struct report_cross *x,
		struct report_tools *tools, char *why, size_t whylen)
{
	struct study_plugin *p = ctx;
	(void)n;
	return p->kind == STUDY_FS ? fs_study_write(&p->s, runs, x, p->ref, tools, why, whylen)
				   : tsp_study_write(&p->s, runs, p->ref, tools, why, whylen);
}

static void panel(void *ctx, FILE *f, const struct report_page_data *d, enum report_place place,
		  size_t run)
{
	const struct study_plugin *p = ctx;
	(void)run;
	if (place != PLACE_AFTER_SUMMARY)
		return;
	if (p->kind == STUDY_FS)
		fs_study_section(f, d, &p->s, p->ref);
	else
		tsp_study_section(f, d, &p->s, p->ref);
}

void study_extension(struct report_extension *e, struct study_plugin *p)
{
	memset(e, 0, sizeof *e);
	e->ctx = p;
	e->analysed = analysed;
	e->cross_runs = cross_runs;
	e->draw = draw;
	e->panel = panel;
}

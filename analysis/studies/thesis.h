/*
 * analysis/studies/thesis.h - the thesis's published values beside a
 * report's numbers (thesis.c), as a report extension
 * (analysis/report/extension.h): with --thesis its values in the runs'
 * tables and plot of P, its panels and sentences comparing shapes, and the
 * list of reference values; for the file-system study its Fig. 5.17 beside
 * the predictions across runs.
 */
#ifndef DPM_ANALYSIS_STUDIES_THESIS_H
#define DPM_ANALYSIS_STUDIES_THESIS_H

#include <stdio.h>

#include "analysis/report/extension.h"
#include "thesis_ref.h"

struct thesis_panels {
	const struct thesis_ref *ref;
	int values;      /* --thesis: values beside ours, comparisons, the reference list */
	int cross;       /* the thesis's Fig. 5.17 beside the predictions across runs */
};

/* Fill e to show t's values; t must outlive e. */
void thesis_extension(struct report_extension *e, struct thesis_panels *t);

/* A cell with a thesis value v (fmt for the number, " (?)" when
 * uncertain), or "-" when v is NULL. */
void thesis_cell(FILE *f, const struct thesis_value *v, const char *fmt);

#endif

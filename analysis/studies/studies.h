/*
 * analysis/studies/studies.h - the studies of `dpm report --study NAME`
 * (studies.c): the table of them by name, and a study plugged into the
 * report as an extension (analysis/report/extension.h), so the report
 * knows no study.  A study adds to the report; it changes nothing of what
 * a report without --study shows, except that predictions across runs
 * are made among the study's configurations only.
 */
#ifndef DPM_ANALYSIS_STUDIES_STUDIES_H
#define DPM_ANALYSIS_STUDIES_STUDIES_H

#include <stddef.h>

#include "analysis/report/extension.h"
#include "study.h"
#include "thesis_ref.h"

enum study_kind { STUDY_NONE, STUDY_FS, STUDY_TSP };

/* The study called name ("fs", "tsp"), or STUDY_NONE. */
int study_by_name(const char *name);
/* Whether the study sets the thesis's Fig. 5.17 beside the predictions
 * across runs (the file-system study: its configurations are the
 * thesis's). */
int study_cross_reference(int kind);

/* Compute the study of kind from the analysed runs.  0 ok; else an exit
 * code with what is wrong in err (a TSP run without its controller). */
int report_study_compute(struct report_study *s, int kind, const struct report_run *runs,
			 size_t n, char *err, size_t errlen);

/* A study in a report: which, the reference it is set beside, its numbers. */
struct study_plugin {
	int kind;
	const struct thesis_ref *ref;
	struct report_study s;
};

/* Fill e to add p's study to the report; p must outlive e. */
void study_extension(struct report_extension *e, struct study_plugin *p);

#endif

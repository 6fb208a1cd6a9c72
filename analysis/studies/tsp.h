/*
 * analysis/studies/tsp.h - the TSP study (thesis §5.3.3): its numbers, CSV
 * files and plots (tsp.c) and its section of the page (tsp_page.c).
 */
#ifndef DPM_ANALYSIS_STUDIES_TSP_H
#define DPM_ANALYSIS_STUDIES_TSP_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/report/page_data.h"
#include "study.h"

int tsp_study_compute(struct report_study *s, const struct report_run *runs, size_t n,
		      char *err, size_t errlen);
int tsp_study_write(struct report_study *s, const struct report_run *runs,
		    const struct thesis_ref *ref, struct report_tools *tools, char *why,
		    size_t whylen);
void tsp_study_section(FILE *f, const struct report_page_data *d, const struct report_study *s,
		       const struct thesis_ref *ref);

/* The thesis's Fig. 5.20 value of P of kind (TSP_MAX, ...) for p servers
 * and size n, or NULL; and the kind in words. */
const struct thesis_value *tsp_thesis_value(const struct thesis_ref *ref, long p, long n,
					    int kind);
const char *tsp_kind_name(int kind);

#endif

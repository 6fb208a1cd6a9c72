/*
 * analysis/studies/fs.h - the file-system study (thesis §5.3.1-5.3.2):
 * its numbers, CSV files and plot (fs.c) and its section of the page
 * (fs_page.c).
 */
#ifndef DPM_ANALYSIS_STUDIES_FS_H
#define DPM_ANALYSIS_STUDIES_FS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/report/page_data.h"
#include "study.h"

int fs_study_compute(struct report_study *s, const struct report_run *runs, size_t n,
		     char *err, size_t errlen);
int fs_study_write(struct report_study *s, const struct report_run *runs,
		   const struct report_cross *x, const struct thesis_ref *ref,
		   struct report_tools *tools, char *why, size_t whylen);
void fs_study_section(FILE *f, const struct report_page_data *d,
		      const struct report_study *s, const struct thesis_ref *ref);

#endif

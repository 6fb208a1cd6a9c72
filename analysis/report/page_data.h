/*
 * analysis/report/page_data.h - what the page of `dpm report` is written
 * from: the options, the analysed runs, their figures and the predictions
 * across them.  The page (page.c), its sections and the extensions' panels
 * all read it; it is only types, so it sits below all of them.
 */
#ifndef DPM_ANALYSIS_REPORT_PAGE_DATA_H
#define DPM_ANALYSIS_REPORT_PAGE_DATA_H

#include <stddef.h>

#include "cross.h"
#include "extension.h"
#include "figure.h"
#include "plot.h"
#include "run.h"

struct report_opts {
	const char *dir;
	const char *title;
	int copy_raw;                         /* --copy-raw: inputs copied into DIR/raw/ */
	const struct report_extension *ext;   /* what is plugged in (extension.h) */
	size_t next;
};

struct report_page_data {
	const struct report_opts *o;
	struct report_run *runs;
	size_t nruns;
	struct report_cross cross;
	struct report_figure (*plots)[REPORT_PLOTS];   /* per run */
	struct report_figure *diagrams;                 /* per run */
	struct report_figure runs_plot;
	const struct report_tools *tools;
};

#endif

/*
 * analysis/report/extension.h - how a part above the report adds to it
 * without the report knowing that part (the studies and the thesis's
 * published values, analysis/studies/): a table of hooks the report calls
 * at fixed moments of its work and places on its page, and published
 * values it sets beside its own numbers.  `dpm report`
 * (analysis/commands/report.c) picks the extensions and hands them over
 * in report_opts; the report itself names no study and no workload.
 * extension.c looks up the published values among the extensions.
 */
#ifndef DPM_ANALYSIS_REPORT_EXTENSION_H
#define DPM_ANALYSIS_REPORT_EXTENSION_H

#include <stddef.h>
#include <stdio.h>

struct report_run;
struct report_cross;
struct report_tools;
struct report_page_data;

/* A value published elsewhere, set beside one of ours. */
struct report_refval {
	double value;
	int uncertain;           /* shown with " (?)" */
};

/* What a published value is of; its key is a configuration's mode
 * (REF_P) or a process's name (REF_CPU_PCT). */
enum report_ref_kind { REF_P, REF_CPU_PCT, REF_KINDS };

/* Places on the page where an extension may add panels. */
enum report_place {
	PLACE_AFTER_SUMMARY,     /* after the summary, before the runs */
	PLACE_RUN_CPU,           /* a run's statistics, after the CPU plot */
	PLACE_RUN_P,             /* a run's parallelism, after the P plot */
	PLACE_RUN_CAUSALITY,     /* the end of a run's paths of causality, when analysed */
	PLACE_CROSS,             /* the end of the predictions across runs, when there are any */
	PLACE_BEFORE_RAW,        /* before the raw data */
};

/* Every hook may be NULL. */
struct report_extension {
	void *ctx;
	/* The runs are analysed: 0, or an exit code with what is wrong in err. */
	int (*analysed)(void *ctx, const struct report_run *runs, size_t n, char *err,
			size_t errlen);
	/* The runs the predictions across runs are made among (indices into
	 * the runs, in the matrix's order): 1 with them, 0 for all runs. */
	int (*cross_runs)(void *ctx, const size_t **pick, size_t *n);
	/* The runs' figures are drawn: write the extension's own files into
	 * tools->dir.  -1 with why. */
	int (*draw)(void *ctx, const struct report_run *runs, size_t n,
		    const struct report_cross *x, struct report_tools *tools, char *why,
		    size_t whylen);
	/* Panels at place (run: the run's index at the PLACE_RUN_ places). */
	void (*panel)(void *ctx, FILE *f, const struct report_page_data *d,
		      enum report_place place, size_t run);
	/* Published values: 1 with the value of kind for key in v, else 0. */
	int (*ref_value)(const void *ctx, enum report_ref_kind kind, const char *key,
			 struct report_refval *v);
	/* Whether the published values belong beside run r (the same study);
	 * NULL: beside every run. */
	int (*ref_applies)(const void *ctx, const struct report_run *r);
	const char *ref_head[REF_KINDS];   /* their column's head in the run's tables */
	const char *ref_plot_title;        /* their series in the plot of P */
	const char *ref_plot_caption;      /* appended to that plot's caption */
};

/* The first of the n extensions that publishes values, or NULL. */
const struct report_extension *report_refs(const struct report_extension *ext, size_t n);
/* The same, when its values belong beside run r, else NULL. */
const struct report_extension *report_refs_for(const struct report_extension *ext, size_t n,
					       const struct report_run *r);
/* The value of kind for key from refs (NULL: none); 1 with it in v, else 0. */
int report_ref(const struct report_extension *refs, enum report_ref_kind kind, const char *key,
	       struct report_refval *v);

#endif

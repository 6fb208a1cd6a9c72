/*
 * analysis/report_study.h - what the two studies of `dpm report --study`
 * share inside the report (report_study*.c): the CSV files written for
 * scripts, plots of a few series of means with their min..max, and
 * finding a process by its names-file name.
 */
#ifndef DPM_ANALYSIS_REPORT_STUDY_H
#define DPM_ANALYSIS_REPORT_STUDY_H

#include "report.h"

/* What a CSV file of a study is written from. */
struct study_csv_ctx {
	const struct report_study *s;
	const struct report_run *runs;
	const struct report_cross *x;
	const struct thesis_ref *ref;
	long only_n;             /* the TSP groups of this n, or REPORT_UNSET for all */
};
typedef void study_rows_fn(FILE *f, const struct study_csv_ctx *c);
/* DIR/name: the header row, then rows().  -1 with why. */
int study_csv(const char *dir, const char *name, const char *header, study_rows_fn *rows,
	      const struct study_csv_ctx *c, char *why, size_t whylen);
/* ",v" (an empty field for NaN), and ",mean,min,max" of a. */
void study_csv_real(FILE *f, double v);
void study_csv_agg(FILE *f, const struct study_agg *a);
/* A paragraph linking the CSV files of a study. */
void study_csv_links(FILE *f, const char *const *files, size_t n);

/* Lines of means with min..max bars: a series per line, a point per x. */
#define STUDY_SERIES 16
#define STUDY_POINTS 32

struct study_series {
	char title[64];
	int y2;                  /* drawn against the right-hand axis */
	size_t n;
	double x[STUDY_POINTS];
	struct study_agg y[STUDY_POINTS];
};

struct study_plot {
	const char *xlabel, *ylabel, *y2label;   /* y2label NULL: one axis */
	size_t nseries;
	struct study_series s[STUDY_SERIES];
};

/* Series called title (added if new), or NULL when there are too many. */
struct study_series *study_series(struct study_plot *p, const char *title, int y2);
/* Add a point (kept in order of x); ignored when a is empty or full. */
void study_point(struct study_series *s, double x, const struct study_agg *a);
/* The study's next figure, DIR/<id>.{dat,gp,svg}: data, script, drawn. */
int study_plot_draw(struct report_study *s, struct report_tools *tools, const char *id,
		    const struct study_plot *p, const char *caption, char *why, size_t whylen);

/* The traced process of r with names-file name `name`, or NO_PROC. */
uint32_t study_process(const struct report_run *r, const char *name);
/* A run's span: the longest time from the first to the last event of one
 * machine, each machine on its own clock (ns). */
double study_span(const struct report_run *r);
/* Percent (a - b) / b, NaN when b is not positive. */
double study_pct(double a, double b);

/* The thesis's Fig. 5.20 value of P of kind (TSP_MAX, ...) for p servers
 * and size n, or NULL; and the kind in words. */
const struct thesis_value *report_tsp_thesis(const struct thesis_ref *ref, long p, long n,
					     int kind);
const char *report_tsp_kind(int kind);

#endif

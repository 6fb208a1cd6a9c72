/*
 * analysis/studies/study.h - what the two studies of `dpm report --study`
 * share (study.c): their numbers (repeats summed up as mean and min..max,
 * the file-system and TSP tables), the CSV files written for scripts,
 * plots of a few series of means with their min..max, finding a process by
 * its names-file name, and sentences built up piece by piece.  The studies
 * (fs*.c, tsp*.c) build on it; studies.c, which picks one, sits above.
 */
#ifndef DPM_ANALYSIS_STUDIES_STUDY_H
#define DPM_ANALYSIS_STUDIES_STUDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/report/cross.h"
#include "analysis/report/figure.h"
#include "analysis/report/run.h"
#include "thesis_ref.h"

/* What a run is in a study, RUN's keys added to the report's
 * (report_spec_parse): config=X (a label), users=K (concurrent file-system
 * test users), n=N, p=P, version=V (TSP matrix size, servers, program
 * version 1..3) and rep=R (runs differing only in rep repeat one
 * measurement); their values are the spec's text[KEY_CONFIG] and
 * num[KEY_...]. */
enum { KEY_CONFIG, KEY_USERS, KEY_N, KEY_P, KEY_VERSION, KEY_REP, STUDY_KEYS };
extern const struct report_key study_keys[STUDY_KEYS];

/* Repeats of one measurement: how many, their sum, least and greatest
 * (NaN values are left out). */
struct study_agg {
	size_t n;
	double sum, min, max;
};
void study_agg_add(struct study_agg *a, double v);
double study_agg_mean(const struct study_agg *a);   /* NaN when empty */

/* File system, users versus P: the runs with users=K, repeats together. */
struct study_users {
	long users;
	size_t runs;
	struct study_agg p_measured, p_contention;
	struct study_agg q_max, q_mean;     /* the RI's queue, as dpm stats computes it */
};

/* File system, predicted versus measured completion of a run with config=. */
struct study_completion {
	size_t run;
	double predicted_ns;     /* t_max of the measured configuration with contention */
	double measured_ns;      /* the job's elapsed time (study_elapsed) */
	int one_clock;           /* ... from its first to its last event on the one clock */
	double error_pct;        /* (predicted - measured) / measured */
};

/* TSP: the three P of the thesis's Fig. 5.20. */
enum { TSP_MAX, TSP_ONE, TSP_TWO, TSP_KINDS };

struct study_tsp_run {
	size_t run;
	double P[TSP_KINDS];     /* upper bound, one server per machine, two per machine */
	double t_ms;             /* T, total CPU */
	double controller_pct;   /* the controller's share of T */
};

/* Runs of one (version, n, p), or (version 1, n) for the CPU table (p 0). */
struct study_tsp_group {
	long version, n, p;
	size_t runs;
	struct study_agg P[TSP_KINDS], t_ms, controller_pct;
};

#define STUDY_FIGURES 12

struct report_study {
	int kind;                /* enum study_kind (studies.h) */
	/* fs */
	struct study_users *users;
	size_t nusers;
	size_t *config_runs;     /* runs with config=, in config (then rep) order */
	size_t nconfig;
	struct study_completion *completion;   /* fs: one per config run, same order;
						  tsp: one per run */
	size_t ncompletion;
	int no_ri;               /* some users run has no process named RI */
	/* tsp */
	struct study_tsp_run *tsp;             /* one per run, the runs' order */
	size_t ntsp;
	struct study_tsp_group *groups;        /* by version, n, p */
	size_t ngroups;
	struct study_tsp_group *cpu;           /* version 1 by n */
	size_t ncpu;
	long versions_n;         /* the n the versions are compared at, or REPORT_UNSET */
	struct report_figure fig[STUDY_FIGURES];
	size_t nfig;
};

void report_study_free(struct report_study *s);

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
/* A run's elapsed time, ns: from the job's first to its last event on the
 * cluster's one clock when the log was recorded in virtual time (its
 * table says `# clock=virtual`), and *one_clock set.  Otherwise the nodes'
 * clocks are not one (each started at its own boot), so no first-to-last
 * across machines means anything: then the longest span of one machine's
 * events on its own clock, and *one_clock 0. */
double study_elapsed(const struct report_run *r, int *one_clock);
/* Run `run` of runs: its predicted completion (t_max of the measured
 * configuration with CPU contention) against the measured one
 * (study_elapsed), into *c. */
void study_completion_set(struct study_completion *c, const struct report_run *runs, size_t run);
/* The CSV columns of c: ,predicted_ms,measured_ms,error_pct,measured_on. */
void study_completion_csv(FILE *f, const struct study_completion *c);
/* Appended to out: how far the predicted completions of s fall from the
 * measured ones (mean and worst |error|), nothing without any. */
void study_completion_say(const struct report_study *s, const struct report_run *runs, char *out,
			  size_t len);
/* Percent (a - b) / b, NaN when b is not positive. */
double study_pct(double a, double b);

/* A cell with the mean of a's values and, for repeats, their min..max. */
void study_agg_cell(FILE *f, const struct study_agg *a, const char *fmt);
/* Append formatted text to out (of size len). */
void study_say(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

/*
 * analysis/report.h - `dpm report`: one HTML page (DIR/index.html) from
 * the analyses of one or more traced runs, with gnuplot plots and the
 * Graphviz state diagram as SVG files beside it (docs/report.md).
 *
 * The work is split by concept: a RUN argument (report_spec.c), the
 * analyses of one run computed in-process with the analysis library
 * (report_run.c), the raw inputs kept beside the page (report_inputs.c),
 * each run's P predicted from the other runs' traces (report_cross.c), the
 * data and scripts of the plots (report_plot.c, report_timeline.c), the
 * thesis's values set beside ours (report_thesis.c, read by thesis_ref.c),
 * the page and its sections (report_page.c, report_stats_section.c,
 * report_parallel_section.c, report_causality.c; HTML in html.c) and the
 * command (report_main.c).  Every number on the page is computed from the
 * runs' own traces; the thesis's values only ever appear in panels
 * labelled as its reference.
 */
#ifndef DPM_ANALYSIS_REPORT_H
#define DPM_ANALYSIS_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "causality_roles.h"
#include "configs.h"
#include "stats.h"
#include "thesis_ref.h"

/* ---- a RUN argument: NAME=LOG[,key=value...] ------------------------------ */

struct report_spec {
	char name[48];          /* [A-Za-z0-9_.-], not starting with '.': used in file names */
	char *log;              /* filter log or trace CSV */
	char *requestors;       /* node.pid,node.pid,... (given with '+'), or NULL */
	char *servers;
	char *system;
	char *names;            /* names file: "node.pid NAME ROLE" lines, or NULL */
	char *mtime;            /* delivery-time table, or NULL for the default */
	/* What the run is in a study (--study): all optional. */
	char config[16];        /* config=X, letters and digits; "" if not given */
	long users;             /* users=K: concurrent file-system test users */
	long n, p, version;     /* TSP matrix size, servers, program version 1..3 */
	long rep;               /* repetition: runs differing only in rep repeat one measurement */
};

#define REPORT_UNSET (-1L)      /* a study key not given */

/* 0 ok; -1 with what is wrong in err ("run 'A': ..."). */
int report_spec_parse(const char *arg, struct report_spec *s, char *err, size_t errlen);
void report_spec_free(struct report_spec *s);

/* ---- the analyses of one run ---------------------------------------------- */

/* Indices into report_run.cfg, the order of configs_plan_thesis. */
enum { CFG_UPPER, CFG_MEASURED, CFG_CONTENTION, CFG_EACH_OWN, CFG_ONE };

struct report_run {
	const struct report_spec *spec;
	struct trace tr;
	struct stats st;
	struct cgraph g;
	struct mtime_table mt;
	char mtime_what[320];
	struct config_run cfg[CONFIGS_THESIS];
	double *when_upper;      /* each node's time under the upper bound */
	double *when_measured;   /* ... and the measured configuration */
	struct roles roles;      /* names of the processes; roles if causality */
	int have_causality;      /* some process is a requestor */
	struct causality cz;
	char raw_file[128];      /* the input as kept inside DIR */
	char csv_file[128];      /* its CSV inside DIR */
	int raw_is_log;          /* the input was a filter log (else a CSV) */
};

/* Load the run's trace and compute everything.  0 ok; else an exit code
 * (2 bad input, 1 failed) with "file:line: what is wrong" in err. */
int report_run_analyse(struct report_run *r, const struct report_spec *s, char *err,
		       size_t errlen);
void report_run_free(struct report_run *r);

/* The process's name for people: its names-file name, else node.pid. */
const char *report_process(const struct report_run *r, uint32_t p);
/* Whether process p has events of its own (a node of the graph). */
int report_traced(const struct report_run *r, uint32_t p);
/* Processes with events ranked by CPU, busiest first, into order; how
 * many there are. */
size_t report_cpu_ranking(const struct report_run *r, uint32_t *order);
/* The process with events that used the most CPU, or NO_PROC. */
uint32_t report_busiest(const struct report_run *r);

/* Copy the run's input into dir/raw/ and keep a CSV of it there (written
 * from a filter log, or the CSV itself).  0 ok; -1 with why. */
int report_keep_inputs(struct report_run *r, const char *dir, char *why, size_t whylen);

/* ---- predictions across runs (thesis Fig. 5.17) -------------------------- */

/* P of row run X's measured assignment, predicted from column run Y's
 * trace: processes of Y that X also traced (same name) are put on the
 * machines X ran them on, the rest stay where Y ran them. */
struct report_cross {
	size_t n;
	struct report_run **run; /* the runs of the matrix, in its order */
	double *p[2];            /* [0] measured, [1] with contention; n*n, row X, column Y */
	size_t *shared;          /* n*n: processes X and Y both traced */
	int any;                 /* some pair of different runs shares a process */
};

/* The matrix of the runs pick[0..n-1] (indices into runs), or of all n
 * runs in their order when pick is NULL. */
int report_cross_compute(struct report_cross *x, struct report_run *runs, const size_t *pick,
			 size_t n, char *err, size_t errlen);
void report_cross_free(struct report_cross *x);
/* Percent difference of the prediction from X's own measured P. */
double report_cross_diff(const struct report_cross *x, int mode, size_t row, size_t col);

/* P of the assignment `spec` (as --assign takes it) on run y's trace,
 * with or without CPU contention; w is scratch for y's graph. */
int report_predict(const struct report_run *y, const char *spec, int contention,
		   struct pwork *w, double *p, char *err, size_t errlen);
/* Append "node.pid=MACHINE" for y's process q to the growing spec *s
 * (length *len, capacity *cap).  -1 out of memory. */
int report_assign_add(char **s, size_t *len, size_t *cap, const struct report_run *y,
		      uint32_t q, const char *machine);

/* ---- figures -------------------------------------------------------------- */

struct report_figure {
	char id[96];             /* element id on the page; files are DIR/<id>.{svg,dat,gp,dot} */
	char caption[600];
	char note[400];          /* why it was not drawn */
	int made;
	int diagram;             /* drawn by dot from <id>.dot, else by gnuplot */
};

struct report_tools {
	const char *dir;
	int missing;             /* a drawing tool was not found on PATH */
	int failed;              /* one ran and failed */
	char first_problem[400];
};

/* Run gnuplot on DIR/<fig->id>.gp (or dot on .dot) and record the result in
 * fig and tools. */
void report_draw(struct report_tools *tools, struct report_figure *fig, const char *program);

/* Open DIR/<id><ext> for writing; NULL with why. */
FILE *report_file(const char *dir, const char *id, const char *ext, char *why, size_t whylen);

/* The plots of a run, each with its .dat and .gp written and drawn:
 * P of the five configurations (with the thesis's values when ref is not
 * NULL), CPU shares, message sizes, the parallelism profile, the timeline. */
enum { PLOT_P, PLOT_CPU, PLOT_SIZES, PLOT_PROFILE, PLOT_TIMELINE, REPORT_PLOTS };
int report_plots(const struct report_run *r, const struct thesis_ref *ref,
		 struct report_tools *tools, struct report_figure fig[REPORT_PLOTS], char *why,
		 size_t whylen);
/* Write fig's .dat with data() and .gp with script(), then draw it
 * unless data() wrote no point (empty: the note then).  -1 with why if a
 * file cannot be written. */
typedef int report_data_fn(FILE *f, const void *ctx);
typedef void report_script_fn(FILE *f, const struct report_figure *fig, const void *ctx);
int report_plot(struct report_tools *tools, struct report_figure *fig, const void *ctx,
		report_data_fn *data, report_script_fn *script, const char *empty, char *why,
		size_t whylen);
/* The first lines of every gnuplot script: SVG of width x height. */
void report_gp_preamble(FILE *f, const struct report_figure *fig, int width, int height);
/* P of every configuration across the runs. */
int report_plot_runs(const struct report_run *runs, size_t n, struct report_tools *tools,
		     struct report_figure *fig, char *why, size_t whylen);
/* The request state diagram (thesis Fig. 5.19). */
int report_diagram(const struct report_run *r, struct report_tools *tools,
		   struct report_figure *fig, char *why, size_t whylen);

/* The space-time diagram's data: run stretches and messages of the
 * measured timing, in the window [0, until] that keeps it readable. */
#define TIMELINE_MAX_LANES 48
struct timeline {
	double until;            /* end of the window shown, ns */
	double t_max;
	size_t nruns, nmsgs;     /* shown */
	size_t all_msgs;
	uint32_t lane_proc[TIMELINE_MAX_LANES];  /* process of each lane */
	size_t nlanes;
};
/* Write the two data blocks (stretches, messages) to f. */
int report_timeline(const struct report_run *r, FILE *f, struct timeline *tl);
/* Average number of processes running in each of nbins slices of
 * [0, t_max] of a timing (when), into bins. */
void report_profile(const struct report_run *r, const double *when, double t_max,
		    double *bins, size_t nbins);

/* ---- the thesis beside us ------------------------------------------------- */

/* Sentences saying where a run agrees with the thesis in shape and where
 * not; empty when the reference lacks the values.  what: "p", "cpu",
 * "branch". */
void report_compare(const struct report_run *r, const struct thesis_ref *ref,
		    const char *what, char *out, size_t len);
void report_compare_cross(const struct report_cross *x, const struct thesis_ref *ref, char *out,
			  size_t len);
/* Append formatted text to out (of size len). */
void report_say(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the page ------------------------------------------------------------- */

/* ---- the studies (--study fs|tsp; report_study*.c) ------------- */

enum report_study_kind { STUDY_NONE, STUDY_FS, STUDY_TSP };

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
	double measured_ns;      /* longest span of one machine's events on its own clock */
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
	int kind;
	/* fs */
	struct study_users *users;
	size_t nusers;
	size_t *config_runs;     /* runs with config=, in config (then rep) order */
	size_t nconfig;
	struct study_completion *completion;   /* one per config run, same order */
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

/* Compute the study of kind from the analysed runs.  0 ok; else an exit
 * code with what is wrong in err (a TSP run without its controller). */
int report_study_compute(struct report_study *s, int kind, const struct report_run *runs,
			 size_t n, char *err, size_t errlen);
void report_study_free(struct report_study *s);
/* Write the study's CSV files and plots into tools->dir (x: the
 * predictions across the configurations).  -1 with why. */
int report_study_write(struct report_study *s, const struct report_run *runs,
		       const struct report_cross *x, const struct thesis_ref *ref,
		       struct report_tools *tools, char *why, size_t whylen);
int report_study_fs_compute(struct report_study *s, const struct report_run *runs, size_t n,
			    char *err, size_t errlen);
int report_study_tsp_compute(struct report_study *s, const struct report_run *runs, size_t n,
			     char *err, size_t errlen);
int report_study_fs_write(struct report_study *s, const struct report_run *runs,
			  const struct report_cross *x, const struct thesis_ref *ref,
			  struct report_tools *tools, char *why, size_t whylen);
int report_study_tsp_write(struct report_study *s, const struct report_run *runs,
			   const struct thesis_ref *ref, struct report_tools *tools, char *why,
			   size_t whylen);

/* ---- the page ------------------------------------------------------------- */

struct report_opts {
	const char *dir;
	const char *title;
	const struct thesis_ref *ref;    /* with --thesis, else NULL */
	int study;                       /* enum report_study_kind */
	const struct thesis_ref *study_ref;  /* the reference a study is set beside */
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
	const struct report_study *study;
};

/* Write DIR/index.html.  0 ok; -1 with why. */
int report_page(const struct report_page_data *d, char *why, size_t whylen);

/* A figure on the page, with links to the files it was drawn from. */
void report_figure_html(FILE *f, const struct report_figure *fig);
/* A table of run r with id "<run>-<what>" (html_table_begin's heads). */
void report_table_begin(FILE *f, const struct report_run *r, const char *what,
			const char *caption, const char *heads);
/* A cell with a thesis value v (fmt for the number, " (?)" when
 * uncertain), or "-" when v is NULL. */
void report_ref_cell(FILE *f, const struct thesis_value *v, const char *fmt);

/* Sections (report_page.c, report_stats_section.c, report_parallel_section.c,
 * report_cross.c, report_causality.c, report_thesis.c). */
void report_section_summary(FILE *f, const struct report_page_data *d);
void report_section_stats(FILE *f, const struct report_page_data *d, size_t i);
void report_section_parallel(FILE *f, const struct report_page_data *d, size_t i);
void report_section_causality(FILE *f, const struct report_page_data *d, size_t i);
void report_section_cross(FILE *f, const struct report_page_data *d);
void report_section_reference(FILE *f, const struct report_page_data *d);
void report_section_raw(FILE *f, const struct report_page_data *d);
void report_section_study(FILE *f, const struct report_page_data *d);
void report_section_study_fs(FILE *f, const struct report_page_data *d);
void report_section_study_tsp(FILE *f, const struct report_page_data *d);
/* A cell with the mean of a's values and, for repeats, their min..max. */
void report_agg_cell(FILE *f, const struct study_agg *a, const char *fmt);

int report_main(int argc, char **argv);

#endif

/*
 * analysis/commands/report.c - `dpm report -o DIR [--title T] [--thesis
 * [REFFILE]] [--study fs|tsp] RUN...`: the command line, and the order of
 * the work.
 *
 * Everything that can be wrong with the input (a RUN, a trace, a names or
 * delivery-time file, the reference file) is found before DIR is touched,
 * and exits 2.  Then the runs' inputs are kept, the plots and diagrams
 * drawn and the page written; failing to write exits 1.  A drawing tool
 * that is not installed is not a failure: the page says what is missing
 * in place of each figure, and so does stderr.  docs/report.md is the
 * user's page.
 *
 * The report (analysis/report/) knows no study and no thesis: this file
 * plugs them in as extensions (analysis/report/extension.h), the
 * thesis's values with --thesis and the study with --study
 * (analysis/studies/).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/model/cli.h"
#include "analysis/report/inputs.h"
#include "analysis/report/overview.h"
#include "analysis/report/page.h"
#include "analysis/studies/studies.h"
#include "analysis/studies/thesis.h"

struct ropts {
	const char *dir, *title, *ref_path;
	int thesis;
	int study;
	int copy_raw;
	struct report_spec *specs;
	size_t nspecs;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm report -o DIR [--title T] [--copy-raw] [--thesis [REFFILE]] [--study fs|tsp] RUN...\n"
		"\n"
		"Write DIR/index.html: message statistics, P in the thesis's five\n"
		"configurations, paths of causality, a timeline and other plots for each\n"
		"run, a table comparing the runs and each run's P predicted from the other\n"
		"runs' traces; SVG plots (gnuplot) and diagrams (Graphviz dot) beside it,\n"
		"with their data; the inputs are linked where they lie (--copy-raw copies\n"
		"them into DIR/raw/ with the CSV of each log).\n"
		"\n"
		"RUN is NAME=LOG[,key=value...]: LOG a filter log or a trace CSV, NAME of\n"
		"letters, digits, '_', '-', '.'.  Keys:\n"
		"  requestors=LIST      processes whose requests are followed (causality)\n"
		"  servers=LIST         the server processes studied\n"
		"  system=LIST          processes to ignore in causality\n"
		"  names=FILE           lines 'node.pid NAME ROLE' (as dpm causality --names);\n"
		"                       processes of different runs with the same NAME are\n"
		"                       the same process for the predictions across runs\n"
		"  mtime=FILE           delivery times (size_bytes,local_ns,remote_ns); default:\n"
		"                       LOG.mtime beside the log (dpm record writes it), else\n"
		"                       the placeholder of docs/mtime.md (said on stderr)\n"
		"  config=X             the run's configuration in a study (letters, digits)\n"
		"  users=K              concurrent file-system test users\n"
		"  n=N p=P version=V    TSP matrix size, servers, program version (1-3)\n"
		"  rep=R                repetition: runs differing only in rep are repeats\n"
		"LIST is node.pid values joined with '+': requestors=5.1+5.2.\n"
		"\n"
		"  -o, --output DIR     the report directory (made if missing)\n"
		"  --title T            the page's title\n"
		"  --copy-raw           copy each input into DIR/raw/, a log also as CSV\n"
		"                       (default: link it where it lies)\n"
		"  --thesis [REFFILE]   show the thesis's published values beside ours,\n"
		"                       labelled as reference (default file:\n"
		"                       analysis/studies/thesis_reference.csv of the source\n"
		"                       tree)\n"
		"  --study fs|tsp       add the file-system study (users versus P, predicted\n"
		"                       versus measured completion, configurations A, B, C)\n"
		"                       or the TSP study (P for one and two servers per\n"
		"                       machine, CPU, versions); its tables also as\n"
		"                       DIR/study-*.csv, beside the thesis's values\n"
		"  --help               this text\n"
		"\n"
		"Example: dpm report -o rep A=a.log,requestors=5.1+5.2 B=b.csv\n"
		"Exit status: 0 ok (also when gnuplot or dot is missing: the page says so),\n"
		"1 writing the report failed, 2 bad usage or input.\n");
}

/* The value of an option that takes one: "--opt=V" or the next argument. */
static const char *value_of(int argc, char **argv, int *i, const char *arg, const char *opt)
{
	size_t n = strlen(opt);
	if (!strncmp(arg, opt, n) && arg[n] == '=')
		return arg + n + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int is_option(const char *arg, const char *opt)
{
	size_t n = strlen(opt);
	return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int add_run(struct ropts *o, const char *arg)
{
	char err[600];
	struct report_spec *grown = realloc(o->specs, (o->nspecs + 1) * sizeof *grown);
	if (!grown)
		return cli_usage_error("report", "out of memory");
	o->specs = grown;
	if (report_spec_parse(arg, study_keys, STUDY_KEYS, &o->specs[o->nspecs], err, sizeof err) < 0)
		return cli_usage_error("report", "%s", err);
	for (size_t i = 0; i < o->nspecs; i++)
		if (!strcmp(o->specs[i].name, o->specs[o->nspecs].name)) {
			report_spec_free(&o->specs[o->nspecs]);
			return cli_usage_error("report", "two runs are called '%s'", o->specs[i].name);
		}
	o->nspecs++;
	return 0;
}

/* --thesis takes a file only as --thesis=FILE or as a next argument that
 * cannot be a RUN (no '=') or an option. */
static void thesis_option(struct ropts *o, int argc, char **argv, int *i)
{
	o->thesis = 1;
	if (argv[*i][8] == '=')
		o->ref_path = argv[*i] + 9;
	else if (*i + 1 < argc && argv[*i + 1][0] != '-' && !strchr(argv[*i + 1], '='))
		o->ref_path = argv[++*i];
}

/* 0 go on, 1 done (--help), else an exit code. */
static int parse_options(int argc, char **argv, struct ropts *o)
{
	int runs_only = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc = 0;
		if (runs_only || a[0] != '-') {
			rc = add_run(o, a);
		} else if (!strcmp(a, "--")) {
			runs_only = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "-o") || is_option(a, "--output")) {
			if (!(o->dir = value_of(argc, argv, &i, a, "--output")))
				return cli_usage_error("report", "%s wants a directory", a);
		} else if (is_option(a, "--title")) {
			if (!(o->title = value_of(argc, argv, &i, a, "--title")))
				return cli_usage_error("report", "--title wants a text");
		} else if (!strcmp(a, "--copy-raw")) {
			o->copy_raw = 1;
		} else if (is_option(a, "--thesis")) {
			thesis_option(o, argc, argv, &i);
		} else if (is_option(a, "--study")) {
			const char *v = value_of(argc, argv, &i, a, "--study");
			o->study = study_by_name(v);
			if (!o->study)
				return cli_usage_error("report", "--study wants fs or tsp%s%s%s",
						       v ? " (not '" : "", v ? v : "", v ? "')" : "");
		} else {
			return cli_usage_error("report", "unknown option '%s'", a);
		}
		if (rc)
			return rc;
	}
	if (!o->dir || !*o->dir)
		return cli_usage_error("report", "say where to write the report (-o DIR)");
	if (o->nspecs == 0)
		return cli_usage_error("report", "no run given (want NAME=LOG)");
	return 0;
}

static void free_options(struct ropts *o)
{
	for (size_t i = 0; i < o->nspecs; i++)
		report_spec_free(&o->specs[i]);
	free(o->specs);
}

/* ---- the work ---------------------------------------------------------------- */

struct report_job {
	struct ropts *o;
	struct thesis_ref ref;
	struct report_opts ro;
	struct report_run *runs;
	struct report_figure (*plots)[REPORT_PLOTS];
	struct report_figure *diagrams;
	struct report_tools tools;
	struct report_page_data page;
	struct study_plugin study;
	struct thesis_panels thesis;
	struct report_extension ext[2];
	char title[512];
};

static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dpm report: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return code;
}

/* The thesis's values: for --thesis, and for a study, which is always
 * set beside them. */
static int load_reference(struct report_job *j)
{
	char err[600], def[4096];
	if (!j->o->thesis && !j->o->study)
		return EXIT_OK;
	const char *path = j->o->ref_path ? j->o->ref_path : thesis_ref_default(def, sizeof def);
	if (thesis_ref_load(&j->ref, path, err, sizeof err) < 0)
		return fail(EXIT_BADINPUT, "%s", err);
	return EXIT_OK;
}

/* Plug the study and the thesis's values into the report (they come with
 * the reference): the study first, so its section precedes the thesis's
 * panels; the thesis's values with --thesis, and its Fig. 5.17 beside a
 * study of the thesis's configurations. */
static void plug_in(struct report_job *j)
{
	if (!j->o->thesis && !j->o->study)
		return;
	if (j->o->study) {
		j->study.kind = j->o->study;
		j->study.ref = &j->ref;
		study_extension(&j->ext[j->ro.next++], &j->study);
	}
	j->thesis = (struct thesis_panels){ &j->ref, j->o->thesis,
					    j->o->thesis || study_cross_reference(j->o->study) };
	thesis_extension(&j->ext[j->ro.next++], &j->thesis);
	j->ro.ext = j->ext;
}

static int analyse_runs(struct report_job *j)
{
	char err[700];
	for (size_t i = 0; i < j->o->nspecs; i++) {
		int rc = report_run_analyse(&j->runs[i], &j->o->specs[i], err, sizeof err);
		if (rc)
			return fail(rc, "run '%s': %s", j->o->specs[i].name, err);
	}
	/* A study predicts across its configurations only (the TSP runs are
	 * different programs, none a configuration of another). */
	const size_t *pick = NULL;
	size_t n = j->o->nspecs;
	for (size_t k = 0; k < j->ro.next; k++) {
		const struct report_extension *e = &j->ext[k];
		int rc = e->analysed ? e->analysed(e->ctx, j->runs, n, err, sizeof err) : 0;
		if (rc)
			return fail(rc, "%s", err);
	}
	for (size_t k = 0; k < j->ro.next; k++)
		if (j->ext[k].cross_runs && j->ext[k].cross_runs(j->ext[k].ctx, &pick, &n))
			break;
	/* else among the runs that share a process with another: runs of
	 * different programs cannot predict each other */
	size_t *related = NULL;
	if (!pick && n > 2) {
		related = calloc(n, sizeof *related);
		if (!related)
			return fail(EXIT_FAILED, "out of memory");
		size_t m = report_cross_related(j->runs, n, related);
		if (m >= 2) {
			pick = related;
			n = m;
		}
	}
	int rc = report_cross_compute(&j->page.cross, j->runs, pick, n, err, sizeof err);
	free(related);
	if (rc < 0)
		return fail(EXIT_FAILED, "predictions across runs: %s", err);
	return EXIT_OK;
}

static int make_directory(const char *dir)
{
	struct stat st;
	if (mkdir(dir, 0755) == 0)
		return EXIT_OK;
	if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return EXIT_OK;
	return fail(EXIT_FAILED, "cannot make the report directory %s: %s", dir,
		    errno == EEXIST ? "it exists and is not a directory" : strerror(errno));
}

static int draw_everything(struct report_job *j)
{
	char why[600];
	size_t n = j->o->nspecs;
	for (size_t i = 0; i < n; i++) {
		if (report_keep_inputs(&j->runs[i], j->o->dir, j->o->copy_raw, why, sizeof why) < 0 ||
		    report_plots(&j->runs[i], report_refs_for(j->ro.ext, j->ro.next, &j->runs[i]), &j->tools,
				 j->plots[i], why, sizeof why) < 0 ||
		    report_overview(&j->runs[i], j->o->dir, why, sizeof why) < 0 ||
		    (j->runs[i].have_causality &&
		     report_diagram(&j->runs[i], &j->tools, &j->diagrams[i], why, sizeof why) < 0))
			return fail(EXIT_FAILED, "run '%s': %s", j->runs[i].spec->name, why);
	}
	if (n > 1 && report_plot_runs(j->runs, n, &j->tools, &j->page.runs_plot, why, sizeof why) < 0)
		return fail(EXIT_FAILED, "%s", why);
	for (size_t k = 0; k < j->ro.next; k++)
		if (j->ext[k].draw && j->ext[k].draw(j->ext[k].ctx, j->runs, n, &j->page.cross,
						     &j->tools, why, sizeof why) < 0)
			return fail(EXIT_FAILED, "%s", why);
	return EXIT_OK;
}

static void default_title(struct report_job *j)
{
	snprintf(j->title, sizeof j->title, "DPM report:");
	for (size_t i = 0; i < j->o->nspecs; i++) {
		size_t used = strlen(j->title);
		snprintf(j->title + used, sizeof j->title - used, "%s %s", i ? "," : "",
			 j->o->specs[i].name);
	}
	j->ro.title = j->title;
}

static int run_job(struct report_job *j)
{
	size_t n = j->o->nspecs;
	j->runs = calloc(n, sizeof *j->runs);
	j->plots = calloc(n, sizeof *j->plots);
	j->diagrams = calloc(n, sizeof *j->diagrams);
	if (!j->runs || !j->plots || !j->diagrams)
		return fail(EXIT_FAILED, "out of memory");
	int rc = load_reference(j);
	if (!rc) {
		plug_in(j);
		rc = analyse_runs(j);
	}
	if (!rc)
		rc = make_directory(j->o->dir);
	if (!rc)
		rc = draw_everything(j);
	if (rc)
		return rc;
	j->page.o = &j->ro;
	j->page.runs = j->runs;
	j->page.nruns = n;
	j->page.plots = j->plots;
	j->page.diagrams = j->diagrams;
	j->page.tools = &j->tools;
	char why[600];
	if (report_page(&j->page, why, sizeof why) < 0)
		return fail(EXIT_FAILED, "%s", why);
	printf("%s/index.html: %zu run%s\n", j->o->dir, n, n == 1 ? "" : "s");
	if (j->tools.missing)
		fail(EXIT_OK, "figures left out: %s (the page says which)", j->tools.first_problem);
	if (j->tools.failed)
		return fail(EXIT_FAILED, "a figure could not be drawn: %s (in %s)",
			    j->tools.first_problem, j->o->dir);
	return EXIT_OK;
}

static void free_job(struct report_job *j)
{
	for (size_t i = 0; j->runs && i < j->o->nspecs; i++)
		report_run_free(&j->runs[i]);
	free(j->runs);
	free(j->plots);
	free(j->diagrams);
	report_cross_free(&j->page.cross);
	report_study_free(&j->study.s);
	thesis_ref_free(&j->ref);
}

int report_main(int argc, char **argv)
{
	struct ropts o = { 0 };
	int rc = parse_options(argc, argv, &o);
	if (rc) {
		free_options(&o);
		return rc == 1 ? EXIT_OK : rc;
	}
	struct report_job j = { .o = &o };
	j.ro.dir = o.dir;
	j.ro.title = o.title;
	j.ro.copy_raw = o.copy_raw;
	j.tools.dir = o.dir;
	if (!o.title)
		default_title(&j);
	rc = run_job(&j);
	free_job(&j);
	free_options(&o);
	fflush(stdout);
	return rc;
}

/*
 * analysis/commands/parallel.c - `dpm parallel`: the parallelism factor P of a
 * traced computation and its predictions (thesis §5.2.3, TR 574 §3-4).
 *
 * The command line chooses a list of configurations ("runs"): the upper
 * bound, the measured assignment, other assignments, each with or without
 * CPU sharing.  The graph is built once and each run only re-times it, so
 * asking for all five of the thesis's figures costs five linear passes.
 * docs/parallel.md is the user's page.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "analysis/model/configs.h"
#include "analysis/model/mtime_log.h"

#define MAX_RUNS 16

struct popts {
	int upper_bound, contention, all, no_external;
	int slice_given;
	size_t slice_ns;
	const char *assign[MAX_RUNS];
	char shortcut[MAX_RUNS]; /* enum config_kind: --assign, --each-own-machine, --one-machine */
	size_t nassign;
	const char *mtime_path;
	size_t path_steps;
	enum out_format fmt;
	const char *input;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm parallel [options] TRACE\n"
		"\n"
		"The parallelism factor P = T / t_max of a traced computation: T is the\n"
		"total CPU time of its processes, t_max the longest path through its\n"
		"computation graph.  TRACE is a filter log or a trace CSV.\n"
		"Without options: P with message delivery times for the measured\n"
		"assignment of processes to machines.\n"
		"\n"
		"  --upper-bound        zero delivery time, each process on its own machine\n"
		"  --contention         processes on one machine share its CPU (Appendix A)\n"
		"                       as the DPM kernel schedules: one keeps the CPU until\n"
		"                       it blocks or has had a slice, then the next in turn\n"
		"  --slice NS           that slice in ns (default 10000000, the kernel's tick);\n"
		"                       0: processor sharing, Appendix A's microscopic slice\n"
		"  --assign SPEC|FILE   predict P for another assignment: SPEC is\n"
		"                       node.pid=MACHINE,... ; FILE has 'node.pid MACHINE' lines\n"
		"  --each-own-machine   predict P with every process on a machine of its own\n"
		"  --one-machine        predict P with every process on one machine\n"
		"  --all                the thesis's five figures: upper bound, measured,\n"
		"                       measured with contention, each own machine, one\n"
		"                       machine with contention\n"
		"  --mtime FILE         delivery times (size_bytes,local_ns,remote_ns CSV, as\n"
		"                       written by 'make bench'); default: LOG.mtime, the\n"
		"                       table dpm record wrote beside LOG, else the\n"
		"                       placeholder of docs/mtime.md (said on stderr)\n"
		"  --no-external        leave out external-wait arcs\n"
		"  --path-steps N       show N steps of each maximum path (0: all; default 12)\n"
		"  --csv                one CSV row per result: mode,T,t_max,P,M,utilisation\n"
		"  --json               everything as one JSON object\n"
		"  --help               this text\n"
		"\n"
		"Each assignment option adds one result; times are in ns in CSV and JSON.\n"
		"Exit status: 0 ok, 1 analysis failed, 2 bad usage or input.\n");
}

static int parse_options(int argc, char **argv, struct popts *o)
{
	enum { O_UPPER = 256, O_CONT, O_ASSIGN, O_EACH, O_ONE, O_ALL, O_MTIME, O_NOEXT,
	       O_STEPS, O_SLICE, O_CSV, O_JSON, O_HELP };
	static const struct option longopts[] = {
		{ "upper-bound", no_argument, 0, O_UPPER },
		{ "contention", no_argument, 0, O_CONT },
		{ "assign", required_argument, 0, O_ASSIGN },
		{ "each-own-machine", no_argument, 0, O_EACH },
		{ "one-machine", no_argument, 0, O_ONE },
		{ "all", no_argument, 0, O_ALL },
		{ "mtime", required_argument, 0, O_MTIME },
		{ "no-external", no_argument, 0, O_NOEXT },
		{ "path-steps", required_argument, 0, O_STEPS },
		{ "slice", required_argument, 0, O_SLICE },
		{ "csv", no_argument, 0, O_CSV },
		{ "json", no_argument, 0, O_JSON },
		{ "help", no_argument, 0, O_HELP },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof *o);
	o->path_steps = 12;
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case O_UPPER: o->upper_bound = 1; break;
		case O_CONT: o->contention = 1; break;
		case O_ALL: o->all = 1; break;
		case O_NOEXT: o->no_external = 1; break;
		case O_MTIME: o->mtime_path = optarg; break;
		case O_CSV: o->fmt = OUT_CSV; break;
		case O_JSON: o->fmt = OUT_JSON; break;
		case O_HELP: usage(stdout); return 1;
		case O_STEPS:
			if (cli_parse_count(optarg, &o->path_steps) < 0)
				return cli_usage_error("parallel", "--path-steps wants a number, not '%s'", optarg);
			break;
		case O_SLICE:
			if (cli_parse_count(optarg, &o->slice_ns) < 0)
				return cli_usage_error("parallel", "--slice wants a number of ns, not '%s'", optarg);
			o->slice_given = 1;
			break;
		case O_ASSIGN:
		case O_EACH:
		case O_ONE:
			if (o->nassign == MAX_RUNS - 4)
				return cli_usage_error("parallel", "too many assignments");
			o->shortcut[o->nassign] = c == O_ASSIGN ? CONFIG_ASSIGN : c == O_EACH ? CONFIG_EACH_OWN
						  : CONFIG_ONE;
			o->assign[o->nassign++] = c == O_ASSIGN ? optarg : NULL;
			break;
		default:
			return cli_usage_error("parallel", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("parallel", optind == argc ? "no trace given" : "one trace only");
	o->input = argv[optind];
	return 0;
}

static int plan_runs_as_asked(const struct popts *o, const struct trace *t,
			      struct config_run *runs, size_t *n, char *err, size_t errlen)
{
	*n = 0;
	if (o->all) {
		*n = CONFIGS_THESIS;
		return configs_plan_thesis(runs, t, err, errlen);
	}
	if (o->upper_bound && config_plan(&runs[(*n)++], t, CONFIG_UPPER, NULL, 0, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < o->nassign; i++)
		if (config_plan(&runs[(*n)++], t, (enum config_kind)o->shortcut[i], o->assign[i],
				o->contention, err, errlen) < 0)
			return -1;
	if (o->nassign == 0 && (!o->upper_bound || o->contention) &&
	    config_plan(&runs[(*n)++], t, CONFIG_MEASURED, NULL, o->contention, err, errlen) < 0)
		return -1;
	return 0;
}

static int plan_runs(const struct popts *o, const struct trace *t, struct config_run *runs,
		     size_t *n, char *err, size_t errlen)
{
	if (plan_runs_as_asked(o, t, runs, n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < *n && o->slice_given; i++)
		runs[i].slice_ns = (double)o->slice_ns;
	return 0;
}

/* ---- output ------------------------------------------------------------ */

static const char *kind_name(uint8_t kind)
{
	return kind == CROSS_MESSAGE ? "message" : kind == CROSS_EXTERNAL ? "external-wait" : "end";
}

static void print_summary(const struct cgraph *g, const char *mtime_what)
{
	const struct trace *t = g->tr;
	printf("trace %s: %zu events, %zu processes traced", t->path, t->nev,
	       t->nproc - g->untraced);
	if (g->untraced)
		printf(" (+%zu untraced)", g->untraced);
	printf(", %zu message arcs, %zu external waits\n", g->nmessages, g->nexternal);
	if (g->unmatched_receives)
		printf("note: %zu receives from traced processes have no matching send\n",
		       g->unmatched_receives);
	if (t->dropped)
		printf("note: the kernels dropped %llu traces; P may be wrong\n",
		       (unsigned long long)t->dropped);
	printf("delivery times: %s\n\n", mtime_what);
}

static void print_results_text(const struct config_run *runs, size_t n)
{
	char a[32], b[32];
	printf("%-28s %4s %12s %12s %8s %8s\n", "mode", "M", "T", "t_max", "P", "util");
	for (size_t i = 0; i < n; i++)
		printf("%-28s %4zu %12s %12s %8.3f %8.3f\n", runs[i].mode, runs[i].r.M,
		       fmt_ns(runs[i].r.T, a, sizeof a), fmt_ns(runs[i].r.t_max, b, sizeof b),
		       runs[i].r.P, runs[i].r.util);
}

/* In virtual time every node's clock is the same one, so the run's measured
 * completion (its first to its last event) stands beside the t_max of the
 * measured placement, which predicts it (docs/parallel.md). */
static void print_completion(const struct cgraph *g, const struct config_run *runs, size_t n,
			     const char *clock)
{
	char a[32];
	if (strcmp(clock, "virtual"))
		return;
	double measured = trace_elapsed(g->tr, 1);
	printf("\nmeasured completion: %s, first to last event on the cluster's one clock "
	       "(clock=virtual)\n", fmt_ns(measured, a, sizeof a));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(runs[i].mode, "measured") || !strcmp(runs[i].mode, "measured+contention"))
			printf("  t_max of %-20s %12s  %+.1f%% of it\n", runs[i].mode,
			       fmt_ns(runs[i].r.t_max, a, sizeof a),
			       measured > 0 ? 100.0 * (runs[i].r.t_max - measured) / measured : 0.0);
}

static void print_processes_text(const struct cgraph *g, const struct config_run *r)
{
	const struct trace *t = g->tr;
	char name[32], a[32], b[32];
	printf("\nprocesses (on path: CPU each adds to the maximum path of %s)\n", r->mode);
	printf("%-12s %-8s %-12s %9s %12s %7s %12s\n", "process", "machine", "assigned",
	       "events", "t_proc", "% of T", "on path");
	for (uint32_t p = 0; p < t->nproc; p++) {
		if (g->first[p] == g->first[p + 1])
			continue;
		double tp = (double)cgraph_tproc(g, p);
		printf("%-12s %-8u %-12s %9u %12s %6.1f%% %12s\n", process_name(t, p, name, sizeof name),
		       t->proc[p].machine, r->a.label[r->a.machine_of[p]],
		       g->first[p + 1] - g->first[p], fmt_ns(tp, a, sizeof a),
		       r->r.T > 0 ? 100 * tp / r->r.T : 0, fmt_ns(config_path_cpu(r, p), b, sizeof b));
	}
}

static void print_path_text(const struct cgraph *g, const struct config_run *r, size_t limit)
{
	const struct trace *t = g->tr;
	char name[32], a[32], b[32];
	size_t msgs = 0, ext = 0;
	for (size_t i = 0; i < r->npath; i++) {
		msgs += r->path[i].out_kind == CROSS_MESSAGE;
		ext += r->path[i].out_kind == CROSS_EXTERNAL;
	}
	printf("\nmaximum path of %s: %s, %zu stretches, %zu messages, %zu external waits\n",
	       r->mode, fmt_ns(r->r.t_max, a, sizeof a), r->npath, msgs, ext);
	for (size_t i = 0; i < r->npath && (limit == 0 || i < limit); i++) {
		const struct path_step *s = &r->path[i];
		printf("  %-10s on %-8s cpu %-11s lines %u-%u (%u events)",
		       process_name(t, s->proc, name, sizeof name), r->a.label[r->a.machine_of[s->proc]],
		       fmt_ns(s->cpu, a, sizeof a), cgraph_event(g, s->from)->line,
		       cgraph_event(g, s->to)->line, s->to - s->from + 1);
		if (s->wait > 0)
			printf(", remote MOVEDATA %s", fmt_ns(s->wait, b, sizeof b));
		printf("\n");
		if (s->out_kind != CROSS_NONE) {
			const struct event *e = cgraph_event(g, s->to);
			printf("    -> %s to %s, %s", kind_name(s->out_kind),
			       process_name(t, r->path[i + 1].proc, name, sizeof name),
			       fmt_ns(s->out_weight, b, sizeof b));
			if (s->out_kind == CROSS_MESSAGE && (e->flags & EV_LENGTH))
				printf(", %u bytes", e->length);
			printf("\n");
		}
	}
	if (limit && r->npath > limit)
		printf("  ... %zu more stretches (--path-steps 0 shows all)\n", r->npath - limit);
}

static void print_csv(const struct config_run *runs, size_t n)
{
	printf("mode,T,t_max,P,M,utilisation\n");
	for (size_t i = 0; i < n; i++)
		printf("%s,%.0f,%.0f,%.6f,%zu,%.6f\n", runs[i].mode, runs[i].r.T, runs[i].r.t_max,
		       runs[i].r.P, runs[i].r.M, runs[i].r.util);
}

static void print_path_json(const struct cgraph *g, const struct config_run *r, size_t limit)
{
	char name[32];
	printf("[");
	for (size_t i = 0; i < r->npath && (limit == 0 || i < limit); i++) {
		const struct path_step *s = &r->path[i];
		printf("%s{\"process\":\"%s\",\"machine\":", i ? "," : "",
		       process_name(g->tr, s->proc, name, sizeof name));
		json_string(stdout, r->a.label[r->a.machine_of[s->proc]]);
		printf(",\"from_line\":%u,\"to_line\":%u,\"cpu_ns\":%.0f,\"movedata_ns\":%.0f,"
		       "\"next\":\"%s\",\"next_ns\":%.0f}",
		       cgraph_event(g, s->from)->line, cgraph_event(g, s->to)->line, s->cpu, s->wait,
		       kind_name(s->out_kind), s->out_weight);
	}
	printf("]");
}

static void print_json(const struct cgraph *g, const struct config_run *runs, size_t n,
		       const char *mtime_what, size_t limit)
{
	const struct trace *t = g->tr;
	char name[32];
	printf("{\"trace\":");
	json_string(stdout, t->path);
	printf(",\"events\":%zu,\"processes\":%zu,\"untraced\":%zu,\"messages\":%zu,"
	       "\"external_waits\":%zu,\"unmatched_receives\":%zu,\"dropped\":%llu,\"mtime\":",
	       t->nev, t->nproc - g->untraced, g->untraced, g->nmessages, g->nexternal,
	       g->unmatched_receives, (unsigned long long)t->dropped);
	json_string(stdout, mtime_what);
	printf(",\"results\":[");
	for (size_t i = 0; i < n; i++) {
		const struct config_run *r = &runs[i];
		printf("%s{\"mode\":\"%s\",\"M\":%zu,\"T\":%.0f,\"t_max\":%.0f,\"P\":%.6f,"
		       "\"utilisation\":%.6f,\"path\":", i ? "," : "", r->mode, r->r.M, r->r.T,
		       r->r.t_max, r->r.P, r->r.util);
		print_path_json(g, r, limit);
		printf("}");
	}
	printf("],\"process_table\":[");
	int first = 1;
	for (uint32_t p = 0; p < t->nproc; p++) {
		if (g->first[p] == g->first[p + 1])
			continue;
		printf("%s{\"process\":\"%s\",\"machine\":%u,\"events\":%u,\"t_proc\":%llu}",
		       first ? "" : ",", process_name(t, p, name, sizeof name), t->proc[p].machine,
		       g->first[p + 1] - g->first[p], (unsigned long long)cgraph_tproc(g, p));
		first = 0;
	}
	printf("]}\n");
}

static void print_all(const struct popts *o, const struct cgraph *g,
		      const struct config_run *runs, size_t n, const char *mtime_what,
		      const char *clock)
{
	if (o->fmt == OUT_CSV) {
		print_csv(runs, n);
		return;
	}
	if (o->fmt == OUT_JSON) {
		print_json(g, runs, n, mtime_what, o->path_steps);
		return;
	}
	print_summary(g, mtime_what);
	print_results_text(runs, n);
	print_completion(g, runs, n, clock);
	print_processes_text(g, &runs[0]);
	for (size_t i = 0; i < n; i++)
		print_path_text(g, &runs[i], o->path_steps);
}

/* ---- entry point --------------------------------------------------------- */

/* --mtime, else the table recorded beside the log, else the placeholder
 * (said on stderr unless every run delivers in no time). */
static int load_mtime(const struct popts *o, const struct config_run *runs, size_t n,
		      struct mtime_table *mt, char *what, size_t len)
{
	char err[512];
	int uses_table = 0;
	for (size_t i = 0; i < n; i++)
		uses_table |= !runs[i].zero_delivery;
	if (mtime_for_log(mt, o->mtime_path, o->input, "dpm parallel", "--mtime",
			  uses_table ? stderr : NULL, what, len, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static void drop_external_arcs(struct cgraph *g)
{
	for (uint32_t k = 0; k < g->nnodes; k++)
		if (g->kind[k] == CROSS_EXTERNAL) {
			g->kind[k] = CROSS_NONE;
			g->cross[k] = NO_NODE;
		}
	g->nexternal = 0;
}

static int analyse(const struct popts *o, struct trace *t)
{
	char err[512], mtime_what[600];
	struct mtime_table mt;
	struct cgraph g;
	struct config_run *runs = calloc(MAX_RUNS, sizeof *runs);
	size_t n = 0;
	int rc = EXIT_OK;
	if (!runs)
		return EXIT_FAILED;
	memset(&g, 0, sizeof g);
	if (cgraph_build(&g, t, err, sizeof err) < 0 || plan_runs(o, t, runs, &n, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		rc = EXIT_BADINPUT;
	} else if (load_mtime(o, runs, n, &mt, mtime_what, sizeof mtime_what) < 0) {
		rc = EXIT_BADINPUT;
	} else {
		if (o->no_external)
			drop_external_arcs(&g);
		if (configs_eval(runs, n, &g, &mt, err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			rc = EXIT_BADINPUT;
		} else {
			char clock[16];
			mtime_log_clock(o->input, &mt, clock, sizeof clock);
			print_all(o, &g, runs, n, mtime_what, clock);
		}
	}
	for (size_t i = 0; i < n; i++)
		config_free(&runs[i]);
	free(runs);
	cgraph_free(&g);
	return rc;
}

int parallel_main(int argc, char **argv)
{
	struct popts o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	struct trace t;
	rc = cli_load("parallel", o.input, &t);
	if (rc == EXIT_OK)
		rc = analyse(&o, &t);
	trace_free(&t);
	fflush(stdout);
	return rc;
}

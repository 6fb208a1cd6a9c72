/*
 * analysis/commands/critical.c - `dpm critical`: the critical path of a traced
 * run and where its time went (INMON, thesis 004 Ch. 5-7), per job, node,
 * process and request, as a table, CSV or JSON.  The network, the walk and
 * the states are analysis/model/critical.c; this file sums and prints.
 * docs/critical.md is the user's page.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "analysis/model/critical_svg.h"

#define MAX_SPEEDUPS 32

struct copts {
	enum out_format fmt;
	const char *speedup[MAX_SPEEDUPS]; /* "node.pid=k" */
	size_t nspeedup;
	const char *wait[MAX_SPEEDUPS];    /* "node.pid=+ns" */
	size_t nwait;
	int64_t latency;   /* -1: as measured */
	int64_t latency_add; /* --latency +NS / -NS */
	const char *svg;   /* write the path there as SVG */
	size_t path_steps; /* steps of the path printed, 0 all */
	size_t slowest;    /* slowest requests shown */
	const char *input;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm critical [options] TRACE\n"
		"\n"
		"The critical path through a traced run (filter log or trace CSV) by\n"
		"INMON's backward walk, which at each RECEIVE follows whichever of the\n"
		"process and the message came last, and the run's response time split\n"
		"into states: running, ready, in_flight, queued, blocked_receive,\n"
		"blocked_call, external, kernel.  Per job, node and process, for all\n"
		"activities of each process, and per request (a CALL: a SEND to X then\n"
		"a RECEIVE from X), and the slack of each process's events.  Times are\n"
		"compared across nodes, so the run must be on one clock (virtual time)\n"
		"or on one node.\n"
		"\n"
		"  --csv            the decompositions as CSV rows (scope,name,...)\n"
		"  --json           everything as one JSON object\n"
		"  --path-steps N   last N steps of the path shown (default 20, 0 all)\n"
		"  --requests N     slowest N requests shown (default 5)\n"
		"  --speedup P=K    what if process P (node.pid) ran K times faster\n"
		"                   (repeatable); the network re-timed, a new path\n"
		"  --latency NS     what if every remote message took NS ns from\n"
		"                   SEND to QUEUED; +NS or -NS: that much more or less\n"
		"                   than it did (the cluster's latency= changed)\n"
		"  --wait P=+NS     what if each wait for untraced process P's answer\n"
		"                   (node.0: the node's disk) took NS more (-NS less)\n"
		"  --svg FILE       the path as a space-time diagram over the messages\n"
		"                   (the first 20000), in SVG\n"
		"  --help           this text\n"
		"\n"
		"Exit status: 0 ok, 1 analysis failed, 2 bad usage or input.\n");
}

static int parse_options(int argc, char **argv, struct copts *o)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, 0, 'c' },
		{ "json", no_argument, 0, 'j' },
		{ "path-steps", required_argument, 0, 'p' },
		{ "requests", required_argument, 0, 'r' },
		{ "speedup", required_argument, 0, 's' },
		{ "latency", required_argument, 0, 'l' },
		{ "svg", required_argument, 0, 'g' },
		{ "wait", required_argument, 0, 'w' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof *o);
	o->path_steps = 20;
	o->slowest = 5;
	o->latency = -1;
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->fmt = OUT_CSV; break;
		case 'j': o->fmt = OUT_JSON; break;
		case 'h': usage(stdout); return 1;
		case 'p':
			if (cli_parse_count(optarg, &o->path_steps) < 0)
				return cli_usage_error("critical", "--path-steps wants a count, not '%s'",
						       optarg);
			break;
		case 'r':
			if (cli_parse_count(optarg, &o->slowest) < 0)
				return cli_usage_error("critical", "--requests wants a count, not '%s'",
						       optarg);
			break;
		case 'g': o->svg = optarg; break;
		case 'w':
			if (o->nwait == MAX_SPEEDUPS)
				return cli_usage_error("critical", "at most %d --wait", MAX_SPEEDUPS);
			o->wait[o->nwait++] = optarg;
			break;
		case 's':
			if (o->nspeedup == MAX_SPEEDUPS)
				return cli_usage_error("critical", "at most %d --speedup", MAX_SPEEDUPS);
			o->speedup[o->nspeedup++] = optarg;
			break;
		case 'l': {
			size_t ns;
			int sign = *optarg == '+' ? 1 : *optarg == '-' ? -1 : 0;
			if (cli_parse_count(optarg + (sign != 0), &ns) < 0 || ns > INT64_MAX / 2)
				return cli_usage_error("critical", "--latency wants NS, +NS or -NS, not "
						       "'%s'", optarg);
			if (sign)
				o->latency_add = sign * (int64_t)ns;
			else
				o->latency = (int64_t)ns;
			break;
		}
		default:
			return cli_usage_error("critical", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("critical", optind == argc ? "no trace given" : "one trace only");
	o->input = argv[optind];
	return 0;
}

/* --speedup P=K into *speedp (per process); 0 ok, else the exit code (said on stderr). */
static int parse_speedups(const struct copts *o, const struct trace *t, double **speedp)
{
	char err[512];
	double *speed = *speedp = malloc((t->nproc + 1) * sizeof *speed);
	if (!speed)
		return EXIT_FAILED;
	for (size_t p = 0; p <= t->nproc; p++)
		speed[p] = 1.0;
	for (size_t i = 0; i < o->nspeedup; i++) {
		char who[64], *end;
		const char *eq = strchr(o->speedup[i], '=');
		size_t len = eq ? (size_t)(eq - o->speedup[i]) : 0;
		double k = eq ? strtod(eq + 1, &end) : 0;
		if (!eq || len >= sizeof who || eq[1] == '\0' || *end || !(k > 0) || k > 1e9)
			return cli_usage_error("critical", "--speedup wants node.pid=K (K > 0), not '%s'",
					       o->speedup[i]);
		memcpy(who, o->speedup[i], len);
		who[len] = '\0';
		uint32_t p = trace_named_process(t, who, "dpm critical: --speedup", err, sizeof err);
		if (p == NO_PROC) {
			fprintf(stderr, "%s\n", err);
			return EXIT_BADINPUT;
		}
		speed[p] = k;
	}
	return EXIT_OK;
}

/* --wait P=+NS into *waitp (per process; P must be untraced). */
static int parse_waits(const struct copts *o, const struct trace *t, int64_t **waitp)
{
	char err[512];
	int64_t *wait = *waitp = calloc(t->nproc + 1, sizeof *wait);
	if (!wait)
		return EXIT_FAILED;
	for (size_t i = 0; i < o->nwait; i++) {
		char who[64];
		const char *eq = strchr(o->wait[i], '=');
		size_t len = eq ? (size_t)(eq - o->wait[i]) : 0, ns;
		int sign = eq && eq[1] == '+' ? 1 : eq && eq[1] == '-' ? -1 : 0;
		if (!sign || len >= sizeof who || cli_parse_count(eq + 2, &ns) < 0 ||
		    ns > INT64_MAX / 2)
			return cli_usage_error("critical", "--wait wants node.pid=+NS or -NS, not '%s'",
					       o->wait[i]);
		memcpy(who, o->wait[i], len);
		who[len] = '\0';
		uint32_t p = trace_named_process(t, who, "dpm critical: --wait", err, sizeof err);
		if (p != NO_PROC && t->proc[p].traced)
			snprintf(err, sizeof err, "dpm critical: --wait: %s left events of its own; "
				 "--speedup it instead", who);
		if (p == NO_PROC || t->proc[p].traced) {
			fprintf(stderr, "%s\n", err);
			return EXIT_BADINPUT;
		}
		wait[p] = sign * (int64_t)ns;
	}
	return EXIT_OK;
}

static int analyse(const struct copts *o, const struct trace *t, struct critical_result *r)
{
	char err[512];
	int rc = critical_analyse(t, o->slowest, r, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return rc == -1 ? EXIT_BADINPUT : EXIT_FAILED;
	}
	if (!o->nspeedup && !o->nwait && o->latency < 0 && !o->latency_add)
		return EXIT_OK;
	double *speed = NULL;
	int64_t *wait = NULL;
	rc = parse_speedups(o, t, &speed);
	if (rc == EXIT_OK)
		rc = parse_waits(o, t, &wait);
	struct cwhatif c = { speed, o->latency, o->latency_add, wait };
	if (rc == EXIT_OK && critical_result_whatif(r, &c, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		rc = EXIT_FAILED;
	}
	free(speed);
	free(wait);
	return rc;
}

/* ---- printing ----------------------------------------------------------------- */

static const char *pname(const struct critical_result *r, uint32_t p, char *buf, size_t len)
{
	return process_name(r->net.g.tr, p, buf, len);
}

static const char *const step_name[] = { "process", "message", "queued message", "created",
					  "child's end" };

static void print_states_text(const char *title, const struct cstates *s, uint64_t whole)
{
	char a[32];
	printf("%s\n", title);
	for (int i = 0; i < CS_COUNT; i++)
		printf("  %-16s %12s %6.1f%%\n", cstate_name[i], fmt_ns((double)s->ns[i], a, sizeof a),
		       whole ? 100.0 * (double)s->ns[i] / (double)whole : 0.0);
}

static void states_header(const char *first)
{
	printf("%-10s %12s", first, "total");
	for (int i = 0; i < CS_COUNT; i++)
		printf(" %12.12s", cstate_name[i]);
	printf("\n");
}

static void states_row(const char *name, const struct cstates *s)
{
	char a[32];
	printf("%-10s %12s", name, fmt_ns((double)cstates_total(s), a, sizeof a));
	for (int i = 0; i < CS_COUNT; i++)
		printf(" %12s", fmt_ns((double)s->ns[i], a, sizeof a));
	printf("\n");
}

static void print_path_text(const struct critical_result *r, size_t want)
{
	const struct cnet *n = &r->net;
	size_t from = want && r->path.nsteps > want ? r->path.nsteps - want : 0;
	char a[32], b[32], c[32];
	printf("\nthe path's %s (time ns, process, step from, states):\n",
	       from ? "last steps" : "steps");
	if (from)
		printf("  ... %zu earlier steps\n", from);
	for (size_t i = from; i < r->path.nsteps; i++) {
		const struct cstep *st = &r->path.steps[i];
		const struct event *h = cgraph_event(&n->g, st->head);
		uint32_t tail = cstep_tail(n, st);
		struct cstates s;
		cstep_states(n, &r->path, i, &s);
		printf("  %14llu %-8s %-8s line %-7u %-14s from %s line %u:",
		       (unsigned long long)h->time, pname(r, h->task, a, sizeof a),
		       event_type_name(h->type), h->line, step_name[st->kind],
		       pname(r, n->g.node_proc[tail], b, sizeof b), cgraph_event(&n->g, tail)->line);
		for (int k = 0; k < CS_COUNT; k++)
			if (s.ns[k])
				printf(" %s %s", cstate_name[k], fmt_ns((double)s.ns[k], c, sizeof c));
		printf("\n");
	}
}

static void whatif_title(const struct copts *o, FILE *out)
{
	fprintf(out, "what if");
	for (size_t i = 0; i < o->nspeedup; i++) {
		const char *eq = strchr(o->speedup[i], '=');
		fprintf(out, "%s %.*s ran %s times faster", i ? "," : "", (int)(eq - o->speedup[i]),
			o->speedup[i], eq + 1);
	}
	if (o->latency >= 0)
		fprintf(out, "%s remote messages took %lld ns in flight", o->nspeedup ? "," : "",
			(long long)o->latency);
	if (o->latency_add)
		fprintf(out, "%s remote messages took %+lld ns more in flight",
			o->nspeedup || o->latency >= 0 ? "," : "", (long long)o->latency_add);
	for (size_t i = 0; i < o->nwait; i++) {
		const char *eq = strchr(o->wait[i], '=');
		fprintf(out, "%s waits for %.*s took %s ns more",
			o->nspeedup || o->latency >= 0 || o->latency_add || i ? "," : "",
			(int)(eq - o->wait[i]), o->wait[i], eq + 1);
	}
}

static void print_whatif_text(const struct copts *o, const struct critical_result *r)
{
	char a[32], b[32], c[32];
	printf("\n");
	whatif_title(o, stdout);
	printf(": elapsed %s (measured %s, %+.1f%%); critical path %s in %zu steps\n",
	       fmt_ns((double)r->welapsed, a, sizeof a), fmt_ns((double)r->elapsed, b, sizeof b),
	       r->elapsed ? 100.0 * ((double)r->welapsed - (double)r->elapsed) / (double)r->elapsed
			  : 0.0,
	       fmt_ns((double)r->wlength, c, sizeof c), r->wpath.nsteps);
	print_states_text("where the time on its critical path would go:", &r->wjob, r->wlength);
}

static void print_text(const struct copts *o, const struct critical_result *r)
{
	const struct cnet *n = &r->net;
	const struct trace *t = n->g.tr;
	char a[32], b[32], c[32], d[32];
	uint64_t gap = cnet_time(n, r->path.start) - n->t0;
	printf("trace %s: %zu events, %zu processes, %zu messages matched\n", t->path, t->nev,
	       t->nproc, n->g.nmessages);
	printf("elapsed %s (first to last event); critical path %s in %zu steps, from %s "
	       "(line %u) to %s (line %u)\n",
	       fmt_ns((double)r->elapsed, a, sizeof a), fmt_ns((double)r->length, b, sizeof b),
	       r->path.nsteps, pname(r, n->g.node_proc[r->path.start], c, sizeof c),
	       cgraph_event(&n->g, r->path.start)->line,
	       pname(r, n->g.node_proc[n->last], d, sizeof d), cgraph_event(&n->g, n->last)->line);
	if (gap)
		printf("the path starts %s after the first event: before it its process left no "
		       "trace\n", fmt_ns((double)gap, a, sizeof a));
	printf("\n");
	print_states_text("where the time on the critical path went:", &r->job, r->length);

	printf("\nby node (on the path):\n");
	states_header("node");
	for (size_t i = 0; i < r->nmachines; i++) {
		snprintf(a, sizeof a, "%u", r->machines[i]);
		states_row(a, &r->by_machine[i]);
	}
	printf("\nby process, on the path:\n");
	states_header("process");
	for (size_t p = 0; p < t->nproc; p++)
		if (cstates_total(&r->proc[p].path))
			states_row(pname(r, (uint32_t)p, a, sizeof a), &r->proc[p].path);
	printf("\nby process, all of its traced life (and its messages' time queued):\n");
	states_header("process");
	for (size_t p = 0; p < t->nproc; p++)
		if (t->proc[p].traced)
			states_row(pname(r, (uint32_t)p, a, sizeof a), &r->proc[p].all);
	for (size_t p = 0; p < t->nproc; p++)
		if (r->proc[p].queued)
			printf("  messages to %s waited %s in its queue\n", pname(r, (uint32_t)p, a, sizeof a),
			       fmt_ns((double)r->proc[p].queued, b, sizeof b));
	printf("\nslack: how much later each process's events could have been without the run\n"
	       "ending later (0 on a critical path)\n%-10s %10s %12s %14s\n", "process", "events",
	       "no slack", "least other");
	for (size_t p = 0; p < t->nproc; p++) {
		const struct critical_proc *c = &r->proc[p];
		if (!c->events)
			continue;
		printf("%-10s %10llu %12llu %14s\n", pname(r, (uint32_t)p, a, sizeof a),
		       (unsigned long long)c->events, (unsigned long long)c->critical_events,
		       c->least_slack == UINT64_MAX ? "-" : fmt_ns((double)c->least_slack, b, sizeof b));
	}

	printf("\nrequests (CALLs: SEND to X, then RECEIVE from X): %llu\n",
	       (unsigned long long)r->nrequests);
	if (r->nrequests) {
		printf("by server, the sum of their response times:\n");
		states_header("server");
		for (size_t p = 0; p < t->nproc; p++)
			if (r->server[p].count)
				states_row(pname(r, (uint32_t)p, a, sizeof a), &r->server[p].states);
		printf("%-10s %8s %12s\n", "server", "requests", "mean");
		for (size_t p = 0; p < t->nproc; p++)
			if (r->server[p].count)
				printf("%-10s %8llu %12s\n", pname(r, (uint32_t)p, a, sizeof a),
				       (unsigned long long)r->server[p].count,
				       fmt_ns((double)r->server[p].response / (double)r->server[p].count,
					      b, sizeof b));
		printf("slowest:\n");
		for (size_t i = 0; i < r->nslow; i++) {
			const struct critical_request *q = &r->slow[i];
			const struct event *s = cgraph_event(&n->g, q->send);
			printf("  %s -> %s line %u: %s:", pname(r, s->task, a, sizeof a),
			       pname(r, s->dst, b, sizeof b), s->line,
			       fmt_ns((double)q->response, c, sizeof c));
			for (int k = 0; k < CS_COUNT; k++)
				if (q->states.ns[k])
					printf(" %s %s", cstate_name[k],
					       fmt_ns((double)q->states.ns[k], d, sizeof d));
			printf("\n");
		}
	}
	uint64_t running = 0, proctime = 0;
	for (size_t p = 0; p < t->nproc; p++) {
		running += r->proc[p].all.ns[CS_RUNNING];
		proctime += r->proc[p].cpu;
	}
	printf("\nchecks: the path's length plus its start %s the elapsed time; running in all "
	       "stretches %llu ns against the processes' PROCTIME %llu ns (%llu ns of CPU beyond "
	       "the elapsed time between two events)%s\n",
	       r->length + gap == r->elapsed ? "equals" : "DIFFERS from",
	       (unsigned long long)running, (unsigned long long)proctime,
	       (unsigned long long)r->clamped_cpu,
	       r->request_mismatch ? "; some requests' sums differ from their response times" : "");
	if (r->whatif)
		print_whatif_text(o, r);
	print_path_text(r, o->path_steps);
}

static void csv_row(const char *scope, const char *name, const struct cstates *s)
{
	printf("%s,%s,%llu", scope, name, (unsigned long long)cstates_total(s));
	for (int i = 0; i < CS_COUNT; i++)
		printf(",%llu", (unsigned long long)s->ns[i]);
	printf("\n");
}

static void print_csv(const struct critical_result *r)
{
	const struct trace *t = r->net.g.tr;
	char a[32];
	printf("scope,name,total_ns");
	for (int i = 0; i < CS_COUNT; i++)
		printf(",%s_ns", cstate_name[i]);
	printf("\n");
	csv_row("job", "path", &r->job);
	for (size_t i = 0; i < r->nmachines; i++) {
		snprintf(a, sizeof a, "%u", r->machines[i]);
		csv_row("node", a, &r->by_machine[i]);
	}
	for (size_t p = 0; p < t->nproc; p++)
		if (cstates_total(&r->proc[p].path))
			csv_row("process", pname(r, (uint32_t)p, a, sizeof a), &r->proc[p].path);
	for (size_t p = 0; p < t->nproc; p++)
		if (t->proc[p].traced)
			csv_row("process-all", pname(r, (uint32_t)p, a, sizeof a), &r->proc[p].all);
	for (size_t p = 0; p < t->nproc; p++)
		if (r->server[p].count)
			csv_row("server", pname(r, (uint32_t)p, a, sizeof a), &r->server[p].states);
	if (r->whatif)
		csv_row("whatif", "path", &r->wjob);
}

static void json_states(const struct cstates *s)
{
	printf("{");
	for (int i = 0; i < CS_COUNT; i++)
		printf("%s\"%s\":%llu", i ? "," : "", cstate_name[i], (unsigned long long)s->ns[i]);
	printf("}");
}

static void json_name(const struct critical_result *r, uint32_t p)
{
	char a[32];
	json_string(stdout, pname(r, p, a, sizeof a));
}

static void print_json_path(const struct copts *o, const struct critical_result *r)
{
	const struct cnet *n = &r->net;
	size_t from = o->path_steps && r->path.nsteps > o->path_steps ? r->path.nsteps - o->path_steps
								     : 0;
	printf(",\"path_steps_left_out\":%zu,\"path\":[", from);
	for (size_t i = from; i < r->path.nsteps; i++) {
		const struct cstep *st = &r->path.steps[i];
		uint32_t tail = cstep_tail(n, st);
		struct cstates s;
		cstep_states(n, &r->path, i, &s);
		printf("%s{\"kind\":", i > from ? "," : "");
		json_string(stdout, step_name[st->kind]);
		printf(",\"process\":");
		json_name(r, n->g.node_proc[st->head]);
		printf(",\"from_process\":");
		json_name(r, n->g.node_proc[tail]);
		printf(",\"from_ns\":%llu,\"to_ns\":%llu,\"from_line\":%u,\"to_line\":%u,\"states\":",
		       (unsigned long long)cnet_time(n, tail), (unsigned long long)cnet_time(n, st->head),
		       cgraph_event(&n->g, tail)->line, cgraph_event(&n->g, st->head)->line);
		json_states(&s);
		printf("}");
	}
	printf("]");
}

static void print_json(const struct copts *o, const struct critical_result *r)
{
	const struct cnet *n = &r->net;
	const struct trace *t = n->g.tr;
	printf("{\"trace\":");
	json_string(stdout, t->path);
	printf(",\"events\":%zu,\"elapsed_ns\":%llu,\"length_ns\":%llu,\"start_gap_ns\":%llu,"
	       "\"steps\":%zu,\"states\":",
	       t->nev, (unsigned long long)r->elapsed, (unsigned long long)r->length,
	       (unsigned long long)(cnet_time(n, r->path.start) - n->t0), r->path.nsteps);
	json_states(&r->job);
	printf(",\"cpu_beyond_elapsed_ns\":%llu,\"nodes\":[", (unsigned long long)r->clamped_cpu);
	for (size_t i = 0; i < r->nmachines; i++) {
		printf("%s{\"node\":%u,\"states\":", i ? "," : "", r->machines[i]);
		json_states(&r->by_machine[i]);
		printf("}");
	}
	printf("],\"processes\":[");
	int first = 1;
	for (size_t p = 0; p < t->nproc; p++) {
		if (!t->proc[p].traced)
			continue;
		printf("%s{\"process\":", first ? "" : ",");
		first = 0;
		json_name(r, (uint32_t)p);
		printf(",\"machine\":%u,\"cpu_ns\":%llu,\"queued_ns\":%llu,\"events\":%llu,"
		       "\"critical_events\":%llu,\"least_slack_ns\":",
		       t->proc[p].machine, (unsigned long long)r->proc[p].cpu,
		       (unsigned long long)r->proc[p].queued, (unsigned long long)r->proc[p].events,
		       (unsigned long long)r->proc[p].critical_events);
		if (r->proc[p].least_slack == UINT64_MAX)
			printf("null");
		else
			printf("%llu", (unsigned long long)r->proc[p].least_slack);
		printf(",\"on_path\":");
		json_states(&r->proc[p].path);
		printf(",\"all\":");
		json_states(&r->proc[p].all);
		printf("}");
	}
	printf("],\"requests\":%llu,\"servers\":[", (unsigned long long)r->nrequests);
	first = 1;
	for (size_t p = 0; p < t->nproc; p++) {
		if (!r->server[p].count)
			continue;
		printf("%s{\"server\":", first ? "" : ",");
		first = 0;
		json_name(r, (uint32_t)p);
		printf(",\"requests\":%llu,\"response_ns\":%llu,\"states\":",
		       (unsigned long long)r->server[p].count, (unsigned long long)r->server[p].response);
		json_states(&r->server[p].states);
		printf("}");
	}
	printf("],\"slowest\":[");
	for (size_t i = 0; i < r->nslow; i++) {
		const struct event *s = cgraph_event(&n->g, r->slow[i].send);
		printf("%s{\"caller\":", i ? "," : "");
		json_name(r, s->task);
		printf(",\"server\":");
		json_name(r, s->dst);
		printf(",\"line\":%u,\"response_ns\":%llu,\"states\":", s->line,
		       (unsigned long long)r->slow[i].response);
		json_states(&r->slow[i].states);
		printf("}");
	}
	printf("]");
	if (r->whatif) {
		printf(",\"whatif\":{\"speedup\":{");
		for (size_t i = 0; i < o->nspeedup; i++) {
			const char *eq = strchr(o->speedup[i], '=');
			printf("%s\"%.*s\":%s", i ? "," : "", (int)(eq - o->speedup[i]), o->speedup[i],
			       eq + 1);
		}
		printf("},\"latency_ns\":");
		if (o->latency >= 0)
			printf("%lld", (long long)o->latency);
		else
			printf("null");
		printf(",\"latency_added_ns\":%lld,\"wait_added_ns\":{", (long long)o->latency_add);
		for (size_t i = 0; i < o->nwait; i++) {
			const char *eq = strchr(o->wait[i], '=');
			printf("%s\"%.*s\":%lld", i ? "," : "", (int)(eq - o->wait[i]), o->wait[i],
			       strtoll(eq + 1, NULL, 10));
		}
		printf("}");
		printf(",\"elapsed_ns\":%llu,\"length_ns\":%llu,\"steps\":%zu,\"states\":",
		       (unsigned long long)r->welapsed, (unsigned long long)r->wlength, r->wpath.nsteps);
		json_states(&r->wjob);
		printf("}");
	}
	print_json_path(o, r);
	printf("}\n");
}

static int write_svg(const char *path, const struct critical_result *r)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "dpm critical: %s: %s\n", path, strerror(errno));
		return EXIT_BADINPUT;
	}
	int bad = critical_svg(f, r, 20000) < 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "dpm critical: writing %s failed\n", path);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

int critical_main(int argc, char **argv)
{
	struct copts o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	struct trace t;
	rc = cli_load("critical", o.input, &t); /* no events: EXIT_FAILED, as the others (docs/cli.md) */
	struct critical_result r;
	memset(&r, 0, sizeof r);
	if (rc == EXIT_OK)
		rc = analyse(&o, &t, &r);
	if (rc == EXIT_OK && o.svg)
		rc = write_svg(o.svg, &r);
	if (rc == EXIT_OK) {
		if (o.fmt == OUT_CSV)
			print_csv(&r);
		else if (o.fmt == OUT_JSON)
			print_json(&o, &r);
		else
			print_text(&o, &r);
	}
	critical_result_free(&r);
	trace_free(&t);
	fflush(stdout);
	return rc;
}

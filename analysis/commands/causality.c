/*
 * analysis/commands/causality.c - `dpm causality`: causality strings, their
 * most common substrings, the "received from X, then sent to Y" tables
 * (thesis Fig. 5.18), branching probabilities and the request state
 * diagram as Graphviz dot and SVG (Fig. 5.19).  docs/causality.md is the
 * user's page.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model/causality_dot.h"
#include "analysis/model/cli.h"
#include "analysis/model/tool.h"

enum ctable { C_STRINGS, C_SUBSTRINGS, C_TRANSITIONS, C_COUNT };
static const char *const ctable_names[C_COUNT] = { "strings", "substrings", "transitions" };

struct copts {
	const char *requestors, *servers, *system, *names, *dot, *svg, *input;
	char beside[4096];  /* TRACE.names, when neither roles nor --names are given */
	size_t top, max_len;
	enum out_format fmt;
	enum ctable table;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm causality [options] TRACE\n"
		"\n"
		"Paths of causality through a server computation (thesis 5.2.4): each\n"
		"request a server receives from a requestor is followed from server to\n"
		"server (a server's receive is linked to its next send) into a causality\n"
		"string.  Messages to and from system processes are ignored.\n"
		"\n"
		"  --requestors LIST    requestor processes, node.pid,node.pid,...\n"
		"  --servers LIST       server processes (default: every traced process\n"
		"                       that is not a requestor or system process)\n"
		"  --system LIST        system processes\n"
		"  --names FILE         lines 'node.pid NAME ROLE', ROLE one of requestor,\n"
		"                       server, system; NAME is used in the output (default:\n"
		"                       TRACE.names, which dpm record writes, when it is there)\n"
		"  --top N              rows of strings and substrings shown (default 20, 0 all)\n"
		"  --max-len N          longest substring counted (default 16, 0 no limit)\n"
		"  --dot FILE           write the request state diagram (Graphviz dot)\n"
		"  --svg FILE           draw it as SVG with Graphviz's dot\n"
		"  --csv                one table as CSV (choose it with --table)\n"
		"  --table NAME         strings (default), substrings or transitions\n"
		"  --json               everything as one JSON object\n"
		"  --help               this text\n"
		"\n"
		"Exit status: 0 ok, 1 analysis failed (e.g. dot failed), 2 bad usage or input.\n");
}

static int parse_options(int argc, char **argv, struct copts *o)
{
	static const struct option longopts[] = {
		{ "requestors", required_argument, 0, 'r' }, { "servers", required_argument, 0, 's' },
		{ "system", required_argument, 0, 'y' },     { "names", required_argument, 0, 'n' },
		{ "top", required_argument, 0, 'T' },        { "max-len", required_argument, 0, 'L' },
		{ "dot", required_argument, 0, 'd' },        { "svg", required_argument, 0, 'g' },
		{ "csv", no_argument, 0, 'c' },              { "json", no_argument, 0, 'j' },
		{ "table", required_argument, 0, 't' },      { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof *o);
	o->top = 20;
	o->max_len = 16;
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->requestors = optarg; break;
		case 's': o->servers = optarg; break;
		case 'y': o->system = optarg; break;
		case 'n': o->names = optarg; break;
		case 'd': o->dot = optarg; break;
		case 'g': o->svg = optarg; break;
		case 'c': o->fmt = OUT_CSV; break;
		case 'j': o->fmt = OUT_JSON; break;
		case 'h': usage(stdout); return 1;
		case 'T':
		case 'L':
			if (cli_parse_count(optarg, c == 'T' ? &o->top : &o->max_len) < 0)
				return cli_usage_error("causality", "%s wants a number, not '%s'",
						       c == 'T' ? "--top" : "--max-len", optarg);
			break;
		case 't': {
			size_t i = 0;
			while (i < C_COUNT && strcmp(optarg, ctable_names[i]))
				i++;
			if (i == C_COUNT)
				return cli_usage_error("causality", "no table called '%s'", optarg);
			o->table = (enum ctable)i;
			break;
		}
		default:
			return cli_usage_error("causality", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("causality", optind == argc ? "no trace given" : "one trace only");
	o->input = argv[optind];
	if (!o->requestors && !o->names && names_beside(o->input, o->beside, sizeof o->beside)) {
		o->names = o->beside; /* what dpm record wrote beside its log */
	}
	if (!o->requestors && !o->names)
		return cli_usage_error("causality", "say which processes are requestors "
					"(--requestors node.pid,..., or --names FILE; 'dpm record' "
					"writes TRACE.names, which is used when it is there)");
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static void print_seqs_text(const struct causality *c, const struct roles *r,
			    const struct seq_counts *sc, const char *title, size_t top)
{
	printf("\n%s (%zu distinct, most common first)\n%10s  %s\n", title, sc->n, "count", "sequence");
	for (size_t i = 0; i < sc->n && (!top || i < top); i++) {
		printf("%10llu  ", (unsigned long long)sc->s[i].count);
		roles_print_seq(stdout, c, r, &sc->s[i]);
		printf("\n");
	}
	if (top && sc->n > top)
		printf("%10s  ... %zu more (--top 0 shows all)\n", "", sc->n - top);
}

/* Fig. 5.18: for each server, rows "received from", columns "then sent to". */
static void print_tables_text(const struct causality *c, const struct roles *r)
{
	const struct trace *t = c->g->tr;
	printf("\nreceived from X, then sent to Y (thesis Fig. 5.18)\n");
	for (uint32_t at = 0; at < t->nproc; at++) {
		if (r->role[at] != ROLE_SERVER)
			continue;
		printf("%s:\n  %-16s", r->name[at], "from \\ to");
		for (uint32_t y = 0; y < t->nproc; y++)
			if (r->role[y] == ROLE_SERVER)
				printf(" %10s", r->name[y]);
		printf(" %10s\n", "requestors");
		for (uint32_t x = 0; x <= t->nproc; x++) {
			uint32_t from = x == t->nproc ? REQUESTORS : x;
			if (from != REQUESTORS && r->role[from] != ROLE_SERVER)
				continue;
			printf("  %-16s", roles_who(r, from));
			for (uint32_t y = 0; y < t->nproc; y++)
				if (r->role[y] == ROLE_SERVER)
					printf(" %10llu", (unsigned long long)causality_count(c, at, from, y));
			printf(" %10llu\n", (unsigned long long)causality_count(c, at, from, REQUESTORS));
		}
	}
}

static void print_branching_text(const struct causality *c, const struct roles *r)
{
	printf("\nbranching probabilities: at S, having received from X, next sends to Y\n");
	for (size_t i = 0; i < c->ntr; i++) {
		const struct transition *x = &c->tr[i];
		uint64_t all = causality_out_count(c, x->at, x->from);
		printf("  at %-12s from %-12s to %-12s %8llu  %6.1f%%\n", roles_who(r, x->at),
		       roles_who(r, x->from), roles_who(r, x->to), (unsigned long long)x->count,
		       100.0 * (double)x->count / (double)all);
	}
}

static void print_csv(const struct causality *c, const struct roles *r, enum ctable tab)
{
	if (tab == C_TRANSITIONS) {
		printf("at,from,to,count,probability\n");
		for (size_t i = 0; i < c->ntr; i++) {
			const struct transition *x = &c->tr[i];
			printf("%s,%s,%s,%llu,%.6f\n", roles_who(r, x->at), roles_who(r, x->from),
			       roles_who(r, x->to), (unsigned long long)x->count,
			       (double)x->count / (double)causality_out_count(c, x->at, x->from));
		}
		return;
	}
	const struct seq_counts *sc = tab == C_STRINGS ? &c->strings : &c->substrings;
	printf("sequence,length,count\n");
	for (size_t i = 0; i < sc->n; i++) {
		roles_print_seq(stdout, c, r, &sc->s[i]);
		printf(",%u,%llu\n", sc->s[i].len, (unsigned long long)sc->s[i].count);
	}
}

static void json_seqs(const struct causality *c, const struct roles *r, const struct seq_counts *sc)
{
	printf("[");
	for (size_t i = 0; i < sc->n; i++) {
		printf("%s{\"sequence\":[", i ? "," : "");
		for (uint32_t k = 0; k < sc->s[i].len; k++) {
			printf(k ? "," : "");
			json_string(stdout, r->name[c->pool[sc->s[i].start + k]]);
		}
		printf("],\"count\":%llu}", (unsigned long long)sc->s[i].count);
	}
	printf("]");
}

static void print_json(const struct causality *c, const struct roles *r)
{
	printf("{\"trace\":");
	json_string(stdout, c->g->tr->path);
	printf(",\"requests\":%zu,\"strings\":", c->nrequests);
	json_seqs(c, r, &c->strings);
	printf(",\"substrings\":");
	json_seqs(c, r, &c->substrings);
	printf(",\"transitions\":[");
	for (size_t i = 0; i < c->ntr; i++) {
		const struct transition *x = &c->tr[i];
		printf("%s{\"at\":", i ? "," : "");
		json_string(stdout, roles_who(r, x->at));
		printf(",\"from\":");
		json_string(stdout, roles_who(r, x->from));
		printf(",\"to\":");
		json_string(stdout, roles_who(r, x->to));
		printf(",\"count\":%llu,\"probability\":%.6f}", (unsigned long long)x->count,
		       (double)x->count / (double)causality_out_count(c, x->at, x->from));
	}
	printf("]}\n");
}

/* ---- the state diagram ----------------------------------------------- */

static int run_dot(const char *dotfile, const char *svg)
{
	char *args[] = { "dot", "-Tsvg", "-o", (char *)svg, (char *)dotfile, NULL };
	char why[600];
	if (tool_run(NULL, NULL, args, why, sizeof why) != TOOL_OK) {
		fprintf(stderr, "dpm causality: cannot draw %s: %s\n", svg, why);
		return -1;
	}
	return 0;
}

static int diagrams(const struct copts *o, const struct causality *c, const struct roles *r)
{
	char tmp[] = "/tmp/dpm-causality-XXXXXX";
	const char *path = o->dot;
	if (!path) {
		int fd = mkstemp(tmp);
		if (fd < 0)
			return -1;
		close(fd);
		path = tmp;
	}
	FILE *f = fopen(path, "w");
	int rc = f ? causality_write_dot(c, r, f) : -1;
	if (f && fclose(f))
		rc = -1;
	if (rc < 0)
		fprintf(stderr, "dpm causality: cannot write %s: %s\n", path, strerror(errno));
	if (rc == 0 && o->svg)
		rc = run_dot(path, o->svg);
	if (!o->dot)
		unlink(tmp);
	return rc;
}

/* ---- entry point --------------------------------------------------------- */

static void print_text(const struct copts *o, const struct causality *c, const struct roles *r)
{
	printf("trace %s: %zu requests from requestors into servers\n", c->g->tr->path, c->nrequests);
	print_seqs_text(c, r, &c->strings, "causality strings", o->top);
	print_seqs_text(c, r, &c->substrings, "substrings of length 2 and more", o->top);
	print_tables_text(c, r);
	print_branching_text(c, r);
}

static int analyse(const struct copts *o, struct trace *t)
{
	char err[600];
	struct cgraph g;
	struct roles r = { 0 };
	struct causality c;
	memset(&c, 0, sizeof c);
	int rc = EXIT_OK;
	struct role_sources src = { o->requestors, o->servers, o->system, o->names, "--" };
	if (cgraph_build(&g, t, err, sizeof err) < 0 || roles_assign(&r, t, &src, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		rc = EXIT_BADINPUT;
	} else if (causality_compute(&c, &g, r.role, o->max_len) < 0) {
		fprintf(stderr, "dpm causality: out of memory\n");
		rc = EXIT_FAILED;
	} else {
		causality_sort(&c, &c.strings);
		causality_sort(&c, &c.substrings);
		causality_sort_transitions(&c);
		if (o->fmt == OUT_CSV)
			print_csv(&c, &r, o->table);
		else if (o->fmt == OUT_JSON)
			print_json(&c, &r);
		else
			print_text(o, &c, &r);
		if ((o->dot || o->svg) && diagrams(o, &c, &r) < 0)
			rc = EXIT_FAILED;
	}
	causality_free(&c);
	roles_free(&r, t->nproc);
	cgraph_free(&g);
	return rc;
}

int causality_main(int argc, char **argv)
{
	struct copts o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	struct trace t;
	rc = cli_load("causality", o.input, &t);
	if (rc == EXIT_OK)
		rc = analyse(&o, &t);
	trace_free(&t);
	fflush(stdout);
	return rc;
}

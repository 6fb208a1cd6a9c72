/*
 * analysis/causality_main.c - `dpm causality`: causality strings, their
 * most common substrings, the "received from X, then sent to Y" tables
 * (thesis Fig. 5.18), branching probabilities and the request state
 * diagram as Graphviz dot and SVG (Fig. 5.19).  docs/causality.md is the
 * user's page.
 */
#include <errno.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "causality.h"
#include "cli.h"
#include "wordfile.h"

extern char **environ;

enum ctable { C_STRINGS, C_SUBSTRINGS, C_TRANSITIONS, C_COUNT };
static const char *const ctable_names[C_COUNT] = { "strings", "substrings", "transitions" };

struct copts {
	const char *requestors, *servers, *system, *names, *dot, *svg, *input;
	size_t top, max_len;
	enum out_format fmt;
	enum ctable table;
};

struct roles {
	uint8_t *role;
	char **name;
	int single_chars;   /* every server's name is one character */
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
		"                       server, system; NAME is used in the output\n"
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
	if (!o->requestors && !o->names)
		return cli_usage_error("causality", "say which processes are requestors "
					"(--requestors or --names)");
	o->input = argv[optind];
	return 0;
}

/* ---- roles and names ----------------------------------------------------- */

static int set_role(struct trace *t, struct roles *r, const char *who, uint8_t role,
		    const char *name, const char *ctx, char *err, size_t errlen)
{
	uint32_t id;
	if (parse_task(who, &id) <= 0) {
		snprintf(err, errlen, "%s: '%s' is not a process (want node.pid)", ctx, who);
		return -1;
	}
	uint32_t p = hashmap_get(&t->proc_by_id, id);
	if (p == HASHMAP_NONE) {
		snprintf(err, errlen, "%s: process %s is not in the trace", ctx, who);
		return -1;
	}
	r->role[p] = role;
	if (name) {
		free(r->name[p]);
		r->name[p] = strdup(name);
	}
	return 0;
}

static int role_list(struct trace *t, struct roles *r, const char *list, uint8_t role,
		     const char *opt, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;
	for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save))
		rc = set_role(t, r, w, role, NULL, opt, err, errlen);
	free(copy);
	return rc;
}

static int role_by_name(const char *s)
{
	return !strcmp(s, "requestor") ? ROLE_REQUESTOR : !strcmp(s, "server") ? ROLE_SERVER
	       : !strcmp(s, "system") ? ROLE_SYSTEM : -1;
}

static int names_file(struct trace *t, struct roles *r, const char *path, char *err,
		      size_t errlen)
{
	struct wordfile w;
	char ctx[600];
	if (wordfile_open(&w, path, err, errlen) < 0)
		return -1;
	int rc;
	while ((rc = wordfile_next(&w, err, errlen)) > 0) {
		int ro = w.nwords == 3 ? role_by_name(w.word[2]) : -1;
		if (ro < 0) {
			/* where it goes wrong: a missing or extra word, or the role */
			size_t at = w.nwords < 3 ? w.nwords : w.nwords > 3 ? 3 : 2;
			snprintf(err, errlen, "%s:%lu:%lu: want 'node.pid NAME ROLE' with ROLE requestor, "
				 "server or system", path, w.line, wordfile_col(&w, at));
			rc = -1;
			break;
		}
		snprintf(ctx, sizeof ctx, "%s:%lu:%lu", path, w.line, wordfile_col(&w, 0));
		if ((rc = set_role(t, r, w.word[0], (uint8_t)ro, w.word[1], ctx, err, errlen)) < 0)
			break;
	}
	wordfile_close(&w);
	return rc < 0 ? -1 : 0;
}

#define ROLE_UNSET 3

/* Roles from the names file and the lists (later ones win); a process
 * named nowhere is a system process if any server was named, else a
 * server when traced. */
static int assign_roles(const struct copts *o, struct trace *t, struct roles *r, char *err,
			size_t errlen)
{
	r->role = malloc(t->nproc + 1);
	r->name = calloc(t->nproc + 1, sizeof *r->name);
	if (!r->role || !r->name) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(r->role, ROLE_UNSET, t->nproc + 1);
	for (uint32_t p = 0; p < t->nproc; p++) {
		char buf[32];
		r->name[p] = strdup(process_name(t, p, buf, sizeof buf));
	}
	if ((o->names && names_file(t, r, o->names, err, errlen) < 0) ||
	    (o->servers && role_list(t, r, o->servers, ROLE_SERVER, "--servers", err, errlen) < 0) ||
	    (o->system && role_list(t, r, o->system, ROLE_SYSTEM, "--system", err, errlen) < 0) ||
	    (o->requestors &&
	     role_list(t, r, o->requestors, ROLE_REQUESTOR, "--requestors", err, errlen) < 0))
		return -1;
	int servers_named = 0;
	for (uint32_t p = 0; p < t->nproc; p++)
		servers_named |= r->role[p] == ROLE_SERVER;
	r->single_chars = 1;
	for (uint32_t p = 0; p < t->nproc; p++) {
		if (r->role[p] == ROLE_UNSET)
			r->role[p] = !servers_named && t->proc[p].traced ? ROLE_SERVER : ROLE_SYSTEM;
		if (r->role[p] == ROLE_SERVER && strlen(r->name[p]) != 1)
			r->single_chars = 0;
	}
	return 0;
}

static void roles_free(struct roles *r, size_t nproc)
{
	for (size_t p = 0; r->name && p < nproc; p++)
		free(r->name[p]);
	free(r->name);
	free(r->role);
}

/* ---- output ------------------------------------------------------------- */

static const char *who(const struct roles *r, uint32_t p)
{
	return p == REQUESTORS ? "requestors" : r->name[p];
}

static void print_seq(FILE *out, const struct causality *c, const struct roles *r,
		      const struct seq *s)
{
	for (uint32_t i = 0; i < s->len; i++)
		fprintf(out, "%s%s", i && !r->single_chars ? "-" : "", r->name[c->pool[s->start + i]]);
}

static void print_seqs_text(const struct causality *c, const struct roles *r,
			    const struct seq_counts *sc, const char *title, size_t top)
{
	printf("\n%s (%zu distinct, most common first)\n%10s  %s\n", title, sc->n, "count", "sequence");
	for (size_t i = 0; i < sc->n && (!top || i < top); i++) {
		printf("%10llu  ", (unsigned long long)sc->s[i].count);
		print_seq(stdout, c, r, &sc->s[i]);
		printf("\n");
	}
	if (top && sc->n > top)
		printf("%10s  ... %zu more (--top 0 shows all)\n", "", sc->n - top);
}

/* Total count of transitions out of (at, from), or of at when from is
 * NO_PROC. */
static uint64_t total_out(const struct causality *c, uint32_t at, uint32_t from)
{
	uint64_t n = 0;
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && (from == NO_PROC || c->tr[i].from == from))
			n += c->tr[i].count;
	return n;
}

static uint64_t count_of(const struct causality *c, uint32_t at, uint32_t from, uint32_t to)
{
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && c->tr[i].from == from && c->tr[i].to == to)
			return c->tr[i].count;
	return 0;
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
			printf("  %-16s", who(r, from));
			for (uint32_t y = 0; y < t->nproc; y++)
				if (r->role[y] == ROLE_SERVER)
					printf(" %10llu", (unsigned long long)count_of(c, at, from, y));
			printf(" %10llu\n", (unsigned long long)count_of(c, at, from, REQUESTORS));
		}
	}
}

static void print_branching_text(const struct causality *c, const struct roles *r)
{
	printf("\nbranching probabilities: at S, having received from X, next sends to Y\n");
	for (size_t i = 0; i < c->ntr; i++) {
		const struct transition *x = &c->tr[i];
		uint64_t all = total_out(c, x->at, x->from);
		printf("  at %-12s from %-12s to %-12s %8llu  %6.1f%%\n", who(r, x->at), who(r, x->from),
		       who(r, x->to), (unsigned long long)x->count, 100.0 * (double)x->count / (double)all);
	}
}

static void print_csv(const struct causality *c, const struct roles *r, enum ctable tab)
{
	if (tab == C_TRANSITIONS) {
		printf("at,from,to,count,probability\n");
		for (size_t i = 0; i < c->ntr; i++) {
			const struct transition *x = &c->tr[i];
			printf("%s,%s,%s,%llu,%.6f\n", who(r, x->at), who(r, x->from), who(r, x->to),
			       (unsigned long long)x->count,
			       (double)x->count / (double)total_out(c, x->at, x->from));
		}
		return;
	}
	const struct seq_counts *sc = tab == C_STRINGS ? &c->strings : &c->substrings;
	printf("sequence,length,count\n");
	for (size_t i = 0; i < sc->n; i++) {
		print_seq(stdout, c, r, &sc->s[i]);
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
		json_string(stdout, who(r, x->at));
		printf(",\"from\":");
		json_string(stdout, who(r, x->from));
		printf(",\"to\":");
		json_string(stdout, who(r, x->to));
		printf(",\"count\":%llu,\"probability\":%.6f}", (unsigned long long)x->count,
		       (double)x->count / (double)total_out(c, x->at, x->from));
	}
	printf("]}\n");
}

/* ---- the state diagram ----------------------------------------------- */

/* Fig. 5.19: states are servers (and the requestors, where requests come
 * from and answers go); an arc is labelled with its count and the
 * probability of taking it out of its state. */
static int write_dot(const struct causality *c, const struct roles *r, FILE *f)
{
	const struct trace *t = c->g->tr;
	uint64_t *entry = calloc(t->nproc + 1, sizeof *entry);
	if (!entry)
		return -1;
	for (size_t i = 0; i < c->strings.n; i++)
		entry[c->pool[c->strings.s[i].start]] += c->strings.s[i].count;
	fprintf(f, "digraph requests {\n\trankdir=LR;\n\tnode [shape=ellipse];\n"
		   "\t\"requestors\" [shape=box];\n");
	for (uint32_t p = 0; p < t->nproc; p++)
		if (entry[p])
			fprintf(f, "\t\"requestors\" -> \"%s\" [label=\"%llu (%.0f%%)\"];\n", r->name[p],
				(unsigned long long)entry[p], 100.0 * (double)entry[p] / (double)c->nrequests);
	for (uint32_t at = 0; at < t->nproc; at++) {
		uint64_t all = total_out(c, at, NO_PROC);
		for (uint32_t y = 0; y <= t->nproc; y++) {
			uint32_t to = y == t->nproc ? REQUESTORS : y;
			uint64_t n = 0;
			for (size_t i = 0; i < c->ntr; i++)
				if (c->tr[i].at == at && c->tr[i].to == to)
					n += c->tr[i].count;
			if (n)
				fprintf(f, "\t\"%s\" -> \"%s\" [label=\"%llu (%.0f%%)\"];\n", r->name[at],
					who(r, to), (unsigned long long)n, 100.0 * (double)n / (double)all);
		}
	}
	fprintf(f, "}\n");
	free(entry);
	return ferror(f) ? -1 : 0;
}

static int run_dot(const char *dotfile, const char *svg)
{
	char *args[] = { "dot", "-Tsvg", "-o", (char *)svg, (char *)dotfile, NULL };
	pid_t pid;
	int status;
	int err = posix_spawnp(&pid, "dot", NULL, NULL, args, environ);
	if (err) {
		fprintf(stderr, "dpm causality: cannot run Graphviz's dot: %s\n", strerror(err));
		return -1;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "dpm causality: dot failed to draw %s\n", svg);
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
	int rc = f ? write_dot(c, r, f) : -1;
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
	if (cgraph_build(&g, t, err, sizeof err) < 0 || assign_roles(o, t, &r, err, sizeof err) < 0) {
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

/*
 * servers/tsp/tsp.c - the TSP controller: reads or makes the instance,
 * starts the servers, runs the search (search.c) by handing subproblems to
 * idle servers (one at a time, two in version 3), and prints the optimal
 * tour.  docs/tsp.md is the manual.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "search.h"
#include "servers.h"
#include "tsplib.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

static const char usage_text[] =
	"usage: tsp [-v VERSION] [-p SERVERS] [--nodes LIST] [-d DEPTH] [--expect COST]\n"
	"           (-n N [-s SEED] | -f -)\n"
	"  -v VERSION     1 (as first written), 2 (low-node caching), 3 (overlapping requests); default 3\n"
	"  -p SERVERS     server processes, 1..24; default 4\n"
	"  --nodes LIST   nodes for the servers, round-robin, e.g. 1,2,3,4; default this node\n"
	"  -d DEPTH       cities the controller branches on before servers take over; default N/3\n"
	"  -n N -s SEED   a random symmetric instance of N (2..64) cities, costs 1..1000\n"
	"  -f -           a TSPLIB instance (EXPLICIT weights) from standard input\n"
	"  --expect COST  exit 1 unless the optimal tour costs COST (for tests)\n"
	"  --die-after K, --stall-after K   the last server ends / stops answering after K requests\n"
	"  --kill-after K  the controller kills its last server (pm_kill) after K answers (for tests)\n"
	"output: 'tour cost: C', 'tour: ' and the cities 1..N from city 1, a 'stats:' line\n";

struct options {
	int version, servers, n, depth;
	uint32_t seed;
	int from_stdin;
	long expect, kill_after;
	uint32_t nodes[TSP_MAX_SERVERS];
	int nnodes;
	const char *debug[3];
};

static int usage_error(const char *fmt, const char *arg)
{
	printf("tsp: ");
	printf(fmt, arg);
	printf("\n%s", usage_text);
	return -1;
}

/* The number in `text`, within lo..hi, or -1 after an error message. */
static long number(const char *opt, const char *text, long lo, long hi)
{
	char *end;
	long v = text ? strtol(text, &end, 10) : 0;
	if (!text || end == text || *end || v < lo || v > hi) {
		printf("tsp: %s needs a number in %ld..%ld, not '%s'\n%s", opt, lo, hi, text ? text : "", usage_text);
		return -1;
	}
	return v;
}

static int parse_nodes(struct options *o, const char *list)
{
	char copy[128];
	snprintf(copy, sizeof copy, "%s", list ? list : "");
	o->nnodes = 0;
	for (char *w = strtok(copy, ","); w; w = strtok(NULL, ",")) {
		long node = number("--nodes", w, 1, 255);
		if (node < 0)
			return -1;
		if (o->nnodes == TSP_MAX_SERVERS)
			return usage_error("--nodes: more than 24 nodes in '%s'", list);
		o->nodes[o->nnodes++] = (uint32_t)node;
	}
	return o->nnodes ? 0 : usage_error("--nodes needs a list such as 1,2,3, not '%s'", list ? list : "");
}

/* One option and its value: 0, or -1 after a message. */
static int option(struct options *o, const char *a, const char *val)
{
	long v = 0;
	if (!strcmp(a, "-v") && (v = number(a, val, 1, 3)) >= 0)
		o->version = (int)v;
	else if (!strcmp(a, "-p") && (v = number(a, val, 1, TSP_MAX_SERVERS)) >= 0)
		o->servers = (int)v;
	else if (!strcmp(a, "-n") && (v = number(a, val, TSP_MIN_N, TSP_MAX_N)) >= 0)
		o->n = (int)v;
	else if (!strcmp(a, "-s") && (v = number(a, val, 0, 2147483647L)) >= 0)
		o->seed = (uint32_t)v;
	else if (!strcmp(a, "-d") && (v = number(a, val, 1, TSP_MAX_N - 1)) >= 0)
		o->depth = (int)v;
	else if (!strcmp(a, "--expect") && (v = number(a, val, 0, TSP_INF)) >= 0)
		o->expect = v;
	else if (!strcmp(a, "--kill-after") && (v = number(a, val, 0, 1000000)) >= 0)
		o->kill_after = v;
	else if (!strcmp(a, "--nodes"))
		v = parse_nodes(o, val);
	else if ((!strcmp(a, "--die-after") || !strcmp(a, "--stall-after")) && (v = number(a, val, 0, 1000000)) >= 0) {
		o->debug[0] = a;
		o->debug[1] = val;
	} else if (!strcmp(a, "-f") && val && !strcmp(val, "-"))
		o->from_stdin = 1;
	else if (!strcmp(a, "-f"))
		return usage_error("-f reads standard input only: give '-f -', not '-f %s'", val ? val : "");
	else if (v == 0)
		return usage_error("unknown argument '%s'", a);
	return v < 0 ? -1 : 0; /* a known option with a bad value: already said */
}

/* 0, 1 for --help, -1 after a usage message.  Every option has a value. */
static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .version = TSP_V3, .servers = 4, .expect = -1, .kill_after = -1, .nnodes = 1 };
	for (int i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		if (option(o, argv[i], i + 1 < argc ? argv[i + 1] : NULL) < 0)
			return -1;
	}
	if (!o->n == !o->from_stdin)
		return usage_error("give either -n N or -f -%s", "");
	return 0;
}

static int load_instance(const struct options *o, struct tsp_instance *t)
{
	if (!o->from_stdin) {
		tsp_random_instance(t, o->n, o->seed);
		return 0;
	}
	char err[256];
	if (tsplib_read(stdin, "stdin", t, err, sizeof err) < 0) {
		printf("tsp: %s\n", err);
		return -1;
	}
	return 0;
}

/* Hand subproblems to servers with room: first one each, then (v3) a
 * second each, so the work spreads before queues fill. */
static int dispatch(struct search *s, struct tsp_pool *pool, int per_server)
{
	struct tsp_subproblem sub;
	for (int k = 0; k < per_server; k++)
		for (int i = 0; i < pool->count; i++)
			if (pool->server[i].outstanding == k && search_next(s, &sub) && pool_send(pool, i, &sub) < 0)
				return -1;
	return 0;
}

/* --kill-after: the last server is killed through the process manager
 * (of its node) as another process might, while it has work outstanding;
 * the run must then fail as for any lost server. */
static void kill_last_server(struct tsp_pool *pool)
{
	const struct tsp_server *sv = &pool->server[pool->count - 1];
	printf("tsp: killing server %d (task %u.%u) with %d subproblem(s) outstanding (--kill-after)\n",
	       pool->count - 1, (unsigned)TASK_NODE(sv->task), (unsigned)TASK_PID(sv->task), sv->outstanding);
	int r = pm_kill(sv->task);
	if (r < 0)
		printf("tsp: pm_kill: %s\n", kerror_name(r));
}

static int run_search(struct search *s, struct tsp_pool *pool, const struct options *o)
{
	int per_server = search_queue_depth(o->version);
	long answers = 0;
	while (!s->done) {
		struct tsp_answer ans;
		if (dispatch(s, pool, per_server) < 0)
			return -1;
		if (answers++ == o->kill_after)
			kill_last_server(pool);
		int i = pool_receive(pool, &ans);
		if (i < 0)
			return -1;
		if (search_answer(s, &ans) < 0) {
			snprintf(pool->error, sizeof pool->error, "server %d answered subproblem %u, which is not outstanding",
				 i, (unsigned)ans.id);
			return -1;
		}
	}
	return 0;
}

static void print_result(const struct search *s, const struct options *o, int depth, uint64_t setup_ns,
			 uint64_t search_ns)
{
	printf("tour cost: %ld\ntour:", (long)s->best);
	for (int i = 0; i < s->t->n; i++)
		printf(" %d", s->best_tour[i] + 1);
	printf("\nstats: version=%d servers=%d depth=%d subproblems=%llu expansions=%llu reexpansions=%llu "
	       "nodes=%llu setup_ms=%llu elapsed_ms=%llu\n",
	       o->version, o->servers, depth, (unsigned long long)s->stats.subproblems,
	       (unsigned long long)s->stats.expansions, (unsigned long long)s->stats.reexpansions,
	       (unsigned long long)s->stats.nodes, (unsigned long long)(setup_ns / 1000000),
	       (unsigned long long)(search_ns / 1000000));
}

/* The tour must be a tour of that cost, and the cost the one expected. */
static int check_result(const struct search *s, const struct options *o)
{
	int32_t again = tsp_tour_cost(s->t, s->best_tour);
	if (again != s->best) {
		printf("tsp: internal error: the tour found costs %ld, not %ld\n", (long)again, (long)s->best);
		return -1;
	}
	if (o->expect >= 0 && s->best != o->expect) {
		printf("tsp: tour cost %ld, expected %ld\n", (long)s->best, o->expect);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct tsp_instance inst;
	static struct search srch;
	static struct tsp_pool pool;
	int r = parse_options(argc, argv, &o);
	if (r)
		return r > 0 ? (printf("%s", usage_text), 0) : EXIT_USAGE;
	if (load_instance(&o, &inst) < 0)
		return EXIT_USAGE;
	int depth = o.depth ? o.depth : search_default_depth(inst.n);
	if (depth > inst.n - 1)
		depth = inst.n - 1;
	uint64_t t0, t1, t2;
	node_time(&t0, NULL);
	struct tsp_pool_spec spec = { o.servers, o.nodes, o.nnodes, o.debug[0] ? o.debug : NULL };
	if (pool_start(&pool, &spec, &inst) < 0) {
		printf("tsp: %s\n", pool.error);
		return EXIT_FAILED;
	}
	node_time(&t1, NULL);
	search_start(&srch, &inst, o.version, depth);
	if (run_search(&srch, &pool, &o) < 0) {
		printf("tsp: %s\n", pool.error);
		pool_kill(&pool);
		return EXIT_FAILED;
	}
	node_time(&t2, NULL);
	pool_stop(&pool);
	print_result(&srch, &o, depth, t1 - t0, t2 - t1);
	return check_result(&srch, &o) < 0 ? EXIT_FAILED : 0;
}

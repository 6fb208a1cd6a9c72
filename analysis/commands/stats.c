/*
 * analysis/commands/stats.c - `dpm stats`: the basic communication statistics
 * (thesis §5.2.2) as tables for people, one chosen table as CSV, or all of
 * them as JSON.  docs/stats.md is the user's page.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"
#include "analysis/model/stats.h"

enum table { T_PROCESSES, T_PAIRS, T_SIZES, T_QUEUES, T_WAITS, T_COUNT };
static const char *const table_names[T_COUNT] = { "processes", "pairs", "sizes", "queues",
						  "waits" };

struct sopts {
	enum out_format fmt;
	enum table table;
	const char *input;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm stats [options] TRACE\n"
		"\n"
		"Basic communication statistics of a trace (filter log or trace CSV):\n"
		"per process and per ordered pair, messages and bytes sent and received,\n"
		"message sizes, messages per second, local versus remote; each process's\n"
		"share of CPU, messages and bytes and how its messages split by\n"
		"destination; queue lengths and the time messages wait in the queue.\n"
		"\n"
		"  --csv          one table as CSV (choose it with --table)\n"
		"  --table NAME   processes (default), pairs, sizes, queues or waits\n"
		"  --json         every table as one JSON object\n"
		"  --help         this text\n"
		"\n"
		"Exit status: 0 ok, 1 analysis failed, 2 bad usage or input.\n");
}

static int parse_options(int argc, char **argv, struct sopts *o)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, 0, 'c' },
		{ "json", no_argument, 0, 'j' },
		{ "table", required_argument, 0, 't' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	memset(o, 0, sizeof *o);
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->fmt = OUT_CSV; break;
		case 'j': o->fmt = OUT_JSON; break;
		case 'h': usage(stdout); return 1;
		case 't': {
			size_t i = 0;
			while (i < T_COUNT && strcmp(optarg, table_names[i]))
				i++;
			if (i == T_COUNT)
				return cli_usage_error("stats", "no table called '%s'", optarg);
			o->table = (enum table)i;
			break;
		}
		default:
			return cli_usage_error("stats", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("stats", optind == argc ? "no trace given" : "one trace only");
	o->input = argv[optind];
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static double mean(double sum, uint64_t n)
{
	return n ? sum / (double)n : 0;
}

/* "[lo,hi)" of bucket b. */
static const char *bucket_range(unsigned b, char *buf, size_t len)
{
	if (b == 0)
		snprintf(buf, len, "0");
	else if (b == 1)
		snprintf(buf, len, "1");
	else
		snprintf(buf, len, "%llu-%llu", 1ull << (b - 1),
			 b >= 64 ? ~0ull : (1ull << b) - 1);
	return buf;
}

/* A row per process; for each table the same rows serve text and CSV. */
typedef void row_fn(const struct stats *s, size_t i, int csv);

static void process_row(const struct stats *s, size_t i, int csv)
{
	const struct trace *t = s->tr;
	const struct proc_stats *p = &s->p[i];
	char name[32];
	process_name(t, (uint32_t)i, name, sizeof name);
	double rate = stats_rate(s, (uint32_t)i, p->m.sent + p->m.recv);
	const char *f = csv ? "%s,%u,%llu,%.2f,%llu,%llu,%.2f,%.2f,%llu,%llu,%llu,%llu,%.3f\n"
			    : "%-10s %7u %8llu %6.2f %9llu %11llu %6.2f %6.2f %9llu %11llu %8llu %8llu %10.1f\n";
	printf(f, name, t->proc[i].machine, (unsigned long long)p->events,
	       pct(p->cpu, s->total_cpu), (unsigned long long)p->m.sent,
	       (unsigned long long)p->m.sent_bytes, pct(p->m.sent, s->total.sent),
	       pct(p->m.sent_bytes, s->total.sent_bytes), (unsigned long long)p->m.recv,
	       (unsigned long long)p->m.recv_bytes, (unsigned long long)p->m.local,
	       (unsigned long long)p->m.remote, rate);
}

static void pair_row(const struct stats *s, size_t i, int csv)
{
	const struct pair_stats *ps = &s->pair[i];
	const struct proc_stats *from = &s->p[ps->src];
	char a[32], b[32];
	const char *f = csv ? "%s,%s,%llu,%llu,%.2f,%.2f,%llu,%llu,%s,%.1f,%.3f\n"
			    : "%-10s %-10s %9llu %11llu %7.2f %7.2f %9llu %11llu %-6s %9.1f %10.1f\n";
	printf(f, process_name(s->tr, ps->src, a, sizeof a), process_name(s->tr, ps->dst, b, sizeof b),
	       (unsigned long long)ps->m.sent, (unsigned long long)ps->m.sent_bytes,
	       pct(ps->m.sent, from->m.sent), pct(ps->m.sent_bytes, from->m.sent_bytes),
	       (unsigned long long)ps->m.recv, (unsigned long long)ps->m.recv_bytes,
	       s->tr->proc[ps->src].machine == s->tr->proc[ps->dst].machine ? "local" : "remote",
	       mean((double)ps->m.sent_bytes, ps->m.sent),
	       stats_rate(s, ps->src, ps->m.sent));
}

static void queue_row(const struct stats *s, size_t i, int csv)
{
	const struct proc_stats *p = &s->p[i];
	char name[32], a[32], b[32], c[32];
	if (csv) {
		printf("%s,%llu,%.3f,%llu,%llu,%.1f,%llu\n", process_name(s->tr, (uint32_t)i, name, sizeof name),
		       (unsigned long long)p->q_max, mean((double)p->q_sum, p->q_samples),
		       (unsigned long long)p->w.n, (unsigned long long)p->w.min,
		       mean(p->w.sum, p->w.n), (unsigned long long)p->w.max);
		return;
	}
	printf("%-10s %6llu %8.2f %9llu %12s %12s %12s\n", process_name(s->tr, (uint32_t)i, name, sizeof name),
	       (unsigned long long)p->q_max, mean((double)p->q_sum, p->q_samples),
	       (unsigned long long)p->w.n, fmt_ns((double)p->w.min, a, sizeof a),
	       fmt_ns(mean(p->w.sum, p->w.n), b, sizeof b), fmt_ns((double)p->w.max, c, sizeof c));
}

static void hist_rows(const uint64_t *hist, uint64_t total, int csv)
{
	char r[64];
	for (unsigned b = 0; b < STATS_BUCKETS; b++)
		if (hist[b])
			printf(csv ? "%s,%llu,%.2f\n" : "  %-24s %10llu %7.2f%%\n", bucket_range(b, r, sizeof r),
			       (unsigned long long)hist[b], pct(hist[b], total));
}

static const char *const headers[T_COUNT][2] = {
	{ "process,machine,events,cpu_pct,sent,sent_bytes,msgs_pct,bytes_pct,received,received_bytes,local,remote,msgs_per_s",
	  "%-10s %7s %8s %6s %9s %11s %6s %6s %9s %11s %8s %8s %10s\n" },
	{ "from,to,sent,sent_bytes,pct_of_from_msgs,pct_of_from_bytes,received,received_bytes,where,mean_size,msgs_per_s",
	  "%-10s %-10s %9s %11s %7s %7s %9s %11s %-6s %9s %10s\n" },
	{ "size_bytes,messages,pct", "  %-24s %10s %8s\n" },
	{ "process,queue_max,queue_mean,waits,wait_min_ns,wait_mean_ns,wait_max_ns",
	  "%-10s %6s %8s %9s %12s %12s %12s\n" },
	{ "wait_ns,messages,pct", "  %-24s %10s %8s\n" },
};

static const char *const text_titles[T_COUNT][13] = {
	{ "process", "machine", "events", "%CPU", "sent", "bytes", "%msgs", "%bytes", "received",
	  "bytes", "local", "remote", "msgs/s" },
	{ "from", "to", "sent", "bytes", "%msgs", "%bytes", "received", "bytes", "where",
	  "mean size", "msgs/s" },
	{ "size (bytes)", "messages", "share" },
	{ "process", "max", "mean", "waits", "min wait", "mean wait", "max wait" },
	{ "wait (ns)", "messages", "share" },
};

static void table_header(enum table t, int csv)
{
	const char *const *h = text_titles[t];
	if (csv)
		printf("%s\n", headers[t][0]);
	else
		printf(headers[t][1], h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9],
		       h[10], h[11], h[12]);
}

static int has_queue(const struct proc_stats *p)
{
	return p->q_samples || p->w.n;
}

static void print_table(const struct stats *s, enum table t, int csv)
{
	table_header(t, csv);
	size_t n = t == T_PAIRS ? s->npairs : s->tr->nproc;
	row_fn *row = t == T_PROCESSES ? process_row : t == T_PAIRS ? pair_row : queue_row;
	if (t == T_SIZES) {
		hist_rows(s->total.size_hist, s->total.sent, csv);
		return;
	}
	if (t == T_WAITS) {
		hist_rows(s->wait_hist, s->w.n, csv);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (t != T_QUEUES || has_queue(&s->p[i]))
			row(s, i, csv);
}

static void print_text(const struct stats *s)
{
	const struct msg_counts *m = &s->total;
	char a[32], b[32], c[32];
	printf("trace %s: %zu events, %zu processes, %llu messages sent (%llu bytes), %llu received\n",
	       s->tr->path, s->tr->nev, s->tr->nproc, (unsigned long long)m->sent,
	       (unsigned long long)m->sent_bytes, (unsigned long long)m->recv);
	printf("local %llu (%.1f%%, %llu bytes), remote %llu (%.1f%%, %llu bytes)\n\n",
	       (unsigned long long)m->local, pct(m->local, m->sent), (unsigned long long)m->local_bytes,
	       (unsigned long long)m->remote, pct(m->remote, m->sent),
	       (unsigned long long)m->remote_bytes);
	printf("processes (%%CPU from the last PROCTIME of each; msgs/s over its own span)\n");
	print_table(s, T_PROCESSES, 0);
	printf("\nmessages by sender and destination (%%msgs, %%bytes: of the sender's own)\n");
	print_table(s, T_PAIRS, 0);
	printf("\nmessage sizes (all messages sent)\n");
	print_table(s, T_SIZES, 0);
	printf("\nqueues (length %s; wait = QUEUED to RECEIVE of the same message)\n",
	       s->queue_rebuilt ? "rebuilt from QUEUED and RECEIVE where not traced" : "as traced");
	print_table(s, T_QUEUES, 0);
	if (s->w.n) {
		printf("\ntime in queue: %llu messages, min %s, mean %s, max %s\n",
		       (unsigned long long)s->w.n, fmt_ns((double)s->w.min, a, sizeof a),
		       fmt_ns(mean(s->w.sum, s->w.n), b, sizeof b),
		       fmt_ns((double)s->w.max, c, sizeof c));
		print_table(s, T_WAITS, 0);
	}
}

/* {"lo-hi":count,...} of the non-empty buckets. */
static void json_hist(const uint64_t *hist)
{
	char r[64];
	int first = 1;
	for (unsigned b = 0; b < STATS_BUCKETS; b++)
		if (hist[b]) {
			printf("%s\"%s\":%llu", first ? "" : ",", bucket_range(b, r, sizeof r),
			       (unsigned long long)hist[b]);
			first = 0;
		}
	printf("}");
}

static void json_counts(const struct msg_counts *m)
{
	printf("\"sent\":%llu,\"sent_bytes\":%llu,\"received\":%llu,\"received_bytes\":%llu,"
	       "\"local\":%llu,\"remote\":%llu,\"local_bytes\":%llu,\"remote_bytes\":%llu,\"sizes\":{",
	       (unsigned long long)m->sent, (unsigned long long)m->sent_bytes,
	       (unsigned long long)m->recv, (unsigned long long)m->recv_bytes,
	       (unsigned long long)m->local, (unsigned long long)m->remote,
	       (unsigned long long)m->local_bytes, (unsigned long long)m->remote_bytes);
	json_hist(m->size_hist);
}

static void print_json(const struct stats *s)
{
	char name[32], other[32];
	printf("{\"trace\":");
	json_string(stdout, s->tr->path);
	printf(",\"events\":%zu,\"total\":{", s->tr->nev);
	json_counts(&s->total);
	printf(",\"cpu_ns\":%llu},\"processes\":[", (unsigned long long)s->total_cpu);
	for (size_t i = 0; i < s->tr->nproc; i++) {
		const struct proc_stats *p = &s->p[i];
		printf("%s{\"process\":\"%s\",\"machine\":%u,\"events\":%llu,\"cpu_ns\":%llu,"
		       "\"cpu_pct\":%.4f,\"msgs_per_s\":%.4f,\"queue_max\":%llu,\"queue_mean\":%.4f,"
		       "\"waits\":%llu,\"wait_min_ns\":%llu,\"wait_mean_ns\":%.1f,\"wait_max_ns\":%llu,",
		       i ? "," : "", process_name(s->tr, (uint32_t)i, name, sizeof name),
		       s->tr->proc[i].machine, (unsigned long long)p->events, (unsigned long long)p->cpu,
		       pct(p->cpu, s->total_cpu), stats_rate(s, (uint32_t)i, p->m.sent + p->m.recv),
		       (unsigned long long)p->q_max, mean((double)p->q_sum, p->q_samples),
		       (unsigned long long)p->w.n, (unsigned long long)p->w.min,
		       mean(p->w.sum, p->w.n), (unsigned long long)p->w.max);
		json_counts(&p->m);
		printf("}");
	}
	printf("],\"pairs\":[");
	for (size_t i = 0; i < s->npairs; i++) {
		const struct pair_stats *ps = &s->pair[i];
		printf("%s{\"from\":\"%s\",\"to\":\"%s\",\"msgs_per_s\":%.4f,", i ? "," : "",
		       process_name(s->tr, ps->src, name, sizeof name),
		       process_name(s->tr, ps->dst, other, sizeof other),
		       stats_rate(s, ps->src, ps->m.sent));
		json_counts(&ps->m);
		printf("}");
	}
	printf("],\"waits\":{");
	json_hist(s->wait_hist);
	printf("}\n");
}

int stats_main(int argc, char **argv)
{
	struct sopts o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	struct trace t;
	struct stats s;
	memset(&s, 0, sizeof s);
	rc = cli_load("stats", o.input, &t);
	if (rc == EXIT_OK && stats_compute(&s, &t) < 0) {
		fprintf(stderr, "dpm stats: out of memory\n");
		rc = EXIT_FAILED;
	} else if (rc == EXIT_OK) {
		if (o.fmt == OUT_CSV)
			print_table(&s, o.table, 1);
		else if (o.fmt == OUT_JSON)
			print_json(&s);
		else
			print_text(&s);
	}
	stats_free(&s);
	trace_free(&t);
	fflush(stdout);
	return rc;
}

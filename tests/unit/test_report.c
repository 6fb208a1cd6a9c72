/*
 * tests/unit/test_report.c - `dpm report`: the RUN argument (every good
 * and bad form), the thesis's reference file (the repository's own and
 * malformed ones with file:line), the page's numbers read back by table id
 * against what the analysis library computes for the same trace, the
 * predictions across runs where the answer is known, a filter log as
 * input, missing drawing tools, an unwritable output directory, and bad
 * input with exit 2 before anything is written.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/model/configs.h"
#include "analysis/model/trace_load.h"
#include "analysis/report/cross.h"
#include "analysis/report/timeline.h"
#include "analysis/studies/studies.h"
#include "hostfilter/tracelog/print.h"
#include "qemu/dpm_commands.h"
#include "test_filter_support.h"
#include "test_html_page.h"

/* A RUN argument as dpm report parses it, with the studies' keys. */
static int parse_run(const char *arg, struct report_spec *s, char *err, size_t errlen)
{
	return report_spec_parse(arg, study_keys, STUDY_KEYS, s, err, errlen);
}

/* A path in the test's directory that stays valid (tf_path's rotate). */
static const char *path_of(const char *name)
{
	static char paths[64][256];
	static int next;
	char *p = paths[next++ % 64];
	snprintf(p, sizeof paths[0], "%s", tf_path(name));
	return p;
}

/* ---- traces ---------------------------------------------------------------- */

/* A server computation like dpm-tracegen's, small: clients 1.1..1.3 ask
 * front server 2.1, which asks back server `back` for some requests.
 * Every message is SEND, QUEUED, RECEIVE in one global order. */
struct gen {
	FILE *f;
	uint64_t rng, clock, msg;
	uint64_t cpu[8];
};

static unsigned rnd(struct gen *g, unsigned n)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return (unsigned)(g->rng % n);
}

static void message(struct gen *g, int from, const char *fname, int to, const char *tname,
		    unsigned work, unsigned len)
{
	g->cpu[from] += work;
	g->clock += 1000 + rnd(g, 1000);
	g->msg++;
	fprintf(g->f, "SEND,%llu,%llu,%s,%s,%s,0x%llx,%u\n", (unsigned long long)g->clock,
		(unsigned long long)g->cpu[from], fname, fname, tname, (unsigned long long)g->msg, len);
	g->clock += 500;
	fprintf(g->f, "QUEUED,%llu,%llu,%s,%s,%s,0x%llx,%u\n", (unsigned long long)g->clock,
		(unsigned long long)g->cpu[to], tname, fname, tname, (unsigned long long)g->msg, len);
	g->clock += rnd(g, 2000);
	fprintf(g->f, "RECEIVE,%llu,%llu,%s,%s,%s,0x%llx,%u\n", (unsigned long long)g->clock,
		(unsigned long long)g->cpu[to], tname, fname, tname, (unsigned long long)g->msg, len);
}

static const char *generated_trace(const char *file, unsigned requests, uint64_t seed,
				   const char *back)
{
	static const char *const clients[] = { "1.1", "1.2", "1.3" };
	const char *path = path_of(file);
	struct gen g = { fopen(path, "w"), 88172645463325252ull ^ seed, 0, 0, { 0 } };
	assert_non_null(g.f);
	fprintf(g.f, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n");
	for (unsigned i = 0; i < requests; i++) {
		int c = (int)rnd(&g, 3);
		message(&g, c, clients[c], 3, "2.1", 20000 + rnd(&g, 50000), 64 + rnd(&g, 512));
		if (rnd(&g, 10) < 3) {
			message(&g, 3, "2.1", 4, back, 5000 + rnd(&g, 10000), 64);
			message(&g, 4, back, 3, "2.1", 30000 + rnd(&g, 100000), 1024);
		}
		message(&g, 3, "2.1", c, clients[c], 10000 + rnd(&g, 20000), 128 + rnd(&g, 4000));
	}
	assert_int_equal(fclose(g.f), 0);
	return path;
}

/* ---- running the command ---------------------------------------------------- */

struct result {
	int rc;
	char *out, *err;
};

static struct result report(const char *const *args)
{
	const char *argv[32] = { "report" };
	int n = 1;
	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	struct result r;
	r.rc = tf_run(report_main, argv, NULL, path_of("report.out"), path_of("report.err"));
	r.out = tf_read_file(path_of("report.out"));
	r.err = tf_read_file(path_of("report.err"));
	return r;
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static char *page_of(const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/index.html", dir);
	char *page = tf_read_file(path);
	char why[256] = "";
	if (page_check(page, why, sizeof why) < 0)
		fail_msg("%s is not well-formed: %s", path, why);
	return page;
}

static int exists(const char *dir, const char *file)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	return stat(path, &st) == 0;
}

/* A directory name (not made yet) under the test's fresh directory. */
static const char *out_dir(const char *name)
{
	const char *dir = path_of(name);
	assert_false(exists(dir, "."));
	return dir;
}

/* ---- the RUN argument -------------------------------------------------------- */

static void spec_good_forms(void **state)
{
	(void)state;
	struct report_spec s;
	char err[512];
	assert_int_equal(parse_run("A=trace.csv", &s, err, sizeof err), 0);
	assert_string_equal(s.name, "A");
	assert_string_equal(s.log, "trace.csv");
	assert_null(s.requestors);
	assert_null(s.mtime);
	report_spec_free(&s);
	assert_int_equal(parse_run("fs-B_2.x=/a/b=c.log,requestors=5.1+5.2+12.300,"
					   "servers=1.2,system=1.1+1.3,names=n.txt,mtime=m.csv",
					   &s, err, sizeof err), 0);
	assert_string_equal(s.name, "fs-B_2.x");
	assert_string_equal(s.log, "/a/b=c.log");
	assert_string_equal(s.requestors, "5.1,5.2,12.300");
	assert_string_equal(s.servers, "1.2");
	assert_string_equal(s.system, "1.1,1.3");
	assert_string_equal(s.names, "n.txt");
	assert_string_equal(s.mtime, "m.csv");
	report_spec_free(&s);
	assert_null(s.log);
}

static void expect_spec_error(const char *arg, const char *message)
{
	struct report_spec s;
	char err[512] = "";
	assert_int_equal(parse_run(arg, &s, err, sizeof err), -1);
	if (!strstr(err, message))
		fail_msg("'%s': got '%s', want '%s'", arg, err, message);
	assert_null(s.log);
}

static void spec_bad_forms(void **state)
{
	(void)state;
	expect_spec_error("trace.csv", "want NAME=LOG");
	expect_spec_error("=trace.csv", "want NAME=LOG");
	expect_spec_error(".A=trace.csv", "'.' (not first)");
	expect_spec_error("A B=trace.csv", "want NAME=LOG");
	expect_spec_error("A/B=trace.csv", "want NAME=LOG");
	expect_spec_error("a23456789012345678901234567890123456789012345678=t.csv",
			  "at most 47 characters");
	expect_spec_error("A=", "run 'A': no log given");
	expect_spec_error("A=,servers=1.1", "run 'A': no log given");
	expect_spec_error("A=t.csv,colour=red", "run 'A': unknown key 'colour'");
	expect_spec_error("A=t.csv,requestors=5.1,5.2", "'5.2' is not key=value");
	expect_spec_error("A=t.csv,", "'' is not key=value");
	expect_spec_error("A=t.csv,,servers=1.1", "'' is not key=value");
	expect_spec_error("A=t.csv,servers=", "run 'A': 'servers' has no value");
	expect_spec_error("A=t.csv,mtime=", "'mtime' has no value");
	expect_spec_error("A=t.csv,servers=1.1,servers=1.2", "'servers' is given twice");
	expect_spec_error("A=t.csv,requestors=5.x", "requestors: '5.x' is not a process");
	expect_spec_error("A=t.csv,requestors=5", "'5' is not a process");
	expect_spec_error("A=t.csv,system=1.1+", "system: '' is not a process");
	expect_spec_error("A=t.csv,servers=1.1++1.2", "'' is not a process");
	expect_spec_error("A=t.csv,servers=99999.1", "'99999.1' is not a process");
}

/* ---- the reference file ------------------------------------------------------ */

static void reference_of_the_repository(void **state)
{
	(void)state;
	struct thesis_ref ref;
	char err[512], path[4096];
	thesis_ref_default(path, sizeof path);
	if (thesis_ref_load(&ref, path, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_non_null(strstr(ref.source, "Miller"));
	static const struct { const char *mode; double p; } fs_p[] = {
		{ "upper-bound", 1.65 }, { "measured", 1.43 }, { "measured+contention", 1.21 },
		{ "each-own-machine", 1.07 }, { "one-machine+contention", 0.95 },
	};
	for (size_t i = 0; i < 5; i++) {
		const struct thesis_value *v = thesis_ref_find(&ref, "fs_p", fs_p[i].mode);
		assert_non_null(v);
		assert_float_equal(v->value, fs_p[i].p, 1e-12);
		assert_false(v->uncertain);
		assert_non_null(strstr(v->where, "5.3.1"));
	}
	assert_int_equal(thesis_ref_count(&ref, "fs_transitions"), 11);
	assert_int_equal(thesis_ref_count(&ref, "fs_cross_pct"), 6);
	assert_float_equal(thesis_ref_find(&ref, "fs_cross_pct", "A/B")->value, -3, 1e-12);
	assert_true(thesis_ref_find(&ref, "tsp_cpu_ms", "N=20")->uncertain);
	assert_false(thesis_ref_find(&ref, "tsp_cpu_ms", "N=16")->uncertain);
	assert_true(thesis_ref_find(&ref, "tsp_p", "p=16/N=20/max")->uncertain);
	assert_null(thesis_ref_find(&ref, "tsp_p", "p=12/N=12/two-per-machine"));
	/* Every value says where it comes from. */
	for (size_t i = 0; i < ref.n; i++)
		assert_true(strstr(ref.v[i].where, "Fig") || strstr(ref.v[i].where, "§"));
	thesis_ref_free(&ref);
}

static void expect_ref_error(const char *text, const char *message)
{
	struct thesis_ref ref;
	char err[512] = "", want[600];
	const char *path = path_of("ref.csv");
	tf_write_file(path, text);
	assert_int_equal(thesis_ref_load(&ref, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:%s", path, message);
	if (strcmp(err, want))
		fail_msg("got '%s', want '%s'", err, want);
}

static void reference_errors(void **state)
{
	(void)state;
	const char *head = "# source: here\nfigure,key,value,uncertain,where\n";
	char buf[512];
	struct thesis_ref ref;
	char err[512];
	const char *path = path_of("ref.csv");
	snprintf(buf, sizeof buf, "%sfs_p,measured,1.43,0,Fig. 1\n", head);
	tf_write_file(path, buf);
	assert_int_equal(thesis_ref_load(&ref, path, err, sizeof err), 0);
	assert_string_equal(ref.source, "here");
	assert_int_equal(ref.n, 1);
	thesis_ref_free(&ref);

	expect_ref_error("figure,key,value,uncertain,where\nfs_p,m,1,0,x\n",
			 "1: no '# source:' line before the header");
	expect_ref_error("# a comment\n# another\nfigure,key,value,uncertain,where\n",
			 "3: no '# source:' line before the header");
	expect_ref_error("# source: s\nfigure,key,value,where\nfs_p,m,1,x\n", "2: no 'uncertain' "
			 "column in the header (want figure,key,value,uncertain,where)");
	snprintf(buf, sizeof buf, "%sfs_p,m,1.5x,0,x\n", head);
	expect_ref_error(buf, "3: value '1.5x' is not a number");
	snprintf(buf, sizeof buf, "%sfs_p,m,,0,x\n", head);
	expect_ref_error(buf, "3: value '' is not a number");
	snprintf(buf, sizeof buf, "%sfs_p,m,1,yes,x\n", head);
	expect_ref_error(buf, "3: uncertain 'yes' is not 0 or 1");
	snprintf(buf, sizeof buf, "%sfs_p,,1,0,x\n", head);
	expect_ref_error(buf, "3: key is empty or too long");
	snprintf(buf, sizeof buf, "%sfs_p,m,1,0,\n", head);
	expect_ref_error(buf, "3: where is empty or too long");
	snprintf(buf, sizeof buf, "%sfs_p,m,1,0\n", head);
	expect_ref_error(buf, "3: 4 fields, the header has 5");
	snprintf(buf, sizeof buf, "%sfs_p,m,1,0,x\n\n# c\nfs_p,m,2,0,y\n", head);
	expect_ref_error(buf, "6: fs_p m is given twice");
	expect_ref_error(head, "3: no values");
	assert_int_equal(thesis_ref_load(&ref, "/nonexistent/ref.csv", err, sizeof err), -1);
	assert_string_equal(err, "/nonexistent/ref.csv: No such file or directory");
}

/* ---- the page against the library -------------------------------------------- */

/* What the library computes for a trace, as the commands do. */
struct expected {
	struct trace t;
	struct stats s;
	struct cgraph g;
	struct config_run cfg[CONFIGS_THESIS];
	struct mtime_table mt;
};

static void expect_compute(struct expected *e, const char *path)
{
	char err[512];
	trace_init(&e->t, path);
	assert_int_equal(trace_load(&e->t, path, err, sizeof err), 0);
	assert_int_equal(stats_compute(&e->s, &e->t), 0);
	assert_int_equal(cgraph_build(&e->g, &e->t, err, sizeof err), 0);
	mtime_default(&e->mt);
	assert_int_equal(configs_plan_thesis(e->cfg, &e->t, err, sizeof err), 0);
	assert_int_equal(configs_eval(e->cfg, CONFIGS_THESIS, &e->g, &e->mt, err, sizeof err), 0);
}

static void expect_free(struct expected *e)
{
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		config_free(&e->cfg[i]);
	cgraph_free(&e->g);
	stats_free(&e->s);
	trace_free(&e->t);
}

static double cell_value(const char *page, const char *id, const char *key_head,
			 const char *key, const char *head)
{
	struct page_cell c;
	if (page_cell(page, id, key_head, key, head, &c) < 0)
		fail_msg("no cell %s / %s / %s", id, key, head);
	return c.value;
}

static void check_processes(const char *page, const struct expected *e)
{
	for (uint32_t p = 0; p < e->t.nproc; p++) {
		char name[32];
		const struct proc_stats *ps = &e->s.p[p];
		process_name(&e->t, p, name, sizeof name);
		assert_float_equal(cell_value(page, "G-processes", "process", name, "%CPU"),
				   100.0 * (double)ps->cpu / (double)e->s.total_cpu, 1e-6);
		assert_int_equal(cell_value(page, "G-processes", "process", name, "sent"), ps->m.sent);
		assert_int_equal(cell_value(page, "G-processes", "process", name, "bytes received"),
				 ps->m.recv_bytes);
		if (ps->w.n)
			assert_float_equal(cell_value(page, "G-queues", "process", name, "max wait"),
					   (double)ps->w.max, 0.5);
	}
	assert_int_equal(page_rows(page, "G-processes"), e->t.nproc);
	assert_int_equal(page_rows(page, "G-destinations"), e->s.npairs);
}

static void check_parallelism(const char *page, const struct expected *e)
{
	for (size_t k = 0; k < CONFIGS_THESIS; k++) {
		const struct config_run *c = &e->cfg[k];
		assert_float_equal(cell_value(page, "G-p", "mode", c->mode, "P"), c->r.P, 1e-8);
		assert_float_equal(cell_value(page, "G-p", "mode", c->mode, "T"), c->r.T, 0.5);
		assert_float_equal(cell_value(page, "G-p", "mode", c->mode, "t_max"), c->r.t_max, 0.5);
		assert_float_equal(cell_value(page, "G-p", "mode", c->mode, "utilisation"), c->r.util,
				   1e-8);
		assert_int_equal(cell_value(page, "G-p", "mode", c->mode, "machines M"), c->r.M);
		assert_int_equal(cell_value(page, "G-p", "mode", c->mode, "path stretches"), c->npath);
	}
	assert_float_equal(cell_value(page, "summary", "run", "G", "P measured"),
			   e->cfg[CFG_MEASURED].r.P, 1e-8);
	assert_int_equal(cell_value(page, "summary", "run", "G", "events"), e->t.nev);
}

/* What `dpm report` says of a run whose log has no delivery-time table
 * given or beside it (analysis/model/mtime_log.h). */
static const char *placeholder_line(const char *trace)
{
	static char line[2048];
	snprintf(line, sizeof line, "dpm report: no delivery-time table for %s (no mtime=, no "
		 "%s.mtime beside it): using the placeholder of docs/mtime.md (thesis Fig. 5.11, "
		 "each ms read as a us), which is not this system's\n", trace, trace);
	return line;
}

static void page_numbers_equal_the_library(void **state)
{
	(void)state;
	const char *trace = generated_trace("gen.csv", 400, 1, "3.1");
	const char *dir = out_dir("page");
	char run[600];
	snprintf(run, sizeof run, "G=%s,requestors=1.1+1.2+1.3", trace);
	const char *args[] = { "-o", dir, "--copy-raw", run, NULL };
	struct result r = report(args);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, placeholder_line(trace)); /* the library's default, said */
	char *page = page_of(dir);
	struct expected e;
	expect_compute(&e, trace);
	check_processes(page, &e);
	check_parallelism(page, &e);
	/* Requests enter at 2.1; some go on to 3.1 and back. */
	assert_true(cell_value(page, "G-strings", "sequence", "2.1", "count") > 0);
	assert_true(cell_value(page, "G-strings", "sequence", "2.1-3.1-2.1", "count") > 0);
	assert_float_equal(cell_value(page, "G-strings", "sequence", "2.1", "count") +
			   cell_value(page, "G-strings", "sequence", "2.1-3.1-2.1", "count"), 400, 0);
	/* Fig. 5.18 at the second server 3.1: only what happened there - from
	 * 2.1, back to 2.1; its own column and the requestors' row (all zeros)
	 * are left out */
	assert_non_null(strstr(page, "<caption>At 3.1: received from X"));
	struct page_cell fc;
	assert_int_equal(page_rows(page, "G-fromto-1"), 1);
	assert_int_equal(page_cell(page, "G-fromto-1", "received from \\ then sent to", "2.1", "2.1",
				   &fc), 0);
	assert_true(fc.value > 0);
	assert_int_equal(page_cell(page, "G-fromto-1", "received from \\ then sent to", "2.1", "3.1",
				   &fc), -1);
	/* Every figure and the raw copy are there, and no thesis panel was asked for. */
	static const char *const files[] = { "G-p.svg", "G-cpu.svg", "G-sizes.svg", "G-profile.svg",
					     "G-timeline.svg", "G-causality.svg", "G-p.dat",
					     "G-timeline.gp", "G-causality.dot", "raw/G.csv" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (!exists(dir, files[i]))
			fail_msg("%s was not written", files[i]);
	assert_int_equal(page_count(page, "<img src="), 6);
	assert_int_equal(page_count(page, "class=\"ref\""), 0);
	assert_non_null(strstr(page, "<a href=\"raw/G.csv\">"));
	assert_int_equal(page_count(page, "id=\"study"), 0);
	assert_false(exists(dir, "study-fs-users.csv") || exists(dir, "study-tsp-p.csv"));
	/* three machines on their own clocks: no critical path, and why */
	assert_non_null(strstr(page, "No critical path: the run was recorded on several clocks"));
	expect_free(&e);
	free(page);
	result_free(&r);
	/* A report made again from its own raw copy keeps that copy whole. */
	char again[700], kept[600];
	snprintf(kept, sizeof kept, "%s/raw/G.csv", dir);
	snprintf(again, sizeof again, "G=%s", kept);
	r = report((const char *[]){ "-o", dir, "--copy-raw", again, NULL });
	assert_int_equal(r.rc, 0);
	char *original = tf_read_file(trace), *copy = tf_read_file(kept);
	assert_string_equal(original, copy);
	free(original);
	free(copy);
	result_free(&r);
}

/* The mean of the parallelism profile is P, and a small trace's timeline
 * shows all of it. */
static void profile_and_timeline(void **state)
{
	(void)state;
	const char *trace = generated_trace("prof.csv", 50, 7, "3.1");
	struct report_spec spec;
	struct report_run run;
	char err[512], spec_text[600];
	snprintf(spec_text, sizeof spec_text, "R=%s", trace);
	assert_int_equal(parse_run(spec_text, &spec, err, sizeof err), 0);
	assert_int_equal(report_run_analyse(&run, &spec, err, sizeof err), 0);
	double bins[100], sum = 0;
	report_profile(&run, run.when_measured, run.cfg[CFG_MEASURED].r.t_max, bins, 100);
	for (size_t i = 0; i < 100; i++)
		sum += bins[i];
	assert_float_equal(sum / 100, run.cfg[CFG_MEASURED].r.P, 1e-9);
	report_profile(&run, run.when_upper, run.cfg[CFG_UPPER].r.t_max, bins, 100);
	sum = 0;
	for (size_t i = 0; i < 100; i++)
		sum += bins[i];
	assert_float_equal(sum / 100, run.cfg[CFG_UPPER].r.P, 1e-9);
	struct timeline tl;
	FILE *f = fopen(path_of("timeline.dat"), "w");
	assert_int_equal(report_timeline(&run, f, &tl), 0);
	fclose(f);
	assert_int_equal(tl.nmsgs, run.g.nmessages);
	assert_float_equal(tl.until, run.cfg[CFG_MEASURED].r.t_max, 0);
	assert_int_equal(tl.nlanes, 5);
	report_run_free(&run);
	report_spec_free(&spec);
}

/* ---- predictions across runs ------------------------------------------------- */

/* The same computation placed two ways: X on nodes 1 and 2, Y all on
 * node 1 (the second process is 1.2 there).  Names make them one. */
static void two_placements(const char **x, const char **y)
{
	const char *h = "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n";
	char bx[2048], by[2048];
	snprintf(bx, sizeof bx, "%sSEND,10,100,1.1,1.1,2.1,0x1,10\nRECEIVE,20,0,2.1,1.1,2.1,0x1,10\n"
		 "SEND,30,500,2.1,2.1,1.1,0x2,1000\nRECEIVE,40,300,1.1,2.1,1.1,0x2,1000\n"
		 "SEND,50,400,1.1,1.1,2.1,0x3,100\nRECEIVE,60,900,2.1,1.1,2.1,0x3,100\n", h);
	snprintf(by, sizeof by, "%sSEND,10,100,1.1,1.1,1.2,0x1,10\nRECEIVE,20,0,1.2,1.1,1.2,0x1,10\n"
		 "SEND,30,500,1.2,1.2,1.1,0x2,1000\nRECEIVE,40,300,1.1,1.2,1.1,0x2,1000\n"
		 "SEND,50,400,1.1,1.1,1.2,0x3,100\nRECEIVE,60,900,1.2,1.1,1.2,0x3,100\n", h);
	*x = path_of("x.csv");
	tf_write_file(*x, bx);
	*y = path_of("y.csv");
	tf_write_file(*y, by);
	tf_write_file(path_of("x.names"), "1.1 client requestor\n2.1 server server\n");
	tf_write_file(path_of("y.names"), "1.1 client requestor\n1.2 server server\n");
}

/* Runs X and Y of two_placements, with their names files or without. */
static void analyse_two(struct report_spec spec[2], struct report_run run[2], int names)
{
	const char *x, *y;
	char a[600], b[600], err[512];
	two_placements(&x, &y);
	snprintf(a, sizeof a, "X=%s%s%s", x, names ? ",names=" : "", names ? path_of("x.names") : "");
	snprintf(b, sizeof b, "Y=%s%s%s", y, names ? ",names=" : "", names ? path_of("y.names") : "");
	assert_int_equal(parse_run(a, &spec[0], err, sizeof err), 0);
	assert_int_equal(parse_run(b, &spec[1], err, sizeof err), 0);
	for (int i = 0; i < 2; i++)
		if (report_run_analyse(&run[i], &spec[i], err, sizeof err))
			fail_msg("%s", err);
}

static void free_two(struct report_spec spec[2], struct report_run run[2])
{
	for (int i = 0; i < 2; i++) {
		report_run_free(&run[i]);
		report_spec_free(&spec[i]);
	}
}

static void cross_prediction_known_answer(void **state)
{
	(void)state;
	char err[512];
	struct report_spec spec[2];
	struct report_run run[2];
	analyse_two(spec, run, 1);
	struct report_cross c;
	assert_int_equal(report_cross_compute(&c, run, NULL, 2, err, sizeof err), 0);
	assert_true(c.any);
	assert_int_equal(c.shared[0 * 2 + 1], 2);
	double px = run[0].cfg[CFG_MEASURED].r.P, py = run[1].cfg[CFG_MEASURED].r.P;
	/* Local delivery is quicker: the two placements really differ ... */
	assert_true(py > px * 1.01);
	/* ... and each trace predicts the other placement exactly. */
	for (int mode = 0; mode < 2; mode++) {
		int cfg = mode ? CFG_CONTENTION : CFG_MEASURED;
		assert_float_equal(c.p[mode][0 * 2 + 1], run[0].cfg[cfg].r.P, 1e-12);
		assert_float_equal(c.p[mode][1 * 2 + 0], run[1].cfg[cfg].r.P, 1e-12);
		assert_float_equal(report_cross_diff(&c, mode, 0, 1), 0, 1e-9);
	}
	assert_float_equal(c.p[0][0], px, 0);
	assert_float_equal(c.p[0][3], py, 0);
	report_cross_free(&c);
	free_two(spec, run);
}

/* Without names, X's 2.1 and Y's 1.2 are different processes: only the
 * client is shared, so moving it changes nothing and the prediction is
 * the source trace's own P; with nothing in common there is none. */
static void cross_prediction_by_node_pid(void **state)
{
	(void)state;
	char b[600], err[512];
	struct report_spec spec[2];
	struct report_run run[2];
	analyse_two(spec, run, 0);
	struct report_cross c;
	assert_int_equal(report_cross_compute(&c, run, NULL, 2, err, sizeof err), 0);
	assert_int_equal(c.shared[1], 1);
	assert_float_equal(c.p[0][1], run[1].cfg[CFG_MEASURED].r.P, 1e-12);
	assert_float_equal(c.p[0][2], run[0].cfg[CFG_MEASURED].r.P, 1e-12);
	report_cross_free(&c);
	/* Rename the client in Y: nothing is shared. */
	tf_write_file(path_of("z.names"), "1.1 other requestor\n1.2 server2 server\n");
	report_run_free(&run[1]);
	snprintf(b, sizeof b, "Y=%s,names=%s", spec[1].log, path_of("z.names"));
	report_spec_free(&spec[1]);
	assert_int_equal(parse_run(b, &spec[1], err, sizeof err), 0);
	assert_int_equal(report_run_analyse(&run[1], &spec[1], err, sizeof err), 0);
	assert_int_equal(report_cross_compute(&c, run, NULL, 2, err, sizeof err), 0);
	assert_false(c.any);
	assert_true(isnan(c.p[0][1]) && isnan(c.p[1][2]));
	report_cross_free(&c);
	free_two(spec, run);
}

/* X's configuration predicted from Y's trace on the page: the same P
 * (the two placements differ only in the server's machine, which X's
 * assignment moves back). */
static struct page_cell x_from_y(const char *page)
{
	struct page_cell c;
	assert_int_equal(page_cell(page, "cross-measured", "configuration of run", "X",
				   "from the trace of Y", &c), 0);
	assert_true(c.has_diff);
	assert_float_equal(c.diff, 0, 1e-6);
	return c;
}

/* A recorded log's processes are named by the names file beside it
 * (LOG.names, "fsuser#1"); the predictions still place them by node.pid
 * (before, the assignment was written with the names and refused). */
static void cross_prediction_with_names_beside(void **state)
{
	(void)state;
	const char *x, *y;
	char a[600], b[600], beside[700];
	two_placements(&x, &y);
	snprintf(beside, sizeof beside, "%s.names", x);
	tf_write_file(beside, "1.1 fsuser#1 requestor\n2.1 srv server\n");
	snprintf(beside, sizeof beside, "%s.names", y);
	tf_write_file(beside, "1.1 fsuser#1 requestor\n1.2 srv server\n");
	snprintf(a, sizeof a, "X=%s", x);
	snprintf(b, sizeof b, "Y=%s", y);
	const char *dir = out_dir("crossnamed");
	struct result r = report((const char *[]){ "-o", dir, a, b, NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	x_from_y(page);
	free(page);
	result_free(&r);
	unlink(beside);
	snprintf(beside, sizeof beside, "%s.names", x);
	unlink(beside);
}

/* The matrix on the page, with the thesis's beside it. */
static void cross_prediction_on_the_page(void **state)
{
	(void)state;
	const char *x, *y;
	char a[600], b[600], ref[4096];
	two_placements(&x, &y);
	/* X and Y name the thesis's file-system servers; Z is another program */
	tf_write_file(path_of("xfs.names"), "1.1 RI requestor\n2.1 BM server\n");
	tf_write_file(path_of("yfs.names"), "1.1 RI requestor\n1.2 BM server\n");
	snprintf(a, sizeof a, "X=%s,names=%s", x, path_of("xfs.names"));
	snprintf(b, sizeof b, "Y=%s,names=%s", y, path_of("yfs.names"));
	char z[600];
	snprintf(z, sizeof z, "Z=%s,names=%s", x, path_of("x.names"));
	thesis_ref_default(ref, sizeof ref);
	const char *dir = out_dir("cross");
	const char *args[] = { "-o", dir, "--thesis", ref, "--title", "A & <B>", a, b, z, NULL };
	struct result r = report(args);
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	struct page_cell c = x_from_y(page);
	assert_float_equal(c.value, cell_value(page, "X-p", "mode", "measured", "P"), 1e-9);
	assert_float_equal(cell_value(page, "cross-measured", "configuration of run", "Y", "its own P"),
			   cell_value(page, "Y-p", "mode", "measured", "P"), 1e-9);
	assert_int_equal(page_rows(page, "thesis-cross"), 3);
	/* Z, another program, is left out of the matrix and said to be */
	assert_int_equal(page_rows(page, "cross-contention"), 2);
	assert_non_null(strstr(page, "Not in the matrix: Z (no process of the same name"));
	assert_non_null(strstr(page, "<title>A &amp; &lt;B&gt;</title>"));
	/* The thesis's numbers only in panels labelled as its reference. */
	assert_non_null(strstr(page, "<table id=\"thesis-cross\" class=\"ref\">"));
	assert_non_null(strstr(page, "thesis P (reference, file system)"));
	assert_non_null(strstr(page, "differed from the measured P by at most 4%"));
	assert_float_equal(cell_value(page, "X-p", "mode", "measured", "thesis P (reference, file "
				      "system)"), 1.43, 1e-12);
	/* but not beside another program: no thesis column, no sentence */
	assert_int_equal(page_cell(page, "Z-p", "mode", "measured", "thesis P (reference, file "
				   "system)", &c), -1);
	assert_int_equal(page_cell(page, "Z-p", "mode", "measured", "P", &c), 0);
	const char *zsec = strstr(page, "id=\"Z\""), *raw = strstr(page, "id=\"raw-data\"");
	assert_non_null(zsec);
	for (const char *at = strstr(zsec, "class=\"ref\""); at && at < raw;
	     at = strstr(at + 1, "class=\"ref\""))
		if (at < strstr(zsec, "id=\"cross\""))
			fail_msg("a thesis panel in run Z's section");
	free(page);
	result_free(&r);
}

/* ---- a filter log as input ---------------------------------------------------- */

static void log_input_is_kept_with_its_csv(void **state)
{
	(void)state;
	uint8_t stream[4096];
	size_t len = tf_message_batch(stream, 0);
	const char *log = path_of("in.log");
	tf_make_log(log, NULL, stream, len);
	const char *dir = out_dir("logrun");
	char run[600], err[512];
	snprintf(run, sizeof run, "L=%s", log);
	const char *args[] = { "-o", dir, "--copy-raw", run, NULL };
	struct result r = report(args);
	assert_int_equal(r.rc, 0);
	char kept[600], csv[600], want_path[600];
	snprintf(kept, sizeof kept, "%s/raw/L.log", dir);
	snprintf(csv, sizeof csv, "%s/raw/L.csv", dir);
	char *orig = tf_read_file(log), *copy = tf_read_file(kept), *got = tf_read_file(csv);
	assert_memory_equal(orig, copy, strlen(orig) + 1);
	snprintf(want_path, sizeof want_path, "%s/want.csv", tf_dir());
	FILE *f = fopen(want_path, "w");
	size_t truncated;
	assert_int_equal(dump_records(log, 1, f, err, sizeof err, &truncated), 0);
	fclose(f);
	char *want = tf_read_file(want_path);
	assert_string_equal(got, want);
	char *page = page_of(dir);
	assert_non_null(strstr(page, "a filter log"));
	assert_int_equal(cell_value(page, "summary", "run", "L", "events"), 4);
	free(page);
	free(want);
	free(orig);
	free(copy);
	free(got);
	result_free(&r);
}

/* By default the input is linked where it lies, relative to DIR, and
 * nothing is copied (a real run's logs are tens of megabytes). */
static void input_is_linked_not_copied(void **state)
{
	(void)state;
	const char *trace = generated_trace("linked.csv", 20, 1, "3.1");
	const char *dir = out_dir("linked");
	char run[600], href[700], target[1400];
	snprintf(run, sizeof run, "G=%s", trace);
	struct result r = report((const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	assert_false(exists(dir, "raw"));
	char *page = page_of(dir);
	/* the link's target, taken relative to DIR, is the input itself */
	const char *at = strstr(page, "<table id=\"raw\"");
	assert_non_null(at);
	at = strstr(at, "<a href=\"");
	assert_non_null(at);
	at += strlen("<a href=\"");
	size_t n = strcspn(at, "\"");
	assert_true(n < sizeof href);
	memcpy(href, at, n);
	href[n] = '\0';
	assert_true(href[0] != '/');
	snprintf(target, sizeof target, "%s/%s", dir, href);
	char *original = tf_read_file(trace), *linked = tf_read_file(target);
	assert_non_null(linked);
	assert_string_equal(original, linked);
	free(original);
	free(linked);
	free(page);
	result_free(&r);
}

/* ---- drawing tools missing -------------------------------------------------------- */

/* Run the report with PATH set to one (made) directory, bin. */
static struct result report_with_path(const char *bin, const char *const *args)
{
	char *old = strdup(getenv("PATH") ? getenv("PATH") : "");
	mkdir(bin, 0755);
	setenv("PATH", bin, 1);
	struct result r = report(args);
	setenv("PATH", old, 1);
	free(old);
	return r;
}

static void missing_tools_still_make_the_page(void **state)
{
	(void)state;
	const char *trace = generated_trace("tools.csv", 30, 3, "3.1");
	const char *dir = out_dir("notools");
	char run[600];
	snprintf(run, sizeof run, "T=%s,requestors=1.1+1.2+1.3", trace);
	struct result r = report_with_path(path_of("empty-bin"), (const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.err, "dpm report: figures left out: gnuplot was not found on PATH"));
	char *page = page_of(dir);
	assert_int_equal(page_count(page, "<img "), 0);
	assert_int_equal(page_count(page, "Figure not drawn: gnuplot was not found on PATH"), 5);
	assert_int_equal(page_count(page, "Figure not drawn: dot was not found on PATH"), 1);
	assert_true(exists(dir, "T-p.gp") && exists(dir, "T-p.dat") && exists(dir, "T-causality.dot"));
	assert_false(exists(dir, "T-p.svg"));
	assert_true(cell_value(page, "T-p", "mode", "measured", "P") > 0);
	free(page);
	result_free(&r);
}

/* A gnuplot that fails: the page is written without its figures, exit 1. */
static void failing_tool_exits_1(void **state)
{
	(void)state;
	const char *trace = generated_trace("fails.csv", 10, 3, "3.1");
	const char *dir = out_dir("failing");
	const char *bin = path_of("failing-bin");
	char stub[600], run[600];
	mkdir(bin, 0755);
	snprintf(stub, sizeof stub, "%s/gnuplot", bin);
	tf_write_file(stub, "#!/bin/sh\necho 'gnuplot stub: refusing' >&2\nexit 3\n");
	assert_int_equal(chmod(stub, 0755), 0);
	snprintf(run, sizeof run, "F=%s", trace);
	struct result r = report_with_path(bin, (const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "a figure could not be drawn: gnuplot exited with status 3"));
	char *page = page_of(dir);
	assert_int_equal(page_count(page, "Figure not drawn: gnuplot exited with status 3"), 5);
	char *log = tf_read_file(path_of("failing/tools.log"));
	assert_non_null(strstr(log, "gnuplot stub: refusing"));
	free(log);
	free(page);
	result_free(&r);
}

/* A log's own table (LOG.mtime, as dpm record writes it) is used without
 * a word on stderr, and the page says which table it was. */
static void the_table_beside_the_log_is_used(void **state)
{
	(void)state;
	const char *idle = path_of("beside.csv");
	char table[4200];
	snprintf(table, sizeof table, "%s.mtime", idle);
	tf_write_file(idle, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
			    "SEND,1,0,1.1,1.1,2.1,0x1,10\nRECEIVE,2,0,2.1,1.1,2.1,0x1,10\n");
	tf_write_file(table, "# clock=virtual\nsize_bytes,local_ns,remote_ns\n1,5,50\n");
	const char *dir = out_dir("beside");
	char a[600];
	snprintf(a, sizeof a, "B=%s", idle);
	struct result r = report((const char *[]){ "-o", dir, a, NULL });
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	char *page = page_of(dir);
	char want[4300];
	snprintf(want, sizeof want, "%s (recorded with the log, clock=virtual)", table);
	assert_non_null(strstr(page, want));
	/* one clock: the summary gives the run's completion beside its prediction
	 * (1 to 2 ns; the message crosses machines in 50 ns) */
	assert_non_null(strstr(page, "Recorded in virtual time, it took 1 ns from its first to its "
				     "last event; t_max with CPU contention predicts 50 ns (+4900.0%)."));
	/* and where the time went: the message's 1 ns between the nodes */
	assert_non_null(strstr(page, "Where the time went (its critical path): 100.0% messages in flight."));
	assert_non_null(strstr(page, "its critical path (dpm critical"));
	assert_non_null(strstr(page, "<table id=\"B-critical-states\""));
	free(page);
	result_free(&r);
	unlink(table);
}

/* Whether column head of table id never grows from row to row; how many rows. */
static int never_grows(const char *page, const char *id, const char *head)
{
	static struct page_cell col[512];
	int n = page_column(page, id, head, col, 512);
	assert_true(n > 0);
	for (int i = 1; i < n; i++)
		if (col[i].value > col[i - 1].value)
			fail_msg("%s: %s grows at row %d (%g after %g)", id, head, i + 1, col[i].value,
				 col[i - 1].value);
	return n;
}

/* The page opens with the answer: a row per run naming the biggest state
 * of its critical path (the first row of its states table, which is
 * ranked), before any run's details; the details are ranked, and rows of
 * nothing are left out and counted.  On the recorded TSP run of
 * tests/export (2 nodes), with a table that puts it on one clock. */
static void answer_first_and_tables_ranked(void **state)
{
	(void)state;
	/* the fixture, found from this file's own path (tests/unit/..) */
	char log[600], table[600], run[1300];
	snprintf(log, sizeof log, "%.*sexport/tsp-2nodes.log",
		 (int)(strlen(__FILE__) - strlen("unit/test_report.c")), __FILE__);
	snprintf(table, sizeof table, "%s", path_of("tsp2.mtime"));
	tf_write_file(table, "# clock=virtual\nsize_bytes,local_ns,remote_ns\n1,5000,50000\n");
	const char *dir = out_dir("answer");
	snprintf(run, sizeof run, "T=%s,mtime=%s", log, table);
	struct result r = report((const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	char why[256];
	if (page_check(page, why, sizeof why) < 0)
		fail_msg("the page is not well-formed: %s", why);
	/* the answer comes first, one row, the biggest state named */
	const char *answer = strstr(page, "<table id=\"answer\"");
	assert_non_null(answer);
	assert_true(answer < strstr(page, "id=\"T-stats\""));
	assert_int_equal(page_rows(page, "answer"), 1);
	struct page_cell first[8], where, limit;
	assert_int_equal(never_grows(page, "T-critical-states", "on the path") > 0, 1);
	assert_true(page_column(page, "T-critical-states", "what it is", first, 8) > 0);
	assert_int_equal(page_cell(page, "answer", "run", "T", "where its time went", &where), 0);
	assert_non_null(strstr(where.text, first[0].text));
	assert_int_equal(page_cell(page, "answer", "run", "T", "what limits P", &limit), 0);
	assert_true(strlen(limit.text) > 10);
	/* ranked details */
	int shown = never_grows(page, "T-processes", "%CPU");
	never_grows(page, "T-destinations", "sent");
	never_grows(page, "T-tproc", "t_proc");
	never_grows(page, "T-critical-processes", "total");
	/* a state with no time on the path has no column in the by-process
	 * table (this run never queues on its path), one with time has */
	struct page_cell who[1], cell;
	assert_int_equal(page_column(page, "T-critical-processes", "process", who, 1), 1);
	assert_int_equal(page_cell(page, "T-critical-states", "state", "queued", "on the path",
				   &cell), -1);
	assert_int_equal(page_cell(page, "T-critical-processes", "process", who[0].text, "queued",
				   &cell), -1);
	assert_int_equal(page_cell(page, "T-critical-processes", "process", who[0].text, "running",
				   &cell), 0);
	/* the processes left out are counted: shown + left out = all */
	const char *para = strstr(page, "id=\"T-stats\"");
	size_t all = 0, left = 0;
	assert_int_equal(sscanf(strstr(para, "events, ") + 8, "%zu processes", &all), 1);
	const char *line = strstr(page, "processes with no events and no messages left out.");
	if (line) {
		while (line > page && line[-1] != '>')
			line--;
		assert_int_equal(sscanf(line, "%zu", &left), 1);
	}
	assert_int_equal((size_t)shown + left, all);
	/* the timelines: the whole run (as long as the critical section says it
	 * took), its messages drawn as the caption counts them, small files */
	char took[64], whole[64];
	const char *at = strstr(page, "The run took ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "The run took %63[^f]from", took), 1);
	at = strstr(page, "The whole run, ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "The whole run, %63[^,],", whole), 1);
	took[strlen(took) - 1] = '\0';
	assert_string_equal(took, whole);
	size_t drawn = 0, messages = 0, zoomed = 0;
	at = strstr(at, "SEND to RECEIVE, ");
	assert_non_null(at);
	if (sscanf(at, "SEND to RECEIVE, all %zu drawn", &messages) == 1)
		drawn = messages;
	else
		assert_int_equal(sscanf(at, "SEND to RECEIVE, one message in %*u drawn (%zu of %zu)",
					&drawn, &messages), 2);
	assert_true(messages > 100);
	at = strstr(page, "every message sent in the window (");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "every message sent in the window (%zu)", &zoomed), 1);
	assert_true(zoomed > 0);
	char svg[700];
	snprintf(svg, sizeof svg, "%s/T-overview.svg", dir);
	char *picture = tf_read_file(svg);
	assert_non_null(picture);
	assert_true(strlen(picture) < 200000);
	assert_int_equal(page_count(picture, "<line ") - 5, drawn); /* 5 ticks */
	free(picture);
	snprintf(svg, sizeof svg, "%s/T-zoom.svg", dir);
	picture = tf_read_file(svg);
	assert_non_null(picture);
	assert_int_equal(page_count(picture, "<line ") - 5, zoomed);
	free(picture);
	free(page);
	result_free(&r);
	unlink(table);
}

/* A process whose messages all fall in a sliver of the run gets no rate
 * (one message each way in 20 ns of a 1 ms run read "50000000 msgs/s"). */
static void no_rate_over_a_sliver(void **state)
{
	(void)state;
	const char *csv = path_of("sliver.csv");
	tf_write_file(csv, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
			   "SEND,0,10,1.1,1.1,1.2,0x1,10\nRECEIVE,10,10,1.2,1.1,1.2,0x1,10\n"
			   "SEND,20,20,1.2,1.2,1.1,0x2,10\nRECEIVE,30,20,1.1,1.2,1.1,0x2,10\n"
			   "SEND,500000,30,1.1,1.1,1.3,0x3,10\nRECEIVE,500010,10,1.3,1.1,1.3,0x3,10\n"
			   "SEND,500020,20,1.3,1.3,1.1,0x4,10\nRECEIVE,1000000,40,1.1,1.3,1.1,0x4,10\n");
	const char *dir = out_dir("sliver");
	char run[600];
	snprintf(run, sizeof run, "S=%s", csv);
	struct result r = report((const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	struct page_cell c;
	assert_int_equal(page_cell(page, "S-processes", "process", "1.2", "msgs/s", &c), 0);
	assert_string_equal(c.text, "-");
	assert_int_equal(page_cell(page, "S-processes", "process", "1.1", "msgs/s", &c), 0);
	assert_float_equal(c.value, 4 * 1e9 / 1000000, 1e-6);
	free(page);
	result_free(&r);
}

/* Plots with nothing to show say so instead of making gnuplot fail. */
static void nothing_to_plot(void **state)
{
	(void)state;
	const char *quiet = path_of("quiet.csv"), *idle = path_of("idle.csv");
	tf_write_file(quiet, "type,time_ns,cpu_ns,task,src,dst\nCREATEPROCESS,1,0,1.1,1.1,1.2\n"
			     "TERMPROCESS,5,100,1.1,,1.1\n");
	tf_write_file(idle, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
			    "SEND,1,0,1.1,1.1,2.1,0x1,10\nRECEIVE,2,0,2.1,1.1,2.1,0x1,10\n");
	const char *dir = out_dir("nothing");
	char a[600], b[600];
	snprintf(a, sizeof a, "Q=%s", quiet);
	snprintf(b, sizeof b, "I=%s,requestors=1.1", idle);
	struct result r = report((const char *[]){ "-o", dir, a, b, NULL });
	assert_int_equal(r.rc, 0);
	char said[4200];
	snprintf(said, sizeof said, "%s", placeholder_line(quiet));
	snprintf(said + strlen(said), sizeof said - strlen(said), "%s", placeholder_line(idle));
	assert_string_equal(r.err, said);
	char *page = page_of(dir);
	assert_int_equal(page_count(page, "Figure not drawn: the trace has no messages sent."), 1);
	assert_int_equal(page_count(page, "Figure not drawn: the processes used no CPU time"), 1);
	assert_int_equal(cell_value(page, "summary", "run", "Q", "messages"), 0);
	assert_false(exists(dir, "Q-sizes.svg"));
	assert_true(exists(dir, "Q-sizes.gp") && exists(dir, "I-sizes.svg"));
	free(page);
	result_free(&r);
}

/* ---- failures ------------------------------------------------------------------------ */

static void unwritable_output_directory(void **state)
{
	(void)state;
	const char *trace = generated_trace("w.csv", 10, 3, "3.1");
	const char *file = path_of("a-file");
	char run[600], below[600];
	tf_write_file(file, "not a directory\n");
	snprintf(run, sizeof run, "W=%s", trace);
	const char *args[] = { "-o", file, run, NULL };
	struct result r = report(args);
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "dpm report: cannot make the report directory"));
	assert_non_null(strstr(r.err, "it exists and is not a directory"));
	result_free(&r);
	snprintf(below, sizeof below, "%s/sub", file);
	const char *args2[] = { "-o", below, run, NULL };
	r = report(args2);
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "Not a directory"));
	result_free(&r);
}

static void expect_bad(const char *const *args, const char *message)
{
	struct result r = report(args);
	if (r.rc != 2 || !strstr(r.err, message))
		fail_msg("exit %d, stderr '%s'; want 2 and '%s'", r.rc, r.err, message);
	result_free(&r);
}

static void bad_input_exits_2_before_writing(void **state)
{
	(void)state;
	const char *trace = generated_trace("b.csv", 10, 3, "3.1");
	const char *bad = path_of("bad.csv");
	const char *dir = out_dir("never");
	char r1[600], r2[600], r3[600], r4[600], r5[600], r6[600], want[700];
	tf_write_file(bad, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
			   "SEND,1,1,1.1,1.1,2.1,0x1,8\nSENDX,2,2,1.1,1.1,2.1,0x2,8\n");
	tf_write_file(path_of("bad.names"), "2.1 front server\n1.1 u requester\n");
	tf_write_file(path_of("bad.mtime"), "size_bytes,local_ns,remote_ns\n1,x,3\n");
	snprintf(r1, sizeof r1, "B=%s", bad);
	snprintf(want, sizeof want, "dpm report: run 'B': %s:3:1: unknown event type 'SENDX'", bad);
	expect_bad((const char *[]){ "-o", dir, r1, NULL }, want);
	expect_bad((const char *[]){ "-o", dir, "M=/nonexistent/t.csv", NULL },
		   "run 'M': /nonexistent/t.csv: No such file or directory");
	snprintf(r2, sizeof r2, "N=%s,names=%s", trace, path_of("bad.names"));
	expect_bad((const char *[]){ "-o", dir, r2, NULL }, "bad.names:2:7: want 'node.pid NAME ROLE'");
	snprintf(r3, sizeof r3, "Q=%s,requestors=1.1+9.9", trace);
	expect_bad((const char *[]){ "-o", dir, r3, NULL },
		   "run 'Q': requestors: process 9.9 is not in the trace");
	snprintf(r4, sizeof r4, "T=%s,mtime=%s", trace, path_of("bad.mtime"));
	expect_bad((const char *[]){ "-o", dir, r4, NULL }, "bad.mtime:2:3: local_ns 'x'");
	snprintf(r5, sizeof r5, "A=%s", trace);
	snprintf(r6, sizeof r6, "--thesis=%s", path_of("bad.mtime"));
	expect_bad((const char *[]){ "-o", dir, r6, r5, NULL }, "no '# source:' line");
	expect_bad((const char *[]){ "-o", dir, r5, r5, NULL }, "two runs are called 'A'");
	expect_bad((const char *[]){ r5, NULL }, "dpm report: say where to write the report (-o DIR)");
	expect_bad((const char *[]){ "-o", dir, NULL }, "no run given");
	expect_bad((const char *[]){ "-o", NULL }, "-o wants a directory");
	expect_bad((const char *[]){ "-o", dir, "--colour", r5, NULL }, "unknown option '--colour'");
	expect_bad((const char *[]){ "-o", dir, "A=x.csv,frob=1", NULL }, "unknown key 'frob'");
	tf_write_file(path_of("empty.csv"), "type,time_ns,cpu_ns,task\n");
	snprintf(r5, sizeof r5, "E=%s", path_of("empty.csv"));
	expect_bad((const char *[]){ "-o", dir, r5, NULL }, "the trace has no events");
	assert_false(exists(dir, "."));
}

static void help_and_thesis_file_argument(void **state)
{
	(void)state;
	struct result r = report((const char *[]){ "--help", NULL });
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "usage: dpm report -o DIR"));
	assert_non_null(strstr(r.out, "requestors=5.1+5.2"));
	assert_non_null(strstr(r.out, "--study fs|tsp"));
	result_free(&r);
	/* --thesis FILE: the next argument is the file when it cannot be a RUN. */
	const char *trace = generated_trace("h.csv", 10, 3, "3.1");
	char run[600], ref[4096];
	snprintf(run, sizeof run, "H=%s", trace);
	thesis_ref_default(ref, sizeof ref);
	const char *dir = out_dir("thesisfile");
	r = report((const char *[]){ "--thesis", ref, "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	assert_int_equal(page_rows(page, "thesis-reference") > 80, 1);
	assert_non_null(strstr(page, "These values are the thesis's, not ours"));
	free(page);
	result_free(&r);
	/* ... and a RUN right after --thesis is a run, with the default file. */
	dir = out_dir("thesisdefault");
	r = report((const char *[]){ "-o", dir, "--thesis", run, NULL });
	assert_int_equal(r.rc, 0);
	result_free(&r);
}

/* Names with HTML's special characters are escaped everywhere. */
static void names_are_escaped(void **state)
{
	(void)state;
	const char *trace = generated_trace("esc.csv", 20, 5, "3.1");
	tf_write_file(path_of("esc.names"), "2.1 <front>&\"x\" server\n3.1 back server\n"
					    "1.1 u1 requestor\n1.2 u2 requestor\n1.3 u3 requestor\n");
	const char *dir = out_dir("escape");
	char run[600];
	snprintf(run, sizeof run, "S=%s,names=%s", trace, path_of("esc.names"));
	struct result r = report((const char *[]){ "-o", dir, run, NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	assert_non_null(strstr(page, "&lt;front&gt;&amp;&quot;x&quot;"));
	assert_null(strstr(page, "<front>"));
	assert_true(cell_value(page, "S-processes", "process", "<front>&\"x\"", "sent") > 0);
	assert_true(exists(dir, "S-causality.svg"));
	free(page);
	result_free(&r);
}

/* ---- the studies (--study fs|tsp) ------------------------------------------------ */

static void spec_study_keys(void **state)
{
	(void)state;
	struct report_spec s;
	char err[512];
	assert_int_equal(parse_run("A=t.csv", &s, err, sizeof err), 0);
	assert_string_equal(s.text[KEY_CONFIG], "");
	for (size_t k = KEY_USERS; k < STUDY_KEYS; k++)
		assert_int_equal(s.num[k], REPORT_UNSET);
	report_spec_free(&s);
	assert_int_equal(parse_run("A=t.csv,config=B2,users=7,n=16,p=12,version=3,rep=0,"
					   "names=x.names", &s, err, sizeof err), 0);
	assert_string_equal(s.text[KEY_CONFIG], "B2");
	assert_int_equal(s.num[KEY_USERS], 7);
	assert_int_equal(s.num[KEY_N], 16);
	assert_int_equal(s.num[KEY_P], 12);
	assert_int_equal(s.num[KEY_VERSION], 3);
	assert_int_equal(s.num[KEY_REP], 0);
	assert_string_equal(s.names, "x.names");
	report_spec_free(&s);
	expect_spec_error("A=t.csv,users=0", "run 'A': users: '0' is not a whole number from 1 to");
	expect_spec_error("A=t.csv,users=x", "run 'A': users: 'x' is not a whole number");
	expect_spec_error("A=t.csv,n=-4", "run 'A': n: '-4' is not a whole number");
	expect_spec_error("A=t.csv,p=1234567", "run 'A': p: '1234567' is not a whole number");
	expect_spec_error("A=t.csv,version=4", "run 'A': version: '4' is not a whole number from 1 "
			  "to 3");
	expect_spec_error("A=t.csv,rep=1.5", "run 'A': rep: '1.5' is not a whole number");
	expect_spec_error("A=t.csv,config=A-1", "run 'A': config: 'A-1' is not a label");
	expect_spec_error("A=t.csv,config=ABCDEFGHIJKLMNOP", "config: 'ABCDEFGHIJKLMNOP' is not a "
			  "label");
	expect_spec_error("A=t.csv,config=", "run 'A': 'config' has no value");
	expect_spec_error("A=t.csv,users=", "run 'A': 'users' has no value");
	expect_spec_error("A=t.csv,n=4,n=8", "run 'A': 'n' is given twice");
	expect_spec_error("A=t.csv,config=A,config=B", "'config' is given twice");
	expect_spec_error("A=t.csv,servers", "'servers' is not key=value");
}

/* A TSP-like run: controller 1.1 sends one request each to servers 1.2
 * (s1) and 1.3 (s2), 100 ns of its CPU apart; each works `work` ns and
 * answers; the controller works 50 ns between the answers.  With every
 * delivery R ns (the mtime file), by hand:
 *   T = 150 + 2 work; upper bound t_max = work + 100;
 *   one server per machine: t_max = work + 100 + 2R;
 *   two per machine (s1 and s2 share a CPU from 100 + R on): s1 ends at
 *   R + 2 work - 100, s2 at R + 2 work, so t_max = 2 work + 2R. */
#define TSP_R 1000.0

static const char *tsp_trace(const char *file, unsigned work)
{
	char text[1024];
	snprintf(text, sizeof text, "type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
		 "SEND,10,0,1.1,1.1,1.2,0x1,10\nRECEIVE,20,0,1.2,1.1,1.2,0x1,10\n"
		 "SEND,30,100,1.1,1.1,1.3,0x2,10\nRECEIVE,40,0,1.3,1.1,1.3,0x2,10\n"
		 "SEND,%u,%u,1.2,1.2,1.1,0x3,10\nSEND,%u,%u,1.3,1.3,1.1,0x4,10\n"
		 "RECEIVE,%u,100,1.1,1.2,1.1,0x3,10\nRECEIVE,%u,150,1.1,1.3,1.1,0x4,10\n",
		 work + 100, work, work + 200, work, work + 300, work + 400);
	const char *path = path_of(file);
	tf_write_file(path, text);
	tf_write_file(path_of("tsp.names"), "1.1 controller requestor\n1.2 s1 server\n"
					    "1.3 s2 server\n");
	tf_write_file(path_of("tsp.mtime"), "size_bytes,local_ns,remote_ns\n1,100,1000\n");
	return path;
}

static void tsp_expected(unsigned work, double p[TSP_KINDS], double *t_ms, double *ctl)
{
	double w = work, T = 150 + 2 * w;
	p[TSP_MAX] = T / (w + 100);
	p[TSP_ONE] = T / (w + 100 + 2 * TSP_R);
	p[TSP_TWO] = T / (2 * w + 2 * TSP_R);
	*t_ms = T / 1e6;
	*ctl = 100 * 150 / T;
}

/* A RUN argument for tsp_trace(file, work) with keys. */
static const char *tsp_run(const char *name, const char *file, unsigned work, const char *keys)
{
	static char runs[8][700];
	static int next;
	char *r = runs[next++ % 8];
	snprintf(r, sizeof runs[0], "%s=%s,names=%s,mtime=%s,%s", name, tsp_trace(file, work),
		 path_of("tsp.names"), path_of("tsp.mtime"), keys);
	return r;
}

/* Runs analysed and their study computed. */
struct study_fixture {
	size_t n;
	struct report_spec spec[4];
	struct report_run run[4];
	struct report_study s;
};

static void study_of(struct study_fixture *x, int kind, size_t n, const char *const *args)
{
	char err[512];
	x->n = n;
	for (size_t i = 0; i < n; i++) {
		if (parse_run(args[i], &x->spec[i], err, sizeof err) < 0)
			fail_msg("%s", err);
		if (report_run_analyse(&x->run[i], &x->spec[i], err, sizeof err))
			fail_msg("%s", err);
	}
	if (report_study_compute(&x->s, kind, x->run, n, err, sizeof err))
		fail_msg("%s", err);
}

static void study_free(struct study_fixture *x)
{
	report_study_free(&x->s);
	for (size_t i = 0; i < x->n; i++) {
		report_run_free(&x->run[i]);
		report_spec_free(&x->spec[i]);
	}
}

static void tsp_known_answer(void **state)
{
	(void)state;
	const char *args[] = { tsp_run("R1", "t1.csv", 1000, "n=8,p=2,version=1,rep=1"),
			       tsp_run("R2", "t2.csv", 2000, "n=8,p=2,version=1,rep=2"),
			       tsp_run("V2", "t3.csv", 500, "n=8,p=2,version=2") };
	struct study_fixture x;
	study_of(&x, STUDY_TSP, 3, args);
	const struct report_study *s = &x.s;
	assert_int_equal(s->ntsp, 3);
	static const unsigned work[] = { 1000, 2000, 500 };
	double p[3][TSP_KINDS], t_ms[3], ctl[3];
	for (size_t i = 0; i < 3; i++) {
		tsp_expected(work[i], p[i], &t_ms[i], &ctl[i]);
		for (int k = 0; k < TSP_KINDS; k++)
			assert_float_equal(s->tsp[i].P[k], p[i][k], 1e-12);
		assert_float_equal(s->tsp[i].t_ms, t_ms[i], 1e-15);
		assert_float_equal(s->tsp[i].controller_pct, ctl[i], 1e-9);
	}
	/* The two repeats of version 1 make one measurement, version 2 another. */
	assert_int_equal(s->ngroups, 2);
	const struct study_tsp_group *g = &s->groups[0];
	assert_true(g->version == 1 && g->n == 8 && g->p == 2 && g->runs == 2);
	assert_float_equal(study_agg_mean(&g->P[TSP_ONE]), (p[0][TSP_ONE] + p[1][TSP_ONE]) / 2, 1e-12);
	assert_float_equal(g->P[TSP_TWO].min, fmin(p[0][TSP_TWO], p[1][TSP_TWO]), 0);
	assert_float_equal(g->P[TSP_TWO].max, fmax(p[0][TSP_TWO], p[1][TSP_TWO]), 0);
	assert_int_equal(s->groups[1].version, 2);
	/* CPU by N of version 1 only; versions compared at the N both have. */
	assert_int_equal(s->ncpu, 1);
	assert_int_equal(s->cpu[0].runs, 2);
	assert_int_equal(s->versions_n, 8);
	/* Each run's predicted completion against its measured one, as in the fs
	 * study: not in virtual time here, so on the longest machine's clock. */
	assert_int_equal(s->ncompletion, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct study_completion *c = &s->completion[i];
		assert_int_equal(c->run, i);
		assert_float_equal(c->predicted_ns, x.run[i].cfg[CFG_CONTENTION].r.t_max, 0);
		assert_float_equal(c->measured_ns, trace_elapsed(&x.run[i].tr, 0), 0);
		assert_true(c->measured_ns > 0);
		assert_false(c->one_clock);
	}
	study_free(&x);
}

/* File name (under the test's directory) holds each of the texts. */
static void file_has(const char *name, const char *const *texts)
{
	char *text = tf_read_file(path_of(name));
	for (size_t i = 0; texts[i]; i++)
		if (!strstr(text, texts[i]))
			fail_msg("no '%s' in %s: %s", texts[i], name, text);
	free(text);
}

static void tsp_on_the_page(void **state)
{
	(void)state;
	const char *dir = out_dir("tsp");
	const char *args[] = { "-o", dir, "--study", "tsp",
			       tsp_run("R1", "t1.csv", 1000, "n=8,p=4,version=1,rep=1"),
			       tsp_run("R2", "t2.csv", 2000, "n=8,p=4,version=1,rep=2"),
			       tsp_run("V2", "t3.csv", 500, "n=8,p=4,version=2"), NULL };
	struct result r = report(args);
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	double p1[TSP_KINDS], p2[TSP_KINDS], p3[TSP_KINDS], t1, t2, t3, c;
	tsp_expected(1000, p1, &t1, &c);
	tsp_expected(2000, p2, &t2, &c);
	tsp_expected(500, p3, &t3, &c);
	assert_float_equal(cell_value(page, "study-tsp-p", "measurement", "v1 N=8 p=4",
				      "P one server per machine"), (p1[TSP_ONE] + p2[TSP_ONE]) / 2, 1e-9);
	assert_float_equal(cell_value(page, "study-tsp-p", "measurement", "v1 N=8 p=4",
				      "P upper bound"), (p1[TSP_MAX] + p2[TSP_MAX]) / 2, 1e-9);
	/* The thesis's Fig. 5.20 cell beside ours (version 1 only). */
	assert_float_equal(cell_value(page, "study-tsp-p", "measurement", "v1 N=8 p=4",
				      "thesis one per machine (reference)"), 0.8, 1e-12);
	struct page_cell cell;
	assert_int_equal(page_cell(page, "study-tsp-p", "measurement", "v2 N=8 p=4",
				   "thesis one per machine (reference)", &cell), 0);
	assert_string_equal(cell.text, "-");
	assert_int_equal(page_rows(page, "study-tsp-thesis-grid"), 4);
	assert_non_null(strstr(page, "<table id=\"study-tsp-thesis-grid\" class=\"ref\">"));
	assert_float_equal(cell_value(page, "study-tsp-cpu", "N", "8", "controller %"),
			   (100 * 150 / (150 + 2000.0) + 100 * 150 / (150 + 4000.0)) / 2, 1e-9);
	assert_float_equal(cell_value(page, "study-tsp-cpu", "N", "8", "thesis T (ms) (reference)"),
			   1060, 0);
	/* Version 2 against version 1 at the same N and p. */
	double dt = 100 * (t3 - (t1 + t2) / 2) / ((t1 + t2) / 2);
	assert_float_equal(cell_value(page, "study-tsp-versions", "measurement", "v2 p=4",
				      "T change %"), dt, 1e-9);
	assert_non_null(strstr(page, "version 2 changes T by"));
	assert_non_null(strstr(page, "The thesis: version 2 cut T by 15-20%"));
	/* The CSV files for scripts, and the plots. */
	char want[256];
	snprintf(want, sizeof want, "\nR2,1,8,4,2,%.6g,%.6g,%.6g,", p2[TSP_MAX], p2[TSP_ONE],
		 p2[TSP_TWO]);
	file_has("tsp/study-tsp-runs.csv", (const char *[]){
		 "run,version,n,p,rep,p_max,p_one,p_two,t_ms,controller_pct,predicted_ms,measured_ms,"
		 "error_pct,measured_on\n", want, ",one machine\n", NULL });
	assert_non_null(strstr(page, "Predicted versus measured completion"));
	assert_non_null(strstr(page, "Here the predicted completion differs from the measured one"));
	file_has("tsp/study-tsp-p.csv", (const char *[]){
		 "version,n,p,runs,p_max_mean,p_max_min,p_max_max,p_one_mean,", ",2.1,0.8,0.7\n",
		 NULL });
	static const char *const files[] = { "study-tsp-cpu.csv", "study-tsp-versions.csv",
					     "study-tsp-pn-max.svg", "study-tsp-pp-two-per-machine.svg",
					     "study-tsp-versions-t.svg", "study-tsp-versions-p.dat" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (!exists(dir, files[i]))
			fail_msg("%s was not written", files[i]);
	/* No predictions across different programs. */
	assert_int_equal(page_rows(page, "cross-measured"), -1);
	free(page);
	result_free(&r);
}

static void tsp_bad_runs_exit_2(void **state)
{
	(void)state;
	const char *dir = out_dir("tspbad");
	char run[700];
	expect_bad((const char *[]){ "-o", dir, "--study", "tsp",
				     tsp_run("N", "t1.csv", 1000, "p=4,version=1"), NULL },
		   "run 'N': --study tsp wants n=N, p=P and version=V of every run (n is not given)");
	snprintf(run, sizeof run, "C=%s,n=4,p=2,version=1", tsp_trace("t1.csv", 1000));
	expect_bad((const char *[]){ "-o", dir, "--study", "tsp", run, NULL },
		   "run 'C': --study tsp: no traced process is called 'controller'");
	expect_bad((const char *[]){ "-o", dir, "--study", "dfs", run, NULL },
		   "--study wants fs or tsp (not 'dfs')");
	expect_bad((const char *[]){ "-o", dir, run, "--study", NULL }, "--study wants fs or tsp");
	assert_false(exists(dir, "."));
}

/* A client on machine 1 and a server on machine 2, whose clocks are far
 * apart: the run took 5000 ns on machine 1 and 3000 on machine 2. */
static const char *two_clocks(void)
{
	const char *path = path_of("clocks.csv");
	tf_write_file(path, "machine,type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
		      "1,SEND,1000,0,1.1,1.1,2.1,0x1,10\n2,RECEIVE,500000,0,2.1,1.1,2.1,0x1,10\n"
		      "2,SEND,503000,2000,2.1,2.1,1.1,0x2,10\n1,RECEIVE,6000,100,1.1,2.1,1.1,0x2,10\n");
	tf_write_file(path_of("clocks.names"), "1.1 user requestor\n2.1 RI server\n");
	return path;
}

static void fs_completion_and_configurations(void **state)
{
	(void)state;
	const char *trace = two_clocks(), *names = path_of("clocks.names");
	char a[3][700];
	snprintf(a[0], sizeof a[0], "C=%s,names=%s,config=C", trace, names);
	snprintf(a[1], sizeof a[1], "A=%s,names=%s,config=A", trace, names);
	snprintf(a[2], sizeof a[2], "B=%s,names=%s,config=B", trace, names);
	struct study_fixture x;
	study_of(&x, STUDY_FS, 3, (const char *[]){ a[0], a[1], a[2] });
	const struct report_study *s = &x.s;
	/* In config order, whatever the order of the runs. */
	assert_int_equal(s->nconfig, 3);
	assert_int_equal(s->config_runs[0], 1);
	assert_int_equal(s->config_runs[1], 2);
	assert_int_equal(s->config_runs[2], 0);
	double t_max = x.run[1].cfg[CFG_CONTENTION].r.t_max;
	assert_float_equal(s->completion[0].measured_ns, 5000, 0);
	assert_float_equal(s->completion[0].predicted_ns, t_max, 0);
	assert_float_equal(s->completion[0].error_pct, 100 * (t_max - 5000) / 5000, 1e-9);
	study_free(&x);
	/* On the page: the completion table and the matrix beside Fig. 5.17. */
	const char *dir = out_dir("fsconf");
	struct result r = report((const char *[]){ "-o", dir, "--study", "fs", a[0], a[1], a[2],
						  NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	assert_float_equal(cell_value(page, "study-fs-completion", "run", "B", "measured (ms)"),
			   0.005, 1e-12);
	assert_float_equal(cell_value(page, "study-fs-completion", "run", "B", "predicted (ms)"),
			   t_max / 1e6, 1e-12);
	assert_float_equal(cell_value(page, "study-fs-cross", "configuration", "A",
				      "thesis from B (reference)"), -3, 0);
	assert_float_equal(cell_value(page, "study-fs-cross", "configuration", "C", "from B"), 0,
			   1e-9);
	/* The full matrices are of the configurations, in config order. */
	assert_int_equal(page_rows(page, "cross-measured"), 3);
	assert_non_null(strstr(page, "<th class=\"n\">from the trace of A</th><th class=\"n\">from "
				     "the trace of B</th><th class=\"n\">from the trace of C</th>"));
	assert_int_equal(page_rows(page, "thesis-cross"), 3);
	char want[300];
	snprintf(want, sizeof want, "run,config,rep,predicted_ms,measured_ms,error_pct,measured_on\n"
		 "A,A,,%.6g,0.005,%.6g,one machine\nB,B,", t_max / 1e6, 100 * (t_max - 5000) / 5000);
	file_has("fsconf/study-fs-completion.csv", (const char *[]){ want, NULL });
	file_has("fsconf/study-fs-cross.csv", (const char *[]){ "\nA,A,B,B,", ",-3\n", NULL });
	free(page);
	result_free(&r);
}

/* The job's first event is on machine 1 at 1000, its last on machine 2 at
 * 8000; machine 1's own events span 3000 ns, machine 2's 6000. */
static const char *one_clock_trace(const char *name)
{
	const char *path = path_of(name);
	tf_write_file(path, "machine,type,time_ns,cpu_ns,task,src,dst,msg_id,length\n"
		      "1,SEND,1000,0,1.1,1.1,2.1,0x1,10\n2,RECEIVE,2000,0,2.1,1.1,2.1,0x1,10\n"
		      "2,SEND,3000,500,2.1,2.1,1.1,0x2,10\n1,RECEIVE,4000,100,1.1,2.1,1.1,0x2,10\n"
		      "2,TERMPROCESS,8000,2500,2.1,,2.1\n");
	return path;
}

/* Measured completion is the job's first to last event when the log was
 * recorded on one clock (its table beside it says clock=virtual), and the
 * longest one machine's span otherwise. */
static void fs_completion_on_one_clock(void **state)
{
	(void)state;
	const char *virt = one_clock_trace("virt.csv"), *icount = one_clock_trace("icount.csv");
	const char *names = path_of("oneclock.names");
	char table[600], a[2][1400];
	tf_write_file(names, "1.1 user requestor\n2.1 RI server\n");
	snprintf(table, sizeof table, "%s.mtime", virt);
	tf_write_file(table, "# clock=virtual\nsize_bytes,local_ns,remote_ns\n1,10,100\n");
	snprintf(table, sizeof table, "%s.mtime", icount);
	tf_write_file(table, "# clock=icount\nsize_bytes,local_ns,remote_ns\n1,10,100\n");
	snprintf(a[0], sizeof a[0], "V=%s,names=%s,config=A", virt, names);
	snprintf(a[1], sizeof a[1], "I=%s,names=%s,config=B", icount, names);
	struct study_fixture x;
	study_of(&x, STUDY_FS, 2, (const char *[]){ a[0], a[1] });
	assert_int_equal(x.s.nconfig, 2);
	assert_float_equal(x.s.completion[0].measured_ns, 7000, 0);
	assert_true(x.s.completion[0].one_clock);
	assert_float_equal(x.s.completion[1].measured_ns, 6000, 0);
	assert_false(x.s.completion[1].one_clock);
	study_free(&x);
	/* a table given on the command line does not hide the log's clock */
	snprintf(a[0], sizeof a[0], "V=%s,names=%s,config=A,mtime=%s", virt, names, table);
	study_of(&x, STUDY_FS, 1, (const char *[]){ a[0] });
	assert_float_equal(x.s.completion[0].measured_ns, 7000, 0);
	study_free(&x);
	const char *dir = out_dir("oneclock");
	snprintf(a[0], sizeof a[0], "V=%s,names=%s,config=A", virt, names);
	struct result r = report((const char *[]){ "-o", dir, "--study", "fs", a[0], a[1], NULL });
	assert_int_equal(r.rc, 0);
	file_has("oneclock/study-fs-completion.csv",
		 (const char *[]){ "\nV,A,,", ",0.007,", ",one clock\nI,B,,", ",0.006,",
				   ",one machine\n", NULL });
	/* the summary's completion sentence for the run on one clock only */
	char *page = page_of(dir), *at = strstr(page, "Recorded in virtual time, it took 7 us");
	assert_non_null(at);
	assert_null(strstr(at + 1, "Recorded in virtual time"));
	free(page);
	result_free(&r);
	unlink(table);
	snprintf(table, sizeof table, "%s.mtime", virt);
	unlink(table);
}

static void fs_users_repeats(void **state)
{
	(void)state;
	tf_write_file(path_of("ri.names"), "2.1 RI server\n3.1 BM server\n");
	char a[4][700];
	snprintf(a[0], sizeof a[0], "U1a=%s,names=%s,users=1,rep=1",
		 generated_trace("u1.csv", 60, 11, "3.1"), path_of("ri.names"));
	snprintf(a[1], sizeof a[1], "U1b=%s,names=%s,users=1,rep=2",
		 generated_trace("u2.csv", 90, 12, "3.1"), path_of("ri.names"));
	snprintf(a[2], sizeof a[2], "U3=%s,names=%s,users=3",
		 generated_trace("u3.csv", 120, 13, "3.1"), path_of("ri.names"));
	snprintf(a[3], sizeof a[3], "X=%s,users=3", generated_trace("u4.csv", 30, 14, "3.1"));
	struct study_fixture x;
	study_of(&x, STUDY_FS, 4, (const char *[]){ a[0], a[1], a[2], a[3] });
	const struct report_study *s = &x.s;
	assert_int_equal(s->nusers, 2);
	assert_int_equal(s->nconfig, 0);
	const struct study_users *u = &s->users[0];
	double pa = x.run[0].cfg[CFG_MEASURED].r.P, pb = x.run[1].cfg[CFG_MEASURED].r.P;
	assert_true(u->users == 1 && u->runs == 2);
	assert_float_equal(study_agg_mean(&u->p_measured), (pa + pb) / 2, 1e-12);
	assert_float_equal(u->p_measured.min, fmin(pa, pb), 0);
	assert_float_equal(u->p_measured.max, fmax(pa, pb), 0);
	uint32_t ri = 0;
	while (strcmp(report_process(&x.run[0], ri), "RI"))
		ri++;
	const struct proc_stats *ps = &x.run[0].st.p[ri];
	assert_true(u->q_max.min <= (double)ps->q_max && (double)ps->q_max <= u->q_max.max);
	assert_true(u->q_mean.n == 2);
	/* Run X has no RI: its P counts, its queue is left out. */
	assert_true(s->users[1].users == 3 && s->users[1].runs == 2);
	assert_int_equal(s->users[1].q_max.n, 1);
	assert_int_equal(s->users[1].p_measured.n, 2);
	assert_true(s->no_ri);
	study_free(&x);
	const char *dir = out_dir("users");
	struct result r = report((const char *[]){ "-o", dir, "--study=fs", a[0], a[1], a[2], a[3],
						  NULL });
	assert_int_equal(r.rc, 0);
	char *page = page_of(dir);
	assert_float_equal(cell_value(page, "study-fs-users", "users", "1", "P measured"),
			   (pa + pb) / 2, 1e-9);
	assert_non_null(strstr(page, "found P saturating at 4 users"));
	assert_non_null(strstr(page, "no process called RI"));
	assert_true(exists(dir, "study-fs-users.svg"));
	char want[200];
	snprintf(want, sizeof want, "\n1,2,%.6g,%.6g,%.6g,", (pa + pb) / 2, fmin(pa, pb), fmax(pa, pb));
	file_has("users/study-fs-users.csv", (const char *[]){ want, NULL });
	/* No configurations: no predictions across runs either. */
	assert_int_equal(page_rows(page, "cross-measured"), -1);
	free(page);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_good_forms),
		cmocka_unit_test(spec_bad_forms),
		cmocka_unit_test(reference_of_the_repository),
		cmocka_unit_test(reference_errors),
		cmocka_unit_test(page_numbers_equal_the_library),
		cmocka_unit_test(profile_and_timeline),
		cmocka_unit_test(cross_prediction_known_answer),
		cmocka_unit_test(cross_prediction_by_node_pid),
		cmocka_unit_test(cross_prediction_on_the_page),
		cmocka_unit_test(cross_prediction_with_names_beside),
		cmocka_unit_test(log_input_is_kept_with_its_csv),
		cmocka_unit_test(input_is_linked_not_copied),
		cmocka_unit_test(missing_tools_still_make_the_page),
		cmocka_unit_test(failing_tool_exits_1),
		cmocka_unit_test(nothing_to_plot),
		cmocka_unit_test(the_table_beside_the_log_is_used),
		cmocka_unit_test(answer_first_and_tables_ranked),
		cmocka_unit_test(no_rate_over_a_sliver),
		cmocka_unit_test(fs_completion_on_one_clock),
		cmocka_unit_test(unwritable_output_directory),
		cmocka_unit_test(bad_input_exits_2_before_writing),
		cmocka_unit_test(help_and_thesis_file_argument),
		cmocka_unit_test(names_are_escaped),
		cmocka_unit_test(spec_study_keys),
		cmocka_unit_test(tsp_known_answer),
		cmocka_unit_test(tsp_on_the_page),
		cmocka_unit_test(tsp_bad_runs_exit_2),
		cmocka_unit_test(fs_completion_and_configurations),
		cmocka_unit_test(fs_users_repeats),
	};
	return cmocka_run_group_tests_name("report", tests, NULL, tf_cleanup);
}

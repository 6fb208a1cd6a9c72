/*
 * tests/unit/test_analysis_cli.c - the analyses from the outside: reading
 * trace CSVs (column order, extra columns, comments, and every kind of
 * malformed row with its file:line), delivery-time tables, assignments, and
 * the commands' entry points run on CSV files with their output captured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assign.h"
#include "mtime.h"
#include "test_analysis_trace.h"

int parallel_main(int argc, char **argv);
int stats_main(int argc, char **argv);
int causality_main(int argc, char **argv);

static const char chain_csv[] =
	"# A asks B, B answers\n"
	"msg_id,type,cpu_ns,time_ns,src,dst,length,colour\n"
	"0x1,SEND,10,100,1.1,2.1,8,red\n"
	"\n"
	"0x1,RECEIVE,0,5,1.1,2.1,8,\n"
	"0x2,SEND,20,30,2.1,1.1,8,\n"
	"0x2,RECEIVE,10,200,2.1,1.1,8,\n";

static void csv_columns_by_name(void **state)
{
	(void)state;
	struct trace t;
	char err[256];
	const char *path = temp_file(0, chain_csv);
	trace_init(&t, path);
	assert_int_equal(trace_load_csv(&t, path, err, sizeof err), 0);
	assert_int_equal(t.nev, 4);
	assert_int_equal(t.nproc, 2);
	assert_int_equal(t.ev[0].type, TRACE_SEND);
	assert_int_equal(t.ev[0].cpu, 10);
	assert_int_equal(t.ev[0].time, 100);
	assert_int_equal(t.ev[0].msg_id, 1);
	assert_int_equal(t.ev[0].line, 3);
	assert_int_equal(t.ev[1].line, 5);
	/* No task column: a SEND is its sender's, a RECEIVE its receiver's. */
	assert_int_equal(t.proc[t.ev[0].task].id, TASK_MAKE(1, 1));
	assert_int_equal(t.proc[t.ev[1].task].id, TASK_MAKE(2, 1));
	assert_int_equal(t.proc[t.ev[1].task].machine, 2);
	trace_free(&t);
}

static void expect_csv_error(const char *text, const char *message)
{
	struct trace t;
	char err[256] = "", want[300];
	const char *path = temp_file(1, text);
	trace_init(&t, path);
	assert_int_equal(trace_load_csv(&t, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:%s", path, message);
	if (strcmp(err, want))
		fail_msg("got '%s', want '%s'", err, want);
	trace_free(&t);
}

static void csv_errors_name_file_and_line(void **state)
{
	(void)state;
	expect_csv_error("", "1:1: no header row (empty file)");
	expect_csv_error("type,cpu_ns,src\n", "1:1: no 'time_ns' column in the header");
	expect_csv_error("# a comment first\ntype,time_ns,cpu_ns\n",
			 "2:1: no 'task (or src/dst)' column in the header");
	const char *h = "type,time_ns,cpu_ns,src,dst,msg_id,length\n";
	char buf[256];
	snprintf(buf, sizeof buf, "%sSEND,1,1,1.1,2.1,1,1\nSENDX,1,1,1.1,2.1,2,1\n", h);
	expect_csv_error(buf, "3:1: unknown event type 'SENDX'");
	snprintf(buf, sizeof buf, "%sSEND,1,1,1.1,2.x,1,1\n", h);
	expect_csv_error(buf, "2:14: dst '2.x' is not a process (want node.pid)");
	snprintf(buf, sizeof buf, "%sSEND,1,,1.1,2.1,1,1\n", h);
	expect_csv_error(buf, "2:8: empty cpu_ns");
	snprintf(buf, sizeof buf, "%sSEND,1\n", h);
	expect_csv_error(buf, "2:7: empty cpu_ns");          /* the row ends before it */
	snprintf(buf, sizeof buf, "%sSEND,-4,1,1.1,2.1,1,1\n", h);
	expect_csv_error(buf, "2:6: time_ns '-4' is not a number");
	snprintf(buf, sizeof buf, "%sSEND,1,1,1.1,2.1,  0xzz,1\n", h);
	expect_csv_error(buf, "2:20: msg_id '0xzz' is not a number");
	snprintf(buf, sizeof buf, "%sSEND,1,1,1.1,2.1,1,99999999999\n", h);
	expect_csv_error(buf, "2:20: length '99999999999' is not a number in range");
	snprintf(buf, sizeof buf, "%sSEND,1,1,,,1,1\n", h);
	expect_csv_error(buf, "2:1: SEND row names no process (task, src and dst empty)");
}

static void mtime_interpolates(void **state)
{
	(void)state;
	struct mtime_table m;
	char err[256];
	const char *path = temp_file(0, "remote_ns,size_bytes,local_ns\n# measured\n"
					"100,1,10\n200,101,20\n400,1101,30\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), 0);
	assert_int_equal(m.n, 3);
	assert_float_equal(mtime(&m, 0, 1), 10, 1e-9);      /* below: the first size */
	assert_float_equal(mtime(&m, 1, 0), 100, 1e-9);
	assert_float_equal(mtime(&m, 51, 1), 15, 1e-9);     /* halfway */
	assert_float_equal(mtime(&m, 601, 0), 300, 1e-9);
	assert_float_equal(mtime(&m, 2101, 1), 40, 1e-9);   /* last slope beyond */
	assert_float_equal(mtime(&m, 2101, 0), 600, 1e-9);
	mtime_default(&m);
	assert_float_equal(mtime(&m, 10, 1), 4300, 1e-9);
	assert_float_equal(mtime(&m, 1000, 0), 35000, 1e-9);
	mtime_zero(&m);
	assert_float_equal(mtime(&m, 1000, 0), 0, 1e-9);
}

static void mtime_errors(void **state)
{
	(void)state;
	struct mtime_table m;
	char err[256], want[300];
	const char *path = temp_file(0, "size_bytes,local_ns\n1,2\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1:1: header lacks remote_ns (want size_bytes,local_ns,remote_ns)", path);
	assert_string_equal(err, want);
	path = temp_file(0, "size_bytes,local_ns,remote_ns\n10,1,2\n10,3,4\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:3:1: size_bytes 10 is not larger than the row before", path);
	assert_string_equal(err, want);
	path = temp_file(0, "size_bytes,local_ns,remote_ns\n10,x,2\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:2:4: local_ns 'x' is not a whole number", path);
	assert_string_equal(err, want);
}

static void assignments(void **state)
{
	(void)state;
	struct trace t;
	struct assignment a;
	char err[256];
	trace_init(&t, "x");
	uint32_t p = tp(&t, 1, 3), q = tp(&t, 1, 4), r = tp(&t, 2, 5);
	t_step(&t, p, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, q, TRACE_STARTPROCESS, 0, 0);
	t_step(&t, r, TRACE_STARTPROCESS, 0, 0);
	assert_int_equal(assign_parse(&a, &t, "1.3=A,2.5=A", err, sizeof err), 0);
	assert_int_equal(a.machine_of[p], a.machine_of[r]);
	assert_string_equal(a.label[a.machine_of[p]], "A");
	assert_string_equal(a.label[a.machine_of[q]], "1"); /* stays where it ran */
	assign_free(&a);
	const char *path = temp_file(0, "# placement\n1.4 B\n2.5 B # with a comment\n");
	assert_int_equal(assign_parse(&a, &t, path, err, sizeof err), 0);
	assert_int_equal(a.machine_of[q], a.machine_of[r]);
	assert_string_equal(a.label[a.machine_of[q]], "B");
	assign_free(&a);
	assert_int_equal(assign_parse(&a, &t, "1.3=A,7.7=B", err, sizeof err), -1);
	assert_string_equal(err, "--assign: process 7.7 is not in the trace");
	assign_free(&a);
	path = temp_file(0, "1.3\n");
	assert_int_equal(assign_parse(&a, &t, path, err, sizeof err), -1);
	assert_non_null(strstr(err, ":1:4: want 'node.pid machine'"));  /* just past 1.3 */
	assign_free(&a);
	path = temp_file(0, "# placement\n  1.3 A extra\n");
	assert_int_equal(assign_parse(&a, &t, path, err, sizeof err), -1);
	assert_non_null(strstr(err, ":2:9: want 'node.pid machine'"));  /* the extra word */
	assign_free(&a);
	path = temp_file(0, "1.3 A\n\t7.7 B\n");
	assert_int_equal(assign_parse(&a, &t, path, err, sizeof err), -1);
	assert_non_null(strstr(err, ":2:2: process 7.7 is not in the trace"));
	assign_free(&a);
	trace_free(&t);
}

/* ---- the commands, end to end ------------------------------------------ */

static void parallel_command_on_csv(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "parallel", "--csv", "--upper-bound", "--one-machine",
			 "--mtime", NULL, (char *)path, NULL };
	argv[5] = (char *)temp_file(3, "size_bytes,local_ns,remote_ns\n1,5,50\n");
	int rc;
	char *out = capture(parallel_main, 7, argv, &rc);
	assert_int_equal(rc, 0);
	/* A's events are both at CPU 10 (what it used before its first event
	 * is outside the graph), B runs 0..20: T = 20.  Upper bound: B gets
	 * the message at 0 and answers at 20: t_max 20.  One machine, 5 ns a
	 * delivery: 5 + 20 + 5 = 30. */
	assert_string_equal(out, "mode,T,t_max,P,M,utilisation\n"
				 "upper-bound,20,20,1.000000,2,0.500000\n"
				 "one-machine,20,30,0.666667,1,0.666667\n");
	free(out);
}

static void parallel_command_errors(void **state)
{
	(void)state;
	int rc;
	char *help[] = { "parallel", "--help", NULL };
	char *out = capture(parallel_main, 2, help, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "usage: dpm parallel"));
	free(out);
	char *bad_option[] = { "parallel", "--frobnicate", "x.csv", NULL };
	free(capture(parallel_main, 3, bad_option, &rc));
	assert_int_equal(rc, 2);
	char *no_input[] = { "parallel", NULL };
	free(capture(parallel_main, 1, no_input, &rc));
	assert_int_equal(rc, 2);
	char *missing[] = { "parallel", "/nonexistent/trace.csv", NULL };
	free(capture(parallel_main, 2, missing, &rc));
	assert_int_equal(rc, 2);
	const char *bad = temp_file(2, "type,time_ns,cpu_ns,src,dst\nSEND,1,x,1.1,2.1\n");
	char *malformed[] = { "parallel", (char *)bad, NULL };
	free(capture(parallel_main, 2, malformed, &rc));
	assert_int_equal(rc, 2);
	const char *path = temp_file(2, chain_csv);
	char *bad_assign[] = { "parallel", "--assign", "9.9=A", (char *)path, NULL };
	free(capture(parallel_main, 4, bad_assign, &rc));
	assert_int_equal(rc, 2);
}

static void stats_command_on_csv(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "stats", "--csv", "--table", "pairs", (char *)path, NULL };
	int rc;
	char *out = capture(stats_main, 5, argv, &rc);
	assert_int_equal(rc, 0);
	/* 1.1's span is 100..200 ns: one message sent in 100 ns. */
	assert_string_equal(out, "from,to,sent,sent_bytes,pct_of_from_msgs,pct_of_from_bytes,"
				 "received,received_bytes,where,mean_size,msgs_per_s\n"
				 "1.1,2.1,1,8,100.00,100.00,1,8,remote,8.0,10000000.000\n"
				 "2.1,1.1,1,8,100.00,100.00,1,8,remote,8.0,40000000.000\n");
	free(out);
	char *bad_table[] = { "stats", "--csv", "--table", "nope", (char *)path, NULL };
	free(capture(stats_main, 5, bad_table, &rc));
	assert_int_equal(rc, 2);
}

static void causality_command_on_csv(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "causality", "--requestors", "1.1", "--csv", (char *)path, NULL };
	int rc;
	char *out = capture(causality_main, 5, argv, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "sequence,length,count\n2.1,1,1\n");
	free(out);
	char *no_roles[] = { "causality", (char *)path, NULL };
	free(capture(causality_main, 2, no_roles, &rc));
	assert_int_equal(rc, 2);
	const char *names = temp_file(3, "1.1 U requestor\n2.1 S boss\n");
	char *bad_names[] = { "causality", "--names", (char *)names, (char *)path, NULL };
	out = capture_stderr(causality_main, 4, bad_names, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, ":2:7: want 'node.pid NAME ROLE'"));   /* at "boss" */
	free(out);
	names = temp_file(3, "1.1 U requestor # the client\n3.3 S server\n");
	out = capture_stderr(causality_main, 4, bad_names, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, ":2:1: process 3.3 is not in the trace"));
	free(out);
}

/* Three requests from a user into a buffer manager (BM), one of which goes
 * on to the disk interface (DI) and back: Fig. 5.18-5.19 in small. */
static const char bm_di_csv[] =
	"msg_id,type,cpu_ns,time_ns,src,dst,length\n"
	"1,SEND,10,10,1.1,2.1,8\n1,RECEIVE,11,11,1.1,2.1,8\n"
	"2,SEND,20,20,2.1,3.1,8\n2,RECEIVE,21,21,2.1,3.1,8\n"
	"3,SEND,30,30,3.1,2.1,8\n3,RECEIVE,31,31,3.1,2.1,8\n"
	"4,SEND,40,40,2.1,1.1,8\n4,RECEIVE,41,41,2.1,1.1,8\n"
	"5,SEND,50,50,1.1,2.1,8\n5,RECEIVE,51,51,1.1,2.1,8\n"
	"6,SEND,60,60,2.1,1.1,8\n6,RECEIVE,61,61,2.1,1.1,8\n"
	"7,SEND,70,70,1.1,2.1,8\n7,RECEIVE,71,71,1.1,2.1,8\n"
	"8,SEND,80,80,2.1,1.1,8\n8,RECEIVE,81,81,2.1,1.1,8\n";

static void causality_branching_and_state_diagram(void **state)
{
	(void)state;
	const char *path = temp_file(0, bm_di_csv);
	const char *names = temp_file(1, "1.1 User requestor\n2.1 BM server\n3.1 DI server\n");
	int rc;
	/* at BM, from the user: 1 of 3 on to DI; from DI always back out */
	char *tr[] = { "causality", "--names", (char *)names, "--csv", "--table", "transitions",
		       (char *)path, NULL };
	char *out = capture(causality_main, 7, tr, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "at,from,to,count,probability\n"
				 "BM,DI,requestors,1,1.000000\n"
				 "BM,requestors,DI,1,0.333333\n"
				 "BM,requestors,requestors,2,0.666667\n"
				 "DI,BM,BM,1,1.000000\n");
	free(out);
	/* the state diagram: every request enters at BM; of BM's 4 ways out,
	 * 1 to DI (25%), 3 back to the requestors (75%) */
	char dot[64], svg[64];
	snprintf(dot, sizeof dot, "%s.dot", path);
	snprintf(svg, sizeof svg, "%s.svg", path);
	char *diagram[] = { "causality", "--names", (char *)names, "--dot", dot, "--svg", svg,
			    (char *)path, NULL };
	free(capture(causality_main, 8, diagram, &rc));
	assert_int_equal(rc, 0);
	FILE *f = fopen(dot, "r");
	assert_non_null(f);
	char text[1024] = "";
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_string_equal(text, "digraph requests {\n\trankdir=LR;\n\tnode [shape=ellipse];\n"
				  "\t\"requestors\" [shape=box];\n"
				  "\t\"requestors\" -> \"BM\" [label=\"3 (100%)\"];\n"
				  "\t\"BM\" -> \"DI\" [label=\"1 (25%)\"];\n"
				  "\t\"BM\" -> \"requestors\" [label=\"3 (75%)\"];\n"
				  "\t\"DI\" -> \"BM\" [label=\"1 (100%)\"];\n}\n");
	f = fopen(svg, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_non_null(strstr(text, "<svg"));
	unlink(dot);
	unlink(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_columns_by_name),
		cmocka_unit_test(csv_errors_name_file_and_line),
		cmocka_unit_test(mtime_interpolates),
		cmocka_unit_test(mtime_errors),
		cmocka_unit_test(assignments),
		cmocka_unit_test(parallel_command_on_csv),
		cmocka_unit_test(parallel_command_errors),
		cmocka_unit_test(stats_command_on_csv),
		cmocka_unit_test(causality_command_on_csv),
		cmocka_unit_test(causality_branching_and_state_diagram),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

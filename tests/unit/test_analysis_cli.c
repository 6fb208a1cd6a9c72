/*
 * tests/unit/test_analysis_cli.c - the analyses from the outside: reading
 * trace CSVs (column order, extra columns, comments, and every kind of
 * malformed row with its file:line), delivery-time tables, assignments, and
 * the commands' entry points run on CSV files with their output captured
 * (the --json output parsed by a strict little JSON reader below).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ctype.h>

#include <cmocka.h>

#include "analysis/model/assign.h"
#include "analysis/model/events_csv.h"
#include "analysis/model/mtime.h"
#include "test_analysis_trace.h"
#include "kernel/abi/calls.h"

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
	expect_csv_error("type,time_ns,cpu_ns,task,reason\nTERMPROCESS,5,1,1.1,slain\n",
			 "2:21: reason 'slain' is not an exit reason (normal, killed, fault-...)");
}

/* A TERMPROCESS's reason, as `dpm dump --csv` writes it (the critical
 * path tells a killed child from one that ended). */
static void csv_exit_reason(void **state)
{
	(void)state;
	struct trace t;
	char err[256];
	const char *path = temp_file(0, "type,time_ns,cpu_ns,task,reason\n"
					"TERMPROCESS,5,1,1.1,killed\nTERMPROCESS,6,1,1.2,\n"
					"TERMPROCESS,7,1,1.3,fault-memory\nSEND,8,1,1.4,slain\n"
					"TERMPROCESS,9,1,1.5,42\n");
	trace_init(&t, path);
	assert_int_equal(trace_load_csv(&t, path, err, sizeof err), 0);
	assert_int_equal(t.ev[0].reason, EXIT_KILLED);
	assert_int_equal(t.ev[1].reason, EXIT_NORMAL);
	assert_int_equal(t.ev[2].reason, EXIT_FAULT_MEMORY);
	assert_int_equal(t.ev[3].reason, EXIT_NORMAL); /* only a TERMPROCESS has one */
	assert_int_equal(t.ev[4].reason, 42);          /* one dump did not know */
	trace_free(&t);
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
	assert_float_equal(mtime_transport(&m, 51, 0), 0, 1e-9); /* no such columns */
	path = temp_file(0, "size_bytes,local_ns,remote_ns,remote_rx_ns,remote_tx_ns\n"
			 "1,10,100,7,3\n101,20,200,17,5\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), 0);
	assert_float_equal(mtime_transport(&m, 51, 0), 4, 1e-9);
	assert_float_equal(mtime_transport(&m, 51, 1), 12, 1e-9);
	assert_float_equal(m.tick_ns, 0, 1e-9); /* no tick_ns column */
	path = temp_file(0, "size_bytes,local_ns,remote_ns,tick_ns\n1,10,100,964608\n"
			 "101,20,200,964608\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), 0);
	assert_float_equal(m.tick_ns, 964608, 1e-9);
	path = temp_file(0, "size_bytes,local_ns,remote_ns,remote_tx_ns\n1,10,100,x\n");
	assert_int_equal(mtime_load(&m, path, err, sizeof err), -1);
	assert_non_null(strstr(err, "remote_tx_ns 'x' is not a whole number"));
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

/* dpm parallel FORMAT --upper-bound --one-machine on chain_csv (written to
 * *path), delivering a message in 5 ns on a machine, 50 ns between two. */
static char *parallel_on_chain(char *format, const char **path)
{
	*path = temp_file(2, chain_csv);
	char *argv[] = { "parallel", format, "--upper-bound", "--one-machine",
			 "--mtime", NULL, (char *)*path, NULL };
	argv[5] = (char *)temp_file(3, "size_bytes,local_ns,remote_ns\n1,5,50\n");
	int rc;
	char *out = capture(parallel_main, 7, argv, &rc);
	assert_int_equal(rc, 0);
	return out;
}

static void parallel_command_on_csv(void **state)
{
	(void)state;
	const char *path;
	char *out = parallel_on_chain("--csv", &path);
	/* A's events are both at CPU 10 (what it used before its first event
	 * is outside the graph), B runs 0..20: T = 20.  Upper bound: B gets
	 * the message at 0 and answers at 20: t_max 20.  One machine, 5 ns a
	 * delivery: 5 + 20 + 5 = 30. */
	assert_string_equal(out, "mode,T,t_max,P,M,utilisation\n"
				 "upper-bound,20,20,1.000000,2,0.500000\n"
				 "one-machine,20,30,0.666667,1,0.666667\n");
	free(out);
}

/* --assign through the command: A and B together deliver in 5 ns
 * (5 + 20 + 5), B moved to a machine of its own in 50 (50 + 20 + 50). */
static void parallel_assign_on_csv(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "parallel", "--csv", "--mtime", NULL, "--assign", "1.1=X,2.1=X",
			 "--assign", "2.1=Y", (char *)path, NULL };
	argv[3] = (char *)temp_file(3, "size_bytes,local_ns,remote_ns\n1,5,50\n");
	int rc;
	char *out = capture(parallel_main, 9, argv, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "mode,T,t_max,P,M,utilisation\n"
				 "assign,20,30,0.666667,1,0.666667\n"
				 "assign,20,120,0.166667,2,0.083333\n");
	free(out);
}

/* In virtual time (the table says clock=virtual) the run's measured
 * completion, first to last event on the one clock (5 to 200 ns), stands
 * beside the t_max of the measured placement (50 + 20 + 50 ns); in other
 * clocks, whose nodes' times are not comparable, it is not shown. */
static void parallel_completion_in_virtual_time(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "parallel", "--mtime", NULL, (char *)path, NULL };
	argv[2] = (char *)temp_file(3, "# clock=virtual\nsize_bytes,local_ns,remote_ns\n1,5,50\n");
	int rc;
	char *out = capture(parallel_main, 4, argv, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\nmeasured completion: 195 ns, first to last event on the "
				    "cluster's one clock (clock=virtual)\n"
				    "  t_max of measured                   120 ns  -38.5% of it\n"));
	free(out);
	argv[2] = (char *)temp_file(3, "# clock=icount\nsize_bytes,local_ns,remote_ns\n1,5,50\n");
	out = capture(parallel_main, 4, argv, &rc);
	assert_int_equal(rc, 0);
	assert_null(strstr(out, "measured completion"));
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
	char *bad_slice[] = { "parallel", "--contention", "--slice", "10ms", (char *)path, NULL };
	free(capture(parallel_main, 5, bad_slice, &rc));
	assert_int_equal(rc, 2);
	char *slice[] = { "parallel", "--contention", "--slice", "0", (char *)path, NULL };
	free(capture(parallel_main, 5, slice, &rc));
	assert_int_equal(rc, 0);
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

/* A trace that contradicts itself (a message received twice, one received
 * by another process than its addressee) is refused by every analysis with
 * where and why, exit 2: dpm stats took both silently before the load-time
 * check (trace_check.c). */
static void inconsistent_trace_is_refused_by_every_analysis(void **state)
{
	(void)state;
	const char *twice = temp_file(2, "msg_id,type,cpu_ns,time_ns,src,dst,length\n"
					 "0x1,SEND,10,100,1.1,2.1,8\n"
					 "0x1,RECEIVE,0,5,1.1,2.1,8\n"
					 "0x1,RECEIVE,5,9,1.1,2.1,8\n");
	int (*mains[])(int, char **) = { stats_main, parallel_main, causality_main };
	for (int i = 0; i < 3; i++) {
		char *argv[] = { "x", (char *)twice, NULL, NULL, NULL };
		if (mains[i] == causality_main) /* it wants roles */
			argv[1] = "--requestors", argv[2] = "1.1", argv[3] = (char *)twice;
		int rc;
		char *err = capture_stderr(mains[i], mains[i] == causality_main ? 4 : 2, argv, &rc);
		assert_int_equal(rc, 2);
		assert_non_null(strstr(err, ":4: msg_id 0x1 was already received at line 3"));
		free(err);
	}
	const char *other = temp_file(3, "msg_id,type,cpu_ns,time_ns,src,dst,length\n"
					 "0x1,SEND,10,100,1.1,2.1,8\n"
					 "0x1,RECEIVE,0,5,1.1,3.1,8\n");
	char *argv[] = { "stats", (char *)other, NULL };
	int rc;
	char *err = capture_stderr(stats_main, 2, argv, &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, ":3: msg_id 0x1 was sent to 2.1 (line 2) but received by 3.1"));
	free(err);
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

/* ---- --json: a strict reader of the output, and lookups by path ------- */

static const char *json_value_end(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* p at '"': just past the closing quote, or NULL. */
static const char *json_string_end(const char *p)
{
	for (p++; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return NULL;
			p += 4;
		} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
			return NULL;
		}
	}
	return p + 1;
}

static const char *json_digits(const char *p)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static const char *json_number_end(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = json_digits(p)))
		return NULL;
	if (*p == '.' && !(p = json_digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = json_digits(p);
	}
	return p;
}

/* A '{' or '[' at p: past its close, or NULL. */
static const char *json_container_end(const char *p, int depth)
{
	char close = *p == '{' ? '}' : ']';
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (*p != '"' || !(p = json_string_end(p)))
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value_end(json_ws(p), depth + 1)))
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = json_ws(p);
	}
}

static const char *json_value_end(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	if (*p == '{' || *p == '[')
		return json_container_end(p, depth);
	if (*p == '"')
		return json_string_end(p);
	for (const char *const *w = (const char *const[]){ "true", "false", "null", NULL }; *w; w++)
		if (!strncmp(p, *w, strlen(*w)))
			return p + strlen(*w);
	return json_number_end(p);
}

/* The whole text is one JSON value (and a line end). */
static void assert_json(const char *text)
{
	const char *end = json_value_end(json_ws(text), 0);
	if (!end || *json_ws(end))
		fail_msg("not JSON at offset %td: %s", end ? end - text : (ptrdiff_t)-1, text);
}

/* The value at PATH in text: members by key, array elements by index,
 * separated by '/' (e.g. "results/1/t_max"); NULL when there is none. */
static const char *json_at(const char *text, const char *path)
{
	const char *p = json_ws(text);
	while (*path) {
		size_t len = strcspn(path, "/");
		if (*p == '{') {
			for (p = json_ws(p + 1); *p == '"';) {
				const char *key = p + 1, *after = json_string_end(p);
				p = json_ws(json_ws(after) + 1); /* past ':' */
				if ((size_t)(after - 1 - key) == len && !strncmp(key, path, len))
					goto found;
				p = json_ws(json_value_end(p, 0));
				if (*p == ',')
					p = json_ws(p + 1);
			}
			return NULL;
		} else if (*p == '[') {
			long want = strtol(path, NULL, 10);
			for (p = json_ws(p + 1); want-- > 0 && *p != ']';) {
				p = json_ws(json_value_end(p, 0));
				if (*p == ',')
					p = json_ws(p + 1);
			}
			if (*p == ']')
				return NULL;
			goto found;
		}
		return NULL;
found:
		path += len + (path[len] == '/');
	}
	return p;
}

/* The text of the value at PATH (a string without its quotes; escapes
 * kept as written). */
static void assert_json_is(const char *text, const char *path, const char *want)
{
	const char *v = json_at(text, path);
	if (!v)
		fail_msg("no %s in %s", path, text);
	const char *end = json_value_end(v, 0);
	if (*v == '"')
		v++, end--;
	if (strlen(want) != (size_t)(end - v) || strncmp(v, want, (size_t)(end - v)))
		fail_msg("%s is %.*s, want %s", path, (int)(end - v), v, want);
}

/* The number at PATH is want, to the 4 decimals the commands print at least. */
static void assert_json_number(const char *text, const char *path, double want)
{
	const char *v = json_at(text, path);
	if (!v || !json_number_end(v))
		fail_msg("no number at %s in %s", path, text);
	double got = strtod(v, NULL), slack = 5e-5 + 1e-9 * (want < 0 ? -want : want);
	if (got < want - slack || got > want + slack)
		fail_msg("%s is %.9g, want %.9g", path, got, want);
}

static void json_reader_refuses_bad_json(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"{\"a\":1,}", "{\"a\" 1}", "[1 2]", "{\"a\":01}", "{\"a\":1.}", "{\"a\":\"x\\q\"}",
		"{\"a\":\"tab\there\"}", "{\"a\":1", "{\"a\":nan}", "{} {}", "{a:1}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *end = json_value_end(json_ws(bad[i]), 0);
		if (end && !*json_ws(end))
			fail_msg("took %s as JSON", bad[i]);
	}
	const char *good = "{\"a\":[1,{\"b\":\"q\\\"\"}],\"c\":-2.5e3,\"d\":{},\"e\":[true,null]}\n";
	assert_json(good);
	assert_json_is(good, "a/1/b", "q\\\"");
	assert_json_number(good, "c", -2500);
	assert_null(json_at(good, "a/2"));
	assert_null(json_at(good, "x"));
}

static void parallel_json(void **state)
{
	(void)state;
	const char *path;
	char *out = parallel_on_chain("--json", &path);
	assert_json(out);
	assert_json_is(out, "trace", path);
	assert_json_number(out, "events", 4);
	assert_json_number(out, "processes", 2);
	assert_json_number(out, "messages", 2);
	assert_json_number(out, "external_waits", 0);
	/* the same figures as parallel_command_on_csv's CSV */
	assert_json_is(out, "results/0/mode", "upper-bound");
	assert_json_number(out, "results/0/T", 20);
	assert_json_number(out, "results/0/t_max", 20);
	assert_json_number(out, "results/0/P", 1);
	assert_json_number(out, "results/0/M", 2);
	assert_json_is(out, "results/1/mode", "one-machine");
	assert_json_number(out, "results/1/t_max", 30);
	assert_json_number(out, "results/1/P", 20.0 / 30);
	assert_json_number(out, "results/1/utilisation", 20.0 / 30);
	assert_null(json_at(out, "results/2"));
	/* one machine's maximum path: A sends (5 ns), B runs 20 ns, answers (5 ns) */
	assert_json_is(out, "results/1/path/0/process", "1.1");
	assert_json_is(out, "results/1/path/0/next", "message");
	assert_json_number(out, "results/1/path/0/next_ns", 5);
	assert_json_is(out, "results/1/path/1/process", "2.1");
	assert_json_number(out, "results/1/path/1/cpu_ns", 20);
	assert_json_number(out, "results/1/path/1/from_line", 5);
	assert_json_number(out, "results/1/path/1/to_line", 6);
	assert_json_number(out, "results/1/path/1/next_ns", 5);
	assert_json_is(out, "results/1/path/2/next", "end");
	assert_null(json_at(out, "results/1/path/3"));
	assert_json_is(out, "process_table/1/process", "2.1");
	assert_json_number(out, "process_table/1/t_proc", 20);
	free(out);
}

static void stats_json(void **state)
{
	(void)state;
	const char *path = temp_file(2, chain_csv);
	char *argv[] = { "stats", "--json", (char *)path, NULL };
	int rc;
	char *out = capture(stats_main, 3, argv, &rc);
	assert_int_equal(rc, 0);
	assert_json(out);
	assert_json_number(out, "events", 4);
	assert_json_number(out, "total/sent", 2);
	assert_json_number(out, "total/sent_bytes", 16);
	assert_json_number(out, "total/remote", 2);
	assert_json_number(out, "total/local", 0);
	assert_json_number(out, "total/sizes/8-15", 2);
	assert_json_number(out, "total/cpu_ns", 30); /* the last cpu_ns of each: 10 + 20 */
	assert_json_is(out, "processes/0/process", "1.1");
	assert_json_number(out, "processes/0/cpu_pct", 100.0 / 3);
	assert_json_number(out, "processes/1/cpu_pct", 200.0 / 3);
	assert_json_number(out, "processes/1/machine", 2);
	assert_json_number(out, "processes/1/sent", 1);
	assert_json_number(out, "processes/1/received_bytes", 8);
	/* 2.1's span is 5..30 ns: two events, 80 million a second */
	assert_json_number(out, "processes/1/msgs_per_s", 8e7);
	assert_json_number(out, "processes/1/sizes/8-15", 1);
	/* the pairs: the same rates as stats_command_on_csv's CSV */
	assert_json_is(out, "pairs/0/from", "1.1");
	assert_json_is(out, "pairs/0/to", "2.1");
	assert_json_number(out, "pairs/0/msgs_per_s", 1e7);
	assert_json_number(out, "pairs/1/msgs_per_s", 4e7);
	assert_json_number(out, "pairs/1/remote_bytes", 8);
	assert_null(json_at(out, "pairs/2"));
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

static void causality_json(void **state)
{
	(void)state;
	/* a quote in the trace's name must come out escaped */
	const char *path = temp_file(0, bm_di_csv);
	const char *names = temp_file(1, "1.1 User requestor\n2.1 BM server\n3.1 DI server\n");
	char quoted[256];
	snprintf(quoted, sizeof quoted, "%s\"q", path);
	assert_int_equal(rename(path, quoted), 0);
	char *argv[] = { "causality", "--names", (char *)names, "--json", quoted, NULL };
	int rc;
	char *out = capture(causality_main, 5, argv, &rc);
	unlink(quoted);
	assert_int_equal(rc, 0);
	assert_json(out);
	char want[300];
	snprintf(want, sizeof want, "%s\\\"q", path);
	assert_json_is(out, "trace", want);
	assert_json_number(out, "requests", 3);
	/* two requests answered by BM alone, one through DI */
	assert_json_is(out, "strings/0/sequence/0", "BM");
	assert_null(json_at(out, "strings/0/sequence/1"));
	assert_json_number(out, "strings/0/count", 2);
	assert_json_is(out, "strings/1/sequence/1", "DI");
	assert_json_is(out, "strings/1/sequence/2", "BM");
	assert_json_number(out, "strings/1/count", 1);
	assert_null(json_at(out, "strings/2"));
	assert_json_is(out, "substrings/0/sequence/0", "BM");
	assert_json_is(out, "substrings/0/sequence/1", "DI");
	assert_null(json_at(out, "substrings/3"));
	/* the branching of causality_branching_and_state_diagram's CSV */
	assert_json_is(out, "transitions/1/at", "BM");
	assert_json_is(out, "transitions/1/from", "requestors");
	assert_json_is(out, "transitions/1/to", "DI");
	assert_json_number(out, "transitions/1/count", 1);
	assert_json_number(out, "transitions/1/probability", 1.0 / 3);
	assert_json_number(out, "transitions/2/probability", 2.0 / 3);
	assert_json_is(out, "transitions/3/at", "DI");
	assert_null(json_at(out, "transitions/4"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_columns_by_name),
		cmocka_unit_test(csv_errors_name_file_and_line),
		cmocka_unit_test(csv_exit_reason),
		cmocka_unit_test(mtime_interpolates),
		cmocka_unit_test(mtime_errors),
		cmocka_unit_test(assignments),
		cmocka_unit_test(parallel_command_on_csv),
		cmocka_unit_test(parallel_assign_on_csv),
		cmocka_unit_test(parallel_command_errors),
		cmocka_unit_test(parallel_completion_in_virtual_time),
		cmocka_unit_test(stats_command_on_csv),
		cmocka_unit_test(causality_command_on_csv),
		cmocka_unit_test(inconsistent_trace_is_refused_by_every_analysis),
		cmocka_unit_test(causality_branching_and_state_diagram),
		cmocka_unit_test(json_reader_refuses_bad_json),
		cmocka_unit_test(parallel_json),
		cmocka_unit_test(stats_json),
		cmocka_unit_test(causality_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

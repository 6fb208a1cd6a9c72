/*
 * tests/unit/test_control.c - the controller's interpreter against fake
 * nodes: Fig. 4.2 (every transition, allowed and refused), setflags words,
 * the Appendix B session's output, refusals that change nothing, ended
 * processes (new or acquired) removable, acquired processes, bad commands,
 * die, source nesting and sink.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel/abi/calls.h"
#include "qemu/control/control.h"
#include "kernel/abi/trace.h"

/* ---- fake nodes: every request is logged; a machine named "down" fails */

static char calls[4096];
static uint32_t next_pid;

static void note(const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(calls);
	va_start(ap, fmt);
	vsnprintf(calls + used, sizeof calls - used, fmt, ap);
	va_end(ap);
}

static int fake_create(void *ctx, const char *machine, char *const argv[], const char *input, uint32_t flags,
		       const char *filter, uint32_t *task, char *err, size_t errlen)
{
	(void)ctx;
	if (!strcmp(machine, "down")) {
		snprintf(err, errlen, "node down is not connected");
		return -1;
	}
	note("create %s %s flags=%x filter=%s input=%s;", machine, argv[0], flags, filter, input ? input : "-");
	*task = (uint32_t)(machine[1] - '0') << 16 | ++next_pid;
	return 0;
}

static int fake_setmeter(void *ctx, uint32_t task, uint32_t flags, const char *filter, char *err, size_t n)
{
	(void)ctx; (void)err; (void)n;
	note("setmeter %x %x %s;", task, flags, filter ? filter : "-");
	return 0;
}

#define FAKE_OP(op) \
	static int fake_##op(void *ctx, uint32_t task, char *err, size_t n) \
	{ (void)ctx; (void)err; (void)n; note(#op " %x;", task); return 0; }
FAKE_OP(start)
FAKE_OP(stop)
FAKE_OP(kill)

static int fake_acquire(void *ctx, const char *machine, uint32_t pid, uint32_t *task, char *err, size_t n)
{
	(void)ctx; (void)err; (void)n;
	note("acquire %s %u;", machine, pid);
	*task = (uint32_t)(machine[1] - '0') << 16 | pid;
	return 0;
}

static int fake_input(void *ctx, uint32_t task, const char *bytes, size_t len, char *err, size_t n)
{
	(void)ctx; (void)err; (void)n;
	note("input %x %.*s%s;", task, (int)len, bytes ? bytes : "", len ? "" : "EOF");
	return 0;
}

static int fake_sync_log(void *ctx, const char *filter, const char *log, char *err, size_t n)
{
	(void)ctx; (void)err; (void)n;
	note("sync %s %s;", filter, log);
	return 0;
}

static void fake_poll(void *ctx, int ms) { (void)ctx; (void)ms; }

static const struct control_nodes fake = {
	.create = fake_create, .setmeter = fake_setmeter, .start = fake_start, .stop = fake_stop,
	.kill = fake_kill, .acquire = fake_acquire, .input = fake_input, .sync_log = fake_sync_log,
	.poll = fake_poll,
};

/* ---- the controller under test, its output captured ------------------- */

static struct control ctl;
static char *out_text, *err_text;
static size_t out_len, err_len;

static int setup(void **state)
{
	(void)state;
	calls[0] = '\0';
	next_pid = 4;
	control_init(&ctl, &fake, "/tmp/cluster");
	ctl.terminal = ctl.out = open_memstream(&out_text, &out_len);
	ctl.err = open_memstream(&err_text, &err_len);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	control_fini(&ctl);
	fclose(ctl.terminal);
	free(out_text);
	fclose(ctl.err);
	free(err_text);
	return 0;
}

/* What was written to *stream so far (and forget it: a fresh stream). */
static const char *take(FILE **stream, char **text, size_t *len, char *copy, size_t size)
{
	fflush(*stream);
	snprintf(copy, size, "%s", *text);
	fclose(*stream);
	free(*text);
	*stream = open_memstream(text, len);
	return copy;
}

static const char *out(void)
{
	static char copy[8192];
	take(&ctl.terminal, &out_text, &out_len, copy, sizeof copy);
	if (!ctl.sink)
		ctl.out = ctl.terminal;
	return copy;
}

static const char *errs(void)
{
	static char copy[8192];
	return take(&ctl.err, &err_text, &err_len, copy, sizeof copy);
}

static enum control_result run(const char *line)
{
	return control_line(&ctl, line, "t", 0);
}

/* A job foo with processes A on n1 and B on n2, both new. */
static void build_foo(void)
{
	assert_int_equal(run("filter meter"), CR_OK);
	assert_int_equal(run("newjob foo"), CR_OK);
	assert_int_equal(run("addprocess foo n1 A"), CR_OK);
	assert_int_equal(run("add foo n2 B x y"), CR_OK);
	out();
	calls[0] = '\0';
}

static enum pstate state_of(const char *name)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (ctl.procs[i].in_use && !strcmp(ctl.procs[i].name, name))
			return ctl.procs[i].state;
	fail_msg("no process %s", name);
	return PS_KILLED;
}

/* ---- Fig. 4.2 --------------------------------------------------------- */

static void test_every_transition(void **state)
{
	(void)state;
	/* rows: from new, running, stopped, killed, acquired, done; columns:
	 * start, stop, end, exit, remove; -1: refused.  An end is reported,
	 * not commanded: it kills a process in any live state, even a new one
	 * (its node went down); a normal exit makes it done, even an acquired
	 * one (the server exited). */
	static const int want[6][5] = {
		[PS_NEW] = { PS_RUNNING, PS_STOPPED, PS_KILLED, PS_DONE, -1 },
		[PS_RUNNING] = { -1, PS_STOPPED, PS_KILLED, PS_DONE, -1 },
		[PS_STOPPED] = { PS_RUNNING, -1, PS_KILLED, PS_DONE, PS_KILLED },
		[PS_KILLED] = { -1, -1, -1, -1, -1 },
		[PS_ACQUIRED] = { -1, -1, PS_KILLED, PS_DONE, -1 },
		[PS_DONE] = { -1, -1, -1, -1, -1 },
	};
	for (int s = PS_NEW; s <= PS_DONE; s++)
		for (int e = PE_START; e <= PE_REMOVE; e++) {
			const char *why = NULL;
			int got = pstate_next((enum pstate)s, (enum pevent)e, &why);
			if (got != want[s][e])
				fail_msg("from %s event %d: got %d, want %d", pstate_name((enum pstate)s), e, got, want[s][e]);
			if (got < 0)
				assert_non_null(why);
		}
	assert_false(pstate_active(PS_KILLED));
	assert_false(pstate_active(PS_DONE));
	assert_true(pstate_active(PS_ACQUIRED));
	assert_string_equal(pstate_name(PS_DONE), "done");
}

static void test_flags(void **state)
{
	(void)state;
	uint32_t m = 0;
	char text[256];
	assert_int_equal(control_flag_apply("send", &m), 0);
	assert_int_equal(control_flag_apply("RECEIVE", &m), 0);
	assert_int_equal(control_flag_apply("fork", &m), 0);
	assert_int_equal(m, METER_FLAG(TRACE_SEND) | METER_FLAG(TRACE_RECEIVE) | METER_FLAG(TRACE_CREATEPROCESS));
	control_flags_format(m, text, sizeof text);
	assert_string_equal(text, "SEND RECEIVE CREATEPROCESS");
	assert_int_equal(control_flag_apply("-send", &m), 0);
	assert_int_equal(m, METER_FLAG(TRACE_RECEIVE) | METER_FLAG(TRACE_CREATEPROCESS));
	assert_int_equal(control_flag_apply("all", &m), 0);
	assert_false(m & METER_FLAG(TRACE_DROPPED));
	assert_int_equal(control_flag_apply("-all", &m), 0);
	assert_int_equal(m, 0);
	control_flags_format(m, text, sizeof text);
	assert_string_equal(text, "none");
	assert_int_equal(control_flag_apply("accept", &m), -1);
	assert_int_equal(control_flag_apply("-", &m), -1);
}

static void test_split(void **state)
{
	(void)state;
	char line[] = "  add\tfoo n1  A  # a comment\n";
	char *w[8];
	assert_int_equal(control_split(line, w, 8), 4);
	assert_string_equal(w[0], "add");
	assert_string_equal(w[3], "A");
	char many[] = "a b c d";
	assert_int_equal(control_split(many, w, 3), -1);
	char blank[] = "   # only a comment";
	assert_int_equal(control_split(blank, w, 8), 0);
}

/* ---- the Appendix B session ------------------------------------------- */

static void test_appendix_b_session(void **state)
{
	(void)state;
	assert_int_equal(run("filter meter"), CR_OK);
	assert_string_equal(out(), "filter 'meter' is the cluster's host service 'meter': log /tmp/cluster/meter.log\n");
	assert_int_equal(run("newjob foo"), CR_OK);
	assert_int_equal(run("addprocess foo n1 A"), CR_OK);
	assert_int_equal(run("addprocess foo n2 B"), CR_OK);
	assert_string_equal(out(), "process 'A' was created: identifier = 1.5\n"
				   "process 'B' was created: identifier = 2.6\n");
	assert_int_equal(run("setflags foo send receive fork"), CR_OK);
	assert_string_equal(out(), "new job flags = SEND RECEIVE CREATEPROCESS\n"
				   "Process 'A' : Flags set\nProcess 'B' : Flags set\n");
	assert_int_equal(run("startjob foo"), CR_OK);
	assert_string_equal(out(), "'A' started.\n'B' started.\n");
	assert_string_equal(calls, "create n1 A flags=0 filter=meter input=-;create n2 B flags=0 filter=meter input=-;"
				   "setmeter 10005 10a meter;setmeter 20006 10a meter;start 10005;start 20006;");
	control_process_output(&ctl, 0x20006, "hello\nwor", 10);
	control_process_output(&ctl, 0x20006, "ld\nand", 6);
	assert_string_equal(out(), "B: hello\nB: world\n");     /* a split line put together */
	control_process_ended(&ctl, 0x20006, EXIT_NORMAL, 0);
	control_process_ended(&ctl, 0x10005, EXIT_NORMAL, 0);
	control_process_ended(&ctl, 0x10005, EXIT_NORMAL, 3); /* reported once */
	assert_string_equal(out(), "B: and\n"                     /* its last partial line, at its end */
				   "  DONE: process B in job 'foo' terminated: reason: normal\n"
				   "  DONE: process A in job 'foo' terminated: reason: normal\n");
	assert_int_equal(run("rmjob foo"), CR_OK);
	assert_string_equal(out(), "'A' removed\n'B' removed\n");
	assert_int_equal(run("jobs"), CR_OK);
	assert_string_equal(out(), "no jobs\n");
	assert_int_equal(run("bye"), CR_EXIT);
	assert_string_equal(errs(), "");
}

static void test_flags_accumulate_and_reach_new_processes(void **state)
{
	(void)state;
	build_foo();
	run("setflags foo send");
	run("setflags foo receive");
	assert_string_equal(out(), "new job flags = SEND\nProcess 'A' : Flags set\nProcess 'B' : Flags set\n"
				   "new job flags = SEND RECEIVE\nProcess 'A' : Flags set\nProcess 'B' : Flags set\n");
	calls[0] = '\0';
	run("add foo n1 A");
	assert_string_equal(out(), "process 'A.2' was created: identifier = 1.7\n");
	assert_string_equal(calls, "create n1 A flags=a filter=meter input=-;");
	/* an unknown event changes nothing, and every unknown one is named */
	assert_int_equal(run("setflags foo send bogus"), CR_USAGE);
	assert_string_equal(errs(), "t: unknown event 'bogus': no flags set (try 'help setflags')\n");
	assert_int_equal(ctl.jobs[0].flags, METER_FLAG(TRACE_SEND) | METER_FLAG(TRACE_RECEIVE));
	calls[0] = '\0';
	assert_int_equal(run("setflags foo foo fork send accept receive connect"), CR_USAGE);
	assert_string_equal(errs(), "t: unknown events 'foo', 'accept', 'connect': no flags set "
				    "(try 'help setflags')\n");
	assert_int_equal(ctl.jobs[0].flags, METER_FLAG(TRACE_SEND) | METER_FLAG(TRACE_RECEIVE));
	assert_string_equal(calls, ""); /* no process was touched */
	assert_string_equal(out(), "");
}

/* ---- refusals ----------------------------------------------------------- */

static void test_remove_new_job_is_refused_and_changes_nothing(void **state)
{
	(void)state;
	build_foo();
	assert_int_equal(run("rmjob foo"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is new: stop the job first (a new process is never killed directly)\n"
				    "t: 'B' is new: stop the job first (a new process is never killed directly)\n"
				    "t: job 'foo' not removed\n");
	assert_string_equal(calls, "");
	assert_int_equal(state_of("A"), PS_NEW);
	assert_int_equal(run("stopjob foo"), CR_OK);
	assert_int_equal(state_of("A"), PS_STOPPED);
	assert_int_equal(run("stopjob foo"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is already stopped\nt: 'B' is already stopped\n");
	calls[0] = '\0';
	assert_int_equal(run("rmjob foo"), CR_OK);
	assert_string_equal(calls, "kill 10005;kill 20006;");
}

static void test_running_cannot_be_started_or_removed(void **state)
{
	(void)state;
	build_foo();
	run("startjob foo");
	out();
	calls[0] = '\0';
	assert_int_equal(run("startjob foo"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is already running\nt: 'B' is already running\n");
	assert_int_equal(run("removeprocess foo A"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is running: stop the job first, or wait for it to end\n");
	assert_string_equal(calls, "");
	control_process_ended(&ctl, 0x10005, EXIT_FAULT_MEMORY, -1);
	assert_string_equal(out(), "  DONE: process A in job 'foo' terminated: reason: memory fault\n");
	assert_int_equal(run("startjob foo"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is killed: it cannot be restarted\nt: 'B' is already running\n");
	assert_int_equal(run("removeprocess foo A"), CR_OK);
	assert_string_equal(out(), "'A' removed\n");
	assert_string_equal(calls, "");
}

/* A new process whose node goes down, and an acquired one that ends: both
 * are killed, so they can be removed (with no call to their node) and no
 * longer count as active; the new process beside them is still refused. */
static void test_ended_process_is_removable_and_inactive(void **state)
{
	(void)state;
	build_foo();
	assert_int_equal(run("acquire foo n3 7"), CR_OK);
	out();
	control_process_ended(&ctl, 0x20006, EXIT_NODE_DOWN, 0);
	assert_string_equal(out(), "  DONE: process B in job 'foo' terminated: reason: node down\n");
	assert_int_equal(state_of("B"), PS_KILLED);
	control_process_ended(&ctl, 0x30007, EXIT_NORMAL, 0);
	out();
	assert_int_equal(state_of("n3.7"), PS_DONE);
	calls[0] = '\0';
	assert_int_equal(run("die"), CR_OK); /* only A is active now */
	assert_string_equal(errs(), "t: 1 process is still active (new, running, stopped or acquired); "
				    "die again to leave them as they are\n");
	assert_int_equal(run("rmjob foo"), CR_FAILED); /* A is still new */
	assert_string_equal(errs(), "t: 'A' is new: stop the job first (a new process is never killed directly)\n"
				    "t: job 'foo' not removed\n");
	assert_int_equal(run("removeprocess foo B"), CR_OK);
	assert_int_equal(run("removeprocess foo n3.7"), CR_OK);
	assert_string_equal(out(), "'B' removed\n'n3.7' removed\n");
	assert_string_equal(errs(), "");
	assert_string_equal(calls, ""); /* no kill, no setmeter: they are gone */
	control_process_ended(&ctl, 0x10005, EXIT_NODE_DOWN, 0);
	out();
	assert_int_equal(run("rmjob foo"), CR_OK);
	assert_string_equal(out(), "'A' removed\n");
	assert_int_equal(run("die"), CR_EXIT); /* nothing active: no warning */
	assert_string_equal(errs(), "");
}

static void test_acquired_is_only_metered(void **state)
{
	(void)state;
	build_foo();
	run("setflags foo send");
	calls[0] = '\0';
	out();
	assert_int_equal(run("acquire foo n3 7"), CR_OK);
	assert_string_equal(out(), "process 'n3.7' was acquired: identifier = 3.7\n");
	assert_string_equal(calls, "acquire n3 7;setmeter 30007 2 meter;");
	calls[0] = '\0';
	assert_int_equal(run("startjob foo"), CR_OK); /* the others start; the acquired one is told of */
	assert_string_equal(errs(), "");
	assert_string_equal(out(), "'A' started.\n'B' started.\n'n3.7' is acquired: it can only be metered.\n");
	assert_int_equal(state_of("n3.7"), PS_ACQUIRED);
	assert_int_equal(run("stopjob foo"), CR_OK); /* acquired ones are passed over */
	assert_string_equal(errs(), "");
	assert_int_equal(state_of("n3.7"), PS_ACQUIRED);
	calls[0] = '\0';
	assert_int_equal(run("removeprocess foo n3.7"), CR_OK);
	assert_string_equal(calls, "setmeter 30007 0 -;");
	assert_int_equal(run("acquire foo n3 0"), CR_USAGE);
	assert_string_equal(errs(), "t: '0' is not a process identifier (1 to 65535)\n");
}

/* --porcelain: created, acquired and ended processes as tab-separated
 * lines (docs/control.md), to the reports stream when one is set; every
 * other line as for people. */
static void test_porcelain_reports(void **state)
{
	(void)state;
	ctl.porcelain = 1;
	assert_int_equal(run("filter meter"), CR_OK);
	assert_int_equal(run("newjob foo"), CR_OK);
	assert_int_equal(run("addprocess foo n1 A"), CR_OK);
	assert_int_equal(run("addprocess foo n2 A"), CR_OK);
	assert_int_equal(run("acquire foo n3 7"), CR_OK);
	assert_string_equal(out(), "filter 'meter' is the cluster's host service 'meter': log /tmp/cluster/meter.log\n"
				   "created\tA\t1.5\tn1\tfoo\n"
				   "created\tA.2\t2.6\tn2\tfoo\n"
				   "acquired\tn3.7\t3.7\tn3\tfoo\n");
	assert_int_equal(run("startjob foo"), CR_OK);
	out();
	control_process_output(&ctl, 0x10005, "hi\n", 3);
	control_process_ended(&ctl, 0x10005, EXIT_NORMAL, 3);
	control_process_ended(&ctl, 0x20006, EXIT_KILLED, 0);
	assert_string_equal(out(), "A: hi\n"
				   "ended\tA\t1.5\tn1\tfoo\tnormal, status 3\n"
				   "ended\tA.2\t2.6\tn2\tfoo\tkilled\n");
	char *reports_text = NULL;
	size_t reports_len = 0;
	ctl.reports = open_memstream(&reports_text, &reports_len);
	assert_int_equal(run("addprocess foo n1 B"), CR_OK);
	fclose(ctl.reports);
	ctl.reports = NULL;
	assert_string_equal(reports_text, "created\tB\t1.7\tn1\tfoo\n");
	assert_string_equal(out(), "");
	free(reports_text);
	assert_string_equal(errs(), "");
}

static void test_bad_commands(void **state)
{
	(void)state;
	assert_int_equal(run("frobnicate"), CR_USAGE);
	assert_int_equal(run("newjob foo"), CR_FAILED);
	assert_int_equal(run("filter"), CR_OK);
	assert_int_equal(run("filter meter"), CR_OK);
	assert_int_equal(run("filter meter"), CR_FAILED);
	assert_int_equal(run("newjob foo nosuch"), CR_FAILED);
	assert_int_equal(run("newjob foo"), CR_OK);
	assert_int_equal(run("newjob foo"), CR_FAILED);
	assert_int_equal(run("addprocess foo n1"), CR_USAGE);
	assert_int_equal(run("addprocess bar n1 A"), CR_USAGE);
	assert_int_equal(run("addprocess foo down A"), CR_FAILED);
	assert_int_equal(run("addprocess foo n1 A < /nonexistent/input"), CR_FAILED);
	assert_int_equal(run("addprocess foo n1 A < x y"), CR_USAGE);
	assert_int_equal(run("startjob"), CR_USAGE);
	assert_int_equal(run("jobs nosuch"), CR_USAGE);
	assert_int_equal(run("getlog meter"), CR_USAGE);
	assert_string_equal(errs(),
		"t: unknown command 'frobnicate' (try 'help')\n"
		"t: no filter yet: a job needs one ('filter SERVICE')\n"
		"t: filter 'meter' already exists\n"
		"t: no filter 'nosuch' (see 'filter')\n"
		"t: job 'foo' already exists\n"
		"t: usage: addprocess JOB MACHINE PROGRAM [ARGS...] [< FILE]\n"
		"t: no job 'bar' (see 'jobs')\n"
		"t: cannot create 'A' on down: node down is not connected\n"
		"t: cannot read standard input file '/nonexistent/input': No such file or directory\n"
		"t: '<' must be followed by one file, at the end of the line\n"
		"t: usage: startjob JOB\n"
		"t: no job 'nosuch' (see 'jobs')\n"
		"t: usage: getlog FILTER DESTINATION\n");
	assert_string_equal(calls, "");
	assert_int_equal(ctl.worst, CR_USAGE);
	assert_int_equal(ctl.last, CR_USAGE);
	/* a prompt's status is its last command's: one that works clears it */
	assert_int_equal(run("jobs"), CR_OK);
	assert_int_equal(ctl.last, CR_OK);
	assert_int_equal(ctl.worst, CR_USAGE);
	assert_int_equal(run("jobs foo x y"), CR_USAGE);
	assert_string_equal(errs(), "t: no jobs 'x', 'y' (see 'jobs')\n");
	out();
}

/* The cluster has host services meter and other; ctl is the hub. */
static int fake_has_service(void *ctx, const char *name, char *list, size_t n)
{
	(void)ctx;
	snprintf(list, n, "meter other");
	return !strcmp(name, "meter") || !strcmp(name, "other");
}

static void test_filter_must_be_a_service_of_the_cluster(void **state)
{
	(void)state;
	ctl.nodes.has_service = fake_has_service;
	/* the 1984 manual's form 'filter NAME MACHINE' names no service here */
	assert_int_equal(run("filter f1 n2"), CR_USAGE);
	assert_string_equal(errs(), "t: the cluster has no host service 'f1' (its filters: meter other); "
				    "usage: filter SERVICE [LOG], SERVICE a 'service' line of the cluster "
				    "file\n");
	assert_int_equal(run("filter"), CR_OK);
	assert_string_equal(out(), "no filters\n");
	assert_int_equal(run("filter other"), CR_OK);
	assert_int_equal(ctl.default_filter, 0);
	ctl.nodes.has_service = NULL;
}

/* A process that ended on its own reads done in jobs; one that was killed
 * or faulted reads killed. */
static void test_normal_end_reads_done(void **state)
{
	(void)state;
	build_foo();
	run("startjob foo");
	out();
	control_process_ended(&ctl, 0x10005, EXIT_NORMAL, 0);
	control_process_ended(&ctl, 0x20006, EXIT_KILLED, 0);
	out();
	assert_int_equal(run("jobs foo"), CR_OK);
	const char *text = out();
	assert_non_null(strstr(text, "1.5        done      A "));
	assert_non_null(strstr(text, "2.6        killed    B "));
	assert_int_equal(run("startjob foo"), CR_FAILED);
	assert_string_equal(errs(), "t: 'A' is done: it ended, it cannot be restarted\n"
				    "t: 'B' is killed: it cannot be restarted\n");
	assert_int_equal(run("rmjob foo"), CR_OK);
}

static void test_die_warns_once_while_active(void **state)
{
	(void)state;
	build_foo();
	assert_int_equal(run("die"), CR_OK);
	assert_string_equal(errs(), "t: 2 processes are still active (new, running, stopped or acquired); "
				    "die again to leave them as they are\n");
	assert_int_equal(run("jobs"), CR_OK); /* not repeated at once: warns again */
	assert_int_equal(run("exit"), CR_OK);
	assert_int_equal(run("bye"), CR_EXIT);
}

/* ---- source and sink -------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_source_nesting_and_sink(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_control_XXXXXX", a[64], b[64], self[64], sunk[64], cmd[128];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	snprintf(self, sizeof self, "%s/self", dir);
	snprintf(sunk, sizeof sunk, "%s/out", dir);
	char text[256];
	snprintf(text, sizeof text, "sink %s\nfilter meter\nsource %s\nsink\n", sunk, b);
	write_file(a, text);
	write_file(b, "newjob foo\njobs\n");
	snprintf(cmd, sizeof cmd, "source %s", a);
	assert_int_equal(run(cmd), CR_OK);
	assert_string_equal(out(), "");
	FILE *f = fopen(sunk, "r");
	assert_non_null(f);
	char got[512] = "";
	size_t n = fread(got, 1, sizeof got - 1, f);
	got[n] = '\0';
	fclose(f);
	assert_string_equal(got, "filter 'meter' is the cluster's host service 'meter': log /tmp/cluster/meter.log\n"
				 "1 foo filter 'meter'\n");
	/* a script that sources itself stops at depth 16, with the line that did it */
	snprintf(text, sizeof text, "source %s\n", self);
	write_file(self, text);
	snprintf(cmd, sizeof cmd, "source %s", self);
	run(cmd);
	char want[256];
	snprintf(want, sizeof want, "%s:1: source nested more than 16 deep\n", self);
	assert_string_equal(errs(), want);
	assert_int_equal(run("source /nonexistent/script"), CR_FAILED);
	assert_string_equal(errs(), "source: cannot read /nonexistent/script: No such file or directory\n");
	unlink(a); unlink(b); unlink(self); unlink(sunk);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_transition),
		cmocka_unit_test_setup_teardown(test_filter_must_be_a_service_of_the_cluster, setup, teardown),
		cmocka_unit_test_setup_teardown(test_normal_end_reads_done, setup, teardown),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_split),
		cmocka_unit_test_setup_teardown(test_appendix_b_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flags_accumulate_and_reach_new_processes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_new_job_is_refused_and_changes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_running_cannot_be_started_or_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ended_process_is_removable_and_inactive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_acquired_is_only_metered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_porcelain_reports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_die_warns_once_while_active, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_nesting_and_sink, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

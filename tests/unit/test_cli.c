/*
 * tests/unit/test_cli.c - dpm's command-line conventions (docs/cli.md),
 * checked on the built binary over every subcommand its own --help lists:
 * `dpm --version`, `dpm help CMD` printing what `dpm CMD --help` prints,
 * exit status 2 and a message for an unknown option, and exit status 2
 * with the byte and what was expected for a truncated log, a log with
 * four bytes overwritten and a random binary, in every command that reads
 * a trace.  The binary is found beside this test (BUILD/tests/unit/ or unit-asan/ ->
 * BUILD/bin/dpm), which check-unit builds first.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_filter_support.h"

static char dpm[PATH_MAX + 16];

static void find_dpm(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	assert_true(n > 0);
	self[n] = '\0';
	for (int up = 0; up < 3; up++) /* BUILD/tests/unit/test_cli -> BUILD */
		*strrchr(self, '/') = '\0';
	snprintf(dpm, sizeof dpm, "%s/bin/dpm", self);
	if (access(dpm, X_OK))
		fail_msg("%s not built (make check-unit builds it)", dpm);
}

struct run {
	int status;
	char *out, *err;
};

/* Run dpm with args (NULL-terminated), with extra environment words. */
static struct run run_env(const char *env, const char *const *args)
{
	const char *argv[32] = { "dpm" };
	int n = 1;
	for (; args[n - 1]; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	char out[PATH_MAX], err[PATH_MAX];
	snprintf(out, sizeof out, "%s/run.out", tf_dir());
	snprintf(err, sizeof err, "%s/run.err", tf_dir());
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr) ||
		    !freopen("/dev/null", "r", stdin))
			_exit(99);
		if (env)
			putenv((char *)env);
		execv(dpm, (char **)argv);
		_exit(98);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	struct run r = { WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), tf_read_file(out),
			 tf_read_file(err) };
	return r;
}

#define RUN(...) run_env(NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void done(struct run *r)
{
	free(r->out);
	free(r->err);
}

static void test_version(void **state)
{
	(void)state;
	struct run a = RUN("--version"), b = RUN("version");
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	assert_string_equal(a.out, b.out);
	assert_non_null(strstr(a.out, "dpm version "));
	assert_non_null(strstr(a.out, "log format 2"));
	done(&a);
	done(&b);
}

/* The subcommands `dpm --help` lists ("  NAME  summary" lines). */
static int subcommands(char names[][32], int max)
{
	struct run r = RUN("--help");
	assert_int_equal(r.status, 0);
	int n = 0;
	for (char *line = strtok(r.out, "\n"); line && n < max; line = strtok(NULL, "\n")) {
		char name[32];
		if (line[0] == ' ' && line[1] == ' ' && sscanf(line, " %31s", name) == 1)
			snprintf(names[n++], 32, "%s", name);
	}
	done(&r);
	return n;
}

static void test_help_cmd_is_cmd_help_for_every_command(void **state)
{
	(void)state;
	char names[32][32];
	int n = subcommands(names, 32);
	assert_true(n >= 11);
	for (int i = 0; i < n; i++) {
		struct run h = RUN("help", names[i]), o = RUN(names[i], "--help");
		if (h.status != 0 || o.status != 0 || strcmp(h.out, o.out) || !strstr(o.out, "usage: dpm"))
			fail_msg("dpm help %s (%d) and dpm %s --help (%d) differ or fail", names[i],
				 h.status, names[i], o.status);
		done(&h);
		done(&o);
	}
	struct run r = RUN("help", "nosuch");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'nosuch' is not a dpm command"));
	done(&r);
}

static void test_unknown_option_is_usage_error_everywhere(void **state)
{
	(void)state;
	char names[32][32];
	int n = subcommands(names, 32);
	for (int i = 0; i < n; i++) {
		struct run r = RUN(names[i], "--no-such-option");
		if (r.status != 2 || !r.err[0])
			fail_msg("dpm %s --no-such-option: exit %d, stderr '%s' (want 2 and a message)",
				 names[i], r.status, r.err);
		done(&r);
	}
	struct run r = RUN("nosuch");
	assert_int_equal(r.status, 2);
	done(&r);
}

/* Every command that reads a trace, on path: its arguments. */
static void readers(const char *path, const char *cmds[][8])
{
	static char report_dir[PATH_MAX], run_arg[PATH_MAX + 8];
	snprintf(report_dir, sizeof report_dir, "%s/report", tf_dir());
	snprintf(run_arg, sizeof run_arg, "r=%s", path);
	const char *list[][8] = {
		{ "dump", path },
		{ "dump", "--csv", path },
		{ "stats", path },
		{ "parallel", path },
		{ "causality", "--requestors", "1.3", path },
		{ "report", "-o", report_dir, run_arg },
	};
	memcpy(cmds, list, sizeof list);
}

static void each_reader_says(const char *path, const char *want)
{
	const char *cmds[6][8];
	readers(path, cmds);
	for (int i = 0; i < 6; i++) {
		struct run r = run_env(NULL, cmds[i]);
		if (r.status != 2 || !strstr(r.err, want))
			fail_msg("dpm %s on %s: exit %d, stderr '%s'; want 2 and '%s'", cmds[i][0], path,
				 r.status, r.err, want);
		done(&r);
	}
}

static void test_damaged_logs_are_bad_input_in_every_reader(void **state)
{
	(void)state;
	uint8_t stream[4096];
	size_t len = tf_message_batch(stream, 0);
	char path[PATH_MAX], want[256];

	/* truncated: 5 bytes short of its one block */
	snprintf(path, sizeof path, "%s/cut.log", tf_dir());
	tf_make_log(path, NULL, stream, len);
	char *text = tf_read_file(path);
	long block = (long)(strstr(text, "records\nDBLK") + 8 - text);
	free(text);
	tf_truncate_by(path, 5);
	snprintf(want, sizeof want, "cut.log: byte %ld: log ends inside a block (16 + 292 bytes of "
				    "block expected, 303 present): truncated log", block);
	each_reader_says(path, want);

	/* four bytes overwritten inside a record */
	snprintf(path, sizeof path, "%s/hit.log", tf_dir());
	tf_make_log(path, NULL, stream, len);
	tf_overwrite(path, block + 16 + 40, "\xff\xff\xff\x00", 4);
	snprintf(want, sizeof want, "hit.log: byte %ld: the block of 292 bytes has checksum ", block);
	each_reader_says(path, want);

	/* random bytes */
	uint8_t junk[2048];
	uint32_t x = 2463534242u;
	for (size_t i = 0; i < sizeof junk; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		junk[i] = (uint8_t)x;
	}
	snprintf(path, sizeof path, "%s/junk.bin", tf_dir());
	tf_write_bytes(path, junk, sizeof junk);
	each_reader_says(path, "junk.bin: not a DPM log or trace CSV");

	/* a log of the format before checksums */
	snprintf(path, sizeof path, "%s/v1.log", tf_dir());
	tf_write_file(path, "DPMLOG 1\ndescriptions 9\nSEND 1.;\nrecords\n");
	each_reader_says(path, "v1.log: a DPM log of format 1, which this dpm does not read");
}

/* TRACE.names beside a trace: names in every analysis, roles for causality. */
static void test_names_beside_the_trace(void **state)
{
	(void)state;
	char trace[PATH_MAX], names[PATH_MAX + 8];
	snprintf(trace, sizeof trace, "%s/ab.csv", tf_dir());
	snprintf(names, sizeof names, "%s.names", trace);
	tf_write_file(trace, "msg_id,type,cpu_ns,time_ns,src,dst,length\n"
			     "0x1,SEND,10,100,1.1,2.1,8\n0x1,RECEIVE,0,150,1.1,2.1,8\n"
			     "0x2,SEND,20,200,2.1,1.1,8\n0x2,RECEIVE,10,250,2.1,1.1,8\n");
	struct run r = RUN("causality", trace);
	assert_int_equal(r.status, 2); /* no roles anywhere: told how */
	assert_non_null(strstr(r.err, "'dpm record' writes TRACE.names"));
	done(&r);
	tf_write_file(names, "# as dpm record writes it\n1.1 client#1 requestor # a comment\n"
			     "3.9 gone requestor\n"); /* 3.9: not in the trace, skipped */
	r = RUN("stats", trace);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nclient#1 ")); /* '#' inside a word is no comment */
	assert_non_null(strstr(r.out, "\n2.1 "));
	done(&r);
	r = RUN("parallel", trace);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "client#1"));
	done(&r);
	r = RUN("causality", trace);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ": 1 requests from requestors into servers"));
	done(&r);
	tf_write_file(names, "1.1 client boss\n");
	r = RUN("stats", trace);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "ab.csv.names:1:12: want 'node.pid NAME ROLE'"));
	done(&r);
}

/* A script record cannot read is bad input, said before any cluster is
 * booted (it used to boot one, run nothing and exit 0). */
static void test_record_refuses_an_unreadable_script(void **state)
{
	(void)state;
	char dir[PATH_MAX], log[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/nocluster", tf_dir());
	snprintf(log, sizeof log, "%s/s.log", tf_dir());
	struct run r = RUN("record", "--dir", dir, "-o", log, "-f", "/nonexistent/script.ctl");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "dpm record: cannot read /nonexistent/script.ctl: No such file or "
				   "directory\n");
	assert_int_equal(access(dir, F_OK), -1); /* nothing made, nothing booted */
	assert_int_equal(access(log, F_OK), -1);
	done(&r);
}

static void test_record_refuses_an_unknown_program_before_booting(void **state)
{
	(void)state;
	char kernel[PATH_MAX + 32], env[PATH_MAX + 64], log[PATH_MAX], dir[PATH_MAX];
	snprintf(kernel, sizeof kernel, "%.*s/x86/kernel.elf", (int)(strlen(dpm) - 8), dpm);
	if (access(kernel, R_OK))
		skip(); /* no guest build: the check has no boot image to read */
	snprintf(env, sizeof env, "DPM_KERNEL=%s", kernel);
	snprintf(log, sizeof log, "%s/rec.log", tf_dir());
	snprintf(dir, sizeof dir, "%s/cluster", tf_dir());
	struct run r = run_env(env, (const char *const[]){ "record", "--dir", dir, "-o", log, "--",
							   "nosuchprog", NULL });
	assert_int_equal(r.status, 126);
	assert_non_null(strstr(r.err, "dpm record: no program 'nosuchprog' in the boot image"));
	assert_non_null(strstr(r.err, " hello "));
	assert_null(strstr(r.err, "booting")); /* nothing was booted */
	assert_int_equal(access(log, F_OK), -1);
	done(&r);
}

int main(void)
{
	find_dpm();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_help_cmd_is_cmd_help_for_every_command),
		cmocka_unit_test(test_unknown_option_is_usage_error_everywhere),
		cmocka_unit_test(test_damaged_logs_are_bad_input_in_every_reader),
		cmocka_unit_test(test_names_beside_the_trace),
		cmocka_unit_test(test_record_refuses_an_unreadable_script),
		cmocka_unit_test(test_record_refuses_an_unknown_program_before_booting),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

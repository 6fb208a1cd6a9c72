/*
 * tests/unit/test_cluster_state.c - the state file (exact text, round trip,
 * malformed files), `dpm cluster status`'s lines for people and for
 * scripts (--porcelain), cleaning a state directory, recognising processes by
 * pid and start time, stopping them, the 127.0.0.1 port checks and reading
 * the switch's ports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/cluster/cluster_net.h"
#include "qemu/cluster/cluster_state.h"

static char err[1024];

static const char sample_text[] =
	"dpm-cluster-state 1\n"
	"supervisor 100 5000\n"
	"ready 1\n"
	"switch switch 101 5001 running\n"
	"service meter 40001 102 5002 running\n"
	"service ctl 7001 0 0 external\n"
	"node n1 1 x86 103 5003 running\n"
	"node n2 2 x86 104 5004 exit:65\n"
	"node n3 3 x86 105 5005 signal:9\n"
	"node n4 4 x86 0 0 not-started\n";

static void test_round_trip_is_exact(void **state)
{
	(void)state;
	struct cluster_state st;
	char out[4096];
	assert_int_equal(state_parse("state", sample_text, &st, err, sizeof err), 0);
	assert_int_equal(st.supervisor.pid, 100);
	assert_int_equal(st.ready, 1);
	assert_int_equal(st.nmembers, 7);
	assert_int_equal(st.members[1].port, 40001);
	assert_int_equal(st.members[2].state, MEMBER_EXTERNAL);
	assert_int_equal(st.members[4].end.code, 65);
	assert_int_equal(st.members[5].end.signal, 9);
	assert_int_equal(state_format(&st, out, sizeof out), 0);
	assert_string_equal(out, sample_text);
}

static void test_states_and_statuses_in_words(void **state)
{
	(void)state;
	struct cluster_state st;
	char status[32];
	assert_int_equal(state_parse("state", sample_text, &st, err, sizeof err), 0);
	const char *names[] = { "running", "running", "external", "running", "exited", "exited",
				"not-started" };
	const char *statuses[] = { "-", "-", "-", "-", "65", "SIGKILL", "-" };
	for (int i = 0; i < st.nmembers; i++) {
		assert_string_equal(member_state_name(&st.members[i]), names[i]);
		member_status(&st.members[i], status, sizeof status);
		assert_string_equal(status, statuses[i]);
	}
}

/* Each member of sample_text as `status` prints it, then the same with
 * --porcelain; and the cluster's own line in both forms. */
static void test_status_lines_for_people_and_scripts(void **state)
{
	(void)state;
	static const char *const people[] = {
		"switch       -   vde   101      running          -",
		"meter        -   -     102      running          40001",
		"ctl          -   -     -        external         7001",
		"n1           1   x86   103      running          -",
		"n2           2   x86   104      exited (65)      -",
		"n3           3   x86   105      exited (SIGKILL) -",
		"n4           4   x86   -        not-started      -",
	};
	static const char *const porcelain[] = {
		"switch\tswitch\t-\tvde\t101\trunning\t-\t-",
		"service\tmeter\t-\t-\t102\trunning\t-\t40001",
		"service\tctl\t-\t-\t-\texternal\t-\t7001",
		"node\tn1\t1\tx86\t103\trunning\t-\t-",
		"node\tn2\t2\tx86\t104\texited\t65\t-",
		"node\tn3\t3\tx86\t105\texited\tSIGKILL\t-",
		"node\tn4\t4\tx86\t-\tnot-started\t-\t-",
	};
	struct cluster_state st;
	char line[STATE_LINE_MAX];
	assert_int_equal(state_parse("state", sample_text, &st, err, sizeof err), 0);
	assert_int_equal(st.nmembers, 7);
	for (int i = 0; i < st.nmembers; i++) {
		member_status_line(&st.members[i], 0, line, sizeof line);
		assert_string_equal(line, people[i]);
		member_status_line(&st.members[i], 1, line, sizeof line);
		assert_string_equal(line, porcelain[i]);
	}
	cluster_status_line(100, "up", 0, "/c", line, sizeof line);
	assert_string_equal(line, "cluster in /c: up (supervisor pid 100)");
	cluster_status_line(100, "gone", 0, "/c", line, sizeof line);
	assert_string_equal(line, "cluster in /c: supervisor gone (supervisor pid 100)");
	cluster_status_line(100, "starting", 1, "/c", line, sizeof line);
	assert_string_equal(line, "cluster\t-\t-\t-\t100\tstarting\t-\t-");
}

static void test_find_node_by_name_or_id(void **state)
{
	(void)state;
	struct cluster_state st;
	assert_int_equal(state_parse("state", sample_text, &st, err, sizeof err), 0);
	assert_string_equal(state_find_node(&st, "n3")->name, "n3");
	assert_string_equal(state_find_node(&st, "2")->name, "n2");
	assert_null(state_find_node(&st, "9"));
	assert_null(state_find_node(&st, "switch")); /* not a node */
	assert_null(state_find_node(&st, "meter"));
}

static void test_malformed_state_files(void **state)
{
	(void)state;
	struct cluster_state st;
	assert_int_equal(state_parse("d/state", "dpm-cluster-state 2\n", &st, err, sizeof err), -1);
	assert_string_equal(err, "d/state:1: not a line of a cluster state file");
	assert_int_equal(state_parse("d/state", "dpm-cluster-state 1\nsupervisor 1 2\nnode n1 1 x86 3 4 dancing\n",
				     &st, err, sizeof err), -1);
	assert_string_equal(err, "d/state:3: not a line of a cluster state file");
	assert_int_equal(state_parse("d/state", "dpm-cluster-state 1\nready 0\n", &st, err, sizeof err), -1);
	assert_string_equal(err, "d/state: incomplete cluster state file");
	assert_int_equal(state_parse("d/state", "", &st, err, sizeof err), -1);
	assert_string_equal(err, "d/state: incomplete cluster state file");
}

static char tmpdir[64];

static void path_in(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", tmpdir, name);
}

static void touch(const char *name)
{
	char p[256];
	path_in(p, sizeof p, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static int exists(const char *name)
{
	char p[256];
	path_in(p, sizeof p, name);
	return access(p, F_OK) == 0;
}

static void test_save_load_and_clean(void **state)
{
	(void)state;
	struct cluster_state st, back;
	char p[256];
	assert_int_equal(state_load(tmpdir, &back, err, sizeof err), 0); /* no state yet */
	assert_int_equal(state_parse("state", sample_text, &st, err, sizeof err), 0);
	assert_int_equal(state_save(tmpdir, &st), 0);
	assert_int_equal(state_load(tmpdir, &back, err, sizeof err), 1);
	assert_int_equal(back.nmembers, st.nmembers);
	assert_false(exists("state.tmp"));

	touch("secret");
	touch("n1.sock");
	touch("n1.console");
	touch("n1.qemu.log");
	touch("meter.service.log");
	touch("supervisor.log");
	touch("meter.log"); /* a service's own output: not ours to remove */
	touch("lock");
	path_in(p, sizeof p, "switch");
	assert_int_equal(mkdir(p, 0700), 0);
	touch("switch/ctl");

	state_clean(tmpdir, 0); /* what `down` removes */
	assert_false(exists("state"));
	assert_false(exists("secret"));
	assert_false(exists("n1.sock"));
	assert_false(exists("switch"));
	assert_true(exists("n1.console"));
	assert_true(exists("n1.qemu.log"));
	assert_true(exists("supervisor.log"));
	assert_true(exists("lock"));

	state_clean(tmpdir, 1); /* what `up` removes of an earlier run */
	assert_false(exists("n1.console"));
	assert_false(exists("n1.qemu.log"));
	assert_false(exists("meter.service.log"));
	assert_false(exists("supervisor.log"));
	assert_true(exists("meter.log"));
	assert_true(exists("lock"));

	path_in(p, sizeof p, "state");
	FILE *f = fopen(p, "w");
	fputs("garbage\n", f);
	fclose(f);
	assert_int_equal(state_load(tmpdir, &back, err, sizeof err), -1);
	char want[256];
	snprintf(want, sizeof want, "%s/state:1: not a line of a cluster state file", tmpdir);
	assert_string_equal(err, want);
}

static void test_socket_paths_must_fit(void **state)
{
	(void)state;
	char out[4096], dir[200];
	memset(dir, 'd', sizeof dir);
	dir[0] = '/';
	dir[sizeof dir - 1] = '\0';
	assert_int_equal(state_path("/tmp/c", "n1.sock", 1, out, sizeof out, err, sizeof err), 0);
	assert_string_equal(out, "/tmp/c/n1.sock");
	assert_int_equal(state_path(dir, "n1.console", 0, out, sizeof out, err, sizeof err), 0);
	assert_int_equal(state_path(dir, "n1.sock", 1, out, sizeof out, err, sizeof err), -1);
	assert_non_null(strstr(err, "path too long for a UNIX socket (choose a shorter --dir)"));
}

static void test_processes_by_pid_and_start_time(void **state)
{
	(void)state;
	struct proc_id me = { getpid(), 0 };
	assert_int_equal(proc_start_time(getpid(), &me.start), 0);
	assert_true(proc_alive(&me));
	struct proc_id other_start = { getpid(), me.start + 1 }; /* a reused pid */
	assert_false(proc_alive(&other_start));
	struct proc_id unknown = { getpid(), 0 };
	assert_false(proc_alive(&unknown));

	char *argv[] = { "sleep", "30", NULL };
	char log[256];
	path_in(log, sizeof log, "sleep.log");
	struct spawn_io io = { .in = -1, .out = log };
	struct proc_id child;
	assert_int_equal(proc_spawn(argv, &io, &child, err, sizeof err), 0);
	assert_true(proc_alive(&child));
	assert_int_equal(proc_stop(&child, 1, 2000), 0);
	assert_false(proc_alive(&child));
	struct proc_end end;
	assert_int_equal(proc_reap(child.pid, &end), 0); /* proc_stop reaped it */
}

static void test_child_exit_status_is_reaped(void **state)
{
	(void)state;
	char *argv[] = { "sh", "-c", "exit 65", NULL };
	char log[256];
	path_in(log, sizeof log, "sh.log");
	struct spawn_io io = { .in = -1, .out = log };
	struct proc_id child;
	struct proc_end end = { 0, 0 };
	assert_int_equal(proc_spawn(argv, &io, &child, err, sizeof err), 0);
	for (int i = 0; i < 200 && !proc_reap(child.pid, &end); i++)
		proc_sleep_ms(10);
	assert_int_equal(end.code, 65);
	assert_int_equal(end.signal, 0);
}

static void test_exec_failure_is_an_error(void **state)
{
	(void)state;
	char *argv[] = { "/nonexistent/qemu", NULL };
	char log[256];
	path_in(log, sizeof log, "x.log");
	struct spawn_io io = { .in = -1, .out = log };
	struct proc_id child;
	assert_int_equal(proc_spawn(argv, &io, &child, err, sizeof err), -1);
	assert_string_equal(err, "cannot run /nonexistent/qemu: No such file or directory");
}

static void test_stop_escalates_to_sigkill(void **state)
{
	(void)state;
	char *argv[] = { "sh", "-c", "trap '' TERM; while :; do sleep 0.05; done", NULL };
	char log[256];
	path_in(log, sizeof log, "stubborn.log");
	struct spawn_io io = { .in = -1, .out = log };
	struct proc_id child;
	assert_int_equal(proc_spawn(argv, &io, &child, err, sizeof err), 0);
	proc_sleep_ms(200); /* let the shell set its trap */
	assert_int_equal(proc_stop(&child, 1, 300), 0);
	assert_false(proc_alive(&child));
}

static void test_ports_on_loopback(void **state)
{
	(void)state;
	int port;
	assert_int_equal(net_free_port(&port, err, sizeof err), 0);
	assert_true(port > 0 && port < 65536);
	assert_false(net_port_listening(port));
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_false(net_port_listening(port)); /* bound is not listening */
	assert_int_equal(listen(fd, 1), 0);
	assert_true(net_port_listening(port));
	close(fd);
	assert_false(net_port_listening(port));
	char sock[256];
	path_in(sock, sizeof sock, "nobody.sock");
	assert_false(net_unix_connectable(sock));
}

/* vde_switch names a port's data socket "PORT.FD"; plugs bind ".PID-N" and
 * the switch its control socket "ctl" in the same directory. */
static void test_switch_port_names(void **state)
{
	(void)state;
	const char *ports[] = { "001.6", "004.12", "1234.5" };
	const char *others[] = { "ctl", ".15237-00000", "01.6", "001.", "001.6x", "abc.6",
				 "001-6", "", "." };
	for (size_t i = 0; i < sizeof ports / sizeof *ports; i++)
		assert_true(net_vde_port_name(ports[i]));
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		assert_false(net_vde_port_name(others[i]));
}

static void test_switch_ports_read(void **state)
{
	(void)state;
	char dir[256];
	struct vde_ports ports;
	path_in(dir, sizeof dir, "switch");
	assert_int_equal(net_vde_ports(dir, &ports), -1); /* not there yet */
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(net_vde_ports(dir, &ports), 0);
	const char *names[] = { "switch/ctl", "switch/.15237-00000", "switch/001.6",
				"switch/002.9", "switch/notes" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		touch(names[i]);
	assert_int_equal(net_vde_ports(dir, &ports), 2);
	assert_int_equal(ports.n, 2);
}

/* A node's port is a name that was not there when it started, even if an
 * older port went away meanwhile (its node ended). */
static void test_switch_port_added(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct vde_ports before, now;
	path_in(dir, sizeof dir, "switch2");
	assert_int_equal(mkdir(dir, 0700), 0);
	touch("switch2/001.6");
	touch("switch2/002.9");
	net_vde_ports(dir, &before);
	net_vde_ports(dir, &now);
	assert_false(net_vde_port_added(&before, &now));
	snprintf(path, sizeof path, "%s/001.6", dir);
	assert_int_equal(unlink(path), 0);               /* node 1 ended */
	net_vde_ports(dir, &now);
	assert_false(net_vde_port_added(&before, &now)); /* fewer is not added */
	touch("switch2/003.11");
	net_vde_ports(dir, &now);
	assert_true(net_vde_port_added(&before, &now));
	assert_false(net_vde_port_added(&now, &now));
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_cluster_state.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_is_exact),
		cmocka_unit_test(test_states_and_statuses_in_words),
		cmocka_unit_test(test_status_lines_for_people_and_scripts),
		cmocka_unit_test(test_find_node_by_name_or_id),
		cmocka_unit_test(test_malformed_state_files),
		cmocka_unit_test(test_save_load_and_clean),
		cmocka_unit_test(test_socket_paths_must_fit),
		cmocka_unit_test(test_processes_by_pid_and_start_time),
		cmocka_unit_test(test_child_exit_status_is_reaped),
		cmocka_unit_test(test_exec_failure_is_an_error),
		cmocka_unit_test(test_stop_escalates_to_sigkill),
		cmocka_unit_test(test_ports_on_loopback),
		cmocka_unit_test(test_switch_port_names),
		cmocka_unit_test(test_switch_ports_read),
		cmocka_unit_test(test_switch_port_added),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

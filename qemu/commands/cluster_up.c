/*
 * qemu/commands/cluster_up.c - `dpm cluster up` and `dpm cluster run`.
 *
 * `up` parses the cluster file here (so bad input is exit 2 before anything
 * starts), forks the supervisor and waits for its one-byte report.  A
 * SIGINT/SIGTERM while waiting is forwarded as SIGTERM, and the supervisor
 * stops what it started; if `up` itself dies, the supervisor sees its end
 * of the socket close and does the same.  `run` is up, a command with
 * DPM_CLUSTER_DIR set, and down, whatever happens to the command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qemu/cluster/cluster_dir.h"
#include "cluster_commands.h"

#define DEFAULT_TIMEOUT_S 30
#define COMMAND_STOP_GRACE_MS 5000

extern const char dpm_default_cluster[]; /* qemu/default.cluster, built in */

static volatile sig_atomic_t got_signal;

static void on_stop_signal(int sig)
{
	got_signal = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Without SA_RESTART, so a blocking read or wait returns EINTR. */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		sigaction(stop_signals[i], &sa, NULL);
}

static void default_stop_signals(void)
{
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		signal(stop_signals[i], SIG_DFL);
}

/* The supervisor's one-byte report; 1 if it died without one. */
static int read_report(int fd, pid_t supervisor)
{
	int forwarded = 0;
	for (;;) {
		unsigned char b;
		ssize_t n = read(fd, &b, 1);
		if (n == 1)
			return b;
		if (n == 0)
			return -1;
		if (errno == EINTR && got_signal && !forwarded) {
			kill(supervisor, SIGTERM);
			forwarded = 1;
		}
	}
}

int cluster_up(const struct up_options *o, int *supervisor)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		fprintf(stderr, "dpm cluster: socketpair: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "dpm cluster: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(sv[0]);
		default_stop_signals();
		_exit(supervisor_main(o, sv[1]));
	}
	close(sv[1]);
	*supervisor = pid;
	catch_stop_signals();
	int report = read_report(sv[0], pid);
	close(sv[0]);
	if (report == SUPERVISOR_READY && !got_signal)
		return 0;
	if (report == SUPERVISOR_READY) /* interrupted just as it came up */
		cluster_down(o->dir, 1);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (report < 0 && !got_signal)
		fprintf(stderr, "dpm cluster: the supervisor died without a report (%s %d); see %s/%s\n",
			WIFSIGNALED(status) ? "signal" : "status",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), o->dir,
			STATE_SUPERVISOR_LOG);
	if (got_signal)
		fprintf(stderr, "dpm cluster: interrupted; stopped what was started\n");
	return got_signal ? 128 + got_signal : 1;
}

/* ---- options ---------------------------------------------------------- */

static int load_spec(const char *file, int nodes, const char *clock, struct cluster_spec *spec)
{
	char err[1024];
	int r = file ? cluster_load(file, spec, err, sizeof err)
		     : cluster_parse("qemu/default.cluster", dpm_default_cluster, spec, err, sizeof err);
	if (!r && nodes)
		r = cluster_set_node_count(spec, nodes, err, sizeof err);
	if (!r && clock)
		r = cluster_set_clock(spec, clock, err, sizeof err);
	if (r)
		fprintf(stderr, "dpm cluster: %s\n", err);
	return r;
}

/* Every cluster with host services gets the control hub as service `ctl`
 * (docs/control.md), unless its file names a `ctl` of its own. */
static int add_control_service(struct up_options *o)
{
	struct cluster_spec *spec = &o->spec;
	if (o->no_services)
		return 0;
	for (int i = 0; i < spec->nservices; i++)
		if (!strcmp(spec->services[i].name, "ctl"))
			return 0;
	if (spec->nservices == CLUSTER_MAX_SERVICES) {
		fprintf(stderr, "dpm cluster: the cluster file has %d services, the most a node takes; "
				"the control hub 'ctl' needs one of them\n", CLUSTER_MAX_SERVICES);
		return -1;
	}
	struct cluster_service *ctl = &spec->services[spec->nservices++];
	*ctl = (struct cluster_service){ .port = 0 };
	snprintf(ctl->name, sizeof ctl->name, "ctl");
	snprintf(ctl->start, sizeof ctl->start, "{dpm} cluster hub --port {port} --dir {dir}");
	/* the nodes' agents time their gates when the nodes synchronise: every
	 * node in virtual time, and more than one (kernel/hostin.c) */
	int virtual = spec->nnodes >= 2;
	for (int i = 0; i < spec->nnodes; i++)
		virtual &= spec->nodes[i].vclock != 0;
	if (o->hold && virtual)
		snprintf(ctl->start + strlen(ctl->start), sizeof ctl->start - strlen(ctl->start),
			 " --hold %d", spec->nnodes);
	return 0;
}

/* A service with port=0 must be started by `up`: nobody else could know
 * the port it picks. */
static int check_services(const struct up_options *o)
{
	for (int i = 0; !o->no_services && i < o->spec.nservices; i++) {
		const struct cluster_service *sv = &o->spec.services[i];
		if (sv->port == 0 && !sv->start[0] && !sv->cmd[0]) {
			fprintf(stderr, "dpm cluster: service '%s' (line %d) has port=0 but no start= "
					"command: nothing would listen on the port dpm picks; give it a "
					"port or a start= command, or use --no-services\n",
				sv->name, sv->line);
			return -1;
		}
	}
	return 0;
}

static int find_kernel(const char *option, char *out, size_t size)
{
	char err[PATH_MAX + 256];
	if (cluster_kernel(option, out, size, err, sizeof err)) {
		fprintf(stderr, "dpm cluster: %s\n", err);
		return -1;
	}
	return 0;
}

static int parse_count(const char *s, int lo, int hi, const char *what, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "dpm cluster: %s must be a number from %d to %d, not '%s'\n", what, lo,
			hi, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static const char up_synopsis[] =
	"usage: dpm cluster up [-f FILE] [-n N] [--clock MODE] [--dir DIR] [--kernel FILE]\n"
	"                      [--timeout S] [--no-services] [--hold]\n\n"
	"Boot the nodes of a cluster file in the background; return once every node\n"
	"printed its boot banner.\n\n";
static const char run_synopsis[] =
	"usage: dpm cluster run [the options of up] -- COMMAND [ARGS...]\n\n"
	"Boot a cluster as up does, run COMMAND with DPM_CLUSTER_DIR set, then stop\n"
	"the cluster whatever happens (signals included); exit with COMMAND's status.\n\n";
static const char up_options_help[] =
	"  -f, --file FILE     the cluster file (default: qemu/default.cluster, built in)\n"
	"  -n, --nodes N       boot N nodes (1-8): the first N of the file, or more like its last\n"
	"      --clock MODE    every node's clock, whatever the file says: plain, icount or\n"
	"                      virtual (docs/cluster.md; default: each node's clock= in the file)\n"
	"      --dir DIR       state directory (default $DPM_CLUSTER_DIR, else build/cluster)\n"
	"      --kernel FILE   x86 kernel image (default $DPM_KERNEL, else build/x86/kernel.elf)\n"
	"      --timeout S     seconds for each node to plug into the switch and to boot,\n"
	"                      and for each service to listen (default 30)\n"
	"      --no-services   ignore the file's host services: no second NIC, nothing started\n"
	"      --hold          in virtual time (2 or more nodes, all clock=virtual): the nodes\n"
	"                      stand still after boot until a controller connects, so that\n"
	"                      its commands are taken at node times the host does not choose\n"
	"                      (dpm record gives it when it boots a cluster); else no effect\n\n"
	"Exit status: 0 up, 1 failed or refused (a cluster already runs in DIR),\n"
	"2 bad usage or cluster file, 128+N interrupted by signal N (run: COMMAND's).\n";

static void usage(FILE *out, const char *command)
{
	fputs(strcmp(command, "run") ? up_synopsis : run_synopsis, out);
	fputs(up_options_help, out);
}

/* Options of up and run into *o.  Returns -1 to go on, else an exit
 * status; *first is the index of the first non-option argument. */
static int parse_up_options(int argc, char **argv, struct up_options *o, int *first)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },   { "nodes", required_argument, NULL, 'n' },
		{ "dir", required_argument, NULL, 'd' },    { "kernel", required_argument, NULL, 'k' },
		{ "timeout", required_argument, NULL, 't' }, { "no-services", no_argument, NULL, 's' },
		{ "hold", no_argument, NULL, 'H' },          { "clock", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *dir = NULL, *kernel = NULL, *clock = NULL;
	int nodes = 0, c;
	memset(o, 0, sizeof *o);
	o->timeout_s = DEFAULT_TIMEOUT_S;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+f:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': file = optarg; break;
		case 'n': if (parse_count(optarg, 1, CLUSTER_MAX_NODES, "--nodes", &nodes)) return 2; break;
		case 'd': dir = optarg; break;
		case 'k': kernel = optarg; break;
		case 't': if (parse_count(optarg, 1, 3600, "--timeout", &o->timeout_s)) return 2; break;
		case 's': o->no_services = 1; break;
		case 'H': o->hold = 1; break;
		case 'c': clock = optarg; break;
		case 'h': usage(stdout, argv[0]); return 0;
		default: usage(stderr, argv[0]); return 2;
		}
	}
	*first = optind;
	char err[PATH_MAX + 128];
	if (load_spec(file, nodes, clock, &o->spec) || add_control_service(o) || check_services(o) ||
	    find_kernel(kernel, o->kernel, sizeof o->kernel))
		return 2;
	if (cluster_dir(dir, 1, o->dir, sizeof o->dir, err, sizeof err)) {
		fprintf(stderr, "dpm cluster: %s\n", err);
		return 1;
	}
	return -1;
}

int cluster_up_main(int argc, char **argv)
{
	static struct up_options o;
	int first, r = parse_up_options(argc, argv, &o, &first);
	if (r >= 0)
		return r;
	if (first < argc) {
		fprintf(stderr, "dpm cluster up: unexpected argument '%s'\n", argv[first]);
		return 2;
	}
	int supervisor;
	return cluster_up(&o, &supervisor);
}

/* ---- run ---------------------------------------------------------------- */

static pid_t start_command(char **argv, const char *dir)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		default_stop_signals();
		setenv("DPM_CLUSTER_DIR", dir, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "dpm cluster run: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "dpm cluster run: fork: %s\n", strerror(errno));
	return pid;
}

/* Wait for the command; a stop signal is passed on as SIGTERM, and
 * SIGKILL follows if it does not end in time.  Returns its exit status
 * (128+N when killed by signal N). */
static int wait_command(pid_t pid)
{
	int status, waited_ms = 0, forwarded = 0;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 1;
		if (got_signal && !forwarded) {
			kill(pid, SIGTERM);
			forwarded = 1;
		}
		if (forwarded && waited_ms >= COMMAND_STOP_GRACE_MS)
			kill(pid, SIGKILL);
		proc_sleep_ms(20);
		waited_ms += forwarded ? 20 : 0;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cluster_run_main(int argc, char **argv)
{
	static struct up_options o;
	int first, r = parse_up_options(argc, argv, &o, &first);
	if (r >= 0)
		return r;
	if (first >= argc) {
		fprintf(stderr, "dpm cluster run: no command given (dpm cluster run [OPTIONS] -- COMMAND)\n");
		return 2;
	}
	int supervisor;
	o.quiet = 1;
	r = cluster_up(&o, &supervisor);
	if (r)
		return r;
	pid_t pid = got_signal ? -1 : start_command(argv + first, o.dir);
	int status = pid > 0 ? wait_command(pid) : 1;
	int down = cluster_down(o.dir, 1);
	while (waitpid(supervisor, NULL, WNOHANG) < 0 && errno == EINTR)
		;
	if (got_signal)
		return 128 + got_signal;
	return status ? status : down;
}

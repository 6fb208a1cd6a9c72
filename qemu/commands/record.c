/*
 * qemu/commands/record.c - `dpm record`: the one-line way to meter a program, as
 * `perf record` is for perf (docs/control.md).
 *
 *   dpm record -o LOG [OPTIONS] -- PROGRAM ARGS...   one program, metered
 *   dpm record -o LOG [OPTIONS] -f SCRIPT            a controller script
 *
 * It boots a cluster when none runs in the state directory (and stops it
 * again at the end), drives the controller through the same interpreter
 * and hub connection as `dpm control`, and leaves at LOG the part of the
 * filter's log that belongs to this run: on each node, what lies between
 * a MARK placed before the job started and one placed after it ended
 * (hostfilter/tracelog/logwindow.h), and beside it, as LOG.mtime, the
 * delivery-time table of the cluster it ran on (docs/mtime.md), which the
 * analyses of LOG use.  The program's output goes to stdout as it
 * comes, its standard input is record's own, and record exits with the
 * program's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/model/mtime_log.h"
#include "analysis/model/trace_load.h"
#include "kernel/abi/calls.h"
#include "qemu/cluster/bootimage_names.h"
#include "qemu/cluster/cluster_dir.h"
#include "qemu/cluster/cluster_mtime.h"
#include "qemu/control/control.h"
#include "qemu/control/control_net.h"
#include "hostfilter/tracelog/logwindow.h"

/* Exit statuses of record itself (else the program's). */
#define RECORD_FAILED 125      /* record could not do its job              */
#define RECORD_NOT_STARTED 126 /* the program could not be created         */
#define RECORD_ABNORMAL 128    /* + exit reason: killed, a fault, node down */
#define JOB "record"

struct record_opts {
	const char *log, *script, *cluster_file, *dir, *machine, *filter, *nodes;
	const char *clock;          /* --clock: the booted cluster's clock (NULL: the file's) */
	const char *mtime;          /* --mtime: the run's delivery-time table */
	char flags[256];
	char **argv;                /* PROGRAM ARGS... */
	int quiet;
	int porcelain;              /* created processes as tab-separated lines */
};

static volatile sig_atomic_t got_signal, signals;

static void on_signal(int sig)
{
	got_signal = sig;
	signals++;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm record -o LOG [OPTIONS] -- PROGRAM [ARGS...]\n"
		"       dpm record -o LOG [OPTIONS] -f SCRIPT\n\n"
		"Run PROGRAM on the cluster, metered, with this terminal's input and output, and\n"
		"leave its trace at LOG (or run a controller SCRIPT that places several processes).\n"
		"A cluster is booted for the run when none is running, and stopped afterwards.\n\n"
		"  -o, --output LOG     where the run's log goes (a filter log: dpm dump LOG)\n"
		"  -f, --file SCRIPT    run a dpm control script instead of one program\n"
		"      --on MACHINE     the node PROGRAM runs on (default: the cluster's first)\n"
		"      --flags LIST     events to meter, by name, comma-separated (default all;\n"
		"                       a SCRIPT sets its own with setflags)\n"
		"      --filter NAME    the cluster's filter service whose log is cut for LOG\n"
		"                       (default: its first)\n"
		"      --dir DIR        the cluster's state directory (default $DPM_CLUSTER_DIR,\n"
		"                       else build/cluster)\n"
		"      --cluster FILE   the cluster file to boot, when none runs (default: 4 x86\n"
		"                       nodes and a filter 'meter')\n"
		"  -n, --nodes N        boot N nodes, when none runs\n"
		"      --clock MODE     the clock of every node booted: virtual, icount or plain\n"
		"                       (default: virtual, one clock for the whole cluster, for\n"
		"                       the built-in cluster; each node's clock= for --cluster)\n"
		"      --mtime FILE     the delivery-time table to keep beside LOG, as LOG.mtime\n"
		"                       (default: the cluster's own; docs/mtime.md)\n"
		"  -q, --quiet          no progress lines on stderr\n"
		"      --porcelain      report processes as dpm control --porcelain does\n"
		"                       (created NAME ID MACHINE JOB, tab-separated); for\n"
		"                       one PROGRAM the line goes to stderr, even with -q\n\n"
		"Exit status: PROGRAM's own when it ended normally; 128+R when it ended\n"
		"otherwise (R: 1 killed, 2-6 a fault, 7 its node went down); 126 when it could\n"
		"not be created; 125 when record failed; 2 bad usage.  With -f: 0, 1 or 2 as\n"
		"for dpm control.\n");
}

static void progress(const struct record_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void progress(const struct record_opts *o, const char *fmt, ...)
{
	if (o->quiet)
		return;
	va_list ap;
	fputs("dpm record: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- the cluster ------------------------------------------------------------ */

/* Run this dpm with args (stdout to stderr, so record's stdout is the
 * program's); its exit status.  Quiet, its output is kept aside and shown
 * only if it fails. */
static int run_self(const struct record_opts *o, char *const args[])
{
	FILE *aside = o->quiet ? tmpfile() : NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (aside)
			dup2(fileno(aside), 2);
		dup2(2, 1);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	int status;
	int rc = pid < 0 || waitpid(pid, &status, 0) < 0 ? 1
		 : WIFEXITED(status)			  ? WEXITSTATUS(status)
							  : 1;
	if (aside) {
		if (rc) {
			char buf[4096];
			size_t n;
			rewind(aside);
			while ((n = fread(buf, 1, sizeof buf, aside)) > 0)
				fwrite(buf, 1, n, stderr);
		}
		fclose(aside);
	}
	return rc;
}

/* Before booting: is PROGRAM in the boot image of the kernel the cluster
 * would boot (ARM nodes' kernels carry the same programs)?  A kernel that
 * cannot be read is left to cluster up to report. */
static int check_program(const struct record_opts *o)
{
	char kernel[PATH_MAX], names[1024], err[PATH_MAX + 128];
	if (cluster_kernel(NULL, kernel, sizeof kernel, err, sizeof err))
		return 0;
	if (bootimage_has(kernel, o->argv[0], names, sizeof names, err, sizeof err) != 0)
		return 0;
	fprintf(stderr, "dpm record: no program '%s' in the boot image (%s); it has: %s\n",
		o->argv[0], kernel, names);
	return -1;
}

static int cluster_running(const char *dir)
{
	struct cluster_state st;
	char err[512];
	return state_load(dir, &st, err, sizeof err) > 0 && state_anything_alive(&st);
}

static int boot(const struct record_opts *o, const char *dir)
{
	char *args[14];
	int n = 0;
	args[n++] = "dpm";
	args[n++] = "cluster";
	args[n++] = "up";
	args[n++] = "--dir";
	args[n++] = (char *)dir;
	args[n++] = "--hold"; /* in virtual time: the nodes wait for record (docs/control.md) */
	if (o->cluster_file) {
		args[n++] = "-f";
		args[n++] = (char *)o->cluster_file;
	}
	if (o->nodes) {
		args[n++] = "-n";
		args[n++] = (char *)o->nodes;
	}
	if (o->clock) {
		args[n++] = "--clock";
		args[n++] = (char *)o->clock;
	}
	args[n] = NULL;
	progress(o, "no cluster runs in %s: booting one%s%s", dir, o->clock ? ", clock=" : "",
		 o->clock ? o->clock : "");
	return run_self(o, args);
}

static void shut_down(const struct record_opts *o, const char *dir)
{
	char *args[] = { "dpm", "cluster", "down", "--dir", (char *)dir, NULL };
	progress(o, "stopping the cluster it booted");
	run_self(o, args);
}

/* ---- the run ----------------------------------------------------------------- */

/* The filter service: --filter, else the cluster's first that is not the hub. */
static const char *choose_filter(const struct record_opts *o, const struct control_net *n)
{
	if (o->filter)
		return o->filter;
	for (int i = 0; i < n->st.nmembers; i++)
		if (n->st.members[i].kind == MEMBER_SERVICE && strcmp(n->st.members[i].name, "ctl"))
			return n->st.members[i].name;
	return NULL;
}

static const char *first_node(const struct control_net *n)
{
	for (int i = 0; i < n->st.nmembers; i++)
		if (n->st.members[i].kind == MEMBER_NODE)
			return n->st.members[i].name;
	return NULL;
}

/* One command, from words (no re-splitting: arguments may hold blanks). */
static enum control_result command(struct control *c, const char *const *words)
{
	char *w[CONTROL_MAX_ARGS + 1];
	int n = 0;
	while (words[n] && n < CONTROL_MAX_ARGS) {
		w[n] = (char *)words[n];
		n++;
	}
	w[n] = NULL;
	return control_words(c, n, w, "record", 0);
}

/* A process record waits for: one of its own that has not ended (an ended
 * one is killed, whatever state it had: control_state.c). */
static int waits_for(const struct cproc *p)
{
	return p->in_use && !p->ended &&
	       (p->state == PS_RUNNING || p->state == PS_NEW || p->state == PS_STOPPED);
}

static int job_active(const struct control *c)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (waits_for(&c->procs[i]))
			return 1;
	return 0;
}

/* Wait for every process to end.  The first signal kills them (and is
 * returned); a second ends the wait even if their ends are never reported. */
static int wait_for_job(const struct record_opts *o, struct control *c, struct control_net *n)
{
	int killed = 0, told = 0;
	while (job_active(c) && n->w.fd >= 0 && signals < 2) {
		if (!told && !got_signal) {
			/* a script may leave processes new or stopped: say why we wait */
			int idle = 0, running = 0;
			for (int i = 0; i < CONTROL_MAX_PROCS; i++)
				if (waits_for(&c->procs[i]))
					*(c->procs[i].state == PS_RUNNING ? &running : &idle) += 1;
			if (idle && !running) {
				progress(o, "waiting for %d process%s that nothing will start (new or stopped); "
					    "Ctrl-C kills %s", idle, idle == 1 ? "" : "es", idle == 1 ? "it" : "them");
				told = 1;
			}
		}
		control_net_poll(n, 100);
		if (got_signal && !killed) {
			char err[256];
			for (int i = 0; i < CONTROL_MAX_PROCS; i++)
				if (waits_for(&c->procs[i])) /* never an acquired one */
					c->nodes.kill(c->nodes.ctx, c->procs[i].task, err, sizeof err);
			killed = 1;
			progress(o, "killing the job; a second Ctrl-C stops waiting for its ends");
		}
	}
	return n->w.fd < 0 ? -1 : 0;
}

static int program_status(const struct control *c)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++) {
		const struct cproc *p = &c->procs[i];
		if (!p->in_use)
			continue;
		if (!p->ended)
			return RECORD_FAILED;
		return p->end_reason == EXIT_NORMAL ? p->end_status & 0xff
						    : RECORD_ABNORMAL + (int)p->end_reason;
	}
	return RECORD_NOT_STARTED;
}

static int run_program(const struct record_opts *o, struct control *c, struct control_net *n,
		       const char *machine)
{
	const char *add[CONTROL_MAX_ARGS + 1] = { "addprocess", JOB, machine };
	int k = 3;
	for (int i = 0; o->argv[i]; i++) {
		if (k == CONTROL_MAX_ARGS) {
			fprintf(stderr, "dpm record: more than %d arguments\n", CONTROL_MAX_ARGS - 4);
			return RECORD_FAILED;
		}
		add[k++] = o->argv[i];
	}
	add[k] = NULL;
	if (command(c, add) != CR_OK)
		return RECORD_NOT_STARTED;
	uint32_t task = 0;
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use)
			task = c->procs[i].task;
	control_net_feed(n, task, 0, 0);
	const char *start[] = { "startjob", JOB, NULL };
	if (command(c, start) != CR_OK)
		return RECORD_FAILED;
	progress(o, "%s runs on %s (process %u.%u)", o->argv[0], machine, (unsigned)(task >> 16),
		 (unsigned)(task & 0xffff));
	if (wait_for_job(o, c, n) < 0) {
		fprintf(stderr, "dpm record: the control hub went away\n");
		return RECORD_FAILED;
	}
	return program_status(c);
}

static int run_script(const struct record_opts *o, struct control *c, struct control_net *n)
{
	progress(o, "running %s", o->script);
	control_file(c, o->script, 0);
	if (wait_for_job(o, c, n) < 0) {
		fprintf(stderr, "dpm record: the control hub went away\n");
		return RECORD_FAILED;
	}
	return c->worst == CR_USAGE ? 2 : c->worst ? 1 : 0;
}

/* LOG.mtime: the run's delivery-time table (--mtime, else the cluster's
 * own, DIR/mtime.csv, which `dpm cluster up` wrote), so that the analyses
 * of LOG use it; a stale one goes when the cluster has none. */
static int keep_table(const struct record_opts *o, const char *dir)
{
	char beside[PATH_MAX + 16], ours[PATH_MAX + 16], comment[PATH_MAX + 32], err[2 * PATH_MAX];
	const char *from = o->mtime;
	if (mtime_log_path(o->log, beside, sizeof beside) < 0) {
		fprintf(stderr, "dpm record: %s: name too long for its delivery-time table\n", o->log);
		return -1;
	}
	snprintf(comment, sizeof comment, "given to dpm record: %s", o->mtime ? o->mtime : "");
	snprintf(ours, sizeof ours, "%s/%s", dir, STATE_MTIME);
	if (!from && access(ours, R_OK) == 0)
		from = ours;
	if (!from) {
		if (unlink(beside) != 0 && errno != ENOENT) {
			fprintf(stderr, "dpm record: %s: %s\n", beside, strerror(errno));
			return -1;
		}
		progress(o, "no delivery-time table for this cluster's clock (docs/mtime.md): the "
			 "analyses of %s will use a placeholder unless given one (or dpm record --mtime)",
			 o->log);
		return 0;
	}
	if (cluster_mtime_copy(from, beside, o->mtime ? comment : NULL, err, sizeof err) < 0) {
		fprintf(stderr, "dpm record: %s\n", err);
		return -1;
	}
	progress(o, "%s: the run's delivery times (from %s)", beside, from);
	return 0;
}

/* One process of the run's trace, for LOG.names. */
struct named {
	uint32_t task;
	char name[32];
	const char *role;
};

static int by_task(const void *a, const void *b)
{
	uint32_t x = ((const struct named *)a)->task, y = ((const struct named *)b)->task;
	return x < y ? -1 : x > y;
}

/* The role of process p of the trace: record's own processes requestors,
 * the ones it acquired servers, the others with events of their own (its
 * processes' children, metered like them) servers, the rest (the process
 * managers, name servers... they only talk to) system. */
static const char *role_of(const struct control *c, const struct process *p)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].task == p->id)
			return c->procs[i].acquired ? "server" : "requestor";
	return p->traced ? "server" : "system";
}

/* LOG.names (docs/causality.md, Roles): every process of LOG by the name
 * of the program its node's process manager created it from (NAME#k when
 * several ran the same program, in node.pid order), with its role
 * (role_of).  The analyses of LOG read it, so `dpm causality LOG` needs no
 * options.  A process no process manager knows (one the kernel started)
 * keeps its node.pid. */
static int write_names(const struct record_opts *o, struct control *c)
{
	char path[PATH_MAX + 16], err[1024];
	struct trace t;
	trace_init(&t, o->log);
	if (trace_load(&t, o->log, err, sizeof err) < 0) {
		fprintf(stderr, "dpm record: %s\n", err);
		trace_free(&t);
		return -1;
	}
	struct named *v = calloc(t.nproc + 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; v && i < t.nproc; i++) {
		struct named *x = &v[n];
		x->task = t.proc[i].id;
		x->role = role_of(c, &t.proc[i]);
		if (control_net_name(c->nodes.ctx, x->task, x->name, sizeof x->name, err,
				     sizeof err) == 0)
			n++;
	}
	trace_free(&t);
	if (!v) {
		fprintf(stderr, "dpm record: out of memory\n");
		return -1;
	}
	qsort(v, n, sizeof *v, by_task);
	snprintf(path, sizeof path, "%s.names", o->log);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "dpm record: %s: %s\n", path, strerror(errno));
		free(v);
		return -1;
	}
	fprintf(f, "# node.pid NAME ROLE: the run's processes, named by their nodes' process "
		   "managers (docs/causality.md)\n");
	for (size_t i = 0; i < n; i++) {
		int k = 0, same = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(v[j].name, v[i].name)) {
				same++;
				k += j <= i;
			}
		fprintf(f, "%u.%u %s", (unsigned)(v[i].task >> 16), (unsigned)(v[i].task & 0xffff),
			v[i].name);
		if (same > 1)
			fprintf(f, "#%d", k);
		fprintf(f, " %s\n", v[i].role);
	}
	free(v);
	if (fclose(f) != 0) {
		fprintf(stderr, "dpm record: %s: write failed\n", path);
		return -1;
	}
	progress(o, "%s: the names of its %zu processes (dpm causality %s needs no options)", path,
		 n, o->log);
	return 0;
}

/* The part of the filter's log between the two marks, at o->log. */
static int cut_log(const struct record_opts *o, struct control *c, const char *filter,
		   uint32_t start, uint32_t end)
{
	struct control_net *n = c->nodes.ctx;
	char log[PATH_MAX + 64], err[1024];
	snprintf(log, sizeof log, "%s/%s.log", n->dir, filter);
	if (control_net_marks(n, filter, end, log, err, sizeof err) < 0) {
		fprintf(stderr, "dpm record: %s\n", err);
		return -1;
	}
	struct log_window_counts counts;
	if (log_window_extract(log, o->log, start, end, &counts, err, sizeof err) < 0) {
		fprintf(stderr, "dpm record: %s\n", err);
		return -1;
	}
	progress(o, "%s: %llu records from %u node(s) (dpm dump %s)", o->log,
		 (unsigned long long)counts.records, counts.ended, o->log);
	return 0;
}

static int record(const struct record_opts *o, const char *dir)
{
	static struct control_net n;
	static struct control c;
	char err[1024];
	n.scripted = 1;
	if (control_net_open(&n, dir, err, sizeof err) < 0) {
		fprintf(stderr, "dpm record: %s\n", err);
		return RECORD_FAILED;
	}
	const char *filter = choose_filter(o, &n), *machine = o->machine ? o->machine : first_node(&n);
	if (!filter) {
		fprintf(stderr, "dpm record: the cluster in %s has no filter service (a cluster file "
				"line 'service meter start=\"{dpm} filter --port {port} -o {dir}/meter.log\"')\n",
			dir);
		control_net_close(&n);
		return RECORD_FAILED;
	}
	struct control_nodes ops = control_net_nodes(&n);
	control_init(&c, &ops, dir);
	n.c = &c;
	FILE *quiet = fopen("/dev/null", "w");
	c.porcelain = o->porcelain;
	if (!o->script) {
		c.terminal = c.out = quiet; /* the controller's chatter; the program's output: */
		c.procout = stdout;
		c.raw_output = 1;
		c.reports = stderr; /* porcelain reports: stdout is the program's */
	}
	uint32_t start = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 8), end = start + 1;
	const char *setflags[CONTROL_MAX_ARGS + 1] = { "setflags", JOB };
	char flags[sizeof o->flags];
	int k = 2;
	snprintf(flags, sizeof flags, "%s", o->flags);
	for (char *w = strtok(flags, " "); w && k < CONTROL_MAX_ARGS; w = strtok(NULL, " "))
		setflags[k++] = strcmp(w, "none") ? w : "-all";
	const char *setup[][3] = { { "filter", filter, NULL }, { "newjob", JOB, NULL } };
	int status = RECORD_FAILED;
	err[0] = '\0';
	/* a script names its own filters, jobs and flags; one program gets them here */
	int ready = o->script || (command(&c, setup[0]) == CR_OK && command(&c, setup[1]) == CR_OK &&
				  command(&c, setflags) == CR_OK);
	if (ready && control_net_marks(&n, filter, start, NULL, err, sizeof err) == 0)
		status = o->script ? run_script(o, &c, &n) : run_program(o, &c, &n, machine);
	if (status == RECORD_FAILED && err[0])
		fprintf(stderr, "dpm record: %s\n", err);
	/* a program that never started leaves no log (nor table) behind */
	if (status != RECORD_FAILED && status != RECORD_NOT_STARTED &&
	    (cut_log(o, &c, filter, start, end) < 0 || keep_table(o, dir) < 0 ||
	     write_names(o, &c) < 0)) {
		status = RECORD_FAILED;
		unlink(o->log);
	}
	control_fini(&c);
	control_net_close(&n);
	fclose(quiet);
	return got_signal ? 128 + got_signal : status;
}

/* ---- options ------------------------------------------------------------------- */

static int parse(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' }, { "file", required_argument, NULL, 'f' },
		{ "on", required_argument, NULL, 'm' },     { "flags", required_argument, NULL, 'F' },
		{ "filter", required_argument, NULL, 'L' }, { "dir", required_argument, NULL, 'd' },
		{ "cluster", required_argument, NULL, 'c' }, { "nodes", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
		{ "porcelain", no_argument, NULL, 'P' },    { "mtime", required_argument, NULL, 'M' },
		{ "clock", required_argument, NULL, 'C' },  { NULL, 0, NULL, 0 },
	};
	int opt;
	memset(o, 0, sizeof *o);
	snprintf(o->flags, sizeof o->flags, "all");
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+o:f:n:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': o->log = optarg; break;
		case 'f': o->script = optarg; break;
		case 'm': o->machine = optarg; break;
		case 'F': snprintf(o->flags, sizeof o->flags, "%s", optarg); break;
		case 'L': o->filter = optarg; break;
		case 'd': o->dir = optarg; break;
		case 'c': o->cluster_file = optarg; break;
		case 'n': o->nodes = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'P': o->porcelain = 1; break;
		case 'M': o->mtime = optarg; break;
		case 'C': o->clock = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	o->argv = argv + optind;
	if (!o->log) {
		fprintf(stderr, "dpm record: no log given (-o LOG)\n");
		return 2;
	}
	if (!!o->script == !!o->argv[0]) {
		fprintf(stderr, "dpm record: give either a program (after --) or -f SCRIPT\n");
		return 2;
	}
	if (o->script && access(o->script, R_OK) != 0) { /* before any cluster is booted */
		fprintf(stderr, "dpm record: cannot read %s: %s\n", o->script, strerror(errno));
		return 2;
	}
	if (o->clock && strcmp(o->clock, "virtual") && strcmp(o->clock, "icount") &&
	    strcmp(o->clock, "plain")) {
		fprintf(stderr, "dpm record: --clock must be virtual, icount or plain, not '%s'\n",
			o->clock);
		return 2;
	}
	if (!o->clock && !o->cluster_file)
		o->clock = "virtual"; /* the built-in cluster in one clock (docs/virtual-time.md) */
	struct mtime_table table;
	char why[1024];
	if (o->mtime && mtime_load(&table, o->mtime, why, sizeof why) < 0) {
		fprintf(stderr, "dpm record: --mtime: %s\n", why);
		return 2;
	}
	uint32_t mask = 0;
	for (char *w = strtok(o->flags, ","); w; w = strtok(NULL, ","))
		if (control_flag_apply(w, &mask) < 0) {
			fprintf(stderr, "dpm record: unknown event '%s' in --flags (see 'dpm control', "
					"'help setflags')\n", w);
			return 2;
		}
	control_flags_format(mask, o->flags, sizeof o->flags); /* "SEND RECEIVE ..." or "none" */
	return -1;
}

int record_main(int argc, char **argv)
{
	struct record_opts o;
	int r = parse(argc, argv, &o);
	if (r >= 0)
		return r;
	char dir[PATH_MAX], err[PATH_MAX + 128];
	if (cluster_dir(o.dir, 1, dir, sizeof dir, err, sizeof err)) {
		fprintf(stderr, "dpm record: %s\n", err);
		return RECORD_FAILED;
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	int booted = 0;
	if (!cluster_running(dir)) {
		if (!o.script && check_program(&o) < 0)
			return RECORD_NOT_STARTED;
		if (boot(&o, dir) != 0) {
			fprintf(stderr, "dpm record: the cluster did not come up (see above)\n");
			return RECORD_FAILED;
		}
		booted = 1;
	} else if (o.cluster_file || o.nodes || o.clock) {
		progress(&o, "a cluster already runs in %s: --cluster, --nodes and --clock are ignored",
			 dir);
	}
	int status = record(&o, dir);
	if (booted)
		shut_down(&o, dir);
	return status;
}

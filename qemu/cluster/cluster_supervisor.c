/*
 * qemu/cluster/cluster_supervisor.c - the process that brings a cluster up, keeps
 * it, and takes it down.
 *
 * Order of `up`: lock the state directory (one cluster per directory),
 * refuse if a cluster runs there or clean a crashed one's leftovers, write
 * the secret, resolve service ports, start the services (they must listen
 * before a node dials them), the switch, then the
 * nodes one at a time (each once the one before has its port on the
 * switch); wait for every banner.  Every wait is bounded and also watches for
 * signals and for `up` going away, and any failure stops what was started.
 * The supervisor is the parent of all it starts, so the state file can say
 * how each node ended; its children die with it (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cluster_dir.h"
#include "cluster_mtime.h"
#include "cluster_net.h"
#include "cluster_qemu.h"
#include "cluster_state.h"
#include "cluster_supervisor.h"

#define STOP_GRACE_MS 3000
#define SWITCH_READY_MS 5000
#define POLL_MS 50

struct supervisor {
	const struct up_options *o;
	struct cluster_state st;
	struct cluster_service services[CLUSTER_MAX_SERVICES]; /* ports resolved */
	int nservices;
	int switch_stdin;  /* write end of the switch's stdin; it exits on EOF */
	int report_fd;     /* to `up` until the cluster is ready, then -1 */
	int stop;          /* a signal or `up` going away asked us to stop */
};

static int signal_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;
	if (write(signal_pipe[1], &c, 1) < 0) {
		/* the pipe is full: a wake-up is pending anyway */
	}
	errno = saved;
}

static int setup_signals(void)
{
	if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGCHLD };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("dpm cluster: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static const char *dir_file(const struct supervisor *s, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", s->o->dir, name);
	return buf;
}

static void save_state(struct supervisor *s)
{
	if (state_save(s->o->dir, &s->st) < 0)
		say("cannot write %s/%s: %s", s->o->dir, STATE_FILE, strerror(errno));
}

/* Note members of ours that ended. */
static void reap_members(struct supervisor *s)
{
	int changed = 0;
	for (int i = 0; i < s->st.nmembers; i++) {
		struct member *m = &s->st.members[i];
		if (m->state == MEMBER_RUNNING && proc_reap(m->proc.pid, &m->end)) {
			m->state = MEMBER_EXITED;
			changed = 1;
			char how[32];
			member_status(m, how, sizeof how);
			say("%s (pid %d) exited: %s", m->name, (int)m->proc.pid, how);
		}
	}
	if (changed)
		save_state(s);
}

/* Wait up to ms for a signal (or `up` leaving); reaps children on the
 * way.  Sets s->stop on a stop request. */
static void wait_events(struct supervisor *s, int ms)
{
	struct pollfd p[2] = { { .fd = signal_pipe[0], .events = POLLIN },
			       { .fd = s->report_fd, .events = POLLIN } };
	int n = poll(p, s->report_fd >= 0 ? 2 : 1, ms);
	if (n > 0 && p[0].revents) {
		char sigs[16];
		ssize_t got = read(signal_pipe[0], sigs, sizeof sigs);
		for (ssize_t i = 0; i < got; i++)
			if (sigs[i] != SIGCHLD)
				s->stop = 1;
	}
	if (n > 0 && s->report_fd >= 0 && p[1].revents)
		s->stop = 1; /* `up` went away (it never writes to us) */
	reap_members(s);
}

/* ---- the state directory -------------------------------------------- */

static int refuse_running(const struct supervisor *s, int supervisor_pid)
{
	char pid[48] = "";
	if (supervisor_pid)
		snprintf(pid, sizeof pid, " (supervisor pid %d)", supervisor_pid);
	say("a cluster is already running in %s%s; stop it first with 'dpm cluster down --dir %s'",
	    s->o->dir, pid, s->o->dir);
	return SUPERVISOR_REFUSED;
}

/* Take the directory's lock for the supervisor's lifetime. */
static int lock_dir(struct supervisor *s)
{
	char path[PATH_MAX + 16];
	int fd = open(dir_file(s, STATE_LOCK, path, sizeof path), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		say("cannot create %s: %s", path, strerror(errno));
		return SUPERVISOR_FAILED;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct cluster_state old;
		char err[512];
		int known = state_load(s->o->dir, &old, err, sizeof err) == 1;
		return refuse_running(s, known ? (int)old.supervisor.pid : 0);
	}
	return 0; /* the fd stays open, and locked, until we exit */
}

/* Refuse if a cluster's processes live on (even without its supervisor);
 * remove what a crashed one left. */
static int check_previous(struct supervisor *s)
{
	struct cluster_state old;
	char err[512];
	int r = state_load(s->o->dir, &old, err, sizeof err);
	if (r == 1 && state_anything_alive(&old))
		return refuse_running(s, (int)old.supervisor.pid);
	if (r != 0)
		say("removing the leftovers of a cluster that did not stop cleanly in %s%s%s",
		    s->o->dir, r < 0 ? ": " : "", r < 0 ? err : "");
	state_clean(s->o->dir, 1);
	return 0;
}

static int write_secret(struct supervisor *s)
{
	unsigned char raw[STATE_SECRET_BYTES];
	char hex[2 * STATE_SECRET_BYTES + 2], path[PATH_MAX + 16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, raw, sizeof raw) : -1;
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof raw) {
		say("cannot read 32 random bytes from /dev/urandom");
		return SUPERVISOR_FAILED;
	}
	for (size_t i = 0; i < sizeof raw; i++)
		sprintf(hex + 2 * i, "%02x", raw[i]);
	strcat(hex, "\n");
	dir_file(s, STATE_SECRET, path, sizeof path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) || close(fd) < 0) {
		say("cannot write %s: %s", path, strerror(errno));
		return SUPERVISOR_FAILED;
	}
	return 0;
}

/* ---- members ---------------------------------------------------------- */

static struct member *add_member(struct supervisor *s, enum member_kind kind, const char *name,
				 const char *arch)
{
	struct member *m = &s->st.members[s->st.nmembers++];
	memset(m, 0, sizeof *m);
	m->kind = kind;
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->arch, sizeof m->arch, "%s", arch);
	m->end.code = -1;
	return m;
}

static struct member *find_member(struct supervisor *s, enum member_kind kind, const char *name)
{
	for (int i = 0; i < s->st.nmembers; i++)
		if (s->st.members[i].kind == kind && !strcmp(s->st.members[i].name, name))
			return &s->st.members[i];
	return NULL;
}

/* Pick free ports for port=0; no two services share one. */
static int resolve_ports(struct supervisor *s)
{
	if (s->o->no_services)
		return 0;
	s->nservices = s->o->spec.nservices;
	memcpy(s->services, s->o->spec.services, sizeof s->services);
	for (int i = 0; i < s->nservices; i++) {
		char err[256];
		for (int tries = 0; s->services[i].port == 0; tries++) {
			int port;
			if (net_free_port(&port, err, sizeof err) || tries == 100) {
				say("%s", tries == 100 ? "no free port left for the services" : err);
				return SUPERVISOR_FAILED;
			}
			int taken = 0;
			for (int j = 0; j < s->nservices; j++)
				taken |= s->services[j].port == port;
			if (!taken)
				s->services[i].port = port;
		}
	}
	return 0;
}

static void init_state(struct supervisor *s)
{
	s->st.supervisor.pid = getpid();
	proc_start_time(getpid(), &s->st.supervisor.start);
	add_member(s, MEMBER_SWITCH, "switch", "vde");
	for (int i = 0; i < s->nservices; i++) {
		struct member *m = add_member(s, MEMBER_SERVICE, s->services[i].name, "-");
		m->port = s->services[i].port;
		if (s->services[i].cmd[0])
			m->state = MEMBER_PER_CONNECTION;
		else if (!s->services[i].start[0])
			m->state = MEMBER_EXTERNAL;
	}
	for (int i = 0; i < s->o->spec.nnodes; i++) {
		const struct cluster_node *n = &s->o->spec.nodes[i];
		if (n->remote)
			continue;
		struct member *m = add_member(s, MEMBER_NODE, n->name, cluster_arch_name(n->arch));
		m->id = n->id;
	}
	save_state(s);
}

/* Last lines of a log, indented, for error messages. */
static void print_tail(const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	static char text[4096];
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, size > (long)sizeof text - 1 ? size - (long)sizeof text + 1 : 0, SEEK_SET);
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	const char *p = text + n;
	for (int lines = 0; p > text && lines < 11; p--)
		lines += p[-1] == '\n';
	fprintf(stderr, "--- %s (%s), last lines:\n%s%s---\n", what, path, p,
		n && text[n - 1] != '\n' ? "\n" : "");
}

static int start_member(struct supervisor *s, struct member *m, char *const argv[],
			const struct spawn_io *io)
{
	char err[512];
	if (proc_spawn(argv, io, &m->proc, err, sizeof err)) {
		say("%s: %s", m->name, err);
		return SUPERVISOR_FAILED;
	}
	m->state = MEMBER_RUNNING;
	save_state(s);
	return 0;
}

/* Wait until ready(arg) holds, member m ends, time runs out or a stop is
 * asked.  Returns 0 when ready; otherwise says why (naming `what`). */
static int wait_until(struct supervisor *s, struct member *m, int ms, const char *what,
		      int (*ready)(struct supervisor *, const void *), const void *arg)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (ready(s, arg))
			return 0;
		if (s->stop)
			return SUPERVISOR_FAILED;
		if (m->state == MEMBER_EXITED) {
			char how[32];
			member_status(m, how, sizeof how);
			say("%s exited (%s) before its %s", m->name, how, what);
			return SUPERVISOR_FAILED;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > ms) {
			say("%s: no %s after %d s", m->name, what, ms / 1000);
			return SUPERVISOR_FAILED;
		}
		wait_events(s, POLL_MS);
	}
}

/* ---- host services ---------------------------------------------------- */

static int port_listening(struct supervisor *s, const void *service)
{
	(void)s;
	return net_port_listening(((const struct cluster_service *)service)->port);
}

/* start= split into words, with {port}, {dir} and {dpm} (this dpm)
 * replaced. */
static int service_argv(struct supervisor *s, const struct cluster_service *sv, char *buf,
			size_t size, char **argv, int max)
{
	char port[16], self[PATH_MAX];
	snprintf(port, sizeof port, "%d", sv->port);
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = '\0';
	static const char *const keys[] = { "{port}", "{dir}", "{dpm}" };
	const char *values[] = { port, s->o->dir, self };
	size_t used = 0;
	int argc = 0;
	for (const char *p = sv->start; *p;) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (argc == max)
			return -1;
		argv[argc++] = buf + used;
		while (*p && *p != ' ' && *p != '\t') {
			const char *with = NULL;
			size_t key_len = 1;
			for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !with; k++)
				if (!strncmp(p, keys[k], strlen(keys[k]))) {
					with = values[k];
					key_len = strlen(keys[k]);
				}
			size_t len = with ? strlen(with) : 1;
			if (used + len + 1 >= size)
				return -1;
			memcpy(buf + used, with ? with : p, len);
			used += len;
			p += key_len;
		}
		buf[used++] = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

static int start_service(struct supervisor *s, const struct cluster_service *sv)
{
	struct member *m = find_member(s, MEMBER_SERVICE, sv->name);
	char buf[4096], *argv[64], log[PATH_MAX + 64], name[64];
	char env_dir[PATH_MAX + 32], env_port[64], env_name[64], env_secret[PATH_MAX + 64];
	if (service_argv(s, sv, buf, sizeof buf, argv, 63) <= 0) {
		say("service '%s': start command too long", sv->name);
		return SUPERVISOR_FAILED;
	}
	snprintf(env_dir, sizeof env_dir, "DPM_CLUSTER_DIR=%s", s->o->dir);
	snprintf(env_port, sizeof env_port, "DPM_SERVICE_PORT=%d", sv->port);
	snprintf(env_name, sizeof env_name, "DPM_SERVICE_NAME=%s", sv->name);
	/* a service the nodes authenticate to learns where the secret is
	 * (dpm filter, docs/filter.md); the secret itself stays in its file */
	snprintf(env_secret, sizeof env_secret, "DPM_CLUSTER_SECRET=%s/%s", s->o->dir, STATE_SECRET);
	char *env[] = { env_dir, env_port, env_name, cluster_service_auth(sv) ? env_secret : NULL, NULL };
	snprintf(name, sizeof name, "%s%s", sv->name, SERVICE_LOG_SUFFIX);
	struct spawn_io io = { .in = -1, .out = dir_file(s, name, log, sizeof log), .env = env };
	char what[64];
	snprintf(what, sizeof what, "listener on 127.0.0.1:%d", sv->port);
	int r = start_member(s, m, argv, &io);
	if (!r)
		r = wait_until(s, m, s->o->timeout_s * 1000, what, port_listening, sv);
	if (r && !s->stop)
		print_tail("its output", log);
	return r;
}

/* Services without start= must already listen: a node dials them as it
 * boots (and gives up after peerwait). */
static int check_external_service(const struct cluster_service *sv)
{
	if (net_port_listening(sv->port))
		return 0;
	say("service '%s' is not listening on 127.0.0.1:%d; start it before 'dpm cluster up', "
	    "give it a start= command in the cluster file, or use --no-services", sv->name, sv->port);
	return SUPERVISOR_FAILED;
}

static int start_services(struct supervisor *s)
{
	for (int i = 0; i < s->nservices; i++) {
		const struct cluster_service *sv = &s->services[i];
		int r = sv->cmd[0]     ? 0 /* QEMU runs it when a node connects */
			: sv->start[0] ? start_service(s, sv)
				       : check_external_service(sv);
		if (r)
			return r;
	}
	return 0;
}

/* ---- the switch ------------------------------------------------------- */

static int switch_ready(struct supervisor *s, const void *ctl)
{
	(void)s;
	return net_unix_connectable(ctl);
}

static int start_switch(struct supervisor *s)
{
	char sock[PATH_MAX + 16], ctl[PATH_MAX + 32], log[PATH_MAX + 16], err[512];
	if (state_path(s->o->dir, STATE_SWITCH "/ctl", 1, ctl, sizeof ctl, err, sizeof err)) {
		say("%s", err);
		return SUPERVISOR_FAILED;
	}
	dir_file(s, STATE_SWITCH, sock, sizeof sock);
	int in[2];
	if (pipe2(in, O_CLOEXEC) < 0) {
		say("cannot make a pipe: %s", strerror(errno));
		return SUPERVISOR_FAILED;
	}
	s->switch_stdin = in[1];
	char *argv[] = { "vde_switch", "-s", sock, NULL };
	struct spawn_io io = { .in = in[0], .out = dir_file(s, STATE_SWITCH_LOG, log, sizeof log) };
	struct member *m = find_member(s, MEMBER_SWITCH, "switch");
	int r = start_member(s, m, argv, &io);
	close(in[0]);
	if (!r)
		r = wait_until(s, m, SWITCH_READY_MS, "control socket", switch_ready, ctl);
	if (r && !s->stop)
		print_tail("the switch's output", log);
	return r;
}

/* ---- nodes ------------------------------------------------------------ */

static int start_node(struct supervisor *s, const struct cluster_node *n)
{
	struct node_launch l = { .dir = s->o->dir, .kernel = s->o->kernel, .spec = &s->o->spec,
				 .services = s->nservices ? s->services : NULL,
				 .nservices = s->nservices };
	static struct qemu_command cmd;
	char err[512], log[PATH_MAX + 64], name[64];
	if (qemu_node_command(n, &l, &cmd, err, sizeof err)) {
		say("%s", err);
		return SUPERVISOR_FAILED;
	}
	snprintf(name, sizeof name, "%s%s", n->name, NODE_LOG_SUFFIX);
	struct spawn_io io = { .in = -1, .out = dir_file(s, name, log, sizeof log) };
	return start_member(s, find_member(s, MEMBER_NODE, n->name), cmd.argv, &io);
}

static int read_console(struct supervisor *s, const char *node, char *text, size_t size)
{
	char name[64], path[PATH_MAX + 64];
	snprintf(name, sizeof name, "%s%s", node, NODE_CONSOLE_SUFFIX);
	FILE *f = fopen(dir_file(s, name, path, sizeof path), "r");
	size_t n = f ? fread(text, 1, size - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	return (int)n;
}

static int node_booted(struct supervisor *s, const void *node)
{
	const struct cluster_node *n = node;
	static char text[16384];
	read_console(s, n->name, text, sizeof text);
	return qemu_console_has_banner(text, n->id);
}

/* What a node that failed to come up said: QEMU's messages, its console. */
static void show_node_output(struct supervisor *s, const struct cluster_node *n)
{
	char name[64], path[PATH_MAX + 64];
	snprintf(name, sizeof name, "%s%s", n->name, NODE_LOG_SUFFIX);
	print_tail("QEMU's messages", dir_file(s, name, path, sizeof path));
	snprintf(name, sizeof name, "%s%s", n->name, NODE_CONSOLE_SUFFIX);
	print_tail("its console", dir_file(s, name, path, sizeof path));
}

static int switch_port_added(struct supervisor *s, const void *before)
{
	char dir[PATH_MAX + 16];
	struct vde_ports now;
	net_vde_ports(dir_file(s, STATE_SWITCH, dir, sizeof dir), &now);
	return net_vde_port_added(before, &now);
}

/* Start the local nodes one at a time: each QEMU must have its port on the
 * switch before the next one asks for one.  vde_switch (2.3.2) mixes up
 * its ports when plugs connect concurrently: a port's frames can come out
 * as if sent from another port, so one node reaches nobody (it was about
 * one 4-node boot in 20; docs/network.md tells the story).  A node's port
 * is the one that appears after it starts, whatever other nodes do. */
static int start_nodes(struct supervisor *s)
{
	const struct cluster_spec *spec = &s->o->spec;
	struct vde_ports before;
	char dir[PATH_MAX + 16];
	for (int i = 0; i < spec->nnodes; i++) {
		const struct cluster_node *n = &spec->nodes[i];
		if (n->remote)
			continue;
		net_vde_ports(dir_file(s, STATE_SWITCH, dir, sizeof dir), &before);
		int r = start_node(s, n);
		if (r)
			return r;
		r = wait_until(s, find_member(s, MEMBER_NODE, n->name), s->o->timeout_s * 1000,
			       "port on the switch", switch_port_added, &before);
		if (r && !s->stop)
			show_node_output(s, n);
		if (r)
			return r;
	}
	return 0;
}

static int boot_nodes(struct supervisor *s)
{
	const struct cluster_spec *spec = &s->o->spec;
	int r = start_nodes(s);
	if (r)
		return r;
	for (int i = 0; i < spec->nnodes; i++) {
		const struct cluster_node *n = &spec->nodes[i];
		if (n->remote)
			continue;
		struct member *m = find_member(s, MEMBER_NODE, n->name);
		char what[64];
		snprintf(what, sizeof what, "boot banner \"DPM kernel: node %d\"", n->id);
		r = wait_until(s, m, s->o->timeout_s * 1000, what, node_booted, n);
		if (r && !s->stop)
			show_node_output(s, n);
		if (r)
			return r;
	}
	return 0;
}

/* ---- stopping ---------------------------------------------------------- */

/* Stop every process we started (nodes first, the switch last) and remove
 * the sockets, the secret and the state. */
static void teardown(struct supervisor *s)
{
	struct proc_id ids[STATE_MAX_MEMBERS];
	int n = 0;
	for (int kind = MEMBER_NODE; kind >= MEMBER_SWITCH; kind--) {
		n = 0;
		for (int i = 0; i < s->st.nmembers; i++)
			if ((int)s->st.members[i].kind == kind && s->st.members[i].state == MEMBER_RUNNING)
				ids[n++] = s->st.members[i].proc;
		if (kind == MEMBER_SWITCH && s->switch_stdin >= 0) {
			close(s->switch_stdin); /* EOF on its stdin makes it exit */
			s->switch_stdin = -1;
		}
		if (n && proc_stop(ids, n, STOP_GRACE_MS))
			say("some processes would not stop, even with SIGKILL");
	}
	state_clean(s->o->dir, 0);
}

/* Tell `up` the outcome; after success our output goes to the log so that
 * nothing holds `up`'s terminal or pipe. */
static void report(struct supervisor *s, int status)
{
	if (s->report_fd < 0)
		return;
	if (status == SUPERVISOR_READY) {
		char path[PATH_MAX + 32];
		int fd = open(dir_file(s, STATE_SUPERVISOR_LOG, path, sizeof path),
			      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		fflush(stdout);
		fflush(stderr);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0) {
			dup2(null, 0);
			close(null);
		}
	}
	unsigned char b = (unsigned char)status;
	if (write(s->report_fd, &b, 1) < 0) {
		/* `up` is gone; it has nothing left to learn */
	}
	close(s->report_fd);
	s->report_fd = -1;
}

static void print_ready(const struct supervisor *s)
{
	const struct cluster_spec *spec = &s->o->spec;
	int local = 0;
	for (int i = 0; i < spec->nnodes; i++)
		local += !spec->nodes[i].remote;
	printf("cluster up: %d node%s (", local, local == 1 ? "" : "s");
	for (int i = 0, shown = 0; i < spec->nnodes; i++)
		if (!spec->nodes[i].remote)
			printf("%s%s", shown++ ? " " : "", spec->nodes[i].name);
	printf(") in %s\n", s->o->dir);
	if (local < spec->nnodes)
		printf("nodes booted elsewhere (boot=no) are peers of these\n");
	for (int i = 0; i < s->nservices; i++)
		if (s->services[i].cmd[0])
			printf("service %s: '%s', run by QEMU for each connection to port %d\n",
			       s->services[i].name, s->services[i].cmd, s->services[i].port);
		else
			printf("service %s on 127.0.0.1:%d\n", s->services[i].name, s->services[i].port);
	fflush(stdout);
}

/* The cluster's delivery-time table (cluster_mtime.h), for `dpm record`. */
static int write_mtime(struct supervisor *s)
{
	char path[PATH_MAX + 16], bench[PATH_MAX], what[PATH_MAX + 128];
	dir_file(s, STATE_MTIME, path, sizeof path);
	int have_bench = cluster_build_path("bench/mtime.csv", bench, sizeof bench) == 0;
	if (cluster_mtime_write(&s->o->spec, have_bench ? bench : NULL, path, what, sizeof what) < 0) {
		say("cannot write the delivery-time table: %s", what);
		return SUPERVISOR_FAILED;
	}
	return 0;
}

static int bring_up(struct supervisor *s)
{
	int r;
	if ((r = lock_dir(s)) || (r = check_previous(s)) || (r = write_secret(s)) ||
	    (r = write_mtime(s)) || (r = resolve_ports(s)))
		return r;
	init_state(s);
	if ((r = start_services(s)) || (r = start_switch(s)) || (r = boot_nodes(s)))
		return r;
	s->st.ready = 1;
	save_state(s);
	return 0;
}

int supervisor_main(const struct up_options *o, int report_fd)
{
	static struct supervisor s;
	s = (struct supervisor){ .o = o, .switch_stdin = -1, .report_fd = report_fd };
	setsid();
	if (setup_signals() < 0) {
		say("cannot set up signals: %s", strerror(errno));
		report(&s, SUPERVISOR_FAILED);
		return SUPERVISOR_FAILED;
	}
	int r = bring_up(&s);
	if (r) {
		if (r != SUPERVISOR_REFUSED)
			teardown(&s);
		report(&s, r);
		return r;
	}
	if (!o->quiet)
		print_ready(&s);
	report(&s, SUPERVISOR_READY);
	say("cluster ready (supervisor pid %d)", (int)getpid());
	while (!s.stop)
		wait_events(&s, 1000);
	say("stopping the cluster");
	teardown(&s);
	return 0;
}

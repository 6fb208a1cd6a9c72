/*
 * qemu/cluster/cluster_proc.c - starting, recognising and stopping the cluster's
 * host processes (QEMU nodes, the switch, host services).
 *
 * Children are started with PR_SET_PDEATHSIG so that whatever happens to
 * their starter (even SIGKILL) they are told to stop: a cluster never
 * leaves orphans behind.  Each leads a process group of its own, and is
 * stopped with its group, so that what it started in turn (a wrapper's
 * QEMU, a service's helpers) goes with it.  An exec failure travels back over a close-on-exec
 * pipe, so "qemu-system-i386: not found" is an error of `up`, not a silent
 * node that never prints its banner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cluster_proc.h"

void proc_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* In the child: stdio, signals and the death signal, then exec. */
static void exec_child(char *const argv[], const struct spawn_io *io, pid_t parent, int errfd)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	int in = io->in >= 0 ? io->in : open("/dev/null", O_RDONLY);
	int out = open(io->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		goto fail;
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	for (char *const *e = io->env; e && *e; e++)
		putenv(*e);
	execvp(argv[0], argv);
fail:;
	int e = errno;
	if (write(errfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

int proc_spawn(char *const argv[], const struct spawn_io *io, struct proc_id *id,
	       char *err, size_t errlen)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		exec_child(argv, io, parent, pipefd[1]);
	}
	close(pipefd[1]);
	int child_errno;
	ssize_t n;
	do
		n = read(pipefd[0], &child_errno, sizeof child_errno);
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == (ssize_t)sizeof child_errno) {
		waitpid(pid, NULL, 0);
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(child_errno));
		return -1;
	}
	id->pid = pid;
	if (proc_start_time(pid, &id->start) < 0)
		id->start = 0; /* it already ended (never "alive"); reaping tells how */
	return 0;
}

int proc_start_time(pid_t pid, unsigned long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold spaces and ')': fields resume after the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -1;
	char state = p[2];
	if (state == 'Z' || state == 'X')
		return -1;
	p += 2;
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return 0;
}

int proc_alive(const struct proc_id *id)
{
	unsigned long long start;
	if (id->pid <= 0 || id->start == 0 || proc_start_time(id->pid, &start) < 0)
		return 0;
	return start == id->start;
}

int proc_reap(pid_t pid, struct proc_end *end)
{
	/* Ended?  Then its group goes too, told while the unreaped child still
	 * holds the group's id (so the id cannot name anyone else yet). */
	siginfo_t info = { 0 };
	if (pid <= 0 || waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid != pid)
		return 0;
	kill(-pid, SIGTERM);
	int status;
	if (waitpid(pid, &status, WNOHANG) != pid)
		return 0;
	end->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	end->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	return 1;
}

/* Poll every 20 ms, up to ms, until none of ids is alive; returns how many
 * still are. */
static int wait_gone(const struct proc_id *ids, int n, int ms)
{
	for (int waited = 0;; waited += 20) {
		int alive = 0;
		for (int i = 0; i < n; i++) {
			struct proc_end end;
			if (proc_alive(&ids[i]))
				alive++;
			else
				proc_reap(ids[i].pid, &end); /* a zombie child of ours */
		}
		if (alive == 0 || waited >= ms)
			return alive;
		proc_sleep_ms(20);
	}
}

/* Signal each live one with its process group; one that does not lead a
 * group (not yet, or started before groups were used) alone. */
static void signal_alive(const struct proc_id *ids, int n, int sig)
{
	for (int i = 0; i < n; i++)
		if (proc_alive(&ids[i]) && kill(-ids[i].pid, sig) < 0)
			kill(ids[i].pid, sig);
}

int proc_stop(const struct proc_id *ids, int n, int grace_ms)
{
	signal_alive(ids, n, SIGTERM);
	if (wait_gone(ids, n, grace_ms) == 0)
		return 0;
	signal_alive(ids, n, SIGKILL);
	return wait_gone(ids, n, 1000);
}

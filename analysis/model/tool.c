/*
 * analysis/model/tool.c - run an external program found on PATH (see tool.h).
 *
 * fork and exec rather than a shell: arguments are file names we made, and
 * nothing is ever interpreted by /bin/sh.
 */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int tool_find(const char *name, char *buf, size_t len)
{
	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return executable(buf);
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; ; ) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0)
			snprintf(buf, len, "./%s", name);
		else
			snprintf(buf, len, "%.*s/%s", (int)n, p, name);
		if (executable(buf))
			return 1;
		if (!end)
			return 0;
		p = end + 1;
	}
}

/* In the child: go to dir, send output to log, run prog.  Never returns. */
static void child(const char *dir, const char *log, const char *prog, char *const argv[])
{
	if (dir && chdir(dir) < 0)
		_exit(126);
	if (log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	execv(prog, argv);
	_exit(127);
}

void tool_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int tool_run(const char *dir, const char *log, char *const argv[], char *why, size_t whylen)
{
	char prog[4096];
	if (!tool_find(argv[0], prog, sizeof prog)) {
		snprintf(why, whylen, "%s was not found on PATH", argv[0]);
		return TOOL_MISSING;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot start %s: %s", argv[0], strerror(errno));
		return TOOL_FAILED;
	}
	if (pid == 0)
		child(dir, log, prog, argv);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, whylen, "waiting for %s: %s", argv[0], strerror(errno));
			return TOOL_FAILED;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return TOOL_OK;
	if (WIFEXITED(status))
		snprintf(why, whylen, "%s exited with status %d%s%s", argv[0], WEXITSTATUS(status),
			 log ? "; its messages are in " : "", log ? log : "");
	else
		snprintf(why, whylen, "%s was killed by signal %d", argv[0], WTERMSIG(status));
	return TOOL_FAILED;
}

/*
 * qemu/commands/control.c - `dpm control`: the controller of the DPM paper §4.3 at
 * a prompt (line editing and history by libedit) or from a script, on a
 * running cluster.
 *
 * At the prompt, what the nodes report (a process's output, its end) is
 * printed as it comes without tearing the line being typed: the
 * interpreter writes into a buffer, and the buffer goes to the terminal
 * above the prompt, which is then drawn again.  From a script (-f) or a
 * pipe the same output goes straight to stdout, in order, so a script's
 * output can be compared by tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "qemu/cluster/cluster_dir.h"
#include "qemu/control/control.h"
#include "qemu/control/control_net.h"

#define HISTORY_FILE ".dpm_history"
#define PROMPT "dpm> "

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm control [--dir DIR] [-f SCRIPT] [--porcelain]\n\n"
		"Run and meter jobs on a running cluster: create processes suspended on its\n"
		"nodes, meter them to a filter, start and stop them, fetch the log (the DPM paper's\n"
		"controller; 'help' lists the commands, docs/control.md explains them).\n"
		"Commands come from SCRIPT, else from the terminal (a prompt with history), else\n"
		"from standard input.\n\n"
		"  -f, --file SCRIPT   run the commands in SCRIPT, then leave\n"
		"      --dir DIR       the cluster's state directory (default $DPM_CLUSTER_DIR,\n"
		"                      else build/cluster)\n"
		"      --porcelain     report created, acquired and ended processes as\n"
		"                      tab-separated lines for scripts (docs/control.md):\n"
		"                      created|acquired NAME ID MACHINE JOB, and\n"
		"                      ended NAME ID MACHINE JOB REASON\n\n"
		"Exit status: 0 every command succeeded, 1 one failed, 2 bad usage or a bad\n"
		"command; 1 also when there is no cluster or the control hub refuses.\n");
}

/* ---- the prompt ------------------------------------------------------------- */

static struct control_net *prompt_net;
static FILE *pending;            /* the interpreter's output, waiting for the terminal */
static char *pending_text;
static size_t pending_len;

/* Show what the interpreter wrote; while a line is being typed, above it. */
static void show_pending(int line_drawn)
{
	fflush(pending);
	if (!pending_len)
		return;
	if (line_drawn)
		fputs("\r\033[K", stdout);
	fwrite(pending_text, 1, pending_len, stdout);
	fflush(stdout);
	rewind(pending);
	pending_len = 0;
	pending_text[0] = '\0';
	if (line_drawn)
		rl_forced_update_display();
}

/* libedit reads the terminal through this: while no key comes, the nodes'
 * reports are taken and shown above the line being edited. */
static int prompt_getc(FILE *in)
{
	int fd = fileno(in);
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
				       { .fd = prompt_net->w.fd, .events = POLLIN } };
		int np = prompt_net->w.fd >= 0 ? 2 : 1;
		if (poll(p, (nfds_t)np, 100) < 0 && errno != EINTR)
			return EOF;
		control_net_poll(prompt_net, 0);
		show_pending(1);
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			unsigned char c;
			ssize_t n = read(fd, &c, 1);
			if (n == 1)
				return c;
			if (n == 0 || errno != EINTR)
				return EOF;
		}
	}
}

static void history_path(char *out, size_t size)
{
	const char *home = getenv("HOME");
	snprintf(out, size, "%s/%s", home && *home ? home : ".", HISTORY_FILE);
}

static void run_prompt(struct control *c, struct control_net *n)
{
	char hist[PATH_MAX];
	history_path(hist, sizeof hist);
	pending = open_memstream(&pending_text, &pending_len);
	c->terminal = c->out = pending;
	prompt_net = n;
	rl_getc_function = prompt_getc;
	rl_initialize();
	using_history();
	read_history(hist);
	printf("dpm control: connected to the cluster in %s; 'help' lists the commands\n", n->dir);
	for (int lineno = 1;; lineno++) {
		char *line = readline(PROMPT);
		if (!line) { /* end of input: the same as die, but never refused */
			putchar('\n');
			control_end_of_input(c);
			break;
		}
		char where[32];
		snprintf(where, sizeof where, "control:%d", lineno);
		if (*line)
			add_history(line);
		enum control_result r = control_line(c, line, where, 0);
		free(line);
		show_pending(0);
		if (r == CR_EXIT)
			break;
	}
	write_history(hist);
	c->terminal = c->out = stdout;
	show_pending(0);
	fclose(pending);
	free(pending_text);
}

/* ---- scripts and pipes --------------------------------------------------------- */

static void run_stream(struct control *c, FILE *in, const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (getline(&line, &cap, in) >= 0) {
		char where[PATH_MAX + 16];
		snprintf(where, sizeof where, "%s:%d", name, ++lineno);
		if (control_line(c, line, where, 0) == CR_EXIT) {
			free(line);
			return;
		}
	}
	free(line);
	control_end_of_input(c);
}

int control_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "dir", required_argument, NULL, 'd' },
		{ "porcelain", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *script = NULL, *dir_option = NULL;
	int opt, porcelain = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': script = optarg; break;
		case 'd': dir_option = optarg; break;
		case 'p': porcelain = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dpm control: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	FILE *in = NULL;
	if (script && !(in = fopen(script, "r"))) {
		fprintf(stderr, "dpm control: cannot read %s: %s\n", script, strerror(errno));
		return 2;
	}
	char dir[PATH_MAX], err[1024];
	static struct control_net n;
	static struct control c;
	n.scripted = in || !isatty(0); /* a prompt's commands come when typed */
	if (cluster_existing_dir(dir_option, dir, sizeof dir) != 0 ||
	    control_net_open(&n, dir, err, sizeof err) < 0) {
		if (in)
			fclose(in);
		if (n.dir[0])
			fprintf(stderr, "dpm control: %s\n", err);
		return 1;
	}
	struct control_nodes ops = control_net_nodes(&n);
	control_init(&c, &ops, dir);
	c.porcelain = porcelain;
	n.c = &c;
	if (in)
		run_stream(&c, in, script);
	else if (isatty(0))
		run_prompt(&c, &n);
	else
		run_stream(&c, stdin, "stdin");
	if (in)
		fclose(in);
	/* a script's status is its worst command's; a prompt's its last one's
	 * (as a shell's), not a typo's long before */
	int result = !in && isatty(0) ? c.last : c.worst;
	int status = result == CR_USAGE ? 2 : result ? 1 : 0;
	control_fini(&c);
	control_net_close(&n);
	return status;
}

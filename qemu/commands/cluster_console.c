/*
 * qemu/commands/cluster_console.c - `dpm cluster console NODE`: a node's serial
 * console.
 *
 * QEMU writes everything the node prints to NAME.console (the chardev's
 * logfile), so reading and following need no connection at all and work
 * for any number of readers, even after `down`.  Typing into the node
 * (--input) goes through NAME.sock, which takes one client at a time.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "qemu/cluster/cluster_dir.h"

#define FOLLOW_POLL_MS 100
#define INPUT_DRAIN_MS 1000

/* Copy what follows offset in path to stdout; returns the new offset. */
static long copy_from(const char *path, long offset)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return offset;
	char buf[8192];
	size_t n;
	fseek(f, offset, SEEK_SET);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		fwrite(buf, 1, n, stdout);
		offset += (long)n;
	}
	fclose(f);
	fflush(stdout);
	return offset;
}

/* Print the console, then (follow) what comes, until the node stops. */
static int show(const char *path, const struct proc_id *node, int follow)
{
	if (access(path, R_OK) < 0) {
		fprintf(stderr, "dpm cluster: %s: %s\n", path, strerror(errno));
		return 1;
	}
	long offset = copy_from(path, 0);
	while (follow && proc_alive(node)) {
		proc_sleep_ms(FOLLOW_POLL_MS);
		offset = copy_from(path, offset);
	}
	copy_from(path, offset);
	return 0;
}

/* Pass stdin to the node's socket and its output to stdout; after stdin
 * ends, keep printing for a moment so the node's answer shows. */
static int attach(const char *sock_path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, sock_path, strlen(sock_path) + 1); /* state_path checked the length */
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		fprintf(stderr, "dpm cluster: cannot connect to %s: %s\n", sock_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	int input_open = 1;
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = 0, .events = POLLIN } };
		int n = poll(p, input_open ? 2 : 1, input_open ? -1 : INPUT_DRAIN_MS);
		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		char buf[4096];
		if (p[0].revents) {
			ssize_t got = read(fd, buf, sizeof buf);
			if (got <= 0)
				break;
			fwrite(buf, 1, (size_t)got, stdout);
			fflush(stdout);
		}
		if (input_open && p[1].revents) {
			ssize_t got = read(0, buf, sizeof buf);
			if (got <= 0)
				input_open = 0;
			else if (write(fd, buf, (size_t)got) != got)
				break;
		}
	}
	close(fd);
	return 0;
}

static const char console_usage[] =
	"usage: dpm cluster console NODE [--dir DIR] [-f | --input]\n\n"
	"Print node NODE's console (NODE is a name or an id).  Works after 'down' too,\n"
	"from the console file the cluster left.\n\n"
	"  -f, --follow   keep printing what the node prints, until it stops or Ctrl-C\n"
	"  -i, --input    type into the node: standard input goes to its serial port,\n"
	"                 its output comes back live (one client at a time)\n\n"
	"Exit status: 0 shown, 1 no such console, 2 bad usage or unknown node.\n";

/* The node's files: from the state when a cluster runs, else the console
 * a stopped cluster left under the name given. */
static int locate(const char *dir, const char *node, char *name, size_t namesize,
		  struct proc_id *proc)
{
	struct cluster_state st;
	char err[512];
	int r = state_load(dir, &st, err, sizeof err);
	memset(proc, 0, sizeof *proc);
	if (r < 0) {
		fprintf(stderr, "dpm cluster: %s\n", err);
		return 2;
	}
	if (r == 0) {
		snprintf(name, namesize, "%s", node);
		return 0;
	}
	struct member *m = state_find_node(&st, node);
	if (!m) {
		fprintf(stderr, "dpm cluster: no node '%s' in the cluster in %s (nodes:", node, dir);
		for (int i = 0; i < st.nmembers; i++)
			if (st.members[i].kind == MEMBER_NODE)
				fprintf(stderr, " %s", st.members[i].name);
		fprintf(stderr, ")\n");
		return 2;
	}
	snprintf(name, namesize, "%s", m->name);
	*proc = m->proc;
	return 0;
}

int cluster_console_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },  { "follow", no_argument, NULL, 'f' },
		{ "input", no_argument, NULL, 'i' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir_option = NULL;
	int follow = 0, input = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "fih", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_option = optarg; break;
		case 'f': follow = 1; break;
		case 'i': input = 1; break;
		case 'h': fputs(console_usage, stdout); return 0;
		default: fputs(console_usage, stderr); return 2;
		}
	}
	if (optind != argc - 1 || (follow && input)) {
		fputs(console_usage, stderr);
		return 2;
	}
	char dir[PATH_MAX], err[PATH_MAX + 64], name[CLUSTER_NAME_MAX + 1], file[64];
	char path[PATH_MAX + 64];
	struct proc_id proc;
	if (cluster_existing_dir(dir_option, dir, sizeof dir))
		return 1;
	int r = locate(dir, argv[optind], name, sizeof name, &proc);
	if (r)
		return r;
	snprintf(file, sizeof file, "%s%s", name, input ? NODE_SOCKET_SUFFIX : NODE_CONSOLE_SUFFIX);
	if (state_path(dir, file, input, path, sizeof path, err, sizeof err)) {
		fprintf(stderr, "dpm cluster: %s\n", err);
		return 1;
	}
	return input ? attach(path) : show(path, &proc, follow);
}

/*
 * hostfilter/commands/filter.c - `dpm filter`: the command, its socket and its loop.
 *
 * One process serves many nodes: it listens on 127.0.0.1, and a single
 * poll() loop reads every connection (or standard input with --stdin) and
 * hands the bytes to meterstream.c, which does the checking, selecting
 * and logging.  SIGINT/SIGTERM end the loop; what is still readable is
 * read, the log is closed and a one-line summary goes to stderr.
 *
 * Bounded and self-healing: at most --max-conns connections (the one
 * that passes the cap is closed, and the cap's being reached said once);
 * with the cluster's secret (--secret, or DPM_CLUSTER_SECRET from `dpm
 * cluster up`) every connection is challenged (kernel/abi/hostauth.h) and
 * closed unless it answers as a node within --handshake-timeout, and then
 * takes only that node's traces; a peer that stops inside a batch for
 * --idle-timeout is closed with a NOTE; accept errors (EMFILE included)
 * cost one connection, never the filter.  What was received whole is in
 * the log whatever any peer does.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/filter/meterstream.h"
#include "hostfilter/filter/nodeauth.h"
#include "hostfilter/filter/shed.h"

#define MAX_CONNS_LIMIT 4096
#define MAX_CONNS_DEFAULT 256
#define HANDSHAKE_DEFAULT_S 60.0 /* a node answers once booted: long, as the hub's HELLO wait */
#define IDLE_DEFAULT_S 60.0
#define POLL_MS 200

struct options {
	const char *rules, *desc, *log, *port_file, *batch_log;
	const char *check_rules, *check_desc, *secret;
	int port, use_stdin, quiet, max_conns;
	double timeout; /* seconds; 0 = until a signal */
	double handshake_timeout, idle_timeout;
};

struct conn {
	int fd;
	int authed;              /* answered the challenge (or none was asked) */
	struct nodeauth auth;
	struct timespec since;   /* accepted */
	struct timespec last;    /* last byte received */
	struct meter_stream s;
};

struct filter {
	struct options opt;
	struct formats fm;
	struct rules rules;
	struct filter_core core;
	int listen_fd;
	int spare_fd;            /* held open to take one connection and close it
	                            when the process is out of descriptors */
	unsigned long refused;   /* connections refused for want of descriptors */
	int auth;                /* challenge every connection */
	struct nodeauth_key key;
	int at_cap;              /* the connection cap was reached (said once) */
	unsigned long capped;    /* connections closed at the cap */
	struct conn *conns;
	size_t nconns;
	struct timespec started;
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dpm filter [--rules FILE] [--desc FILE] [--port N] [--port-file FILE]\n"
		"                  [--batch-log FILE] [--timeout SECONDS] [--quiet] [--secret FILE]\n"
		"                  [--max-conns N] [--handshake-timeout S] [--idle-timeout S] -o LOG\n"
		"       dpm filter --stdin [--rules FILE] [--desc FILE] -o LOG\n"
		"       dpm filter --check RULES [DESCRIPTIONS]\n\n"
		"Receive the nodes' meter streams on 127.0.0.1, keep the traces a selection\n"
		"rule accepts, and write them to a self-describing LOG (read it with dpm dump).\n\n"
		"  -o, --output LOG      the log to write\n"
		"  --rules FILE          selection rules (default: keep every trace)\n"
		"  --desc FILE           trace descriptions (default: kernel/abi/trace.desc, built in)\n"
		"  --port N              TCP port on 127.0.0.1 (default 0: any free port)\n"
		"  --port-file FILE      write the port listened on to FILE\n"
		"  --stdin               read one meter stream from standard input instead\n"
		"  --batch-log FILE      one CSV line per batch received: conn,machine,count,bytes\n"
		"  --timeout SECONDS     stop by itself after SECONDS (default: run until signalled)\n"
		"  --quiet               no message per rejected connection\n"
		"  --secret FILE         the cluster's secret (default: $DPM_CLUSTER_SECRET, set by\n"
		"                        'dpm cluster up'): every connection must authenticate as a\n"
		"                        node and then sends only that node's traces\n"
		"  --max-conns N         connections at once (default 256, at most 4096)\n"
		"  --handshake-timeout S with a secret: close a connection that has not\n"
		"                        authenticated after S seconds (default 60)\n"
		"  --idle-timeout S      close a connection stopped inside a batch for S seconds\n"
		"                        (default 60)\n"
		"  --check RULES [DESC]  check rules (and descriptions) and exit: 0 ok, 2 errors\n\n"
		"SIGINT or SIGTERM stops the filter; it prints a summary on stderr.\n"
		"See docs/filter.md.\n");
}

enum { OPT_RULES = 256, OPT_DESC, OPT_PORT, OPT_PORT_FILE, OPT_BATCH_LOG, OPT_STDIN, OPT_CHECK,
       OPT_TIMEOUT, OPT_QUIET, OPT_HELP, OPT_SECRET, OPT_MAX_CONNS, OPT_HANDSHAKE, OPT_IDLE };

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "desc", required_argument, NULL, OPT_DESC },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "port-file", required_argument, NULL, OPT_PORT_FILE },
	{ "batch-log", required_argument, NULL, OPT_BATCH_LOG },
	{ "stdin", no_argument, NULL, OPT_STDIN },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "secret", required_argument, NULL, OPT_SECRET },
	{ "max-conns", required_argument, NULL, OPT_MAX_CONNS },
	{ "handshake-timeout", required_argument, NULL, OPT_HANDSHAKE },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int parse_number(const char *s, double max, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || *v < 0 || *v > max ? -1 : 0;
}

/* 0 to run, 1 --help was given, 2 bad usage (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
	int c;
	double v;
	memset(o, 0, sizeof *o);
	o->max_conns = MAX_CONNS_DEFAULT;
	o->handshake_timeout = HANDSHAKE_DEFAULT_S;
	o->idle_timeout = IDLE_DEFAULT_S;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", long_options, NULL)) != -1) {
		switch (c) {
		case 'o': o->log = optarg; break;
		case OPT_RULES: o->rules = optarg; break;
		case OPT_DESC: o->desc = optarg; break;
		case OPT_PORT_FILE: o->port_file = optarg; break;
		case OPT_BATCH_LOG: o->batch_log = optarg; break;
		case OPT_STDIN: o->use_stdin = 1; break;
		case OPT_CHECK: o->check_rules = optarg; break;
		case OPT_QUIET: o->quiet = 1; break;
		case OPT_HELP: usage(stdout); return 1;
		case OPT_PORT:
			if (parse_number(optarg, 65535, &v) || v != (int)v) {
				fprintf(stderr, "dpm filter: --port wants a number 0..65535, not '%s'\n", optarg);
				return 2;
			}
			o->port = (int)v;
			break;
		case OPT_TIMEOUT:
			if (parse_number(optarg, 1e9, &v)) {
				fprintf(stderr, "dpm filter: --timeout wants seconds, not '%s'\n", optarg);
				return 2;
			}
			o->timeout = v;
			break;
		case OPT_SECRET: o->secret = optarg; break;
		case OPT_MAX_CONNS:
			if (parse_number(optarg, MAX_CONNS_LIMIT, &v) || v != (int)v || v < 1) {
				fprintf(stderr, "dpm filter: --max-conns wants a number 1..%d, not '%s'\n",
					MAX_CONNS_LIMIT, optarg);
				return 2;
			}
			o->max_conns = (int)v;
			break;
		case OPT_HANDSHAKE:
		case OPT_IDLE:
			if (parse_number(optarg, 1e6, &v) || v <= 0) {
				fprintf(stderr, "dpm filter: --%s wants seconds above 0, not '%s'\n",
					c == OPT_IDLE ? "idle-timeout" : "handshake-timeout", optarg);
				return 2;
			}
			*(c == OPT_IDLE ? &o->idle_timeout : &o->handshake_timeout) = v;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (o->check_rules && optind < argc)
		o->check_desc = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "dpm filter: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!o->check_rules && !o->log) {
		fprintf(stderr, "dpm filter: no log given (-o LOG)\n");
		return 2;
	}
	return 0;
}

/* --check: load descriptions and rules, report, exit 0 or 2. */
static int check_only(const struct options *o)
{
	char err[512];
	struct formats fm;
	struct rules rules;
	const char *desc = o->check_desc ? o->check_desc : o->desc;
	if (formats_load(&fm, desc, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		formats_free(&fm);
		return 2;
	}
	int rc = rules_load(&rules, &fm, o->check_rules, err, sizeof err);
	if (rc)
		fprintf(stderr, "%s\n", err);
	else
		printf("%s: %zu rules ok (descriptions: %s, %zu trace types)\n", o->check_rules,
		       rules.nsource, desc ? desc : DPM_DEFAULT_DESC_NAME, fm.n);
	rules_free(&rules);
	formats_free(&fm);
	return rc ? 2 : 0;
}

static int write_port_file(const char *path, int port)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "dpm filter: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int start_listening(struct filter *fl)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)fl->opt.port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&a, &alen)) {
		fprintf(stderr, "dpm filter: cannot listen on 127.0.0.1:%d: %s\n", fl->opt.port,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fl->listen_fd = fd;
	if (fl->opt.port_file && write_port_file(fl->opt.port_file, ntohs(a.sin_port)))
		return -1;
	return 0;
}

static int add_conn(struct filter *fl, int fd)
{
	if (fl->nconns == (size_t)fl->opt.max_conns) {
		if (!fl->at_cap)
			fprintf(stderr, "dpm filter: connection cap reached (%d connections); closing new "
					"connections until one ends\n", fl->opt.max_conns);
		fl->at_cap = 1;
		fl->capped++;
		close(fd);
		return 0;
	}
	struct conn *cn = &fl->conns[fl->nconns];
	memset(cn, 0, sizeof *cn);
	cn->fd = fd;
	cn->authed = !fl->auth || fd == STDIN_FILENO;
	clock_gettime(CLOCK_MONOTONIC, &cn->since);
	cn->last = cn->since;
	if (!cn->authed && (nodeauth_begin(&cn->auth) < 0 ||
			    write(fd, &cn->auth.chal, sizeof cn->auth.chal) != (ssize_t)sizeof cn->auth.chal)) {
		fprintf(stderr, "dpm filter: cannot challenge a new connection (%s); closed\n",
			strerror(errno));
		close(fd);
		return 0;
	}
	if (stream_open(&fl->core, &cn->s)) {
		fprintf(stderr, "dpm filter: out of memory for a new connection; closed\n");
		stream_free(&cn->s);
		close(fd);
		return -1;
	}
	fl->nconns++;
	return 0;
}

static void drop_conn(struct filter *fl, size_t i)
{
	if (fl->conns[i].fd != STDIN_FILENO)
		close(fl->conns[i].fd);
	stream_free(&fl->conns[i].s);
	fl->conns[i] = fl->conns[--fl->nconns];
	if (fl->at_cap) {
		fprintf(stderr, "dpm filter: below the connection cap again; %lu connections were "
				"closed at the cap\n", fl->capped);
		fl->at_cap = 0;
	}
}

static int accept_all(struct filter *fl)
{
	for (;;) {
		int fd = accept4(fl->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		int err = errno;
		if (fd < 0 && accept_shed(fl->listen_fd, &fl->spare_fd, err)) {
			/* out of descriptors or kernel memory: the connected nodes go
			 * on; said the first time and every 100th */
			if (fl->refused++ % 100 == 0)
				fprintf(stderr, "dpm filter: cannot take a connection (%s); refused %lu so "
						"far, the connected nodes go on\n", strerror(err), fl->refused);
			return 0;
		}
		if (fd < 0 && accept_failure(err) == ACCEPT_BROKEN) {
			fprintf(stderr, "dpm filter: the listening socket failed (%s); no new connections, "
					"the connected nodes go on\n", strerror(err));
			close(fl->listen_fd);
			fl->listen_fd = -1;
			return 0;
		}
		if (fd < 0) /* nothing more to take now, a connection that went, a passing error */
			return 0;
		add_conn(fl, fd); /* what it cannot take it closes and says */
	}
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The node's answer to the challenge, read no further than it goes.  As
 * read_conn. */
static int read_answer(struct filter *fl, struct conn *cn)
{
	uint8_t b[HOSTAUTH_ANSWER_SIZE];
	ssize_t n = read(cn->fd, b, nodeauth_wanted(&cn->auth));
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 2;
	if (n <= 0) {
		fprintf(stderr, "dpm filter: connection %u closed before authenticating\n", cn->s.id);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &cn->last);
	const char *why = "";
	int r = nodeauth_feed(&cn->auth, &fl->key, b, (uint32_t)n, &why);
	if (r < 0) {
		fprintf(stderr, "dpm filter: refused connection %u: %s\n", cn->s.id, why);
		return 1;
	}
	if (r == 1) {
		cn->authed = 1;
		cn->s.node = cn->s.machine = cn->auth.node;
		if (!fl->opt.quiet)
			fprintf(stderr, "dpm filter: connection %u is node %u (authenticated)\n", cn->s.id,
				(unsigned)cn->auth.node);
	}
	return 0;
}

/* Read what connection i has.  0 read something, 2 nothing to read now,
 * 1 it is finished (drop it), -1 the log failed. */
static int read_conn(struct filter *fl, size_t i)
{
	struct conn *cn = &fl->conns[i];
	if (!cn->authed)
		return read_answer(fl, cn);
	size_t room;
	uint8_t *space = stream_space(&cn->s, &room);
	ssize_t n = read(cn->fd, space, room);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 2;
	if (n <= 0)
		return stream_end(&fl->core, &cn->s, n < 0) ? -1 : 1;
	clock_gettime(CLOCK_MONOTONIC, &cn->last);
	return stream_received(&fl->core, &cn->s, (size_t)n);
}

/* Close what waits too long: a connection that has not authenticated in
 * --handshake-timeout, one stopped inside a batch for --idle-timeout (its
 * partial batch noted).  A node between batches may be quiet for ever.
 * 0, or -1 the log failed. */
static int close_stale(struct filter *fl)
{
	for (size_t i = fl->nconns; i-- > 0;) {
		struct conn *cn = &fl->conns[i];
		if (cn->fd == STDIN_FILENO)
			continue;
		if (!cn->authed && seconds_since(&cn->since) >= fl->opt.handshake_timeout) {
			fprintf(stderr, "dpm filter: connection %u did not authenticate within %g s; "
					"closed\n", cn->s.id, fl->opt.handshake_timeout);
			drop_conn(fl, i);
		} else if (cn->authed && cn->s.len > 0 && seconds_since(&cn->last) >= fl->opt.idle_timeout) {
			if (stream_stalled(&fl->core, &cn->s))
				return -1;
			drop_conn(fl, i);
		}
	}
	return 0;
}


/* When stopping: take connections already made, read what the nodes have
 * already sent (standard input is not waited for), then end every stream. */
static int drain(struct filter *fl)
{
	if (fl->listen_fd >= 0 && accept_all(fl))
		return -1;
	while (fl->nconns > 0) {
		size_t i = fl->nconns - 1;
		int r = fl->conns[i].fd == STDIN_FILENO ? 2 : 0;
		while (r == 0)
			r = read_conn(fl, i);
		if (r < 0 || (r == 2 && stream_end(&fl->core, &fl->conns[i].s, 0)))
			return -1;
		drop_conn(fl, i);
	}
	return 0;
}

static int serve(struct filter *fl)
{
	struct pollfd *pfd = calloc((size_t)fl->opt.max_conns + 1, sizeof *pfd);
	int rc = 0;
	if (!pfd)
		return -1;
	while (!stop_requested && (fl->listen_fd >= 0 || fl->nconns > 0)) {
		if (fl->opt.timeout > 0 && seconds_since(&fl->started) >= fl->opt.timeout)
			break;
		if (close_stale(fl)) {
			rc = -1;
			break;
		}
		size_t n = 0;
		if (fl->listen_fd >= 0)
			pfd[n++] = (struct pollfd){ fl->listen_fd, POLLIN, 0 };
		size_t first = n;
		for (size_t i = 0; i < fl->nconns; i++)
			pfd[n++] = (struct pollfd){ fl->conns[i].fd, POLLIN, 0 };
		if (poll(pfd, n, POLL_MS) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		if (first && (pfd[0].revents & POLLIN) && accept_all(fl)) {
			rc = -1;
			break;
		}
		/* Walk backwards: drop_conn moves the last connection into slot i. */
		for (size_t k = n; k-- > first;) {
			size_t i = k - first;
			if (!pfd[k].revents)
				continue;
			int r = read_conn(fl, i);
			if (r < 0) {
				rc = -1;
				break;
			}
			if (r == 1)
				drop_conn(fl, i);
		}
		if (rc)
			break;
	}
	free(pfd);
	if (rc == 0)
		rc = drain(fl);
	if (rc)
		fprintf(stderr, "dpm filter: %s\n", fl->core.err[0] ? fl->core.err : strerror(errno));
	return rc;
}

static void print_summary(const struct filter *fl)
{
	const struct filter_stats *st = &fl->core.st;
	fprintf(stderr,
		"dpm filter: summary connections=%llu batches=%llu received=%llu kept=%llu "
		"rejected=%llu truncated=%llu rejected_bytes=%llu kernel_dropped=%llu "
		"elapsed_s=%.3f\n",
		(unsigned long long)st->connections, (unsigned long long)st->batches,
		(unsigned long long)st->received, (unsigned long long)st->kept,
		(unsigned long long)st->rejected, (unsigned long long)st->truncated,
		(unsigned long long)st->rejected_bytes, (unsigned long long)st->kernel_dropped,
		seconds_since(&fl->started));
}

static void catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: poll and read return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Load descriptions and rules and open the log and batch log: 0, or the
 * exit status. */
static int set_up(struct filter *fl)
{
	char err[512];
	const struct options *o = &fl->opt;
	if (formats_load(&fl->fm, o->desc, err, sizeof err) ||
	    rules_load(&fl->rules, &fl->fm, o->rules, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (core_open(&fl->core, &fl->fm, &fl->rules, o->log, err, sizeof err)) {
		fprintf(stderr, "dpm filter: %s\n", err);
		return 1;
	}
	fl->core.quiet = o->quiet;
	if (o->batch_log) {
		fl->core.batch_log = fopen(o->batch_log, "w");
		if (!fl->core.batch_log) {
			fprintf(stderr, "dpm filter: %s: %s\n", o->batch_log, strerror(errno));
			return 1;
		}
		fprintf(fl->core.batch_log, "conn,machine,count,bytes\n");
	}
	const char *secret = o->secret ? o->secret : getenv("DPM_CLUSTER_SECRET");
	if (secret && secret[0] && !o->use_stdin) {
		if (nodeauth_load(&fl->key, secret, err, sizeof err)) {
			fprintf(stderr, "dpm filter: %s\n", err);
			return 1;
		}
		fl->auth = 1;
	}
	fl->conns = calloc((size_t)o->max_conns, sizeof *fl->conns);
	if (!fl->conns) {
		fprintf(stderr, "dpm filter: out of memory\n");
		return 1;
	}
	return 0;
}

static void tear_down(struct filter *fl, int *rc)
{
	char err[512];
	if (fl->listen_fd >= 0)
		close(fl->listen_fd);
	if (fl->spare_fd >= 0)
		close(fl->spare_fd);
	while (fl->nconns)
		drop_conn(fl, 0);
	free(fl->conns);
	if (fl->core.batch_log && fclose(fl->core.batch_log) && !*rc) {
		fprintf(stderr, "dpm filter: %s: %s\n", fl->opt.batch_log, strerror(errno));
		*rc = 1;
	}
	if (core_close(&fl->core, err, sizeof err) && !*rc) {
		fprintf(stderr, "dpm filter: %s\n", err);
		*rc = 1;
	}
	rules_free(&fl->rules);
	formats_free(&fl->fm);
}

int filter_main(int argc, char **argv)
{
	struct filter *fl = calloc(1, sizeof *fl);
	if (!fl) {
		fprintf(stderr, "dpm filter: out of memory\n");
		return 1;
	}
	int rc = parse_options(argc, argv, &fl->opt);
	if (rc == 0 && fl->opt.check_rules) {
		rc = check_only(&fl->opt);
		free(fl);
		return rc;
	}
	if (rc) {
		free(fl);
		return rc == 1 ? 0 : 2;
	}
	fl->listen_fd = -1;
	fl->spare_fd = spare_open();
	fl->core.log.fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &fl->started);
	stop_requested = 0;
	catch_signals();
	rc = set_up(fl);
	if (!rc && fl->opt.use_stdin)
		rc = add_conn(fl, STDIN_FILENO) ? 1 : 0;
	else if (!rc)
		rc = start_listening(fl) ? 1 : 0;
	if (!rc) {
		rc = serve(fl) ? 1 : 0;
		print_summary(fl);
	}
	tear_down(fl, &rc);
	free(fl);
	return rc;
}

/*
 * tests/unit/test_filter.c - `dpm filter` as the nodes meet it: a child
 * process listening on a free 127.0.0.1 port, fed batches over real TCP
 * connections (several at once, garbage between good ones, connections cut
 * mid-batch), stopped by SIGTERM or killed by SIGKILL; and its --stdin,
 * --check, --timeout, --batch-log and usage behaviour.  With the cluster's
 * secret (kernel/abi/hostauth.h): a forged peer (no answer, a wrong
 * secret, another node's traces) is refused and logged while the real
 * node's batches are kept; a flood beyond --max-conns is said once and
 * survived, silent peers go after --handshake-timeout, and a peer stopped
 * inside a batch after --idle-timeout, its earlier batches kept.  A
 * compact batch (kernel/abi/tracewire.h, what the kernels send) logs
 * exactly what its full records log.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/tracelog/log.h"
#include "hostfilter/tracelog/logformat.h"
#include "hostfilter/filter/nodeauth.h"
#include "hostfilter/filter/shed.h"
#include "kernel/abi/tracewire.h"
#include "test_filter_support.h"

static uint8_t buf[1 << 20];

/* The summary's value for `key` (e.g. "kept") in the filter's stderr. */
static long long summary(const struct tf_filter *f, const char *key)
{
	char *text = tf_read_file(f->err), pat[64];
	snprintf(pat, sizeof pat, " %s=", key);
	char *line = strstr(text, "dpm filter: summary");
	char *at = line ? strstr(line, pat) : NULL;
	long long v = at ? atoll(at + strlen(pat)) : -1;
	free(text);
	return v;
}

/* NOTE records of a log: their reasons and machines, in order. */
static int notes(const char *path, uint32_t *reasons, uint32_t *machines, int max)
{
	char err[512];
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(path, err, sizeof err);
	assert_non_null(log);
	int n = 0;
	while (dpm_log_next(log, &rec, err, sizeof err) > 0) {
		uint64_t v;
		if (rec.trace_type != LOG_NOTE_TYPE || n == max)
			continue;
		assert_true(dpm_log_field(&rec, "reason", &v));
		reasons[n] = (uint32_t)v;
		assert_true(dpm_log_field(&rec, "machine", &v));
		machines[n++] = (uint32_t)v;
	}
	dpm_log_close(log);
	return n;
}

static void test_many_connections_at_once(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	int fds[3];
	(void)state;
	tf_filter_start(&f, "many", NULL);
	for (int i = 0; i < 3; i++)
		fds[i] = tf_connect(f.port);
	for (int round = 0; round < 4; round++)
		for (int i = 0; i < 3; i++)
			tf_send_all(fds[i], buf, tf_send_batch(buf, (uint32_t)i + 1, (uint32_t)round * 32, 32));
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 3 * 4 * 32);
	assert_int_equal(counts[TRACE_SEND], 3 * 4 * 32);
	assert_int_equal(summary(&f, "connections"), 3);
	assert_int_equal(summary(&f, "received"), 384);
	assert_int_equal(summary(&f, "kept"), 384);
	assert_int_equal(summary(&f, "rejected"), 0);
}

/* Out of file descriptors (a flood of idle connections under a low limit):
 * the filter refuses what it cannot take, says so, and goes on serving the
 * nodes it has and those that come once descriptors are free again.  It
 * used to exit on the first EMFILE from accept, cutting every stream. */
static void test_out_of_descriptors_is_survived(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	(void)state;
	struct rlimit old, low = { 24, 24 };
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0); /* the child inherits it */
	tf_filter_start(&f, "flood", NULL);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	int good = tf_connect(f.port);
	tf_send_all(good, buf, tf_send_batch(buf, 1, 0, 8));
	int flood[40];
	for (int i = 0; i < 40; i++)
		flood[i] = tf_connect(f.port); /* the backlog takes them; the filter cannot */
	struct timespec pause = { 0, 300000000 };
	nanosleep(&pause, NULL);
	tf_send_all(good, buf, tf_send_batch(buf, 1, 8, 8));
	for (int i = 0; i < 40; i++)
		close(flood[i]);
	nanosleep(&pause, NULL);
	int later = tf_connect(f.port);
	tf_send_all(later, buf, tf_send_batch(buf, 2, 0, 8));
	close(good);
	close(later);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 8 + 8 + 8);
	char *err = tf_read_file(f.err);
	assert_non_null(strstr(err, "cannot take a connection (Too many open files)"));
	free(err);
}

static void test_garbage_between_good_connections(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	uint32_t reasons[4], machines[4];
	(void)state;
	tf_filter_start(&f, "garbage", NULL);
	int good1 = tf_connect(f.port), bad = tf_connect(f.port);
	tf_send_all(good1, buf, tf_send_batch(buf, 1, 0, 10));
	tf_send_all(bad, buf, tf_send_batch(buf, 7, 0, 5));
	tf_send_all(bad, "GARBAGE GARBAGE GARBAGE!", 24);
	int good2 = tf_connect(f.port);
	tf_send_all(good2, buf, tf_send_batch(buf, 2, 0, 10));
	tf_send_all(good1, buf, tf_send_batch(buf, 1, 10, 10));
	close(good1);
	close(good2);
	close(bad);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 35 + 1);
	assert_int_equal(counts[TRACE_SEND], 35);
	assert_int_equal(counts[LOG_NOTE_TYPE], 1);
	assert_int_equal(notes(f.log, reasons, machines, 4), 1);
	assert_int_equal(reasons[0], NOTE_BAD_MAGIC);
	assert_int_equal(machines[0], 7); /* the last good batch named node 7 */
	assert_int_equal(summary(&f, "rejected"), 1);
	assert_int_equal(summary(&f, "rejected_bytes"), 24);
	char *err = tf_read_file(f.err);
	assert_non_null(strstr(err, "connection 2 (machine 7): bad magic at byte 416: found 0x42524147"));
	free(err);
}

/* One connection per kind of garbage, each after a good batch. */
static void test_every_kind_of_garbage_is_noted(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	uint32_t reasons[8], machines[8];
	uint8_t rec[TRACE_MAX_SIZE];
	(void)state;
	tf_filter_start(&f, "kinds", NULL);
	size_t rlen = tf_send(rec, 5, 1, 1, 2, 0, 1);
	for (int kind = 0; kind < 6; kind++) {
		int fd = tf_connect(f.port);
		size_t n = tf_send_batch(buf, 5, 0, 3);
		uint8_t *bad = buf + n;
		size_t blen = tf_batch(bad, 5, 1, rec, rlen);
		switch (kind) {
		case 0: bad[4] = 3; break;                                  /* version 3 */
		case 1: bad[6] = 3; break;                                  /* count 3, 80 bytes */
		case 2: bad[16 + 36] = 20; break;                           /* record size 20 */
		case 3: bad[16 + 4] = 99; break;                            /* traceType 99 */
		case 4: /* one 64-byte QUEUED record in a batch that claims 72 bytes */
			blen = tf_batch(bad, 5, 1, bad + 200, tf_queued(bad + 200, 5, 1, 1, 2, 1) + 8);
			break;
		case 5: blen = tf_batch(bad, 5, 1, rec, rlen) - 10; break;  /* cut: see below */
		}
		tf_send_all(fd, buf, n + blen);
		close(fd);
	}
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 6 * 3 + 6);
	assert_int_equal(notes(f.log, reasons, machines, 8), 6);
	unsigned seen[NOTE_REASON_MAX + 1] = { 0 };
	for (int i = 0; i < 6; i++) {
		assert_true(reasons[i] <= NOTE_REASON_MAX);
		seen[reasons[i]]++;
		assert_int_equal(machines[i], 5);
	}
	assert_int_equal(seen[NOTE_BAD_VERSION], 1);
	assert_int_equal(seen[NOTE_BAD_BATCH_SIZE], 2);
	assert_int_equal(seen[NOTE_BAD_RECORD_SIZE], 1);
	assert_int_equal(seen[NOTE_UNKNOWN_TYPE], 1);
	assert_int_equal(seen[NOTE_TRUNCATED], 1);
	assert_int_equal(summary(&f, "rejected"), 5);
	assert_int_equal(summary(&f, "truncated"), 1);
	assert_int_equal(summary(&f, "received"), 18);
}

static void test_disconnect_mid_batch_loses_only_that_batch(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	(void)state;
	tf_filter_start(&f, "cut", NULL);
	int other = tf_connect(f.port), cut = tf_connect(f.port);
	size_t n = tf_send_batch(buf, 1, 0, 8);
	size_t m = tf_send_batch(buf + n, 1, 8, 8);
	tf_send_all(cut, buf, n + m / 2);
	close(cut);
	tf_send_all(other, buf, tf_send_batch(buf, 2, 0, 8));
	tf_send_all(other, buf, tf_send_batch(buf, 2, 8, 8));
	close(other);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 8 + 16 + 1);
	assert_int_equal(counts[LOG_NOTE_TYPE], 1);
	assert_int_equal(summary(&f, "truncated"), 1);
	assert_int_equal(summary(&f, "rejected_bytes"), m / 2);
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

static void test_sigkill_leaves_a_readable_log(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	(void)state;
	tf_filter_start(&f, "killed", NULL);
	int fd = tf_connect(f.port);
	for (int i = 0; i < 10; i++)
		tf_send_all(fd, buf, tf_send_batch(buf, 3, (uint32_t)i * 32, 32));
	long got = 0;
	for (int tries = 0; tries < 500 && got != 320; tries++) {
		sleep_ms(10);
		got = tf_count_log(f.log, counts);
	}
	assert_int_equal(got, 320);
	kill(f.pid, SIGKILL);
	waitpid(f.pid, NULL, 0);
	close(fd);
	char err[512];
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(f.log, err, sizeof err);
	assert_non_null(log);
	long n = 0;
	while (dpm_log_next(log, &rec, err, sizeof err) > 0)
		n++;
	assert_int_equal(n, 320);
	assert_int_equal(dpm_log_truncated(log), 0);
	dpm_log_close(log);
}

/* ---- node authentication, caps and timeouts ---- */

static const char secret_hex[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/* The secret file, and the filter's arguments to use it with. */
static const char *secret_file(void)
{
	const char *path = tf_path("secret");
	tf_write_file(path, secret_hex);
	return path;
}

/* Read the filter's challenge on fd (bounded: 5 s). */
static void read_challenge(int fd, struct hostauth_challenge *c)
{
	size_t got = 0;
	for (int tries = 0; tries < 500 && got < sizeof *c; tries++) {
		ssize_t n = read(fd, (uint8_t *)c + got, sizeof *c - got);
		if (n > 0)
			got += (size_t)n;
		else
			sleep_ms(10);
	}
	assert_int_equal(got, sizeof *c);
	assert_int_equal(c->magic, HOSTAUTH_CHALLENGE_MAGIC);
}

/* Connect and answer as node `id` with secret `hex`. */
static int node_connect(int port, uint32_t id, const char *hex)
{
	int fd = tf_connect(port);
	struct hostauth_challenge c;
	struct nodeauth_key k;
	struct hostauth_answer a;
	read_challenge(fd, &c);
	memcpy(k.key, hex, HOSTAUTH_KEY_LEN);
	nodeauth_answer(&k, &c, id, &a);
	tf_send_all(fd, &a, sizeof a);
	return fd;
}

/* 1 when the filter closes fd within 10 s (what it sends is read and dropped). */
static int closed_by_filter(int fd)
{
	uint8_t junk[64];
	for (int tries = 0; tries < 1000; tries++) {
		ssize_t n = recv(fd, junk, sizeof junk, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
			return 1;
		if (n < 0)
			sleep_ms(10);
	}
	return 0;
}

static int err_has(const struct tf_filter *f, const char *text)
{
	char *err = tf_read_file(f->err);
	int has = strstr(err, text) != NULL;
	free(err);
	return has;
}

static void test_forged_peers_are_refused_and_logged(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	uint32_t reasons[8], machines[8];
	(void)state;
	const char *extra[] = { "--secret", secret_file(), NULL };
	tf_filter_start(&f, "forged", extra);
	/* a peer that sends a batch without answering the challenge */
	int bare = tf_connect(f.port);
	tf_send_all(bare, buf, tf_send_batch(buf, 1, 0, 8));
	assert_true(closed_by_filter(bare));
	close(bare);
	/* a peer with another secret */
	int wrong = node_connect(f.port, 1, "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100");
	tf_send_all(wrong, buf, tf_send_batch(buf, 1, 0, 8));
	assert_true(closed_by_filter(wrong));
	close(wrong);
	/* node 2, proven, sending node 1's traces: a whole batch of them, then
	 * a batch of its own whose records claim node 1 */
	int two = node_connect(f.port, 2, secret_hex);
	tf_send_all(two, buf, tf_send_batch(buf, 2, 0, 4));
	tf_send_all(two, buf, tf_send_batch(buf, 1, 4, 8));
	assert_true(closed_by_filter(two));
	close(two);
	int forged = node_connect(f.port, 2, secret_hex);
	size_t n = tf_send_batch(buf, 2, 0, 4);
	size_t rec = (n - sizeof(struct meter_batch_header)) / 4;
	uint32_t one = 1; /* the second record's machine (offset 0) says node 1 */
	memcpy(buf + sizeof(struct meter_batch_header) + rec, &one, 4);
	tf_send_all(forged, buf, n);
	assert_true(closed_by_filter(forged));
	close(forged);
	/* the real node 1 */
	int real = node_connect(f.port, 1, secret_hex);
	tf_send_all(real, buf, tf_send_batch(buf, 1, 0, 8));
	close(real);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 4 + 8 + 2);
	assert_int_equal(counts[TRACE_SEND], 4 + 8);
	assert_int_equal(notes(f.log, reasons, machines, 8), 2);
	assert_int_equal(reasons[0], NOTE_FOREIGN_MACHINE);
	assert_int_equal(machines[0], 2);
	assert_int_equal(reasons[1], NOTE_FOREIGN_MACHINE);
	assert_int_equal(machines[1], 2);
	assert_true(err_has(&f, "did not answer the authentication challenge"));
	assert_true(err_has(&f, "authentication answer is wrong"));
	assert_true(err_has(&f, "another node's traces"));
	assert_true(err_has(&f, "is node 1 (authenticated)"));
}

/* More connections than --max-conns, all silent: the cap is said once, the
 * silent ones go after --handshake-timeout, and a node that comes then is
 * served. */
static void test_connection_flood_beyond_the_cap(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	(void)state;
	const char *extra[] = { "--secret", secret_file(), "--max-conns", "8", "--handshake-timeout", "1",
				NULL };
	tf_filter_start(&f, "cap", extra);
	int flood[24];
	for (int i = 0; i < 24; i++)
		flood[i] = tf_connect(f.port);
	for (int i = 0; i < 24; i++) /* the 16 past the cap at once, the 8 after a second */
		assert_true(closed_by_filter(flood[i]));
	for (int i = 0; i < 24; i++)
		close(flood[i]);
	int node = node_connect(f.port, 3, secret_hex);
	tf_send_all(node, buf, tf_send_batch(buf, 3, 0, 8));
	close(node);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 8);
	char *err = tf_read_file(f.err);
	/* said once each time the cap is reached: a place was free again
	 * between two such lines */
	const char *at = err;
	int caps = 0;
	for (const char *c, *fr; (c = strstr(at, "connection cap reached (8 connections)"));) {
		fr = strstr(at, "below the connection cap again");
		assert_true(caps == 0 || (fr && fr < c));
		caps++;
		at = c + 1;
	}
	assert_true(caps >= 1);
	assert_non_null(strstr(err, "did not authenticate within 1 s"));
	free(err);
}

/* A node that stops in the middle of a batch is closed after
 * --idle-timeout; what it sent whole before is in the log, and the partial
 * batch is noted. */
static void test_stalled_peer_keeps_what_it_sent(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	uint32_t reasons[4], machines[4];
	(void)state;
	const char *extra[] = { "--secret", secret_file(), "--idle-timeout", "1", NULL };
	tf_filter_start(&f, "stall", extra);
	int fd = node_connect(f.port, 4, secret_hex);
	tf_send_all(fd, buf, tf_send_batch(buf, 4, 0, 8));
	size_t n = tf_send_batch(buf, 4, 8, 8);
	tf_send_all(fd, buf, n / 2);
	assert_true(closed_by_filter(fd));
	close(fd);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 8 + 1);
	assert_int_equal(notes(f.log, reasons, machines, 4), 1);
	assert_int_equal(reasons[0], NOTE_STALLED);
	assert_int_equal(machines[0], 4);
}

/* Every accept() error has a meaning for the services (dpm filter, the hub):
 * none of them ends the service.  dpm filter used to exit on any error
 * but EAGAIN, EINTR, ECONNABORTED and EPROTO (EPERM from a firewall rule,
 * ENETDOWN, ... cut every node's stream). */
static void test_every_accept_error_is_survived(void **state)
{
	(void)state;
	const int shed[] = { EMFILE, ENFILE, ENOBUFS, ENOMEM };
	const int broken[] = { EBADF, EINVAL, ENOTSOCK, EOPNOTSUPP, EFAULT };
	const int again[] = { EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO, EPERM, ENETDOWN,
			      EHOSTUNREACH, ETIMEDOUT, ENOSR, EPROTONOSUPPORT };
	for (size_t i = 0; i < sizeof shed / sizeof *shed; i++)
		assert_int_equal(accept_failure(shed[i]), ACCEPT_SHED);
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		assert_int_equal(accept_failure(broken[i]), ACCEPT_BROKEN);
	for (size_t i = 0; i < sizeof again / sizeof *again; i++)
		assert_int_equal(accept_failure(again[i]), ACCEPT_AGAIN);
}

static void test_two_filters_at_once(void **state)
{
	struct tf_filter a, b;
	unsigned counts[257];
	(void)state;
	tf_filter_start(&a, "two-a", NULL);
	tf_filter_start(&b, "two-b", NULL);
	assert_int_not_equal(a.port, b.port);
	int fa = tf_connect(a.port), fb = tf_connect(b.port);
	tf_send_all(fa, buf, tf_send_batch(buf, 1, 0, 3));
	tf_send_all(fb, buf, tf_send_batch(buf, 2, 0, 5));
	close(fa);
	close(fb);
	assert_int_equal(tf_filter_stop(&a), 0);
	assert_int_equal(tf_filter_stop(&b), 0);
	assert_int_equal(tf_count_log(a.log, counts), 3);
	assert_int_equal(tf_count_log(b.log, counts), 5);
}

static void test_rules_select_and_dropped_pass_through(void **state)
{
	struct tf_filter f;
	unsigned counts[257];
	uint8_t recs[8 * TRACE_MAX_SIZE];
	(void)state;
	tf_write_file(tf_path("sel.rules"), "traceType=SEND, channel=#*, machine=4;\n");
	const char *extra[] = { "--rules", tf_path("sel.rules"), NULL };
	tf_filter_start(&f, "sel", extra);
	size_t n = 0;
	n += tf_send(recs + n, 4, 1, TASK_MAKE(4, 3), TASK_MAKE(5, 3), 1, 1);
	n += tf_queued(recs + n, 4, 2, TASK_MAKE(4, 3), TASK_MAKE(4, 4), 1);
	n += tf_dropped(recs + n, 4, 3, 5);
	n += tf_send(recs + n, 4, 4, TASK_MAKE(4, 3), TASK_MAKE(5, 3), 1, 2);
	n += tf_dropped(recs + n, 4, 5, 7);
	n += tf_mark(recs + n, 6, 6, 99); /* no rule names MARK or machine 6: kept anyway */
	int fd = tf_connect(f.port);
	tf_send_all(fd, buf, tf_batch(buf, 4, 6, recs, n));
	tf_send_all(fd, buf, tf_send_batch(buf, 6, 0, 4)); /* machine 6: not kept */
	close(fd);
	assert_int_equal(tf_filter_stop(&f), 0);
	assert_int_equal(tf_count_log(f.log, counts), 5);
	assert_int_equal(counts[TRACE_SEND], 2);
	assert_int_equal(counts[TRACE_DROPPED], 2);
	assert_int_equal(counts[TRACE_MARK], 1);
	assert_int_equal(summary(&f, "received"), 10);
	assert_int_equal(summary(&f, "kept"), 5);
	assert_int_equal(summary(&f, "kernel_dropped"), 12);
	/* The discarded channel is not in the log. */
	char err[512];
	struct dpm_log_record rec;
	struct dpm_log *log = dpm_log_open(f.log, err, sizeof err);
	uint64_t v;
	assert_int_equal(dpm_log_next(log, &rec, err, sizeof err), 1);
	assert_string_equal(rec.type_name, "SEND");
	assert_false(dpm_log_field(&rec, "channel", &v));
	assert_true(dpm_log_field(&rec, "msgId", &v));
	assert_int_equal(v, 1);
	dpm_log_close(log);
}

static void test_stdin_stream_and_batch_log(void **state)
{
	unsigned counts[257];
	(void)state;
	size_t n = tf_send_batch(buf, 1, 0, 32);
	n += tf_send_batch(buf + n, 1, 32, 7);
	tf_write_bytes(tf_path("in.bin"), buf, n);
	const char *argv[] = { "filter", "--stdin", "-o", tf_path("stdin.log"), "--batch-log",
			       tf_path("batches.csv"), NULL };
	assert_int_equal(tf_run(filter_main, argv, tf_path("in.bin"), tf_path("stdin.out"),
				tf_path("stdin.err")), 0);
	assert_int_equal(tf_count_log(tf_path("stdin.log"), counts), 39);
	char *batches = tf_read_file(tf_path("batches.csv"));
	assert_string_equal(batches, "conn,machine,count,bytes\n1,1,32,2560\n1,1,7,560\n");
	free(batches);
}

/* `dpm filter --check RULES [DESC]` on files of tf_dir(): its exit status,
 * and its whole standard output (status 0) or error (otherwise), `want`
 * with the path of the file named `about` for its %s. */
static void run_check(const char *rules, const char *desc, int status, const char *about, const char *want)
{
	const char *argv[] = { "filter", "--check", tf_path(rules), desc ? tf_path(desc) : NULL, NULL };
	assert_int_equal(tf_run(filter_main, argv, NULL, tf_path("c.out"), tf_path("c.err")), status);
	char *got = tf_read_file(tf_path(status ? "c.err" : "c.out")), text[512];
	snprintf(text, sizeof text, want, tf_path(about));
	assert_string_equal(got, text);
	free(got);
}

static void test_check_rules(void **state)
{
	(void)state;
	tf_write_file(tf_path("ok.rules"), "traceType=Send, code=#*;\ntraceType=Receive;\n");
	tf_write_file(tf_path("bad.rules"), "traceType=Send,\n  bogus=3;\n");
	run_check("ok.rules", NULL, 0, "ok.rules",
		     "%s: 2 rules ok (descriptions: kernel/abi/trace.desc, 13 trace types)\n");
	run_check("bad.rules", NULL, 2, "bad.rules", "%s:2:3: unknown field 'bogus'\n");
	/* the thesis's §5.2.3 rules (parallelism) pass with its OCR's `##` read
	 * as `#*`; as printed, `##` is refused where the second '#' stands */
	tf_write_file(tf_path("par.rules"), "traceType=Send, sendLink=#*, passLink=#*;\n"
					    "traceType=Receive, passLink=#*;\n");
	run_check("par.rules", NULL, 0, "par.rules",
		     "%s: 2 rules ok (descriptions: kernel/abi/trace.desc, 13 trace types)\n");
	tf_write_file(tf_path("ocr.rules"), "traceType=Send, sendLink=##, passLink=##;\n"
					    "traceType=Receive, passLink=##;\n");
	run_check("ocr.rules", NULL, 2, "ocr.rules",
		     "%s:1:27: expected a value (a number, '*' or a field name), found '#'\n");
	tf_write_file(tf_path("bad.desc"), "header 0. traceType,0,4,10 size,4,4,3;\n");
	run_check("ok.rules", "bad.desc", 2, "bad.desc", "%s:1:37: base must be 2, 8, 10 or 16, not 3\n");
}

static void test_usage_errors_and_help(void **state)
{
	(void)state;
	const char *no_log[] = { "filter", "--stdin", NULL };
	const char *bad_port[] = { "filter", "--port", "http", "-o", "x", NULL };
	const char *extra[] = { "filter", "-o", "x", "surplus", NULL };
	const char *help[] = { "filter", "--help", NULL };
	const char *bad_rules[] = { "filter", "--rules", "/nonexistent/r", "-o", tf_path("u.log"), NULL };
	assert_int_equal(tf_run(filter_main, no_log, NULL, tf_path("u.out"), tf_path("u.err")), 2);
	assert_int_equal(tf_run(filter_main, bad_port, NULL, tf_path("u.out"), tf_path("u.err")), 2);
	assert_int_equal(tf_run(filter_main, extra, NULL, tf_path("u.out"), tf_path("u.err")), 2);
	assert_int_equal(tf_run(filter_main, bad_rules, NULL, tf_path("u.out"), tf_path("u.err")), 2);
	char *err = tf_read_file(tf_path("u.err"));
	assert_string_equal(err, "/nonexistent/r: No such file or directory\n");
	free(err);
	assert_int_equal(tf_run(filter_main, help, NULL, tf_path("u.out"), tf_path("u.err")), 0);
	char *out = tf_read_file(tf_path("u.out"));
	assert_non_null(strstr(out, "usage: dpm filter"));
	free(out);
}

static void test_timeout_stops_the_filter_by_itself(void **state)
{
	(void)state;
	const char *argv[] = { "filter", "--timeout", "0.3", "-o", tf_path("t.log"), NULL };
	time_t t0 = time(NULL);
	assert_int_equal(tf_run(filter_main, argv, NULL, tf_path("t.out"), tf_path("t.err")), 0);
	assert_true(time(NULL) - t0 < 5);
	unsigned counts[257];
	assert_int_equal(tf_count_log(tf_path("t.log"), counts), 0);
}

/* The bytes of a file (malloc'd), its length in *len. */
static uint8_t *file_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t *b = malloc(1 << 20);
	*len = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

#define PUT(at, v) (memcpy((at), &(v), sizeof(v)), sizeof(v))

/* A compact batch, as a kernel sends it, gives the log the full records
 * would: a SEND, a QUEUED and a RECEIVECALL of one process (one BASE and
 * one CTX), then, after a sequence gap (another destination's numbers), a
 * DROPPED and a MARK of other tasks, each needing its BASE or CTX. */
static void test_compact_batch_logs_its_full_records(void **state)
{
	(void)state;
	uint8_t full[1024], compact[1024];
	size_t n = 0;
	n += tf_send(full + n, 1, 5, 0x10003, 0x20003, 0, 0x100000000002aull);
	n += tf_queued(full + n, 1, 6, 0x20003, 0x10003, 0x2000000000005ull);
	n += tf_receivecall(full + n, 1, 7, 0x10003, 1);
	n += tf_dropped(full + n, 1, 9, 3);
	n += tf_mark(full + n, 1, 10, 0xabcdef);
	uint8_t recs[1024];
	memcpy(recs, full, n);
	size_t flen = tf_batch(full, 1, 5, recs, n);

	size_t c = sizeof(struct meter_batch_header);
	struct tw_base base5 = { .type = TW_BASE, .seq = 5, .time_lo = 5000 };
	struct tw_ctx p3 = { .type = TW_CTX, .pid = 3, .task = 0x10003, .base_lo = 50 };
	struct tw_head send = { TRACE_SEND, 1, 3, 0, 0 };
	struct tw_send sb = { .toTask = 0x20003, .code = 7, .id_lo = 0x2a, .id_hi = 0x10000, .sendLink = 2,
			      .passLink = TW_NO_LINK8, .length = 100 };
	struct tw_head queued = { TRACE_QUEUED, 1, 3, 1000, 10 };
	struct tw_queued qb = { .fromTask = 0x20003, .code = 7, .id_lo = 5, .id_hi = 0x20000, .length = 100,
				.queueLen = 1 };
	struct tw_head rc = { TRACE_RECEIVECALL, 1, 3, 2000, 20 };
	struct tw_receivecall rcb = { .blocking = 1 };
	struct tw_base base9 = { .type = TW_BASE, .seq = 9, .time_lo = 9000 };
	struct tw_ctx p0 = { .type = TW_CTX, .pid = 0, .task = 0, .base_lo = 90 };
	struct tw_head dropped = { TRACE_DROPPED, 1, 0, 0, 0 };
	struct tw_word db = { 3 };
	struct tw_ctx p4 = { .type = TW_CTX, .pid = 4, .task = 0x10004, .base_lo = 100 };
	struct tw_head mark = { TRACE_MARK, 1, 4, 1000, 0 };
	struct tw_word mb = { 0xabcdef };
	c += PUT(compact + c, base5) + PUT(compact + c + sizeof base5, p3);
	c += PUT(compact + c, send);
	c += PUT(compact + c, sb);
	c += PUT(compact + c, queued);
	c += PUT(compact + c, qb);
	c += PUT(compact + c, rc);
	c += PUT(compact + c, rcb);
	c += PUT(compact + c, base9);
	c += PUT(compact + c, p0);
	c += PUT(compact + c, dropped);
	c += PUT(compact + c, db);
	c += PUT(compact + c, p4);
	c += PUT(compact + c, mark);
	c += PUT(compact + c, mb);
	struct meter_batch_header h = { METER_BATCH_MAGIC, METER_BATCH_COMPACT, 5, 1,
					(uint32_t)(c - sizeof h) };
	memcpy(compact, &h, sizeof h);

	tf_make_log(tf_path("full.log"), NULL, full, flen);
	tf_make_log(tf_path("compact.log"), NULL, compact, c);
	unsigned counts[257];
	assert_int_equal(tf_count_log(tf_path("compact.log"), counts), 5);
	assert_int_equal(counts[256], 0); /* no NOTE: nothing refused */
	size_t a, b;
	uint8_t *fl = file_bytes(tf_path("full.log"), &a), *cl = file_bytes(tf_path("compact.log"), &b);
	assert_int_equal(a, b);
	assert_memory_equal(fl, cl, a);
	free(fl);
	free(cl);
}

/* A compact batch the decoder refuses is noted like any bad batch: a
 * record cut short by the batch's end (once taken for a log failure: the
 * filter stopped with "the log could not be written", found by fuzzing)
 * is reason 3, a record of an unknown type reason 5. */
static void test_bad_compact_batches_are_noted(void **state)
{
	(void)state;
	static const uint8_t kinds[] = { 0, 1 };
	static const uint32_t want[] = { NOTE_BAD_BATCH_SIZE, NOTE_UNKNOWN_TYPE };
	for (unsigned k = 0; k < sizeof kinds; k++) {
		uint8_t b[256];
		size_t c = sizeof(struct meter_batch_header);
		struct tw_base base = { .type = TW_BASE, .seq = 1, .time_lo = 100 };
		struct tw_ctx ctx = { .type = TW_CTX, .pid = 3, .task = 0x10003 };
		struct tw_head send = { k ? 0x3f : TRACE_SEND, 1, 3, 0, 0 };
		c += PUT(b + c, base);
		c += PUT(b + c, ctx);
		c += PUT(b + c, send);
		memset(b + c, 0, 8);
		c += 8; /* 20 bytes of a 32-byte record */
		struct meter_batch_header h = { METER_BATCH_MAGIC, METER_BATCH_COMPACT, 1, 1,
						(uint32_t)(c - sizeof h) };
		memcpy(b, &h, sizeof h);
		tf_make_log(tf_path("badc.log"), NULL, b, c);
		uint32_t reasons[4], machines[4];
		assert_int_equal(notes(tf_path("badc.log"), reasons, machines, 4), 1);
		assert_int_equal(reasons[0], want[k]);
		assert_int_equal(machines[0], 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_connections_at_once),
		cmocka_unit_test(test_out_of_descriptors_is_survived),
		cmocka_unit_test(test_garbage_between_good_connections),
		cmocka_unit_test(test_every_kind_of_garbage_is_noted),
		cmocka_unit_test(test_disconnect_mid_batch_loses_only_that_batch),
		cmocka_unit_test(test_sigkill_leaves_a_readable_log),
		cmocka_unit_test(test_two_filters_at_once),
		cmocka_unit_test(test_forged_peers_are_refused_and_logged),
		cmocka_unit_test(test_connection_flood_beyond_the_cap),
		cmocka_unit_test(test_stalled_peer_keeps_what_it_sent),
		cmocka_unit_test(test_every_accept_error_is_survived),
		cmocka_unit_test(test_rules_select_and_dropped_pass_through),
		cmocka_unit_test(test_stdin_stream_and_batch_log),
		cmocka_unit_test(test_check_rules),
		cmocka_unit_test(test_usage_errors_and_help),
		cmocka_unit_test(test_timeout_stops_the_filter_by_itself),
		cmocka_unit_test(test_compact_batch_logs_its_full_records),
		cmocka_unit_test(test_bad_compact_batches_are_noted),
	};
	return cmocka_run_group_tests(tests, NULL, tf_cleanup);
}

/*
 * tests/unit/test_hub.c - the control hub (`dpm cluster hub`) with real
 * sockets on 127.0.0.1: a peer that says HELLO as a node and a controller
 * that shows the secret; what the node answers reaches the controller, and
 * a reply carrying a payload neither crashes the hub nor loses the payload
 * (the hub forwarded such a reply with a null payload and died, cutting
 * every controller and agent off); a node cannot report on another node's
 * process (a forged end cancelled a controller's hold on it); connections
 * that never say who they are cannot lock the hub's places; in virtual
 * time, timed agents' frames reach a scripted controller in node-time
 * order and its commands are stamped with the time of what it reacts to,
 * no node granted past it until it says idle.  Node authentication
 * (kernel/abi/hostauth.h): every connection is challenged; a HELLO
 * without the answer, with a wrong secret, with an answer replayed from
 * another connection, for another node than the one proven, or a second
 * agent for a node, is refused and logged, and a peer that never answers
 * is closed.  Every wait is bounded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/control/ctl_wire.h"
#include "qemu/dpm_commands.h"
#include "hostfilter/filter/nodeauth.h"

int cluster_hub_main(int argc, char **argv);

static const char secret[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

struct hub_run {
	pid_t pid;
	int port;
	char dir[64];
};

/* A port nobody listens on now (the hub binds it right after). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static int try_connect(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
		return fd;
	close(fd);
	return -1;
}

static void hub_start(struct hub_run *h)
{
	snprintf(h->dir, sizeof h->dir, "/tmp/dpm-test-hub-XXXXXX");
	assert_non_null(mkdtemp(h->dir));
	char path[128];
	snprintf(path, sizeof path, "%s/secret", h->dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(secret, f);
	fclose(f);
	h->port = free_port();
	char port[16];
	snprintf(port, sizeof port, "%d", h->port);
	fflush(NULL);
	h->pid = fork();
	assert_true(h->pid >= 0);
	if (h->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed test leaves no hub behind */
		char *argv[] = { "hub", "--port", port, "--dir", h->dir, "--hello-timeout", "2", NULL };
		char log[128];
		snprintf(log, sizeof log, "%s/hub.log", h->dir);
		if (!freopen(log, "w", stderr))
			_exit(3);
		_exit(cluster_hub_main(7, argv));
	}
	for (int tries = 0; tries < 500; tries++) { /* up to 5 s */
		int fd = try_connect(h->port);
		if (fd >= 0) {
			close(fd);
			return;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	kill(h->pid, SIGKILL);
	fail_msg("the hub did not listen on 127.0.0.1:%d", h->port);
}

/* 1 while the hub runs; its end reaped otherwise. */
static int hub_alive(struct hub_run *h)
{
	int st;
	return waitpid(h->pid, &st, WNOHANG) == 0;
}

static void hub_stop(struct hub_run *h)
{
	kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	char path[128];
	snprintf(path, sizeof path, "%s/secret", h->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/hub.log", h->dir);
	unlink(path);
	rmdir(h->dir);
}

/* The hub's log so far (static buffer). */
static const char *hub_log(const struct hub_run *h)
{
	static char text[16384];
	char path[128];
	snprintf(path, sizeof path, "%s/hub.log", h->dir);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	return text;
}

/* Connect and take the hub's greeting, the challenge, within 3 s. */
static void greeted(struct ctl_wire *w, int port, struct hostauth_challenge *c)
{
	assert_int_equal(ctl_wire_init(w, try_connect(port), 0), 0);
	for (int tries = 0; tries < 300 && !ctl_wire_take_raw(w, c, sizeof *c); tries++) {
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLIN }, 1, 10);
		assert_true(ctl_wire_read(w) >= 0);
	}
	assert_int_equal(c->magic, HOSTAUTH_CHALLENGE_MAGIC);
}

static void send_raw(struct ctl_wire *w, const void *p, size_t n)
{
	assert_int_equal(ctl_wire_send_raw(w, p, n), 0);
	for (int tries = 0; ctl_wire_pending(w) && tries < 300; tries++) {
		assert_int_equal(ctl_wire_flush(w), 0);
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLOUT }, 1, 10);
	}
}

/* Answer the challenge as node `id` would with secret `hex`. */
static void answer(struct ctl_wire *w, const struct hostauth_challenge *c, uint32_t id, const char *hex)
{
	struct nodeauth_key k;
	struct hostauth_answer a;
	memcpy(k.key, hex, HOSTAUTH_KEY_LEN);
	nodeauth_answer(&k, c, id, &a);
	send_raw(w, &a, sizeof a);
}

/* Connected as node id's kernel: greeted and proven. */
static void proven(struct ctl_wire *w, int port, uint32_t id)
{
	struct hostauth_challenge c;
	greeted(w, port, &c);
	answer(w, &c, id, secret);
}

static void send_frame(struct ctl_wire *w, struct ctl_frame f, const void *payload, uint32_t len)
{
	f.len = len;
	assert_int_equal(ctl_wire_send(w, &f, payload), 0);
	for (int tries = 0; ctl_wire_pending(w) && tries < 300; tries++) {
		assert_int_equal(ctl_wire_flush(w), 0);
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLOUT }, 1, 10);
	}
	assert_int_equal(ctl_wire_pending(w), 0);
}

/* The next frame on w within 3 s: 1 with *f and its payload copied into
 * buf, 0 when the other end closed or nothing came. */
static int next_frame(struct ctl_wire *w, struct ctl_frame *f, uint8_t *buf, size_t cap)
{
	const uint8_t *payload;
	for (int tries = 0; tries < 300; tries++) {
		int r = ctl_wire_next(w, f, &payload);
		if (r > 0) {
			memcpy(buf, payload, f->len < cap ? f->len : cap);
			return 1;
		}
		assert_int_equal(r, 0);
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLIN }, 1, 10);
		if (ctl_wire_read(w) < 0)
			return 0;
	}
	return 0;
}

static void a_reply_with_a_payload_reaches_the_controller(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	struct ctl_wire node, ctl;
	struct hostauth_challenge c;
	proven(&node, h.port, 2);
	greeted(&ctl, h.port, &c);
	struct ctl_frame f;
	uint8_t buf[64];

	struct ctl_frame hello = ctl_frame_make(CTL_HELLO, 0, 2, 0);
	hello.a = (2u << 16) | 4;
	send_frame(&node, hello, NULL, 0);
	send_frame(&ctl, ctl_frame_make(CTL_AUTH, 1, 0, 0), secret, CTL_SECRET_HEX);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_REPLY);
	assert_int_equal((int32_t)f.a, 0);

	/* The controller asks node 2 for a process; the node's agent gets it. */
	static const char create[] = "\0prog";
	send_frame(&ctl, ctl_frame_make(CTL_CREATE, 7, 2, 0), create, sizeof create);
	assert_int_equal(next_frame(&node, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_CREATE);
	uint32_t hub_id = f.id;

	/* Its answer carries bytes: the hub passes them on and lives. */
	struct ctl_frame reply = ctl_frame_make(CTL_REPLY, hub_id, 2, (2u << 16) | 9);
	send_frame(&node, reply, "ABCDEFGH", 8);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_REPLY);
	assert_int_equal(f.id, 7);
	assert_int_equal(f.task, (2u << 16) | 9);
	assert_int_equal(f.len, 8);
	assert_memory_equal(buf, "ABCDEFGH", 8);
	assert_true(hub_alive(&h));

	ctl_wire_close(&node);
	ctl_wire_close(&ctl);
	hub_stop(&h);
}

/* Connect as node `id`'s agent. */
static void agent(struct ctl_wire *w, int port, uint32_t id)
{
	proven(w, port, id);
	struct ctl_frame hello = ctl_frame_make(CTL_HELLO, 0, id, 0);
	hello.a = (id << 16) | 4;
	send_frame(w, hello, NULL, 0);
}

/* Connect as a controller; the hub's answer to AUTH must be yes. */
static void controller(struct ctl_wire *w, int port)
{
	struct ctl_frame f;
	struct hostauth_challenge c;
	uint8_t buf[64];
	greeted(w, port, &c);
	send_frame(w, ctl_frame_make(CTL_AUTH, 1, 0, 0), secret, CTL_SECRET_HEX);
	assert_int_equal(next_frame(w, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_REPLY);
	assert_int_equal((int32_t)f.a, 0);
}

static void a_node_cannot_report_on_another_nodes_process(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	struct ctl_wire n1, n2, ctl;
	agent(&n1, h.port, 1);
	agent(&n2, h.port, 2);
	controller(&ctl, h.port);
	struct ctl_frame f;
	uint8_t buf[64];
	static const char create[] = "\0prog";
	send_frame(&ctl, ctl_frame_make(CTL_CREATE, 7, 1, 0), create, sizeof create);
	assert_int_equal(next_frame(&n1, &f, buf, sizeof buf), 1);
	uint32_t task = (1u << 16) | 9;
	send_frame(&n1, ctl_frame_make(CTL_REPLY, f.id, 1, task), NULL, 0);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.task, task);

	/* Node 2 forges output and an end for node 1's process... */
	send_frame(&n2, ctl_frame_make(CTL_OUTPUT, 0, 2, task), "forged", 6);
	send_frame(&n2, ctl_frame_make(CTL_END, 0, 2, task), NULL, 0);
	/* ...and node 1 tells the truth: the controller hears only node 1. */
	send_frame(&n1, ctl_frame_make(CTL_OUTPUT, 0, 1, task), "real", 4);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_OUTPUT);
	assert_int_equal(f.len, 4);
	assert_memory_equal(buf, "real", 4);
	/* The hold on the process stands: the controller can still start it. */
	send_frame(&ctl, ctl_frame_make(CTL_START, 8, 1, task), NULL, 0);
	assert_int_equal(next_frame(&n1, &f, buf, sizeof buf), 1);
	assert_int_equal(f.type, CTL_START);
	assert_true(hub_alive(&h));
	ctl_wire_close(&n1);
	ctl_wire_close(&n2);
	ctl_wire_close(&ctl);
	hub_stop(&h);
}

static void silent_connections_cannot_lock_the_hub(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	int idle[64];
	for (int i = 0; i < 64; i++) /* every place the hub has, and 16 more */
		idle[i] = try_connect(h.port);
	nanosleep(&(struct timespec){ 4, 0 }, NULL); /* past the hub's --hello-timeout 2 */
	struct ctl_wire ctl;
	controller(&ctl, h.port);
	ctl_wire_close(&ctl);
	for (int i = 0; i < 64; i++)
		if (idle[i] >= 0)
			close(idle[i]);
	/* said once each time the cap is reached: between two such lines a
	 * place was free again (on a loaded host the first silent ones may
	 * time out before the last have connected) */
	const char *log = hub_log(&h), *at = log;
	int caps = 0, open = 0;
	for (const char *c, *f; (c = strstr(at, "connection cap reached (48 connections)"));) {
		f = strstr(at, "a place is free again; ");
		assert_true(caps == 0 || (f && f < c));
		caps++;
		at = c + 1;
		open = !(f = strstr(at, "a place is free again; ")) ? 1 : 0;
	}
	assert_true(caps >= 1);
	assert_int_equal(open, 0); /* the controller found a free place */
	assert_true(hub_alive(&h));
	hub_stop(&h);
}

/* 1 when the hub closes w within 5 s (what it sent before is read and dropped). */
static int closed_by_hub(struct ctl_wire *w)
{
	for (int tries = 0; tries < 500; tries++) {
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLIN }, 1, 10);
		if (ctl_wire_read(w) < 0)
			return 1;
		w->rx_len = 0;
	}
	return 0;
}

/* Peers without the secret, or with someone else's answer, cannot be a
 * node: each is refused and the refusal logged; the real node still gets
 * in, once. */
static void a_forged_node_is_refused_and_logged(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	struct ctl_wire w, a, b, n1, n2, n2b, n3, again, ctl;
	struct hostauth_challenge c, ca, cb;
	struct ctl_frame hello = ctl_frame_make(CTL_HELLO, 0, 1, 0);

	/* HELLO with no answer at all */
	greeted(&w, h.port, &c);
	send_frame(&w, hello, NULL, 0);
	assert_true(closed_by_hub(&w));
	ctl_wire_close(&w);
	assert_non_null(strstr(hub_log(&h), "HELLO as node 1 without authenticating"));

	/* an answer made with another secret */
	greeted(&w, h.port, &c);
	answer(&w, &c, 1, "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
	assert_true(closed_by_hub(&w));
	ctl_wire_close(&w);
	assert_non_null(strstr(hub_log(&h), "authentication answer is wrong"));

	/* an answer replayed: b is sent the answer made for a's challenge */
	greeted(&a, h.port, &ca);
	greeted(&b, h.port, &cb);
	answer(&b, &ca, 1, secret);
	assert_true(closed_by_hub(&b));
	ctl_wire_close(&b);
	ctl_wire_close(&a);

	/* proven as node 2, HELLO as node 1 */
	proven(&n2, h.port, 2);
	send_frame(&n2, hello, NULL, 0);
	assert_true(closed_by_hub(&n2));
	ctl_wire_close(&n2);
	assert_non_null(strstr(hub_log(&h), "HELLO as node 1 from node 2"));

	/* the real node 1 gets in; a second agent for it does not */
	agent(&n1, h.port, 1);
	agent(&again, h.port, 1);
	assert_true(closed_by_hub(&again));
	ctl_wire_close(&again);
	assert_non_null(strstr(hub_log(&h), "node 1 already has an agent"));
	/* nodes 3 and 2 connect after it: listed by id, not by arrival */
	agent(&n3, h.port, 3);
	agent(&n2b, h.port, 2);
	controller(&ctl, h.port);
	struct ctl_frame f;
	uint8_t buf[64];
	send_frame(&ctl, ctl_frame_make(CTL_NODES, 3, 0, 0), NULL, 0);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.len, 3);
	assert_memory_equal(buf, "\x01\x02\x03", 3);
	assert_true(hub_alive(&h));
	ctl_wire_close(&n3);
	ctl_wire_close(&n2b);
	ctl_wire_close(&n1);
	ctl_wire_close(&ctl);
	hub_stop(&h);
}

/* A peer that takes the challenge and never answers holds its place only
 * until --hello-timeout (2 s here). */
static void a_peer_that_never_answers_is_closed(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	struct ctl_wire w;
	struct hostauth_challenge c;
	greeted(&w, h.port, &c);
	assert_true(closed_by_hub(&w));
	ctl_wire_close(&w);
	assert_non_null(strstr(hub_log(&h), "said nothing in time"));
	hub_stop(&h);
}

/* Out of descriptors (a flood under a low limit): the hub closes what it
 * cannot take, says so, does not spin, and serves a controller once
 * descriptors are free again. */
static void out_of_descriptors_is_survived(void **state)
{
	(void)state;
	struct hub_run h;
	struct rlimit old, low = { 20, 20 };
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0); /* the child inherits it */
	hub_start(&h);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	int flood[30];
	for (int i = 0; i < 30; i++)
		flood[i] = try_connect(h.port);
	nanosleep(&(struct timespec){ 0, 300000000 }, NULL);
	for (int i = 0; i < 30; i++)
		if (flood[i] >= 0)
			close(flood[i]);
	nanosleep(&(struct timespec){ 3, 0 }, NULL); /* the taken ones closed by --hello-timeout */
	struct ctl_wire ctl;
	controller(&ctl, h.port);
	ctl_wire_close(&ctl);
	assert_non_null(strstr(hub_log(&h), "cannot take a connection (Too many open files)"));
	assert_true(hub_alive(&h));
	hub_stop(&h);
}

/* ---- virtual time (kernel/abi/control.h's envelopes) ---- */

#define LA CTL_VT_LOOKAHEAD_NS

static void send_env(struct ctl_wire *w, uint32_t kind, uint64_t time, struct ctl_frame *f,
		     const void *payload)
{
	assert_int_equal(ctl_wire_send_envelope(w, kind, time, f, payload), 0);
	for (int tries = 0; ctl_wire_pending(w) && tries < 300; tries++) {
		assert_int_equal(ctl_wire_flush(w), 0);
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLOUT }, 1, 10);
	}
	assert_int_equal(ctl_wire_pending(w), 0);
}

/* Read a timed agent's envelopes for up to ms: the highest grant seen
 * (0: none), and the first data envelope's time and frame (*data_time 0:
 * none). */
static uint64_t envelopes(struct ctl_wire *w, int ms, uint64_t *data_time, struct ctl_frame *f)
{
	uint64_t grant = 0;
	*data_time = 0;
	for (int waited = 0; waited < ms; waited += 10) {
		struct ctl_envelope e;
		const uint8_t *payload;
		int r;
		while ((r = ctl_wire_next_envelope(w, &e, &payload)) > 0) {
			if (e.kind == CTL_ENV_GRANT && e.time > grant)
				grant = e.time;
			if (e.kind == CTL_ENV_DATA && !*data_time) {
				*data_time = e.time;
				memcpy(f, payload, CTL_FRAME_SIZE);
			}
		}
		assert_int_equal(r, 0);
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLIN }, 1, 10);
		if (ctl_wire_read(w) < 0)
			break;
	}
	return grant;
}

/* 1 when no frame comes on w for ms. */
static int quiet(struct ctl_wire *w, int ms)
{
	struct ctl_frame f;
	const uint8_t *payload;
	for (int waited = 0; waited < ms; waited += 10) {
		if (ctl_wire_next(w, &f, &payload) != 0)
			return 0;
		poll(&(struct pollfd){ .fd = w->fd, .events = POLLIN }, 1, 10);
		if (ctl_wire_read(w) < 0)
			return 0;
	}
	return 1;
}

static void timed_agent(struct ctl_wire *w, int port, uint32_t id, uint64_t t)
{
	proven(w, port, id);
	struct ctl_frame hello = ctl_frame_make(CTL_HELLO, 0, id, 0);
	hello.a = (id << 16) | 4;
	send_env(w, CTL_ENV_DATA, t, &hello, NULL);
}

static void a_scripted_controller_reacts_at_node_times(void **state)
{
	(void)state;
	struct hub_run h;
	hub_start(&h);
	struct ctl_wire n1, n2, ctl;
	struct ctl_frame f;
	uint8_t buf[64];
	uint64_t at;
	timed_agent(&n1, h.port, 1, 1000);
	timed_agent(&n2, h.port, 2, 1000);
	assert_int_equal(envelopes(&n1, 300, &at, &f), 1000 + LA); /* both promised 1 us */
	struct hostauth_challenge c;
	greeted(&ctl, h.port, &c);
	struct ctl_frame auth = ctl_frame_make(CTL_AUTH, 1, 0, 0);
	auth.a = CTL_AUTH_SCRIPTED;
	send_frame(&ctl, auth, secret, CTL_SECRET_HEX);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);

	/* A command with nothing to react to yet: taken at the node's grant. */
	static const char create[] = "\0prog";
	send_frame(&ctl, ctl_frame_make(CTL_CREATE, 7, 1, 0), create, sizeof create);
	envelopes(&n1, 300, &at, &f);
	assert_int_equal(at, 1000 + LA);
	assert_int_equal(f.type, CTL_CREATE);

	/* Node 1 answers at 50 us; node 2 has promised only 40 us: held. */
	struct ctl_frame reply = ctl_frame_make(CTL_REPLY, f.id, 1, (1u << 16) | 5);
	send_env(&n1, CTL_ENV_DATA, 50000, &reply, NULL);
	send_env(&n2, CTL_ENV_PROMISE, 40000, NULL, NULL);
	assert_int_equal(quiet(&ctl, 300), 1);
	send_env(&n2, CTL_ENV_PROMISE, 90000, NULL, NULL);
	assert_int_equal(next_frame(&ctl, &f, buf, sizeof buf), 1);
	assert_int_equal(f.id, 7);

	/* Reacting to it: its command is taken at 50 us + the lookahead, and
	 * nobody is granted more until it says idle, whatever the promises. */
	send_env(&n1, CTL_ENV_PROMISE, 90000, NULL, NULL);
	send_frame(&ctl, ctl_frame_make(CTL_STOP, 8, 1, (1u << 16) | 5), NULL, 0);
	uint64_t g = envelopes(&n1, 300, &at, &f);
	assert_int_equal(at, 50000 + LA);
	assert_int_equal(f.type, CTL_STOP);
	assert_true(g <= 50000 + LA);
	struct ctl_frame idle = ctl_frame_make(CTL_IDLE, 0, 0, 0);
	idle.a = 1; /* an idle for fewer frames than it was sent is not one */
	send_frame(&ctl, idle, NULL, 0);
	assert_true(envelopes(&n2, 300, &at, &f) <= 50000 + LA);
	idle.a = 2;
	send_frame(&ctl, idle, NULL, 0);
	assert_int_equal(envelopes(&n2, 300, &at, &f), 90000 + LA);

	ctl_wire_close(&n1);
	ctl_wire_close(&n2);
	ctl_wire_close(&ctl);
	hub_stop(&h);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_reply_with_a_payload_reaches_the_controller),
		cmocka_unit_test(a_node_cannot_report_on_another_nodes_process),
		cmocka_unit_test(silent_connections_cannot_lock_the_hub),
		cmocka_unit_test(a_forged_node_is_refused_and_logged),
		cmocka_unit_test(a_peer_that_never_answers_is_closed),
		cmocka_unit_test(out_of_descriptors_is_survived),
		cmocka_unit_test(a_scripted_controller_reacts_at_node_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

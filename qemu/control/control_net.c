/*
 * qemu/control/control_net.c - the controller's connection to the control hub
 * (control_net.h).  Requests are synchronous: a frame goes out and the
 * reply with its id is awaited (reports that arrive meanwhile are handed
 * to the interpreter as they come), so the interpreter's operations keep
 * the simple shape of control.h.  Standard input flows from feeds (a host
 * file, the terminal) in chunks, each taken by the node's agent before the
 * next goes; a chunk the agent has no room for yet is tried again later.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kernel/abi/hostauth.h"
#include "kernel/abi/names.h"
#include "control_net.h"
#include "hostfilter/tracelog/log.h"
#include "kernel/abi/trace.h"

#define DEFAULT_REPLY_MS 15000
#define AUTH_MS 30000 /* long: a hub holding a cluster in virtual time answers once every agent has spoken */
#define SYNC_LOG_MS 15000
#define INPUT_RETRY_MS 50
#define AGENT_WAIT_MS 30000 /* nodes just booted: their agents connect soon */

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* "what went wrong (E_NAME)" for a node's status. */
static void status_text(int32_t status, char *err, size_t errlen)
{
	const struct abi_error_text *e = abi_error(status);
	snprintf(err, errlen, "%s (%s)", e->meaning, e->name);
}

/* ---- reports ---------------------------------------------------------------- */

static void drop_feed(struct control_feed *f)
{
	if (f->close_fd)
		close(f->fd);
	f->in_use = 0;
}

static void report(struct control_net *n, const struct ctl_frame *f, const uint8_t *payload)
{
	if (f->type == CTL_OUTPUT && n->c) {
		control_process_output(n->c, f->task, (const char *)payload, f->len);
	} else if (f->type == CTL_END) {
		for (int i = 0; i < CONTROL_NET_FEEDS; i++)
			if (n->feeds[i].in_use && n->feeds[i].task == f->task)
				drop_feed(&n->feeds[i]);
		if (n->c)
			control_process_ended(n->c, f->task, f->a, (int32_t)f->b);
	}
}

/* About to wait for the hub: a scripted controller says it has reacted to
 * every frame received so far (the hub holds the nodes until it does). */
static void say_idle(struct control_net *n)
{
	if (!n->scripted || n->thinking || n->received == n->idle_said)
		return;
	struct ctl_frame f = ctl_frame_make(CTL_IDLE, 0, 0, 0);
	f.a = n->received;
	if (ctl_wire_send(&n->w, &f, NULL) == 0 && ctl_wire_flush(&n->w) == 0)
		n->idle_said = n->received;
}

/* Read and dispatch frames for up to ms.  With want_id, stop at the reply
 * to it (1, copied to *reply and its payload to buf).  0 when the time is
 * up, -1 when the hub has gone. */
static int take_frames(struct control_net *n, int ms, uint32_t want_id, struct ctl_frame *reply,
		       uint8_t *buf, size_t size)
{
	long end = now_ms() + ms;
	for (;;) {
		struct ctl_frame f;
		const uint8_t *payload;
		int r;
		while ((r = ctl_wire_next(&n->w, &f, &payload)) > 0) {
			n->received++;
			if (f.type == CTL_REPLY && want_id && f.id == want_id) {
				*reply = f;
				if (buf)
					memcpy(buf, payload, f.len < size ? f.len : size);
				return 1;
			}
			report(n, &f, payload);
		}
		if (r < 0 || n->w.fd < 0)
			return -1;
		long left = end - now_ms();
		if (left <= 0)
			return 0;
		say_idle(n);
		struct pollfd p = { .fd = n->w.fd, .events = POLLIN };
		if (poll(&p, 1, (int)left) > 0 && ctl_wire_read(&n->w) < 0) {
			ctl_wire_close(&n->w);
			return -1;
		}
	}
}

/* Send f and wait for its reply: 0 with the node's *status (0 or E_*),
 * or -1 with why in err (the hub went away, no answer in time). */
static int request(struct control_net *n, struct ctl_frame *f, const void *payload,
		   struct ctl_frame *reply, uint8_t *buf, size_t size, int32_t *status, char *err,
		   size_t errlen)
{
	if (n->w.fd < 0) {
		snprintf(err, errlen, "not connected to the control hub");
		return -1;
	}
	f->id = ++n->next_id;
	struct ctl_frame got;
	int r = ctl_wire_send(&n->w, f, payload) < 0 || ctl_wire_flush(&n->w) < 0
			? -1
			: take_frames(n, n->reply_ms, f->id, &got, buf, size);
	if (r <= 0) {
		if (r < 0)
			snprintf(err, errlen, "the control hub went away");
		else
			snprintf(err, errlen, "node %u did not answer within %d s", (unsigned)f->node,
				 n->reply_ms / 1000);
		return -1;
	}
	if (reply)
		*reply = got;
	*status = (int32_t)got.a;
	if (*status)
		status_text(*status, err, errlen);
	return 0;
}

/* A request that succeeds or not: 0, or -1 with why in err. */
static int simple(struct control_net *n, uint32_t type, uint32_t task, uint32_t a,
		  const void *payload, uint32_t len, char *err, size_t errlen)
{
	struct ctl_frame f = ctl_frame_make(type, 0, task >> 16, task);
	int32_t status;
	f.a = a;
	f.len = len;
	return request(n, &f, payload, NULL, NULL, 0, &status, err, errlen) < 0 || status ? -1 : 0;
}

/* ---- machines and filters --------------------------------------------------------- */

uint32_t control_net_node(struct control_net *n, const char *machine)
{
	struct member *m = state_find_node(&n->st, machine);
	return m ? (uint32_t)m->id : 0;
}

static void list_nodes(struct control_net *n, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n->st.nmembers; i++)
		if (n->st.members[i].kind == MEMBER_NODE && used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "",
						 n->st.members[i].name);
}

static int machine_node(struct control_net *n, const char *machine, uint32_t *node, char *err,
			size_t errlen)
{
	*node = control_net_node(n, machine);
	if (*node)
		return 0;
	char names[256];
	list_nodes(n, names, sizeof names);
	snprintf(err, errlen, "the cluster has no machine '%s' (its nodes: %s)", machine, names);
	return -1;
}

static int has_service(struct control_net *n, const char *name)
{
	for (int i = 0; i < n->st.nmembers; i++)
		if (n->st.members[i].kind == MEMBER_SERVICE && !strcmp(n->st.members[i].name, name))
			return 1;
	return 0;
}

/* The host services a filter can be (all but the hub), blank-separated. */
static void filter_names(const struct control_net *n, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n->st.nmembers; i++)
		if (n->st.members[i].kind == MEMBER_SERVICE && strcmp(n->st.members[i].name, "ctl") &&
		    used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "",
						 n->st.members[i].name);
}

static int check_filter(struct control_net *n, const char *filter, char *err, size_t errlen)
{
	if (!filter || has_service(n, filter))
		return 0;
	char names[256];
	filter_names(n, names, sizeof names);
	snprintf(err, errlen, "the cluster has no host service '%s' (its filters: %s)", filter,
		 names[0] ? names : "none; add a 'service NAME start=\"{dpm} filter ...\"' line");
	return -1;
}

/* ---- the operations ------------------------------------------------------------- */

static int op_create(void *ctx, const char *machine, char *const argv[], const char *input,
		     uint32_t flags, const char *filter, uint32_t *task, char *err, size_t errlen)
{
	struct control_net *n = ctx;
	uint32_t node;
	if (machine_node(n, machine, &node, err, errlen) || check_filter(n, filter, err, errlen))
		return -1;
	uint8_t payload[CTL_PAYLOAD_MAX];
	size_t len = 0;
	const char *filter_word = filter ? filter : "";
	for (int i = -1; i < 0 || argv[i]; i++) {
		const char *word = i < 0 ? filter_word : argv[i];
		size_t k = strlen(word) + 1;
		if (len + k > sizeof payload) {
			snprintf(err, errlen, "the program's arguments are longer than %u bytes",
				 CTL_PAYLOAD_MAX);
			return -1;
		}
		memcpy(payload + len, word, k);
		len += k;
	}
	int fd = -1;
	if (input && (fd = open(input, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", input, strerror(errno));
		return -1;
	}
	struct ctl_frame f = ctl_frame_make(CTL_CREATE, 0, node, 0), reply;
	int32_t status;
	f.a = flags;
	f.len = (uint32_t)len;
	if (request(n, &f, payload, &reply, NULL, 0, &status, err, errlen) < 0 || status) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*task = reply.task;
	if (fd >= 0 && control_net_feed(n, *task, fd, 1) < 0) {
		close(fd);
		snprintf(err, errlen, "created, but more than %d inputs are being fed", CONTROL_NET_FEEDS);
		return -1;
	}
	return 0;
}

static int op_setmeter(void *ctx, uint32_t task, uint32_t flags, const char *filter, char *err,
		       size_t errlen)
{
	struct control_net *n = ctx;
	if (check_filter(n, filter, err, errlen))
		return -1;
	const char *name = filter ? filter : "";
	return simple(n, CTL_SETMETER, task, flags, name, (uint32_t)strlen(name) + 1, err, errlen);
}

static int op_start(void *ctx, uint32_t task, char *err, size_t errlen)
{
	return simple(ctx, CTL_START, task, 0, NULL, 0, err, errlen);
}

static int op_stop(void *ctx, uint32_t task, char *err, size_t errlen)
{
	return simple(ctx, CTL_STOP, task, 0, NULL, 0, err, errlen);
}

static int op_kill(void *ctx, uint32_t task, char *err, size_t errlen)
{
	return simple(ctx, CTL_KILL, task, 0, NULL, 0, err, errlen);
}

static int op_acquire(void *ctx, const char *machine, uint32_t pid, uint32_t *task, char *err,
		      size_t errlen)
{
	struct control_net *n = ctx;
	uint32_t node;
	if (machine_node(n, machine, &node, err, errlen))
		return -1;
	struct ctl_frame f = ctl_frame_make(CTL_ACQUIRE, 0, node, 0), reply;
	int32_t status;
	f.a = pid;
	if (request(n, &f, NULL, &reply, NULL, 0, &status, err, errlen) < 0)
		return -1;
	if (status == E_STATE)
		snprintf(err, errlen, "another controller has it");
	if (status)
		return -1;
	*task = reply.task;
	return 0;
}

static int op_input(void *ctx, uint32_t task, const char *bytes, size_t len, char *err,
		    size_t errlen)
{
	struct control_net *n = ctx;
	for (int i = 0; i < CONTROL_NET_FEEDS; i++)
		if (n->feeds[i].in_use && n->feeds[i].task == task) {
			snprintf(err, errlen, "its standard input comes from a file");
			return -1;
		}
	if (!len)
		return simple(n, CTL_INPUT_END, task, 0, NULL, 0, err, errlen);
	for (size_t done = 0; done < len;) {
		uint32_t k = len - done < CTL_PAYLOAD_MAX ? (uint32_t)(len - done) : CTL_PAYLOAD_MAX;
		if (simple(n, CTL_INPUT, task, 0, bytes + done, k, err, errlen) < 0)
			return -1;
		done += k;
	}
	return 0;
}

/* The ids of the nodes whose agents are connected, in increasing order
 * (the hub's list_nodes); how many, or -1. */
static int connected_nodes(struct control_net *n, uint8_t *ids, size_t max, char *err, size_t errlen)
{
	struct ctl_frame f = ctl_frame_make(CTL_NODES, 0, 0, 0), reply;
	uint8_t buf[256];
	int32_t status;
	if (request(n, &f, NULL, &reply, buf, sizeof buf, &status, err, errlen) < 0 || status)
		return -1;
	size_t k = reply.len < max ? reply.len : max;
	memcpy(ids, buf, k);
	return (int)k;
}

/* Look through the log for the MARKs with token; clear each node's bit in
 * *waiting as its mark is found.  -1 when the log cannot be read. */
static int find_marks(struct dpm_log *log, uint32_t token, uint32_t *waiting, char *err,
		      size_t errlen)
{
	struct dpm_log_record rec;
	int r;
	while ((r = dpm_log_next(log, &rec, err, errlen)) > 0) {
		uint64_t t, machine;
		if (rec.trace_type == TRACE_MARK && dpm_log_field(&rec, "token", &t) && t == token &&
		    dpm_log_field(&rec, "machine", &machine) && machine < 32)
			*waiting &= ~(1u << machine);
	}
	return r < 0 || dpm_log_resume(log) < 0 ? -1 : 0;
}

int control_net_name(struct control_net *n, uint32_t task, char *name, size_t size, char *err,
		     size_t errlen)
{
	struct ctl_frame f = ctl_frame_make(CTL_NAME, 0, task >> 16, task), reply;
	char buf[64];
	int32_t status;
	if (request(n, &f, NULL, &reply, (uint8_t *)buf, sizeof buf - 1, &status, err, errlen) < 0 ||
	    status)
		return -1;
	size_t len = reply.len < sizeof buf - 1 ? reply.len : sizeof buf - 1;
	buf[len] = '\0';
	if (!buf[0] || strlen(buf) >= size) {
		snprintf(err, errlen, "node %u gave no usable name for %u.%u", (unsigned)(task >> 16),
			 (unsigned)(task >> 16), (unsigned)(task & 0xffff));
		return -1;
	}
	snprintf(name, size, "%s", buf);
	return 0;
}

int control_net_marks(struct control_net *n, const char *filter, uint32_t token, const char *log_path,
		      char *err, size_t errlen)
{
	uint8_t ids[32];
	int count = connected_nodes(n, ids, sizeof ids, err, errlen);
	if (count < 0)
		return -1;
	uint32_t waiting = 0;
	for (int i = 0; i < count; i++) {
		if (ids[i] >= 32)
			continue;
		if (simple(n, CTL_MARK, (uint32_t)ids[i] << 16, token, filter,
			   (uint32_t)strlen(filter) + 1, err, errlen) < 0)
			return -1;
		waiting |= 1u << ids[i];
	}
	if (!log_path)
		return 0;
	struct dpm_log *log = dpm_log_open(log_path, err, errlen);
	if (!log)
		return -1;
	dpm_log_follow(log); /* the filter is writing it */
	long end = now_ms() + SYNC_LOG_MS;
	int r = 0;
	n->thinking = 1; /* waiting for the log, not the hub: the nodes hold */
	while (waiting && r == 0 && now_ms() < end) {
		r = find_marks(log, token, &waiting, err, errlen);
		if (waiting && r == 0)
			take_frames(n, 100, 0, NULL, NULL, 0);
	}
	n->thinking = 0;
	dpm_log_close(log);
	if (r == 0 && waiting) {
		snprintf(err, errlen, "the traces of node(s)");
		for (uint32_t b = 0; b < 32; b++)
			if (waiting & (1u << b))
				snprintf(err + strlen(err), errlen - strlen(err), " %u", (unsigned)b);
		snprintf(err + strlen(err), errlen - strlen(err), " did not all reach %s within %d s",
			 log_path, SYNC_LOG_MS / 1000);
		return -1;
	}
	return r;
}

static int op_sync_log(void *ctx, const char *filter, const char *log_path, char *err,
		       size_t errlen)
{
	static uint32_t counter;
	uint32_t token = (uint32_t)now_ms() ^ ((uint32_t)getpid() << 16) ^ (++counter << 24);
	return control_net_marks(ctx, filter, token, log_path, err, errlen);
}

static void op_poll(void *ctx, int ms)
{
	control_net_poll(ctx, ms);
}

/* A filter is one of the cluster's host services other than the hub. */
static int op_has_service(void *ctx, const char *name, char *list, size_t listlen)
{
	struct control_net *n = ctx;
	filter_names(n, list, listlen);
	return strcmp(name, "ctl") && has_service(n, name);
}

struct control_nodes control_net_nodes(struct control_net *n)
{
	return (struct control_nodes){
		.ctx = n, .create = op_create, .setmeter = op_setmeter, .start = op_start,
		.stop = op_stop, .kill = op_kill, .acquire = op_acquire, .input = op_input,
		.sync_log = op_sync_log, .poll = op_poll, .has_service = op_has_service,
	};
}

/* ---- standard input feeds ----------------------------------------------------------- */

int control_net_feed(struct control_net *n, uint32_t task, int fd, int close_fd)
{
	for (int i = 0; i < CONTROL_NET_FEEDS; i++)
		if (!n->feeds[i].in_use) {
			n->feeds[i] = (struct control_feed){ .in_use = 1, .task = task, .fd = fd,
							     .close_fd = close_fd };
			return 0;
		}
	return -1;
}

/* Whether fd has bytes (or its end) to read now: a terminal shared with
 * the shell is never made non-blocking, so it is asked first. */
static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) > 0;
}

/* Move one feed along: read a chunk, give it to the node, end the input.
 * 1 when the node had no room (try later). */
static int step_feed(struct control_net *n, struct control_feed *f)
{
	char err[256];
	if (!f->held_len && !f->eof && readable(f->fd)) {
		ssize_t k = read(f->fd, f->held, sizeof f->held);
		if (k > 0)
			f->held_len = (uint32_t)k;
		else if (k == 0 || (errno != EAGAIN && errno != EINTR))
			f->eof = 1;
	}
	if (f->held_len) {
		struct ctl_frame fr = ctl_frame_make(CTL_INPUT, 0, f->task >> 16, f->task);
		int32_t status;
		fr.len = f->held_len;
		int r = request(n, &fr, f->held, NULL, NULL, 0, &status, err, sizeof err);
		if (r == 0 && status == E_NOMEM)
			return 1;
		if (r < 0 || status) {
			drop_feed(f); /* the process ended, or the hub went away */
			return 0;
		}
		f->held_len = 0;
	}
	if (f->eof) {
		simple(n, CTL_INPUT_END, f->task, 0, NULL, 0, err, sizeof err);
		drop_feed(f);
	}
	return 0;
}

void control_net_poll(struct control_net *n, int ms)
{
	long end = now_ms() + ms;
	uint32_t before = n->received;
	do {
		struct pollfd p[1 + CONTROL_NET_FEEDS];
		int np = 0, busy = 0;
		for (int i = 0; i < CONTROL_NET_FEEDS; i++) {
			struct control_feed *f = &n->feeds[i];
			if (!f->in_use)
				continue;
			busy |= step_feed(n, f);
			if (f->in_use && !f->held_len && !f->eof)
				p[np++] = (struct pollfd){ .fd = f->fd, .events = POLLIN };
		}
		if (n->w.fd < 0)
			return;
		long left = end - now_ms();
		int wait = left < 0 ? 0 : busy && left > INPUT_RETRY_MS ? INPUT_RETRY_MS : (int)left;
		p[np++] = (struct pollfd){ .fd = n->w.fd, .events = POLLIN };
		if (wait > 0)
			say_idle(n);
		if (poll(p, (nfds_t)np, wait) > 0 && (p[np - 1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    ctl_wire_read(&n->w) < 0) {
			ctl_wire_close(&n->w);
			return;
		}
		take_frames(n, 0, 0, NULL, NULL, 0);
		/* something came: the caller reacts before waiting again (a
		 * scripted controller must not say idle before it has) */
	} while (n->received == before && now_ms() < end);
}

/* ---- connecting ------------------------------------------------------------------------ */

static int hub_port(const struct cluster_state *st)
{
	for (int i = 0; i < st->nmembers; i++)
		if (st->members[i].kind == MEMBER_SERVICE && !strcmp(st->members[i].name, "ctl"))
			return st->members[i].port;
	return 0;
}

static int read_secret(const char *dir, char *hex, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, STATE_SECRET);
	FILE *f = fopen(path, "r");
	size_t k = f ? fread(hex, 1, CTL_SECRET_HEX, f) : 0;
	if (f)
		fclose(f);
	if (k != CTL_SECRET_HEX) {
		snprintf(err, errlen, "cannot read the cluster's secret %s: %s", path,
			 f ? "too short" : strerror(errno));
		return -1;
	}
	return 0;
}

static int connect_hub(int port, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		snprintf(err, errlen, "cannot reach the control hub on 127.0.0.1:%d: %s", port,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Wait until the agent of every running node has reached the hub (a node
 * that has just booted may not have connected yet).  The nodes still
 * missing are named in err; 0 when none is. */
static int wait_for_agents(struct control_net *n, int ms, char *err, size_t errlen)
{
	long end = now_ms() + ms;
	for (;;) {
		uint8_t ids[32];
		int count = connected_nodes(n, ids, sizeof ids, err, errlen);
		if (count < 0)
			return -1;
		size_t used = 0;
		err[0] = '\0';
		for (int i = 0; i < n->st.nmembers; i++) {
			const struct member *m = &n->st.members[i];
			if (m->kind != MEMBER_NODE || m->state != MEMBER_RUNNING ||
			    memchr(ids, m->id, (size_t)count))
				continue;
			used += (size_t)snprintf(err + used, errlen - used, "%s%s", used ? " " : "", m->name);
			if (used >= errlen)
				break;
		}
		if (!used)
			return 0;
		if (now_ms() >= end)
			return -1;
		take_frames(n, 100, 0, NULL, NULL, 0);
	}
}

/* The hub greets every connection with a node's authentication challenge
 * (kernel/abi/hostauth.h); a controller shows the secret instead, so it
 * takes the challenge off the wire and leaves it.  0, or -1 with err. */
static int skip_challenge(struct control_net *n, char *err, size_t errlen)
{
	struct hostauth_challenge c;
	long end = now_ms() + AUTH_MS;
	while (!ctl_wire_take_raw(&n->w, &c, sizeof c)) {
		long left = end - now_ms();
		struct pollfd p = { .fd = n->w.fd, .events = POLLIN };
		if (left <= 0 || (poll(&p, 1, (int)left) > 0 && ctl_wire_read(&n->w) < 0)) {
			snprintf(err, errlen, "the control hub did not greet this controller");
			return -1;
		}
	}
	if (c.magic != HOSTAUTH_CHALLENGE_MAGIC) {
		snprintf(err, errlen, "the control hub greeted this controller with something else "
				      "than a challenge (an older hub?)");
		return -1;
	}
	return 0;
}

int control_net_open(struct control_net *n, const char *dir, char *err, size_t errlen)
{
	int scripted = n->scripted;
	memset(n, 0, sizeof *n);
	n->scripted = scripted;
	n->w.fd = -1;
	n->reply_ms = DEFAULT_REPLY_MS;
	snprintf(n->dir, sizeof n->dir, "%s", dir);
	char why[512], hex[CTL_SECRET_HEX];
	int loaded = state_load(dir, &n->st, why, sizeof why);
	if (loaded <= 0 || !state_anything_alive(&n->st)) {
		snprintf(err, errlen, loaded < 0 ? "%s" : "no cluster is running in %s (start one with 'dpm cluster up')",
			 loaded < 0 ? why : dir);
		return -1;
	}
	int port = hub_port(&n->st);
	if (!port) {
		snprintf(err, errlen, "the cluster in %s has no control hub (it was started with "
				      "--no-services)", dir);
		return -1;
	}
	if (read_secret(dir, hex, err, errlen) < 0)
		return -1;
	int fd = connect_hub(port, err, errlen);
	if (fd < 0)
		return -1;
	if (ctl_wire_init(&n->w, fd, 0) < 0) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (skip_challenge(n, err, errlen) < 0) {
		control_net_close(n);
		return -1;
	}
	struct ctl_frame f = ctl_frame_make(CTL_AUTH, 0, 0, 0);
	f.len = CTL_SECRET_HEX;
	f.a = n->scripted ? CTL_AUTH_SCRIPTED : 0;
	int32_t status;
	n->reply_ms = AUTH_MS;
	int r = request(n, &f, hex, NULL, NULL, 0, &status, err, errlen);
	n->reply_ms = DEFAULT_REPLY_MS;
	if (r < 0 || status) {
		if (r == 0)
			snprintf(err, errlen, "the control hub refused this controller (wrong secret)");
		control_net_close(n);
		return -1;
	}
	char missing[256];
	if (wait_for_agents(n, AGENT_WAIT_MS, missing, sizeof missing) < 0)
		fprintf(stderr, "dpm: warning: no agent connected from node(s) %s within %d s; "
				"requests to them fail\n", missing, AGENT_WAIT_MS / 1000);
	return 0;
}

void control_net_close(struct control_net *n)
{
	for (int i = 0; i < CONTROL_NET_FEEDS; i++)
		if (n->feeds[i].in_use)
			drop_feed(&n->feeds[i]);
	if (n->w.fd >= 0)
		ctl_wire_close(&n->w);
	n->w.fd = -1;
}

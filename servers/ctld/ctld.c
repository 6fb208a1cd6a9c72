/*
 * servers/ctld/ctld.c - the controller's agent on a node: what the DPM paper
 * calls a meterdaemon (§3.5.1-3.5.2).  The kernel starts it on every node
 * whose host= names a `ctl` service, with a kernel link that may meter
 * any process of the node and open host gates (LINK_KMETER | LINK_KHOST).
 *
 * It opens a gate to the cluster's control hub on the host and carries out
 * the controllers' requests (ctl_proto.h) on this node: create a process
 * through the process manager, suspended, metered to a filter before its
 * first instruction, its standard I/O linked here; start, stop, kill it;
 * meter a running process (acquire); send a MARK down the meter path.  It
 * is the creator of what it creates, so the process manager tells it of
 * every end, which it reports to the hub with the process's last output
 * ahead of it.  Standard output goes to the hub as it is written; standard
 * input is held here as the controller sends it, and a reader waits for it.
 *
 * Everything is one loop over RECEIVEMESSAGE; the message's code says who
 * it is from (the gate, the pm's notices, a process's stdio link, an alarm).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/abi/control.h"
#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "servers/lib/stdio_proto.h"

#define LINK_AGENT 3                /* kernel: LINK_KMETER | LINK_KHOST      */
#define NOTIFY_CODE 0x43544e4fu     /* end notices from the process manager  */
#define ALARM_CODE 0x4354414cu      /* retry held output, reopen the gate    */
#define STDIO_CODE_BASE 0x53540000u /* | slot: a managed process's stdio     */
#define MAX_PROCS 32
#define MAX_ARGS 32
#define INPUT_MAX (256u * 1024u)    /* standard input held for one process  */
#define RETRY_MS 20
#define REOPEN_MS 1000
#define MAX_FILTERS 4

struct managed {
	int in_use;
	uint32_t task;
	/* standard input: in[0..in_len) not yet read */
	uint8_t *in;
	uint32_t in_len, in_cap;
	int in_ended;
	int reader;           /* reply link of a STDIO_READ that waits, or -1 */
	uint32_t reader_want;
	/* standard output the gate had no room for, and its writer's reply */
	uint8_t out[STDIO_WRITE_MAX];
	uint32_t out_len;
	int writer;           /* reply link of a held STDIO_WRITE, or -1 */
	/* an end waiting behind held output */
	int ended;
	struct kr_exit_notice end;
};

static struct managed procs[MAX_PROCS];
static uint32_t my_node, my_task;
static int gate = -1;           /* our gate to the hub, or -1 */
static int notify_link;
static int alarm_set;
static struct {
	char name[CTL_NAME_MAX + 1];
	int link;
} meter_links[MAX_FILTERS];

/* Frames from the hub, gathered across gate messages. */
static uint8_t rx[CTL_FRAME_SIZE + CTL_PAYLOAD_MAX + MSG_MAX];
static uint32_t rx_len;

static uint32_t word_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static void set_alarm(uint32_t ms)
{
	if (!alarm_set && alarm_after(ms, ALARM_CODE) == 0)
		alarm_set = 1;
}

/* ---- the gate ------------------------------------------------------------ */

static int agent_request(const void *req, uint32_t len, void *reply, uint32_t reply_len, int passlink)
{
	struct message m = message_into(reply, reply_len);
	return call(LINK_AGENT, req, len, passlink, &m);
}

static void open_gate(void)
{
	uint8_t req[16] = { 0 };
	uint32_t kind = KR_HOSTOPEN;
	int32_t g = -1;
	memcpy(req, &kind, 4);
	memcpy(req + 4, "ctl", 3);
	int r = agent_request(req, sizeof req, &g, sizeof g, -1);
	if (r < 0) {
		printf("ctld: no gate to the control hub: %s; trying again\n", kerror_name(r));
		set_alarm(REOPEN_MS);
		return;
	}
	gate = g;
	rx_len = 0;
	struct ctl_frame hello = { .magic = CTL_MAGIC, .type = CTL_HELLO, .node = my_node, .a = my_task };
	uint8_t msg[8 + CTL_FRAME_SIZE];
	uint32_t w[2] = { KR_HOSTSEND, (uint32_t)gate };
	memcpy(msg, w, 8);
	memcpy(msg + 8, &hello, CTL_FRAME_SIZE);
	agent_request(msg, sizeof msg, NULL, 0, -1);
}

static void close_gate(const char *why)
{
	if (gate < 0)
		return;
	uint32_t w[2] = { KR_HOSTCLOSE, (uint32_t)gate };
	agent_request(w, sizeof w, NULL, 0, -1);
	printf("ctld: control connection closed: %s\n", why);
	gate = -1;
	set_alarm(REOPEN_MS);
}

/* One frame to the hub: 0 sent, E_NOMEM no room now, else the gate is gone. */
static int send_frame(const struct ctl_frame *f, const void *payload)
{
	static uint8_t msg[8 + CTL_FRAME_SIZE + CTL_PAYLOAD_MAX];
	if (gate < 0)
		return E_NODEDOWN;
	uint32_t w[2] = { KR_HOSTSEND, (uint32_t)gate };
	memcpy(msg, w, 8);
	memcpy(msg + 8, f, CTL_FRAME_SIZE);
	if (f->len)
		memcpy(msg + 8 + CTL_FRAME_SIZE, payload, f->len);
	int r = agent_request(msg, 8 + CTL_FRAME_SIZE + f->len, NULL, 0, -1);
	if (r < 0 && r != E_NOMEM)
		close_gate("the hub is gone");
	return r;
}

static void reply_with(uint32_t id, int32_t status, uint32_t task, const void *payload,
		       uint32_t len)
{
	struct ctl_frame f = { .magic = CTL_MAGIC, .type = CTL_REPLY, .id = id, .node = my_node,
			       .task = task, .a = (uint32_t)status, .len = len };
	send_frame(&f, payload);
}

static void reply(uint32_t id, int32_t status, uint32_t task)
{
	reply_with(id, status, task, NULL, 0);
}

/* ---- managed processes ---------------------------------------------------- */

static struct managed *find(uint32_t task)
{
	for (int i = 0; i < MAX_PROCS; i++)
		if (procs[i].in_use && procs[i].task == task)
			return &procs[i];
	return NULL;
}

static void forget(struct managed *p)
{
	if (p->reader >= 0)
		destroylink(p->reader);
	if (p->writer >= 0)
		destroylink(p->writer);
	free(p->in);
	memset(p, 0, sizeof *p);
}

static void answer_writer(struct managed *p, int32_t status)
{
	if (p->writer >= 0)
		sendmessage(p->writer, &status, sizeof status, -1);
	p->writer = -1;
}

/* Output to the hub in frames; what does not fit now stays in p->out.
 * With no hub, the node's console gets it, so nothing is lost. */
static void ship_output(struct managed *p, const uint8_t *bytes, uint32_t n)
{
	uint32_t done = 0;
	while (done < n) {
		uint32_t chunk = n - done < CTL_PAYLOAD_MAX ? n - done : CTL_PAYLOAD_MAX;
		struct ctl_frame f = { .magic = CTL_MAGIC, .type = CTL_OUTPUT, .node = my_node,
				       .task = p->task, .len = chunk };
		int r = send_frame(&f, bytes + done);
		if (r == E_NOMEM)
			break;
		if (r < 0)
			console_write(bytes + done, chunk);
		done += chunk;
	}
	memmove(p->out, bytes + done, n - done);
	p->out_len = n - done;
	if (p->out_len)
		set_alarm(RETRY_MS);
}

static void report_end(struct managed *p)
{
	struct ctl_frame f = { .magic = CTL_MAGIC, .type = CTL_END, .node = my_node, .task = p->task,
			       .a = p->end.reason, .b = (uint32_t)p->end.status };
	send_frame(&f, NULL);
	forget(p);
}

/* Held output first, then the writer goes on, then a held end. */
static void retry_output(struct managed *p)
{
	if (p->out_len) {
		uint8_t copy[STDIO_WRITE_MAX];
		uint32_t n = p->out_len;
		memcpy(copy, p->out, n);
		ship_output(p, copy, n);
	}
	if (p->out_len)
		return;
	answer_writer(p, 0);
	if (p->ended)
		report_end(p);
}

/* Answer a waiting reader from held input, or with the end of input. */
static void serve_reader(struct managed *p)
{
	if (p->reader < 0 || (!p->in_len && !p->in_ended))
		return;
	uint32_t n = p->in_len < p->reader_want ? p->in_len : p->reader_want;
	sendmessage(p->reader, p->in, n, -1);
	memmove(p->in, p->in + n, p->in_len - n);
	p->in_len -= n;
	p->reader = -1;
}

static int hold_input(struct managed *p, const uint8_t *bytes, uint32_t n)
{
	if (p->in_ended)
		return E_STATE;
	if (p->in_len + n > INPUT_MAX)
		return E_NOMEM;
	if (p->in_len + n > p->in_cap) {
		uint32_t cap = p->in_cap ? p->in_cap : 4096;
		while (cap < p->in_len + n)
			cap *= 2;
		uint8_t *bigger = realloc(p->in, cap);
		if (!bigger)
			return E_NOMEM;
		p->in = bigger;
		p->in_cap = cap;
	}
	memcpy(p->in + p->in_len, bytes, n);
	p->in_len += n;
	serve_reader(p);
	return 0;
}

/* A STDIO_READ or STDIO_WRITE over a managed process's stdio link. */
static void stdio_request(struct managed *p, const struct message *m, const uint8_t *data, int len)
{
	uint32_t op = len >= 4 ? word_at(data) : 0;
	if (op == STDIO_WRITE && m->reply >= 0 && p->writer < 0) {
		p->writer = m->reply;
		ship_output(p, data + 4, (uint32_t)len - 4);
		if (!p->out_len)
			answer_writer(p, 0);
		return;
	}
	if (op == STDIO_READ && len >= (int)STDIO_HEADER && m->reply >= 0 && p->reader < 0) {
		p->reader = m->reply;
		p->reader_want = word_at(data + 4) ? word_at(data + 4) : 1;
		serve_reader(p);
		return;
	}
	if (m->reply >= 0) { /* not the protocol: refuse, so the caller is not stuck */
		int32_t status = E_BADREQ;
		sendmessage(m->reply, &status, sizeof status, -1);
	}
}

static void process_ended(const struct kr_exit_notice *n)
{
	struct managed *p = find(n->task);
	if (!p)
		return;
	p->ended = 1;
	p->end = *n;
	if (p->writer >= 0) /* it cannot read the answer any more */
		destroylink(p->writer);
	p->writer = -1;
	if (!p->out_len)
		report_end(p);
}

/* ---- metering ------------------------------------------------------------- */

/* A meter link to host service `filter`, made once per name. */
static int meter_link_to(const char *filter)
{
	int free_slot = -1;
	for (int i = 0; i < MAX_FILTERS; i++) {
		if (meter_links[i].name[0] && !strcmp(meter_links[i].name, filter))
			return meter_links[i].link;
		if (!meter_links[i].name[0] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return E_NOSPACE;
	uint8_t req[16] = { 0 };
	uint32_t kind = KR_HOSTMETER;
	memcpy(req, &kind, 4);
	memcpy(req + 4, filter, strlen(filter));
	struct message m = message_into(NULL, 0);
	int r = call(LINK_CONSOLE, req, sizeof req, -1, &m);
	if (r < 0)
		return r;
	snprintf(meter_links[free_slot].name, sizeof meter_links[free_slot].name, "%s", filter);
	meter_links[free_slot].link = m.passed;
	return m.passed;
}

/* Meter task with flags to filter ("": stop metering it). */
static int set_meter(uint32_t task, uint32_t flags, const char *filter)
{
	int link = -1;
	if (filter[0] && (link = meter_link_to(filter)) < 0)
		return link;
	uint32_t w[4] = { KR_SETMETER, task, filter[0] ? flags : 0, 0 };
	return agent_request(w, sizeof w, NULL, 0, link);
}

/* The payload's filter name, checked; NULL if it is malformed. */
static const char *filter_of(const uint8_t *payload, uint32_t len, uint32_t *used)
{
	const uint8_t *nul = memchr(payload, '\0', len);
	if (!nul || nul - payload > (long)CTL_NAME_MAX)
		return NULL;
	*used = (uint32_t)(nul - payload) + 1;
	return (const char *)payload;
}

/* ---- requests ------------------------------------------------------------- */

static int do_create(const struct ctl_frame *f, const uint8_t *payload, uint32_t *task)
{
	uint32_t used;
	const char *filter = filter_of(payload, f->len, &used);
	const char *argv[MAX_ARGS + 1];
	int argc = 0;
	if (!filter || f->len == used || payload[f->len - 1] != '\0')
		return E_BADREQ;
	for (uint32_t at = used; at < f->len; at += (uint32_t)strlen((const char *)payload + at) + 1) {
		if (argc == MAX_ARGS)
			return E_INVAL;
		argv[argc++] = (const char *)payload + at;
	}
	argv[argc] = NULL;
	struct managed *p = NULL;
	for (int i = 0; i < MAX_PROCS && !p; i++)
		if (!procs[i].in_use)
			p = &procs[i];
	if (!p)
		return E_NOSPACE;
	int r = pm_create(argv, notify_link, task);
	if (r < 0)
		return r;
	int stdio = createlink(STDIO_CODE_BASE | (uint32_t)(p - procs), NULL, 0, 0);
	if (stdio < 0 || (r = pm_givelink(*task, LINK_STDIO, stdio)) < 0 ||
	    (r = set_meter(*task, f->a, filter)) < 0) {
		if (stdio >= 0)
			destroylink(stdio);
		pm_kill(*task);
		return r < 0 ? r : stdio;
	}
	destroylink(stdio);
	*p = (struct managed){ .in_use = 1, .task = *task, .reader = -1, .writer = -1 };
	return 0;
}

static int do_acquire(uint32_t pid, uint32_t *task)
{
	if (pid == 0 || pid > 0xffff || pid == CTLD_PID)
		return E_INVAL; /* the kernel, and this agent, are not processes to meter */
	*task = (my_node << 16) | pid;
	uint32_t w[2] = { KR_PROCINFO, *task };
	struct kr_procinfo info;
	return agent_request(w, sizeof w, &info, sizeof info, -1) < 0 ? E_DEAD : 0;
}

static int do_mark(const struct ctl_frame *f, const uint8_t *payload)
{
	uint32_t used;
	const char *filter = filter_of(payload, f->len, &used);
	if (!filter || !filter[0])
		return E_BADREQ;
	uint8_t req[20] = { 0 };
	uint32_t kind = KR_METERMARK;
	memcpy(req, &kind, 4);
	memcpy(req + 4, filter, strlen(filter));
	memcpy(req + 16, &f->a, 4);
	return agent_request(req, sizeof req, NULL, 0, -1);
}

static int do_input(const struct ctl_frame *f, const uint8_t *payload)
{
	struct managed *p = find(f->task);
	if (!p || p->ended)
		return E_DEAD;
	if (f->type == CTL_INPUT)
		return hold_input(p, payload, f->len);
	p->in_ended = 1;
	serve_reader(p);
	return 0;
}

static void request(const struct ctl_frame *f, const uint8_t *payload)
{
	uint32_t task = f->task;
	int r;
	uint32_t used;
	switch (f->type) {
	case CTL_CREATE:
		r = do_create(f, payload, &task);
		break;
	case CTL_SETMETER: {
		const char *filter = filter_of(payload, f->len, &used);
		r = filter ? set_meter(f->task, f->a, filter) : E_BADREQ;
		break;
	}
	case CTL_START:
		r = pm_start(f->task);
		break;
	case CTL_STOP:
		r = pm_stop(f->task);
		break;
	case CTL_KILL:
		r = pm_kill(f->task);
		break;
	case CTL_ACQUIRE:
		r = do_acquire(f->a, &task);
		break;
	case CTL_INPUT:
	case CTL_INPUT_END:
		r = do_input(f, payload);
		break;
	case CTL_MARK:
		r = do_mark(f, payload);
		break;
	case CTL_NAME: {
		char name[PM_NAME_MAX];
		r = pm_name(f->task, name, sizeof name);
		if (r == 0) {
			reply_with(f->id, 0, task, name, (uint32_t)strlen(name) + 1);
			return;
		}
		break;
	}
	default:
		r = E_BADREQ;
	}
	reply(f->id, r, task);
}

/* Take the whole frames gathered in rx. */
static void frames_in(void)
{
	uint32_t at = 0;
	while (rx_len - at >= CTL_FRAME_SIZE) {
		struct ctl_frame f;
		memcpy(&f, rx + at, CTL_FRAME_SIZE);
		if (f.magic != CTL_MAGIC || f.len > CTL_PAYLOAD_MAX) {
			close_gate("garbage from the hub");
			return;
		}
		if (rx_len - at < CTL_FRAME_SIZE + f.len)
			break;
		request(&f, rx + at + CTL_FRAME_SIZE);
		at += CTL_FRAME_SIZE + f.len;
	}
	memmove(rx, rx + at, rx_len - at);
	rx_len -= at;
}

static void gate_bytes(const uint8_t *data, uint32_t n)
{
	if (rx_len + n > sizeof rx) {
		close_gate("a frame longer than the protocol allows");
		return;
	}
	memcpy(rx + rx_len, data, n);
	rx_len += n;
	frames_in();
}

static void on_alarm(void)
{
	alarm_set = 0;
	if (gate < 0) {
		open_gate();
		return;
	}
	for (int i = 0; i < MAX_PROCS; i++)
		if (procs[i].in_use && procs[i].out_len)
			retry_output(&procs[i]);
}

int main(void)
{
	static uint8_t buf[MSG_MAX];
	node_info(&my_node, NULL);
	my_task = (my_node << 16) | CTLD_PID;
	notify_link = createlink(NOTIFY_CODE, NULL, 0, 0);
	if (notify_link < 0) {
		printf("ctld: cannot make its notify link: %s\n", kerror_name(notify_link));
		return 1;
	}
	open_gate();
	for (;;) {
		struct message m = message_into(buf, sizeof buf);
		int r = receivemessage(&m);
		/* No link reaches us this way that we keep: a process passing
		 * links over its stdio link would otherwise fill our table, and
		 * every receive after would fail (E_NOSPACE, the message left
		 * queued) for ever. */
		if (m.passed >= 0)
			destroylink(m.passed);
		if (r < 0) {
			/* truncated (nobody we serve sends more than MSG_MAX): a
			 * CALLer is told E_DEAD rather than left waiting */
			if (m.reply >= 0)
				destroylink(m.reply);
			continue;
		}
		if (gate >= 0 && m.code == KR_HOSTGATE_DATA((uint32_t)gate)) {
			gate_bytes(buf, (uint32_t)r);
		} else if (gate >= 0 && m.code == KR_HOSTGATE_END((uint32_t)gate)) {
			gate = -1; /* the kernel closed it */
			printf("ctld: the control hub closed the connection\n");
			set_alarm(REOPEN_MS);
		} else if (m.code == NOTIFY_CODE && r == (int)sizeof(struct kr_exit_notice)) {
			struct kr_exit_notice n;
			memcpy(&n, buf, sizeof n);
			process_ended(&n);
		} else if ((m.code & 0xffff0000u) == STDIO_CODE_BASE && (m.code & 0xffffu) < MAX_PROCS &&
			   procs[m.code & 0xffffu].in_use && procs[m.code & 0xffffu].task == m.from) {
			stdio_request(&procs[m.code & 0xffffu], &m, buf, r);
		} else if (m.code == ALARM_CODE) {
			on_alarm();
		} else if (m.reply >= 0) {
			destroylink(m.reply);
		}
	}
}

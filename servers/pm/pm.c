/*
 * servers/pm/pm.c - the process manager.  It alone holds a kernel link with
 * process-control rights (slot 3), and turns requests from processes into
 * kernel requests: create a process suspended from a program name, give it
 * its standard links (pm, name service, console), start, stop, kill it, and
 * tell its creator when and why it ended.  Following DEMOS/MP, a process is
 * controlled by whoever created it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"

#define LINK_KCTL_SLOT 3
#define NOTIFY_CODE 0x4e4f5459u /* code on the link the kernel reports ends over */
#define MAX_CHILDREN 64
/* End-notice links kept at once (children's and pending notices'): the
 * rest of the pm's NLINK slots are for its standard links, its own link,
 * links to other nodes' process managers (NET_MAX_PEERS, 8) and the few a
 * request brings or needs while it is served.  With this bound a receive
 * always finds room for the two links a message can carry. */
#define MAX_NOTIFY_LINKS 40

struct child {
	int in_use;
	int remote;   /* created on another node at our creator's request */
	uint32_t task;
	uint32_t creator;
	int notify;   /* link to tell the creator, or -1 */
	uint32_t age; /* order of creation: the oldest remote child goes first */
};

static struct child children[MAX_CHILDREN];

/* The programs this pm created processes from, newest last (PM_NAME): a
 * ring apart from the children, so a name outlives its process (the
 * controller asks after a run, to name the processes of its trace). */
static struct { uint32_t task; char name[PM_NAME_MAX]; } names[PM_NAMES_KEPT];
static uint32_t my_node;
static uint32_t names_next;

static void remember_name(uint32_t task, const char *prog)
{
	const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
	size_t n = strnlen(base, PM_NAME_MAX - 1);
	uint32_t i = names_next++ % PM_NAMES_KEPT;
	names[i].task = task;
	memcpy(names[i].name, base, n);
	names[i].name[n] = '\0';
}

static int name_of(uint32_t task, struct pm_reply *rep)
{
	if (task == ((my_node << 16) | PM_PID)) { /* the kernel started us */
		memcpy(rep->name, "pm", 3);
		return 0;
	}
	uint32_t kept = names_next < PM_NAMES_KEPT ? names_next : PM_NAMES_KEPT;
	for (uint32_t k = 1; k <= kept; k++) { /* newest first: a pid used again */
		uint32_t i = (names_next - k) % PM_NAMES_KEPT;
		if (names[i].task == task) {
			memcpy(rep->name, names[i].name, sizeof rep->name);
			return 0;
		}
	}
	return E_DEAD;
}

static uint32_t next_age;
static int self_link;
static int pm_link[256]; /* links to other nodes' process managers, or 0 */

static int kernel_request(const uint32_t *words, uint32_t nwords, const void *tail, uint32_t tail_len,
			  int passlink, void *reply, uint32_t reply_len)
{
	uint8_t req[MSG_MAX];
	memcpy(req, words, nwords * 4);
	if (tail_len)
		memcpy(req + nwords * 4, tail, tail_len);
	struct message m = message_into(reply, reply_len);
	return call(LINK_KCTL_SLOT, req, nwords * 4 + tail_len, passlink, &m);
}

static struct child *find_child(uint32_t task)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i].in_use && children[i].task == task)
			return &children[i];
	return NULL;
}

static struct child *free_child(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i].in_use)
			return &children[i];
	return NULL;
}

static int give_link(uint32_t task, int slot, int link)
{
	uint32_t w[3] = { KR_GIVELINK, task, (uint32_t)slot };
	int32_t where = -1;
	int r = kernel_request(w, 3, NULL, 0, link, &where, sizeof where);
	return r < 0 ? r : where;
}

static int notify_links(void);
static int forget_oldest_remote(void);

static int create(uint32_t creator, const struct pm_request *req, uint32_t len, int notify, struct pm_reply *rep)
{
	struct child *c = free_child();
	if (!c)
		return E_NOMEM;
	if (notify >= 0 && notify_links() >= MAX_NOTIFY_LINKS && !forget_oldest_remote())
		return E_NOMEM;
	if (len < PM_REQUEST_HEADER + 2 || req->args_len != len - PM_REQUEST_HEADER ||
	    req->args[req->args_len - 1] != '\0')
		return E_BADREQ;
	uint32_t w[2] = { KR_CREATE, creator };
	uint32_t task = 0;
	int r = kernel_request(w, 2, req->args, req->args_len, -1, &task, sizeof task);
	if (r < 0)
		return r;
	if ((r = give_link(task, LINK_PM, self_link)) < 0 ||
	    (r = give_link(task, LINK_NS, LINK_NS)) < 0 ||
	    (r = give_link(task, LINK_CONSOLE, LINK_CONSOLE)) < 0) {
		uint32_t k[2] = { KR_KILL, task };
		kernel_request(k, 2, NULL, 0, -1, NULL, 0);
		return r;
	}
	*c = (struct child){ .in_use = 1, .task = task, .creator = creator, .notify = notify, .age = next_age++ };
	rep->task = task;
	remember_name(task, req->args);
	return 0;
}

/* Start, stop, kill, give a link: only for the creator. */
static int control(uint32_t from, const struct pm_request *req, int passed, struct pm_reply *rep)
{
	struct child *c = find_child(req->task);
	if (!c)
		return E_DEAD;
	if (c->creator != from)
		return E_RIGHTS;
	if (req->op == PM_SETMETER) {
		uint32_t w[4] = { KR_SETMETER, req->task, req->flags, req->batch };
		return kernel_request(w, 4, NULL, 0, passed, NULL, 0);
	}
	if (req->op == PM_GIVELINK) {
		if (passed < 0)
			return E_BADREQ;
		int r = give_link(req->task, req->slot, passed);
		rep->slot = r;
		return r < 0 ? r : 0;
	}
	uint32_t kind = req->op == PM_START ? KR_START : req->op == PM_STOP ? KR_STOP : KR_KILL;
	uint32_t w[2] = { kind, req->task };
	return kernel_request(w, 2, NULL, 0, -1, NULL, 0);
}

/* End notices a creator's full queue refused, or that found the headers
 * processes may use taken (E_NOMEM: our own quota, or the node's pool down
 * to the kernel's reserve): tried again on an alarm, so a creator that lets
 * its queue fill for a while still learns. */
#define RETRY_CODE 0x52545259u
#define MAX_PENDING 16
static struct { struct kr_exit_notice n; int link; } pending[MAX_PENDING];
static int npending;

static void tell_creator(int link, const struct kr_exit_notice *n)
{
	int r = sendmessage(link, n, sizeof *n, -1);
	if ((r == E_QUEUEFULL || r == E_NOMEM) && npending < MAX_PENDING) {
		pending[npending].n = *n;
		pending[npending].link = link;
		if (npending++ == 0)
			alarm_after(20, RETRY_CODE);
		return;
	}
	destroylink(link);
}

static void retry_pending(void)
{
	int n = npending;
	npending = 0;
	for (int i = 0; i < n; i++)
		tell_creator(pending[i].link, &pending[i].n);
}

static int notify_links(void)
{
	int n = npending;
	for (int i = 0; i < MAX_CHILDREN; i++)
		n += children[i].in_use && children[i].notify >= 0;
	return n;
}

static void forget(struct child *c)
{
	if (c->notify >= 0)
		destroylink(c->notify);
	c->in_use = 0;
}

/* Forget the oldest child remembered on another node (that node's process
 * manager still tells its creator of its end; only a node-down notice is
 * lost): 1 if there was one. */
static int forget_oldest_remote(void)
{
	struct child *old = NULL;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i].in_use && children[i].remote && (!old || (int32_t)(children[i].age - old->age) < 0))
			old = &children[i];
	if (old)
		forget(old);
	return old != NULL;
}

/* A child created on another node for a creator here: remembered so that,
 * should that node go down, the creator hears of it (its own process
 * manager, which would have told it, went down with it).  Forgotten when
 * its creator ends; when the table or the notify links run out, the oldest
 * such child is forgotten to make room. */
static void remember_remote(uint32_t task, uint32_t creator, int notify)
{
	if ((notify_links() >= MAX_NOTIFY_LINKS || !free_child()) && !forget_oldest_remote()) {
		destroylink(notify);
		return;
	}
	struct child *c = free_child();
	*c = (struct child){ .in_use = 1, .remote = 1, .task = task, .creator = creator, .notify = notify,
			     .age = next_age++ };
}

/* MAX_NOTIFY_LINKS keeps our link table from filling, but should a receive
 * find no room for a message's links (E_NOSPACE: the message stays queued,
 * so receiving again at once would fail again, for ever), make some: links
 * to other process managers first (fetched again when needed), then the
 * oldest remote child's, then (never expected) the oldest local child's
 * notify link, whose creator then hears nothing of its end. */
static void make_room(void)
{
	for (int n = 1; n < 256; n++)
		if (pm_link[n]) {
			destroylink(pm_link[n]);
			pm_link[n] = 0;
			return;
		}
	if (forget_oldest_remote())
		return;
	struct child *old = NULL;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i].in_use && children[i].notify >= 0 && (!old || (int32_t)(children[i].age - old->age) < 0))
			old = &children[i];
	if (old) {
		printf("pm: link table full; the end of %u.%u will not be told\n", (unsigned)(old->task >> 16),
		       (unsigned)(old->task & 0xffff));
		destroylink(old->notify);
		old->notify = -1;
		return;
	}
	printf("pm: link table full and nothing to free\n");
	exit(1);
}

static void node_down(uint32_t node)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		struct child *c = &children[i];
		if (!c->in_use || !c->remote || (c->task >> 16) != node)
			continue;
		struct kr_exit_notice n = { .kind = KR_NOTIFY, .task = c->task, .reason = EXIT_NODE_DOWN, .status = -1 };
		if (c->notify >= 0)
			tell_creator(c->notify, &n);
		c->in_use = 0;
	}
}

static void process_ended(const struct kr_exit_notice *n)
{
	/* its children on other nodes: nobody is left to tell should their
	 * node go down */
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i].in_use && children[i].remote && children[i].creator == n->task)
			forget(&children[i]);
	struct child *c = find_child(n->task);
	if (!c) {
		printf("pm: process %u.%u ended: %s, status %d\n", (unsigned)(n->task >> 16),
		       (unsigned)(n->task & 0xffff), exit_reason_name(n->reason), (int)n->status);
		return;
	}
	if (c->notify >= 0)
		tell_creator(c->notify, n);
	c->in_use = 0;
}

/* The node a request is about: where to create, or where the task is. */
static uint32_t target_node(const struct pm_request *req)
{
	if (req->op == PM_CREATE || req->op == PM_DISKLINK)
		return req->node ? req->node : my_node;
	return req->task >> 16;
}

/* Hand the request to the process manager of `node`, acting for `creator`,
 * and return its answer (a link its reply carries goes to *got_link). */
static int forward(uint32_t node, uint32_t creator, struct pm_request *req, int len, int passed,
		   struct pm_reply *rep, int *got_link)
{
	if (node == 0 || node > 255)
		return E_INVAL;
	if (!pm_link[node]) {
		uint32_t w[2] = { KR_PMLINK, node };
		struct message m = message_into(NULL, 0);
		int r = call(LINK_KCTL_SLOT, w, sizeof w, -1, &m);
		if (r < 0 || m.passed < 0)
			return r < 0 ? r : E_NODEDOWN;
		pm_link[node] = m.passed;
	}
	req->on_behalf = creator;
	struct message m = message_into(rep, sizeof *rep);
	int r = call(pm_link[node], req, (uint32_t)len, passed, &m);
	*got_link = m.passed;
	return r < 0 ? r : rep->status;
}

/* A metered creator's children are metered like it, on any node: ask our
 * kernel for the creator's settings (it also traces the creation) and set
 * them on the new process, which is still stopped. */
static void meter_like_creator(uint32_t node, uint32_t creator, uint32_t child)
{
	uint32_t w[3] = { KR_REMOTECREATED, creator, child }, settings[2];
	struct message m = message_into(settings, sizeof settings);
	if (call(LINK_KCTL_SLOT, w, sizeof w, -1, &m) < 0 || m.passed < 0)
		return;
	struct pm_request req = { .op = PM_SETMETER, .task = child, .flags = settings[0], .batch = settings[1] };
	struct pm_reply rep;
	int got = -1;
	forward(node, creator, &req, (int)PM_REQUEST_HEADER, m.passed, &rep, &got);
	destroylink(m.passed);
	if (got >= 0)
		destroylink(got);
}

/* The next message into m and req, when the last needed no answer. */
static int next_message(struct message *m, struct pm_request *req)
{
	*m = message_into(req, sizeof *req);
	return receivemessage(m);
}

/* Serve the request m brought (req, len bytes or an error), answer it
 * and wait for the next into m and req: the next receive's result. */
static int serve(struct message *m, struct pm_request *req, int len)
{
	struct pm_reply rep = { 0, 0, -1, "" };
	int keep_passed = 0, reply_link = -1;
	/* another node's process manager may act for the original requester */
	int from_pm = (m->from & 0xffff) == PM_PID && (m->from >> 16) != my_node;
	uint32_t creator = from_pm && req->on_behalf ? req->on_behalf : m->from;
	if (len < (int)PM_REQUEST_HEADER) {
		rep.status = E_BADREQ;
	} else if (target_node(req) != my_node && req->op >= PM_CREATE && req->op <= PM_DISKLINK) {
		rep.status = from_pm ? E_INVAL
				     : forward(target_node(req), creator, req, len, m->passed, &rep, &reply_link);
		if (rep.status == 0 && req->op == PM_CREATE) {
			meter_like_creator(target_node(req), creator, rep.task);
			if (m->passed >= 0) {
				remember_remote(rep.task, creator, m->passed);
				keep_passed = 1;
			}
		}
	} else if (req->op == PM_CREATE) {
		rep.status = create(creator, req, (uint32_t)len, m->passed, &rep);
		keep_passed = rep.status == 0;
	} else if (req->op >= PM_START && req->op <= PM_SETMETER) {
		rep.status = control(creator, req, m->passed, &rep);
	} else if (req->op == PM_NAME) {
		rep.status = name_of(req->task, &rep);
	} else if (req->op == PM_DISKLINK) {
		/* anyone may have the disk: the file system servers are plain processes */
		uint32_t w[1] = { KR_DISKLINK };
		struct message k = message_into(NULL, 0);
		int r = call(LINK_KCTL_SLOT, w, sizeof w, -1, &k);
		rep.status = r < 0 ? r : 0;
		reply_link = k.passed;
	} else {
		rep.status = E_BADREQ;
	}
	if (m->passed >= 0 && !keep_passed)
		destroylink(m->passed);
	if (reply_link >= 0 && rep.status != 0) { /* not passed */
		destroylink(reply_link);
		reply_link = -1;
	}
	int reply = m->reply;
	/* the answer and the wait for the next request in one kernel call,
	 * but when a link we pass must go first (its slot freed before the
	 * receive, as ever); a caller that died meanwhile is no concern */
	if (reply >= 0 && reply_link < 0) {
		*m = message_into(req, sizeof *req);
		return serve_next(reply, &rep, sizeof rep, -1, m);
	}
	if (reply >= 0)
		sendmessage(reply, &rep, sizeof rep, reply_link);
	if (reply_link >= 0)
		destroylink(reply_link);
	return next_message(m, req);
}

int main(void)
{
	static struct pm_request req;
	self_link = createlink(0, NULL, 0, 0);
	int notify = createlink(NOTIFY_CODE, NULL, 0, 0);
	uint32_t w[1] = { KR_NOTIFY };
	if (self_link < 0 || notify < 0 || kernel_request(w, 1, NULL, 0, notify, NULL, 0) < 0) {
		printf("pm: cannot set up (%s)\n", kerror_name(self_link < 0 ? self_link : notify));
		return 1;
	}
	destroylink(notify);
	node_info(&my_node, NULL);
	struct message m;
	int len = next_message(&m, &req);
	for (;;) {
		if (m.code == RETRY_CODE && (m.from & 0xffff) == 0) {
			retry_pending();
			len = next_message(&m, &req);
			continue;
		}
		if (m.code == NOTIFY_CODE && (m.from & 0xffff) == 0) {
			const struct kr_node_down *down = (const void *)&req;
			if (len == (int)sizeof(struct kr_exit_notice))
				process_ended((const struct kr_exit_notice *)&req);
			else if (len == (int)sizeof *down && down->kind == KR_NODE_DOWN)
				node_down(down->node);
			len = next_message(&m, &req);
			continue;
		}
		if (len == E_NOSPACE) {
			make_room();
			len = next_message(&m, &req);
			continue;
		}
		if (len == E_TRUNC)
			len = 0; /* too long for any request: answered as malformed */
		if (len < 0) {
			if (m.reply >= 0)
				destroylink(m.reply);
			len = next_message(&m, &req);
			continue;
		}
		len = serve(&m, &req, len);
	}
}

/*
 * servers/ns/ns.c - the name service: a fixed table from names to links.
 * A process registers a link under a name (the link is passed with the
 * request and kept here); a lookup is answered with a copy of that link, so
 * any number of processes can find a server by name.
 */
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/ns.h"

#define MAX_NAMES 48

struct entry {
	char name[NS_NAME_MAX];
	int link; /* -1: free */
};

static struct entry table[MAX_NAMES];

static struct entry *find(const char *name)
{
	for (int i = 0; i < MAX_NAMES; i++)
		if (table[i].link >= 0 && !strncmp(table[i].name, name, NS_NAME_MAX))
			return &table[i];
	return NULL;
}

static int do_register(const struct ns_request *req, int passed)
{
	if (passed < 0)
		return E_BADREQ;
	struct entry *e = find(req->name);
	if (e) {
		destroylink(e->link);
	} else {
		for (int i = 0; i < MAX_NAMES && !e; i++)
			if (table[i].link < 0)
				e = &table[i];
		if (!e)
			return E_NOSPACE;
	}
	memcpy(e->name, req->name, NS_NAME_MAX);
	e->link = passed;
	return 0;
}

int main(void)
{
	for (int i = 0; i < MAX_NAMES; i++)
		table[i].link = -1;
	struct ns_request req;
	struct ns_reply rep;
	struct message m = message_into(&req, sizeof req);
	int len = receivemessage(&m);
	for (;;) {
		int pass = -1, passed_kept = 0;
		memset(&rep, 0, sizeof rep);
		if (len != (int)sizeof req || req.name[NS_NAME_MAX - 1] != '\0' || req.name[0] == '\0') {
			rep.status = E_BADREQ;
		} else if (req.op == NS_REGISTER) {
			rep.status = do_register(&req, m.passed);
			passed_kept = rep.status == 0;
		} else if (req.op == NS_LOOKUP) {
			struct entry *e = find(req.name);
			rep.status = e ? 0 : E_NONAME;
			pass = e ? e->link : -1;
		} else if (req.op == NS_UNREGISTER) {
			struct entry *e = find(req.name);
			rep.status = e ? 0 : E_NONAME;
			if (e) {
				destroylink(e->link);
				e->link = -1;
			}
		} else {
			rep.status = E_BADREQ;
		}
		if (m.passed >= 0 && !passed_kept)
			destroylink(m.passed);
		/* the answer and the wait for the next request, one kernel call;
		 * a caller that died meanwhile is no concern */
		int reply = m.reply;
		m = message_into(&req, sizeof req);
		len = reply >= 0 ? serve_next(reply, &rep, sizeof rep, pass, &m) : receivemessage(&m);
	}
}

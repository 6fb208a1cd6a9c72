/*
 * servers/lib/ns_client.c - calls to the name service.
 */
#include <string.h>

#include "demos.h"
#include "ns.h"

static int ns_request(uint32_t op, const char *name, int passlink, int *passed)
{
	struct ns_request req = { .op = op };
	struct ns_reply rep;
	size_t n = strlen(name);
	if (n == 0 || n >= NS_NAME_MAX)
		return E_INVAL;
	memcpy(req.name, name, n);
	struct message m = message_into(&rep, sizeof rep);
	int r = call(LINK_NS, &req, sizeof req, passlink, &m);
	if (r < 0)
		return r;
	if (passed)
		*passed = m.passed;
	return rep.status;
}

int ns_register(const char *name, int link) { return ns_request(NS_REGISTER, name, link, 0); }
int ns_unregister(const char *name) { return ns_request(NS_UNREGISTER, name, -1, 0); }

int ns_lookup(const char *name)
{
	int passed = -1;
	int r = ns_request(NS_LOOKUP, name, -1, &passed);
	return r < 0 ? r : passed;
}

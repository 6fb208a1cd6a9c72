/*
 * servers/lib/ns.h - the name service's protocol and client calls: a name
 * (up to NS_NAME_MAX bytes) maps to a link.  Register passes the link; a
 * lookup's reply carries a copy of it.
 */
#ifndef DPM_NS_H
#define DPM_NS_H
#include <stdint.h>

#define NS_NAME_MAX 32

enum ns_op { NS_REGISTER = 1, NS_LOOKUP = 2, NS_UNREGISTER = 3 };

struct ns_request {
	uint32_t op;
	char name[NS_NAME_MAX];
};

struct ns_reply {
	int32_t status;
};

int ns_register(const char *name, int link);
/* The index of a new link to what `name` names, or an E_* code
 * (E_NONAME when nothing is registered under the name). */
int ns_lookup(const char *name);
int ns_unregister(const char *name);
#endif

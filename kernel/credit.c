/*
 * kernel/credit.c - the counts of credit.h.  Pure arithmetic on 32-bit
 * counters; remote.c holds one `struct credits` and does the waiting and
 * the frames.
 */
#include "credit.h"

static int index_of(const struct credits *c, uint32_t node)
{
	for (uint32_t i = 0; i < c->npeers; i++)
		if (c->peers[i].node == node)
			return (int)i;
	return -1;
}

static struct credit_peer *peer(struct credits *c, uint32_t node)
{
	int i = index_of(c, node);
	return i < 0 ? 0 : &c->peers[i];
}

int credit_init(struct credits *c, uint32_t self, const uint32_t *peers, uint32_t npeers,
		uint32_t grant)
{
	*c = (struct credits){ .grant = grant };
	if (grant == 0)
		return -1;
	for (uint32_t i = 0; i < npeers; i++) {
		if (peers[i] == self)
			continue;
		if (c->npeers == CREDIT_MAX_PEERS) {
			*c = (struct credits){ 0 };
			return -1;
		}
		c->peers[c->npeers++] = (struct credit_peer){ .node = peers[i] };
	}
	return 0;
}

int credit_may_send(const struct credits *c, uint32_t node)
{
	int i = index_of(c, node);
	if (i < 0)
		return -1;
	return (uint32_t)(c->peers[i].sent - c->peers[i].heard) < c->grant;
}

int credit_sent(struct credits *c, uint32_t node)
{
	if (credit_may_send(c, node) != 1)
		return -1;
	peer(c, node)->sent++;
	return 0;
}

int credit_heard(struct credits *c, uint32_t node, uint32_t consumed)
{
	struct credit_peer *p = peer(c, node);
	if (!p)
		return -1;
	uint32_t back = consumed - p->heard;
	if (back > (uint32_t)(p->sent - p->heard))
		return -1;
	p->heard = consumed;
	return (int)back;
}

int credit_arrived(struct credits *c, uint32_t node)
{
	struct credit_peer *p = peer(c, node);
	if (!p || (uint32_t)(p->arrived - p->consumed) >= c->grant)
		return -1;
	p->arrived++;
	return 0;
}

int credit_consumed(struct credits *c, uint32_t node)
{
	struct credit_peer *p = peer(c, node);
	if (!p || p->arrived == p->consumed)
		return -1;
	p->consumed++;
	return 0;
}

uint32_t credit_tell(struct credits *c, uint32_t node)
{
	struct credit_peer *p = peer(c, node);
	if (!p)
		return 0;
	p->told = p->consumed;
	return p->told;
}

int credit_due(const struct credits *c, uint32_t node, uint32_t threshold)
{
	int i = index_of(c, node);
	if (i < 0)
		return 0;
	uint32_t untold = c->peers[i].consumed - c->peers[i].told;
	return threshold ? untold >= threshold : untold > 0;
}

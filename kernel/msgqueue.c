/*
 * kernel/msgqueue.c - the node's pool of message headers and the per-process
 * FIFO queues built from them.  A fixed pool bounds the kernel's memory:
 * when it is empty a send fails with E_NOMEM instead of the kernel running
 * out of pages.  A header taken from the pool is not zeroed whole: its
 * links are valid only under their flags (kernel.h, struct kmsg).  Queues are singly linked, appended at the tail, so messages
 * over one link (indeed from one sender) are received in the order sent.
 */
#include "kernel.h"

void msgpool_init(struct msg_pool *pool)
{
	pool->free = NULL;
	pool->reserved = NULL;
	pool->in_use = 0;
	pool->reserve = 0;
	pool->credit_back = NULL;
	for (int i = NMSG - 1; i >= 0; i--) {
		pool->slot[i].next = pool->free;
		pool->free = &pool->slot[i];
	}
}

/* A header's scalar fields start cleared; the links it may carry (64
 * bytes) are left as they were: each is written, and read, only under its
 * flag (has_link, has_reply). */
static struct kmsg *take(struct kmsg **list, struct msg_pool *pool)
{
	struct kmsg *m = *list;
	if (!m)
		return NULL;
	*list = m->next;
	pool->in_use++;
	m->next = NULL;
	m->from = m->to = m->code = m->len = m->reply_id = 0;
	m->id = 0;
	m->status = 0;
	m->is_meter = m->has_link = m->has_reply = 0;
	m->data = NULL;
	m->credit_node = 0;
	m->payer = NULL;
	m->payer_task = 0;
	return m;
}

struct kmsg *msgpool_get(struct msg_pool *pool)
{
	return take(&pool->free, pool);
}

/* The reserve is a list of its own, so that taking an ordinary header
 * costs nothing more for it. */
int msgpool_reserve(struct msg_pool *pool, uint32_t n)
{
	if (NMSG - pool->in_use - pool->reserve < n)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct kmsg *m = pool->free;
		pool->free = m->next;
		m->next = pool->reserved;
		pool->reserved = m;
	}
	pool->reserve += n;
	return 0;
}

struct kmsg *msgpool_get_reserved(struct msg_pool *pool, uint32_t node)
{
	struct kmsg *m = take(&pool->reserved, pool);
	if (m) {
		pool->reserve--;
		m->credit_node = node;
	}
	return m;
}

void msgpool_put(struct msg_pool *pool, struct kmsg *m)
{
	pool->in_use--;
	if (!m->credit_node) {
		m->next = pool->free;
		pool->free = m;
		return;
	}
	uint32_t node = m->credit_node;
	m->credit_node = 0;
	m->next = pool->reserved;
	pool->reserved = m;
	pool->reserve++;
	if (pool->credit_back)
		pool->credit_back(node);
}

void msgq_push(struct msg_queue *q, struct kmsg *m)
{
	m->next = NULL;
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	q->len++;
}

struct kmsg *msgq_take(struct msg_queue *q, uint32_t reply_id)
{
	struct kmsg *prev = NULL;
	for (struct kmsg *m = q->head; m; prev = m, m = m->next) {
		if (m->reply_id != reply_id)
			continue;
		if (prev)
			prev->next = m->next;
		else
			q->head = m->next;
		if (q->tail == m)
			q->tail = prev;
		q->len--;
		m->next = NULL;
		return m;
	}
	return NULL;
}

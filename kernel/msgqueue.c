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
	struct kmsg *m = msgpool_take(&pool->reserved, pool);
	if (m) {
		pool->reserve--;
		m->credit_node = node;
	}
	return m;
}

void msgpool_put_credited(struct msg_pool *pool, struct kmsg *m)
{
	pool->in_use--;
	uint32_t node = m->credit_node;
	m->credit_node = 0;
	m->next = pool->reserved;
	pool->reserved = m;
	pool->reserve++;
	if (pool->credit_back)
		pool->credit_back(node);
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

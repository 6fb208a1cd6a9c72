/*
 * kernel/msgqueue.c - the node's pool of message headers and the per-process
 * FIFO queues built from them.  A fixed pool bounds the kernel's memory:
 * when it is empty a send fails with E_NOMEM instead of the kernel running
 * out of pages.  Queues are singly linked, appended at the tail, so messages
 * over one link (indeed from one sender) are received in the order sent.
 */
#include "kernel.h"

void msgpool_init(struct msg_pool *pool)
{
	pool->free = NULL;
	pool->in_use = 0;
	for (int i = NMSG - 1; i >= 0; i--) {
		pool->slot[i].next = pool->free;
		pool->free = &pool->slot[i];
	}
}

struct kmsg *msgpool_get(struct msg_pool *pool)
{
	struct kmsg *m = pool->free;
	if (!m)
		return NULL;
	pool->free = m->next;
	pool->in_use++;
	memset(m, 0, sizeof *m);
	return m;
}

void msgpool_put(struct msg_pool *pool, struct kmsg *m)
{
	m->next = pool->free;
	pool->free = m;
	pool->in_use--;
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

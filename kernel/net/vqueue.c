/*
 * kernel/net/vqueue.c - the delivery queue of vqueue.h: a binary min-heap
 * in caller-given storage (no allocation in the kernel), keys compared as
 * (delivery, src, seq).
 */
#include "vqueue.h"

static int before(const struct vqueue_entry *a, const struct vqueue_entry *b)
{
	if (a->delivery != b->delivery)
		return a->delivery < b->delivery;
	if (a->src != b->src)
		return a->src < b->src;
	return a->seq < b->seq;
}

static void swap(struct vqueue_entry *a, struct vqueue_entry *b)
{
	struct vqueue_entry t = *a;
	*a = *b;
	*b = t;
}

void vqueue_init(struct vqueue *q, struct vqueue_entry *storage, uint32_t cap)
{
	q->e = storage;
	q->cap = cap;
	q->n = 0;
}

int vqueue_push(struct vqueue *q, const struct vqueue_entry *x)
{
	if (q->n == q->cap)
		return -1;
	uint32_t i = q->n++;
	q->e[i] = *x;
	while (i > 0 && before(&q->e[i], &q->e[(i - 1) / 2])) {
		swap(&q->e[i], &q->e[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

uint64_t vqueue_next(const struct vqueue *q)
{
	return q->n ? q->e[0].delivery : UINT64_MAX;
}

int vqueue_pop_due(struct vqueue *q, uint64_t now, struct vqueue_entry *out)
{
	if (q->n == 0 || q->e[0].delivery > now)
		return 0;
	*out = q->e[0];
	q->e[0] = q->e[--q->n];
	for (uint32_t i = 0;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && before(&q->e[l], &q->e[m]))
			m = l;
		if (r < q->n && before(&q->e[r], &q->e[m]))
			m = r;
		if (m == i)
			break;
		swap(&q->e[i], &q->e[m]);
		i = m;
	}
	return 1;
}

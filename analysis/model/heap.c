/*
 * analysis/model/heap.c - the two min-heaps of heap.h, sift up and down.
 */
#include "heap.h"

static void heap_swap(struct heap *h, size_t a, size_t b)
{
	double k = h->key[a];
	uint32_t i = h->id[a];
	h->key[a] = h->key[b];
	h->id[a] = h->id[b];
	h->key[b] = k;
	h->id[b] = i;
}

void heap_push(struct heap *h, double key, uint32_t id)
{
	size_t i = h->n++;
	h->key[i] = key;
	h->id[i] = id;
	while (i > 0 && h->key[(i - 1) / 2] > h->key[i]) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

void heap_pop(struct heap *h)
{
	h->n--;
	heap_swap(h, 0, h->n);
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->key[l] < h->key[m])
			m = l;
		if (r < h->n && h->key[r] < h->key[m])
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

static void iheap_place(struct iheap *h, size_t i, uint32_t id)
{
	h->slot[i] = id;
	h->pos[id] = (uint32_t)i;
}

static void iheap_sift(struct iheap *h, size_t i)
{
	uint32_t id = h->slot[i];
	double k = h->key[id];
	while (i > 0 && h->key[h->slot[(i - 1) / 2]] > k) {
		iheap_place(h, i, h->slot[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		double mk = k;
		if (l < h->n && h->key[h->slot[l]] < mk)
			m = l, mk = h->key[h->slot[l]];
		if (r < h->n && h->key[h->slot[r]] < mk)
			m = r;
		if (m == i)
			break;
		iheap_place(h, i, h->slot[m]);
		i = m;
	}
	iheap_place(h, i, id);
}

void iheap_set(struct iheap *h, uint32_t id, double key)
{
	h->key[id] = key;
	if (h->pos[id] == IHEAP_ABSENT)
		iheap_place(h, h->n++, id);
	iheap_sift(h, h->pos[id]);
}

void iheap_remove(struct iheap *h, uint32_t id)
{
	uint32_t i = h->pos[id];
	if (i == IHEAP_ABSENT)
		return;
	h->pos[id] = IHEAP_ABSENT;
	if (--h->n == i)
		return;
	iheap_place(h, i, h->slot[h->n]);
	iheap_sift(h, i);
}

/*
 * analysis/model/heap.h - binary min-heaps of (time, id) for the CPU-sharing
 * simulation: a plain heap over caller-provided arrays (per machine, the
 * processes running there; the messages in flight), and an indexed heap
 * whose members' keys can change (machines by their next completion time).
 *
 * Callers size the arrays once, so the simulation allocates nothing per
 * event.
 */
#ifndef DPM_ANALYSIS_MODEL_HEAP_H
#define DPM_ANALYSIS_MODEL_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap {
	double *key;
	uint32_t *id;
	size_t n;
};

void heap_push(struct heap *h, double key, uint32_t id);
void heap_pop(struct heap *h); /* remove the minimum, key[0]/id[0] */

#define IHEAP_ABSENT 0xffffffffu

struct iheap {
	double *key;     /* key of each member id */
	uint32_t *slot;  /* heap order: ids */
	uint32_t *pos;   /* where each id sits in slot, or IHEAP_ABSENT */
	size_t n;
};

/* Insert id or change its key. */
void iheap_set(struct iheap *h, uint32_t id, double key);
void iheap_remove(struct iheap *h, uint32_t id);

#endif

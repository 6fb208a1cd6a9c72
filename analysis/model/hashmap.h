/*
 * analysis/model/hashmap.h - an open-addressing map from 64-bit keys to 32-bit
 * values.
 *
 * Every analysis matches things by identity (a task id to its process, a
 * msg_id to its SEND, a process and an untraced peer to a pending request),
 * so one small map serves them all.  It is one flat array grown by
 * doubling: no allocation per entry, which keeps a 10-million-event trace
 * fast and its memory proportional to the number of keys.
 */
#ifndef DPM_ANALYSIS_MODEL_HASHMAP_H
#define DPM_ANALYSIS_MODEL_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

#define HASHMAP_NONE 0xffffffffu

struct hashmap {
	uint64_t *keys;
	uint32_t *values;   /* HASHMAP_NONE marks an empty slot */
	size_t cap;         /* a power of two */
	size_t count;
};

/* Make an empty map sized for about `expected` keys.  0 ok, -1 no memory. */
int hashmap_init(struct hashmap *m, size_t expected);
void hashmap_free(struct hashmap *m);

/* The value stored for key, or HASHMAP_NONE. */
uint32_t hashmap_get(const struct hashmap *m, uint64_t key);

/* Store value (not HASHMAP_NONE) for key, replacing any old value.
 * 0 ok, -1 no memory. */
int hashmap_put(struct hashmap *m, uint64_t key, uint32_t value);

/* Forget key; its slot becomes a tombstone-free hole (entries after it are
 * moved back), so long runs of put/remove stay fast. */
void hashmap_remove(struct hashmap *m, uint64_t key);

#endif

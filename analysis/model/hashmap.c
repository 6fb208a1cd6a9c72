/*
 * analysis/model/hashmap.c - open addressing with linear probing and
 * backward-shift deletion (see hashmap.h for why the map is shaped so).
 */
#include "hashmap.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	/* A 64-bit mix (splitmix finaliser) so sequential ids spread out. */
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebull;
	key ^= key >> 31;
	return (size_t)key & (cap - 1);
}

static int alloc_slots(struct hashmap *m, size_t cap)
{
	m->keys = malloc(cap * sizeof *m->keys);
	m->values = malloc(cap * sizeof *m->values);
	if (!m->keys || !m->values) {
		free(m->keys);
		free(m->values);
		m->keys = NULL;
		m->values = NULL;
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		m->values[i] = HASHMAP_NONE;
	m->cap = cap;
	m->count = 0;
	return 0;
}

int hashmap_init(struct hashmap *m, size_t expected)
{
	size_t cap = 16;
	while (cap < expected * 2)
		cap *= 2;
	return alloc_slots(m, cap);
}

void hashmap_free(struct hashmap *m)
{
	free(m->keys);
	free(m->values);
	m->keys = NULL;
	m->values = NULL;
	m->cap = m->count = 0;
}

uint32_t hashmap_get(const struct hashmap *m, uint64_t key)
{
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->values[i] == HASHMAP_NONE)
			return HASHMAP_NONE;
		if (m->keys[i] == key)
			return m->values[i];
	}
}

static int grow(struct hashmap *m)
{
	struct hashmap old = *m;
	if (alloc_slots(m, old.cap * 2) < 0) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.values[i] != HASHMAP_NONE)
			hashmap_put(m, old.keys[i], old.values[i]);
	hashmap_free(&old);
	return 0;
}

int hashmap_put(struct hashmap *m, uint64_t key, uint32_t value)
{
	if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	size_t i = slot_of(key, m->cap);
	while (m->values[i] != HASHMAP_NONE && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (m->values[i] == HASHMAP_NONE)
		m->count++;
	m->keys[i] = key;
	m->values[i] = value;
	return 0;
}

void hashmap_remove(struct hashmap *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = slot_of(key, m->cap);
	while (m->values[i] != HASHMAP_NONE && m->keys[i] != key)
		i = (i + 1) & mask;
	if (m->values[i] == HASHMAP_NONE)
		return;
	m->count--;
	/* Shift later members of the probe run back into the hole. */
	for (size_t j = (i + 1) & mask; m->values[j] != HASHMAP_NONE; j = (j + 1) & mask) {
		size_t home = slot_of(m->keys[j], m->cap);
		int between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (between)
			continue;
		m->keys[i] = m->keys[j];
		m->values[i] = m->values[j];
		i = j;
	}
	m->values[i] = HASHMAP_NONE;
}

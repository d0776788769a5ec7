/* Pointer-keyed hash map with linear probing. */
#include "hilo/base.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

void hilo_ptrmap_init(hilo_ptrmap *m)
{
	memset(m, 0, sizeof *m);
}

void hilo_ptrmap_init_in(hilo_ptrmap *m, hilo_arena *a)
{
	memset(m, 0, sizeof *m);
	m->arena = a;
}

void hilo_ptrmap_free(hilo_ptrmap *m)
{
	hilo_arena *a = m->arena;
	hilo_heap_free(a, m->keys);
	hilo_heap_free(a, m->vals);
	memset(m, 0, sizeof *m);
	m->arena = a;
}

void hilo_ptrmap_clear(hilo_ptrmap *m)
{
	/* a big, sparsely used table is dropped rather than wiped, so clearing
	 * per computation stays proportional to what was stored */
	if (m->cap > 256 && m->n * 8 < m->cap) {
		hilo_ptrmap_free(m);
		return;
	}
	if (m->keys)
		memset(m->keys, 0, m->cap * sizeof *m->keys);
	m->n = 0;
}

static bool grow(hilo_ptrmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	const void **nk = (hilo_heap_alloc)(m->arena, ncap * sizeof *nk);
	void **nv = nk ? (hilo_heap_alloc)(m->arena, ncap * sizeof *nv) : NULL;
	if (!nk || !nv) {
		hilo_heap_free(m->arena, nk);
		return false;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = hash(m->keys[i]) & (ncap - 1);
		while (nk[j])
			j = (j + 1) & (ncap - 1);
		nk[j] = m->keys[i];
		nv[j] = m->vals[i];
	}
	hilo_heap_free(m->arena, m->keys);
	hilo_heap_free(m->arena, m->vals);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	return true;
}

bool (hilo_ptrmap_put)(hilo_ptrmap *m, const void *key, void *val)
{
	if ((m->n + 1) * 2 > m->cap && !grow(m))
		return false;
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return true;
}

void *hilo_ptrmap_get(const hilo_ptrmap *m, const void *key)
{
	if (!m->cap)
		return NULL;
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i]) {
		if (m->keys[i] == key)
			return m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

/* bytemap.c - the byte-keyed map (support/bytemap.h). */
#include "support/bytemap.h"

#include <string.h>

void hilo_bytemap_init(hilo_bytemap *m, hilo_arena *a)
{
	memset(m, 0, sizeof *m);
	m->gen = 1;
	m->arena = a;
}

void hilo_bytemap_free(hilo_bytemap *m)
{
	hilo_heap_free(m->arena, m->e);
	hilo_bytemap_init(m, m->arena);
}

static bool bytemap_grow(hilo_bytemap *m)
{
	uint32_t ncap = m->cap ? m->cap * 2 : 64;
	if (ncap == 0)
		return false;
	hilo_bytemap_entry *ne = hilo_heap_alloc(m->arena, (size_t)ncap * sizeof *ne);
	if (!ne)
		return false;
	for (uint32_t k = 0; k < m->cap; k++) {
		const hilo_bytemap_entry *e = &m->e[k];
		if (e->gen != m->gen)
			continue;
		uint32_t j = e->hash & (ncap - 1);
		while (ne[j].gen == m->gen)
			j = (j + 1) & (ncap - 1);
		ne[j] = *e;
	}
	hilo_heap_free(m->arena, m->e);
	m->e = ne;
	m->cap = ncap;
	return true;
}

bool hilo_bytemap_put(hilo_bytemap *m, const char *s, size_t len, uint32_t hash, void *val)
{
	if (len > UINT32_MAX)
		return false;
	if (((size_t)m->n + 1) * 2 > m->cap && !bytemap_grow(m))
		return false;
	uint32_t i = hash & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		hilo_bytemap_entry *e = &m->e[i];
		if (e->gen != m->gen)
			break;
		if (e->hash == hash && e->len == len && hilo_mem_eq(e->s, s, len)) {
			e->val = val;
			return true;
		}
	}
	m->e[i] = (hilo_bytemap_entry){s, val, (uint32_t)len, hash, m->gen};
	m->n++;
	return true;
}

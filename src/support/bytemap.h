/* bytemap.h - an open-addressing map keyed by byte strings with their
 * hilo_str_hash, on an arena's tracked heap (internal to libhilo; the text
 * and the proto readers use it). */
#ifndef HILO_SUPPORT_BYTEMAP_H
#define HILO_SUPPORT_BYTEMAP_H

#include "hilo/base.h"
#include "support/strhash.h"

/* A byte-keyed map (the text reader's shapes by their text, opcode and
 * attribute spellings; the proto reader's shapes by their bytes):
 * entries keep a pointer to the key's bytes, which must outlive the map
 * (interned strings, or the source text being read). An entry is in use
 * when its gen is the map's. */
typedef struct hilo_bytemap_entry {
	const char *s;
	void *val;
	uint32_t len, hash, gen;
} hilo_bytemap_entry;

typedef struct hilo_bytemap {
	hilo_bytemap_entry *e;
	uint32_t cap, n, gen;
	hilo_arena *arena;  /* tracked heap of the module being read */
} hilo_bytemap;

void hilo_bytemap_init(hilo_bytemap *m, hilo_arena *a);
void hilo_bytemap_free(hilo_bytemap *m);
/* hash is hilo_str_hash(s, len). */
static inline void *hilo_bytemap_get(const hilo_bytemap *m, const char *s, size_t len, uint32_t hash)
{
	if (!m->cap)
		return NULL;
	for (uint32_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const hilo_bytemap_entry *e = &m->e[i];
		if (e->gen != m->gen)
			return NULL;
		if (e->hash == hash && e->len == len && hilo_mem_eq(e->s, s, len))
			return e->val;
	}
}
/* Adds or replaces; false when out of memory (without a guard). */
bool hilo_bytemap_put(hilo_bytemap *m, const char *s, size_t len, uint32_t hash, void *val);

#endif

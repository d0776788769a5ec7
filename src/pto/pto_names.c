/* pto_names.c - the PTO program's interned names (pto_ir.h).
 *
 * Every identifier, indentation string and long literal of a program is
 * interned here once, so the IR compares names by pointer. The table is
 * PTO's own rather than the library's general string table because a
 * 100k-statement program holds 100k-150k names and the slot size is most
 * of their cost: a slot here is 4 bytes (8 bits of the string's hash and
 * 1 + its index in `strs`; 8 bytes past 2^24 names), filled to at most
 * 3/4, where the general table's 16-byte slots fill to 1/2. The strings
 * themselves (NUL-terminated, in the program's arena) and the index array
 * are what remains. Arrays that grow are tracked-heap blocks, freed when replaced.
 */
#include "pto/pto_ir.h"

#include <string.h>

struct pto_names {
	hilo_arena *a;
	/* A slot is 0 (empty) or 1 + the name's index with some of its hash:
	 * 32 bits, the top 8 of the hash over 24 bits of index, while fewer
	 * than 2^24 - 1 names are held; past that (a program of hundreds of
	 * MB) the table is rebuilt with 64-bit slots, the whole hash over 32
	 * bits of index (`wide`). */
	void *slots;
	bool wide;
	size_t cap, n;
	const char **strs;  /* index -> string */
	size_t cap_strs;
	uint32_t narrow_max; /* names a 32-bit slot table holds: NARROW_MAX (tests lower it) */
};

#define NARROW_MAX ((1u << 24) - 1) /* indices + 1 a 32-bit slot holds */

/* The slot for index + 1 = k of a name of hash h. */
static inline uint64_t slot_make(bool wide, uint32_t h, uint32_t k)
{
	return wide ? ((uint64_t)h << 32) | k : ((h >> 24) << 24) | k;
}

static inline uint64_t slot_at(const pto_names *t, size_t i)
{
	return t->wide ? ((const uint64_t *)t->slots)[i] : ((const uint32_t *)t->slots)[i];
}

/* 1 + the index a slot holds (0: empty). */
static inline uint32_t slot_index(bool wide, uint64_t s)
{
	return wide ? (uint32_t)s : (uint32_t)s & NARROW_MAX;
}

/* The slot's hash bits agree with h. */
static inline bool slot_hash_is(bool wide, uint64_t s, uint32_t h)
{
	return wide ? (uint32_t)(s >> 32) == h : (uint32_t)(s >> 24) == h >> 24;
}

static inline void slot_set(pto_names *t, size_t i, uint64_t s)
{
	if (t->wide)
		((uint64_t *)t->slots)[i] = s;
	else
		((uint32_t *)t->slots)[i] = (uint32_t)s;
}

/* Rebuilds the slots at ncap (a power of two), wide when the names to
 * come may not fit 24 bits. The hashes come from the strings again (a
 * 32-bit slot keeps only 8 bits of them). */
static void names_rehash(pto_names *t, size_t ncap, size_t want)
{
	bool wide = t->wide || want >= t->narrow_max;
	void *ns = hilo_heap_alloc(t->a, ncap * (wide ? sizeof(uint64_t) : sizeof(uint32_t))); /* zeroed */
	if (!ns)
		pto_oom(t->a);
	void *old = t->slots;
	t->slots = ns;
	t->wide = wide;
	for (size_t k = 0; k < t->n; k++) {
		const char *q = t->strs[k];
		uint32_t h = hilo_str_hash(q, strlen(q));
		size_t j = h & (ncap - 1);
		while (slot_at(t, j))
			j = (j + 1) & (ncap - 1);
		slot_set(t, j, slot_make(wide, h, (uint32_t)k + 1));
	}
	hilo_heap_free(t->a, old);
	t->cap = ncap;
}

pto_names *pto_names_create(hilo_arena *a)
{
	pto_names *t = hilo_arena_alloc(a, sizeof *t);
	if (!t)
		pto_oom(a);
	t->a = a;
	t->narrow_max = NARROW_MAX;
	names_rehash(t, 1024, 0);
	return t;
}

void pto_names_narrow_limit(pto_names *t, uint32_t limit)
{
	t->narrow_max = limit < NARROW_MAX ? limit : NARROW_MAX;
	if (!t->wide && t->n >= t->narrow_max)
		names_rehash(t, t->cap, t->n);
}

bool pto_names_wide(const pto_names *t)
{
	return t->wide;
}

void pto_names_reserve(pto_names *t, size_t n)
{
	size_t cap = t->cap;
	while ((t->n + n) * 4 > cap * 3 && cap < ((size_t)1 << 40))
		cap *= 2;
	if (cap > t->cap || (!t->wide && t->n + n >= t->narrow_max))
		names_rehash(t, cap, t->n + n);
	if (t->n + n > t->cap_strs && t->n + n < UINT32_MAX) {
		const char **ns = hilo_heap_realloc(t->a, t->strs, (t->n + n) * sizeof *ns);
		if (!ns)
			pto_oom(t->a);
		t->strs = ns;
		t->cap_strs = t->n + n;
	}
}

size_t pto_names_count(const pto_names *t)
{
	return t->n;
}

const char *pto_names_intern(pto_names *t, const char *s, size_t len)
{
	uint32_t h = hilo_str_hash(s, len);
	size_t i = h & (t->cap - 1);
	bool wide = t->wide;
	for (uint64_t sl; (sl = slot_at(t, i)); i = (i + 1) & (t->cap - 1)) {
		if (!slot_hash_is(wide, sl, h))
			continue;
		const char *q = t->strs[slot_index(wide, sl) - 1];
		/* strnlen first: q is NUL-terminated and may be shorter than len */
		if (strnlen(q, len + 1) == len && memcmp(q, s, len) == 0)
			return q;
	}
	if (t->n >= UINT32_MAX - 1)
		pto_oom(t->a); /* indices are 32-bit */
	if ((t->n + 1) * 4 > t->cap * 3 || (!wide && t->n + 1 >= t->narrow_max)) {
		names_rehash(t, (t->n + 1) * 4 > t->cap * 3 ? t->cap * 2 : t->cap, t->n + 1);
		return pto_names_intern(t, s, len);
	}
	if (t->n == t->cap_strs) {
		size_t nc = t->cap_strs ? t->cap_strs * 2 : 1024;
		const char **ns = hilo_heap_realloc(t->a, t->strs, nc * sizeof *ns);
		if (!ns)
			pto_oom(t->a);
		t->strs = ns;
		t->cap_strs = nc;
	}
	char *p = hilo_arena_strndup(t->a, s, len);
	if (!p)
		pto_oom(t->a);
	t->strs[t->n++] = p;
	slot_set(t, i, slot_make(wide, h, (uint32_t)t->n));
	return p;
}

/* pto_names.c - the PTO program's interned names (pto_ir.h).
 *
 * Every identifier, indentation string and long literal of a program is
 * interned here once, so the IR compares names by pointer. The table is
 * PTO's own rather than the library's general string table because a
 * 100k-statement program holds 100k-150k names and the slot size is most
 * of their cost: a slot here is 8 bytes (the string's 32-bit hash and
 * 1 + its index in `strs`), filled to at most 3/4, where the general
 * table's 16-byte slots fill to 1/2. The strings themselves (NUL-
 * terminated, in the program's arena) and the index array are what
 * remains. Arrays that grow are tracked-heap blocks, freed when replaced.
 */
#include "pto/pto_ir.h"

#include <string.h>

struct pto_names {
	hilo_arena *a;
	uint64_t *slots;    /* (hash << 32) | (1 + index); 0 = empty */
	size_t cap, n;
	const char **strs;  /* index -> string */
	size_t cap_strs;
};

static void names_rehash(pto_names *t, size_t ncap)
{
	uint64_t *ns = hilo_heap_alloc(t->a, ncap * sizeof *ns); /* zeroed */
	if (!ns)
		pto_oom(t->a);
	for (size_t i = 0; i < t->cap; i++) {
		uint64_t s = t->slots[i];
		if (!s)
			continue;
		size_t j = (size_t)(s >> 32) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = s;
	}
	hilo_heap_free(t->a, t->slots);
	t->slots = ns;
	t->cap = ncap;
}

pto_names *pto_names_create(hilo_arena *a)
{
	pto_names *t = hilo_arena_alloc(a, sizeof *t);
	if (!t)
		pto_oom(a);
	t->a = a;
	names_rehash(t, 1024);
	return t;
}

void pto_names_reserve(pto_names *t, size_t n)
{
	size_t cap = t->cap;
	while ((t->n + n) * 4 > cap * 3 && cap < ((size_t)1 << 40))
		cap *= 2;
	if (cap > t->cap)
		names_rehash(t, cap);
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
	for (; t->slots[i]; i = (i + 1) & (t->cap - 1)) {
		uint64_t sl = t->slots[i];
		if ((uint32_t)(sl >> 32) != h)
			continue;
		const char *q = t->strs[(uint32_t)sl - 1];
		/* strnlen first: q is NUL-terminated and may be shorter than len */
		if (strnlen(q, len + 1) == len && memcmp(q, s, len) == 0)
			return q;
	}
	if (t->n >= UINT32_MAX - 1)
		pto_oom(t->a); /* indices are 32-bit */
	if ((t->n + 1) * 4 > t->cap * 3) {
		names_rehash(t, t->cap * 2);
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
	t->slots[i] = ((uint64_t)h << 32) | t->n;
	return p;
}

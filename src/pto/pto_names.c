/* pto_names.c - the PTO program's interned names (pto_ir.h).
 *
 * Every identifier, indentation string and long literal of a program is
 * interned here once, so the IR compares names by pointer. The table is
 * PTO's own rather than the library's general string table because a
 * 100k-statement program holds 100k-150k names and the table's own cost is
 * most of theirs. Here a name costs its bytes and a 4-byte slot, filled to
 * at most 3/4: the strings are packed into 64 KiB chunks of the program's
 * arena, and a slot holds 4 bits of the name's hash over where it is (the
 * chunk's number and the offset in it), so no array of pointers is needed.
 * A name of 64 KiB and more has a chunk of its own. Past 4095 chunks (256
 * MiB of names) the table is rebuilt with 64-bit slots holding the
 * strings' addresses (`wide`). Slot arrays are tracked-heap blocks, freed
 * when replaced.
 */
#include "pto/pto_ir.h"

#include <string.h>

#define CHUNK ((size_t)64 * 1024)
#define NARROW_MAX 4095u /* chunk numbers (1-based) a 32-bit slot holds */

struct pto_names {
	hilo_arena *a;
	/* A slot is 0 (empty) or where a name is: 32 bits while the strings
	 * are in at most narrow_max chunks (the top 4 bits of the name's hash,
	 * 12 bits of 1 + its chunk's index, 16 bits of offset), 64 bits (its
	 * address) past that. */
	void *slots;
	bool wide;
	size_t cap, n;
	char **chunks;       /* the chunks' starts, by index */
	uint32_t nchunks, cap_chunks;
	char *cur;           /* the free end of the last packed chunk */
	size_t left;         /* and its bytes */
	uint32_t cur_chunk;  /* that chunk's index (a name's own chunk may come after it) */
	uint32_t narrow_max; /* chunks a 32-bit slot table addresses: NARROW_MAX (tests lower it) */
};

static inline uint64_t slot_at(const pto_names *t, size_t i)
{
	return t->wide ? ((const uint64_t *)t->slots)[i] : ((const uint32_t *)t->slots)[i];
}

static inline void slot_set(pto_names *t, size_t i, uint64_t s)
{
	if (t->wide)
		((uint64_t *)t->slots)[i] = s;
	else
		((uint32_t *)t->slots)[i] = (uint32_t)s;
}

/* The string a (nonzero) slot stands for. */
static inline const char *slot_str(const pto_names *t, uint64_t s)
{
	if (t->wide)
		return (const char *)(uintptr_t)s;
	return t->chunks[((s >> 16) & 0xfff) - 1] + (s & 0xffff);
}

/* The slot for the string at chunk index c, offset off, of hash h (narrow),
 * or at address q (wide). */
static inline uint64_t slot_make(const pto_names *t, uint32_t h, uint32_t c, size_t off, const char *q)
{
	if (t->wide)
		return (uint64_t)(uintptr_t)q;
	return ((uint64_t)(h >> 28) << 28) | ((uint64_t)(c + 1) << 16) | off;
}

/* The slot's hash bits agree with h (a wide slot has none: compared whole). */
static inline bool slot_hash_is(bool wide, uint64_t s, uint32_t h)
{
	return wide || (uint32_t)(s >> 28) == h >> 28;
}

/* Rebuilds the slots at ncap (a power of two), wide when asked. The hashes
 * come from the strings again (a slot keeps 4 bits of them). */
static void names_rehash(pto_names *t, size_t ncap, bool wide)
{
	void *ns = hilo_heap_alloc(t->a, ncap * (wide ? sizeof(uint64_t) : sizeof(uint32_t))); /* zeroed */
	if (!ns)
		pto_oom(t->a);
	pto_names old = *t;
	t->slots = ns;
	t->wide = wide;
	t->cap = ncap;
	for (size_t k = 0; k < old.cap; k++) {
		uint64_t s = slot_at(&old, k);
		if (!s)
			continue;
		const char *q = slot_str(&old, s);
		uint32_t h = hilo_str_hash(q, strlen(q));
		size_t j = h & (ncap - 1);
		while (slot_at(t, j))
			j = (j + 1) & (ncap - 1);
		/* narrow to narrow keeps the slot (place and hash bits); to wide, the address */
		slot_set(t, j, wide ? (uint64_t)(uintptr_t)q : s);
	}
	hilo_heap_free(t->a, old.slots);
}

pto_names *pto_names_create(hilo_arena *a)
{
	pto_names *t = hilo_arena_alloc(a, sizeof *t);
	if (!t)
		pto_oom(a);
	t->a = a;
	t->narrow_max = NARROW_MAX;
	names_rehash(t, 1024, false);
	return t;
}

void pto_names_narrow_limit(pto_names *t, uint32_t limit)
{
	t->narrow_max = limit < NARROW_MAX ? limit : NARROW_MAX;
	if (!t->wide && t->nchunks > t->narrow_max)
		names_rehash(t, t->cap, true);
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
	if (cap > t->cap)
		names_rehash(t, cap, t->wide);
}

size_t pto_names_count(const pto_names *t)
{
	return t->n;
}

/* Room for len + 1 bytes: in the last chunk, a fresh one, or (64 KiB and
 * more) one of its own; *c receives the chunk's index. A chunk past what a
 * narrow slot addresses makes the table wide first. */
static char *names_room(pto_names *t, size_t len, uint32_t *c)
{
	bool own = len + 1 > CHUNK;
	if (!own && len + 1 <= t->left) {
		char *q = t->cur;
		t->cur += len + 1;
		t->left -= len + 1;
		*c = t->cur_chunk;
		return q;
	}
	if (t->nchunks >= UINT32_MAX - 1)
		pto_oom(t->a);
	if (!t->wide && t->nchunks + 1 > t->narrow_max)
		names_rehash(t, t->cap, true);
	if (t->nchunks == t->cap_chunks) {
		uint32_t nc = t->cap_chunks ? t->cap_chunks * 2 : 16;
		char **ns = hilo_heap_realloc(t->a, t->chunks, nc * sizeof *ns);
		if (!ns)
			pto_oom(t->a);
		t->chunks = ns;
		t->cap_chunks = nc;
	}
	char *q = hilo_arena_alloc(t->a, own ? len + 1 : CHUNK);
	if (!q)
		pto_oom(t->a);
	t->chunks[t->nchunks] = q;
	*c = t->nchunks++;
	if (!own) {
		/* the rest of a fresh chunk serves the next names (one of its
		 * own leaves the last packed chunk's room as it was) */
		t->cur = q + len + 1;
		t->left = CHUNK - len - 1;
		t->cur_chunk = *c;
	}
	return q;
}

const char *pto_names_intern(pto_names *t, const char *s, size_t len)
{
	uint32_t h = hilo_str_hash(s, len);
	size_t i = h & (t->cap - 1);
	bool wide = t->wide;
	for (uint64_t sl; (sl = slot_at(t, i)); i = (i + 1) & (t->cap - 1)) {
		if (!slot_hash_is(wide, sl, h))
			continue;
		const char *q = slot_str(t, sl);
		/* strnlen first: q is NUL-terminated and may be shorter than len */
		if (strnlen(q, len + 1) == len && memcmp(q, s, len) == 0)
			return q;
	}
	if ((t->n + 1) * 4 > t->cap * 3) {
		names_rehash(t, t->cap * 2, t->wide);
		return pto_names_intern(t, s, len);
	}
	uint32_t c;
	bool was_wide = t->wide;
	char *q = names_room(t, len, &c);
	memcpy(q, s, len);
	q[len] = '\0';
	if (t->wide != was_wide) { /* rebuilt wide for the new chunk: its slot moved on */
		i = h & (t->cap - 1);
		while (slot_at(t, i))
			i = (i + 1) & (t->cap - 1);
	}
	slot_set(t, i, slot_make(t, h, c, (size_t)(q - t->chunks[c]), q));
	t->n++;
	return q;
}

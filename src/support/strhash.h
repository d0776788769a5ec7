/* support/strhash.h - the string table's hash and a short-string equality,
 * inline for the text reader's hot paths (internal to libhilo).
 * hilo_str_hash (base.h) is the exported form of hilo_hash_inline. */
#ifndef HILO_UTIL_STRHASH_H
#define HILO_UTIL_STRHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hilo/base.h"

/* Starts loading the string table's slot for hash (a reader that knows a
 * name's hash well before it interns it hides the slot's cache miss). */
void hilo_strtab_prefetch(const hilo_strtab *t, uint32_t hash);

static inline uint64_t hilo_load64_(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
	return w;
}

static inline uint32_t hilo_load32_(const char *s)
{
	uint32_t w;
	memcpy(&w, s, 4);
	return w;
}

/* Eight bytes a step (FNV-1a's byte chain was a multiply per byte, the
 * parser's largest cost on metadata strings), the tail in at most two
 * overlapping loads, then a final mix so the low bits a table masks with
 * depend on every byte. Never reads outside s[0..n). */
static inline uint32_t hilo_hash_inline(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = (uint64_t)n * k, tail;
	size_t len = n;
	while (n > 8) {
		h = (h ^ hilo_load64_(s)) * k;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	if (len >= 8)
		tail = hilo_load64_(s + n - 8);   /* overlaps the last full word */
	else if (n >= 4)
		tail = hilo_load32_(s) | (uint64_t)hilo_load32_(s + n - 4) << 32;
	else if (n)
		tail = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
		       (uint64_t)(unsigned char)s[n - 1] << 16;
	else
		tail = 0;
	h = (h ^ tail) * k;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return (uint32_t)h;
}

/* a[0..n) == b[0..n), without a library call: names and metadata values
 * are mostly under 32 bytes, where memcmp's call and dispatch cost more
 * than the compare. Never reads outside either range. */
static inline bool hilo_mem_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		size_t k = 0;
		for (; k + 8 < n; k += 8)
			if (hilo_load64_(a + k) != hilo_load64_(b + k))
				return false;
		return hilo_load64_(a + n - 8) == hilo_load64_(b + n - 8);
	}
	if (n >= 4)
		return hilo_load32_(a) == hilo_load32_(b) && hilo_load32_(a + n - 4) == hilo_load32_(b + n - 4);
	for (size_t k = 0; k < n; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

#endif

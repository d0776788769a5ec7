/* hash.h - the library's two hash mixes, once (internal to libhilo).
 * hilo_hash_combine folds a value into a running hash (shape interning,
 * cse's instruction keys); hilo_hash_mix64 is splitmix64's finalizer, a
 * bijection of 64 bits that the seeded input generators and the
 * validator's tags draw from. (hilo_hash_inline, support/strhash.h, hashes
 * strings.) */
#ifndef HILO_SUPPORT_HASH_H
#define HILO_SUPPORT_HASH_H

#include <stdint.h>

static inline uint64_t hilo_hash_combine(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static inline uint64_t hilo_hash_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif

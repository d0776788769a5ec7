/* pb_idmap.c - the proto reader's int64 -> pointer map (pb_read.h): the
 * ids of a computation's instructions and of the module's computations,
 * looked up while operands, control edges and callees are wired. A
 * direct table when the ids are dense, open addressing otherwise. */
#include "pb_read.h"

bool pbr_idmap_init(reader *R, pbr_idmap *M, size_t n)
{
	M->dense = NULL;
	size_t cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	M->keys = pbr_ralloc(R, cap * sizeof *M->keys);
	M->vals = pbr_ralloc(R, cap * sizeof *M->vals);
	M->cap = cap;
	M->n = 0;
	return M->keys && M->vals;
}

bool pbr_idmap_put(pbr_idmap *M, int64_t k, void *v)
{
	size_t i = pbr_idhash(k, M->cap);
	for (; M->vals[i]; i = (i + 1) & (M->cap - 1))
		if (M->keys[i] == k)
			return false;
	M->keys[i] = k;
	M->vals[i] = v;
	M->n++;
	return true;
}

bool pbr_idmap_build(reader *R, pbr_idmap *M, const int64_t *ids, void *const *vals, size_t n,
	size_t *dup)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t k = 0; k < n; k++) {
		lo = ids[k] < lo ? ids[k] : lo;
		hi = ids[k] > hi ? ids[k] : hi;
	}
	*dup = SIZE_MAX;
	if (n && (uint64_t)hi - (uint64_t)lo < 4 * (uint64_t)n + 64) {
		memset(M, 0, sizeof *M);
		M->base = lo;
		M->ndense = (size_t)((uint64_t)hi - (uint64_t)lo) + 1;
		/* one table for every computation (each is done before the next
		 * is built), cleared over the part used */
		if (M->ndense > R->dense.cap) {
			void *np = hilo_heap_realloc(R->m->arena, R->dense.p, M->ndense * sizeof *M->dense);
			if (!np) {
				pbr_rerr(R, "out of memory");
				return false;
			}
			R->dense.p = np;
			R->dense.cap = M->ndense;
		}
		M->dense = R->dense.p;
		memset(M->dense, 0, M->ndense * sizeof *M->dense);
		for (size_t k = 0; k < n; k++) {
			void **slot = &M->dense[(uint64_t)ids[k] - (uint64_t)lo];
			if (*slot) {
				*dup = k;
				return false;
			}
			*slot = vals[k];
		}
		return true;
	}
	if (!pbr_idmap_init(R, M, n))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!pbr_idmap_put(M, ids[k], vals[k])) {
			*dup = k;
			return false;
		}
	return true;
}

/* The one reader of replica_groups= text; see "replica groups" in
 * include/hilo/ir.h.
 *
 * The iota form follows XLA's IotaReplicaGroupList
 * (xla/hlo/ir/replica_group.cc, flattened_replica_groups): the device ids
 * are the iota tile assignment of dims [G, S] over reshape_dims d and
 * transpose_perm p, i.e. iota(d0 * ... * dk) reshaped to d, transposed by
 * p, and read row-major in G consecutive groups of S. */
#include "hilo/ir.h"
#include "ir/text_cursor.h"

#include <string.h>

/* open n0,n1,... close, at most max values; the count or -1. */
static int small_list(rd *r, char open, char close, int64_t *out, int max)
{
	if (!eat(r, open))
		return -1;
	if (eat(r, close))
		return 0;
	int n = 0;
	for (;;) {
		if (n == max || !num(r, &out[n]))
			return -1;
		n++;
		if (eat(r, ','))
			continue;
		return eat(r, close) ? n : -1;
	}
}

static bool grow(hilo_arena *a, int64_t **v, int64_t *cap, int64_t need)
{
	if (need <= *cap)
		return true;
	int64_t nc = *cap ? *cap * 2 : 16;
	while (nc < need)
		nc *= 2;
	int64_t *n = hilo_heap_realloc(a, *v, (size_t)nc * sizeof *n);
	if (!n)
		return false;
	*v = n;
	*cap = nc;
	return true;
}

static bool parse_list(hilo_arena *a, rd *r, hilo_replica_groups *g)
{
	int64_t cap = 0, gcap = 0;
	if (!eat(r, '{'))
		return false;
	if (!grow(a, &g->start, &gcap, 1))
		return false;
	g->start[0] = 0;
	if (eat(r, '}'))
		return true;
	for (;;) {
		if (!eat(r, '{'))
			return false;
		if (!eat(r, '}')) {
			for (;;) {
				int64_t v;
				if (g->nids >= HILO_REPLICA_GROUPS_MAX_DEVICES || !num(r, &v) ||
				    !grow(a, &g->ids, &cap, g->nids + 1))
					return false;
				g->ids[g->nids++] = v;
				if (eat(r, ','))
					continue;
				if (!eat(r, '}'))
					return false;
				break;
			}
		}
		if (!grow(a, &g->start, &gcap, g->ngroups + 2))
			return false;
		g->start[++g->ngroups] = g->nids;
		if (eat(r, ','))
			continue;
		return eat(r, '}');
	}
}

static bool parse_iota(hilo_arena *a, rd *r, bool expand, hilo_replica_groups *g)
{
	int64_t gs[2];
	if (small_list(r, '[', ']', gs, 2) != 2 || !eat(r, '<') || r->p >= r->e || *r->p++ != '=')
		return false;
	int nd = small_list(r, '[', ']', g->dims, HILO_MAX_RANK);
	if (nd < 1)
		return false;
	g->ndims = nd;
	ws(r);
	if (r->p < r->e && *r->p == 'T') {
		r->p++;
		if (small_list(r, '(', ')', g->perm, HILO_MAX_RANK) != nd)
			return false;
		g->transposed = true;
	} else {
		for (int k = 0; k < nd; k++)
			g->perm[k] = k;
	}
	bool seen[HILO_MAX_RANK] = {false};
	int64_t total = 1;
	for (int k = 0; k < nd; k++) {
		if (g->dims[k] < 0 || g->perm[k] < 0 || g->perm[k] >= nd || seen[g->perm[k]])
			return false;
		seen[g->perm[k]] = true;
		if (g->dims[k] && total > INT64_MAX / g->dims[k])
			return false;
		total *= g->dims[k];
	}
	if (gs[0] < 0 || gs[1] < 0 || (gs[1] && gs[0] > INT64_MAX / gs[1]) || gs[0] * gs[1] != total)
		return false;
	g->iota = true;
	g->group_size = gs[1];
	if (!expand) {
		g->ngroups = gs[0];
		return true;
	}
	if (total > HILO_REPLICA_GROUPS_MAX_DEVICES || gs[0] > HILO_REPLICA_GROUPS_MAX_DEVICES)
		return false;
	g->ids = hilo_heap_alloc(a, (size_t)(total ? total : 1) * sizeof *g->ids);
	g->start = hilo_heap_alloc(a, (size_t)(gs[0] + 1) * sizeof *g->start);
	if (!g->ids || !g->start)
		return false;
	/* the element at transposed index j (row-major over the transposed
	 * dims dims[perm[k]]) is the iota value at source index i[perm[k]] =
	 * j[k] */
	int64_t stride[HILO_MAX_RANK], idx[HILO_MAX_RANK] = {0};
	int64_t s = 1;
	for (int k = nd - 1; k >= 0; k--) {
		stride[k] = s;
		s *= g->dims[k];
	}
	for (int64_t n = 0; n < total; n++) {
		int64_t v = 0;
		for (int k = 0; k < nd; k++)
			v += idx[k] * stride[g->perm[k]];
		g->ids[n] = v;
		for (int k = nd - 1; k >= 0; k--) {
			if (++idx[k] < g->dims[g->perm[k]])
				break;
			idx[k] = 0;
		}
	}
	g->ngroups = gs[0];
	g->nids = total;
	for (int64_t k = 0; k <= gs[0]; k++)
		g->start[k] = k * gs[1];
	return true;
}

bool hilo_replica_groups_parse(hilo_arena *a, const char *text, size_t len, bool expand,
	hilo_replica_groups *g)
{
	memset(g, 0, sizeof *g);
	rd r = {text, text + len};
	ws(&r);
	bool ok = r.p < r.e && *r.p == '[' ? parse_iota(a, &r, expand, g) : parse_list(a, &r, g);
	ws(&r);
	if (ok && r.p == r.e)
		return true;
	hilo_replica_groups_free(a, g);
	return false;
}

void hilo_replica_groups_free(hilo_arena *a, hilo_replica_groups *g)
{
	hilo_heap_free(a, g->ids);
	hilo_heap_free(a, g->start);
	memset(g, 0, sizeof *g);
}

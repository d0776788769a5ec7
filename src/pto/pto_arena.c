/* pto_arena.c - legalize-graph-boundary's arena packing (beyond PyPTO,
 * seed 002 "Not yet handled"; docs/pto.md "Arena packing").
 *
 * What: the runtime's boundary holds at most 128 tensors
 * (GRAPH_MAX_TENSOR_ARGS). When Steps A-C hoisting takes a Graph over that,
 * its hoisted Step C allocations are packed, per group of equal element
 * type, layout and literal trailing extents, into one call-site buffer
 * `<graph>__arena<N>` stacked along dimension 0; each create becomes a
 * literal-offset pl.tensor.slice of it. Largest groups first until the
 * Graph fits, else GB003 with the counts before and after packing.
 *
 * When: build_plan (pto_legalize.c) calls lg_pack_allocations once per
 * Graph, after collecting the hoists and before ordering them; it is a
 * no-op for a Graph within the limit (always on: it only changes a Graph
 * PyPTO rejects).
 *
 * Why sound: the windows have literal offsets, so they are replay-invariant
 * and legal in place; they are disjoint and in bounds (a group whose summed
 * extent would overflow int64 is not packed), so the allocations stay as
 * distinct as the separate buffers were, and each call site still allocates
 * its own arena per call. An allocation a hoisted value reads (a hoisted
 * view of it, its pl.tensor.dim) is left unpacked, since the call site
 * names it. The verifier re-checks the windows independently (GB027).
 */
#include "pto/pto_arena.h"
#include "pto/pto_legalize.h"

#include <stdint.h>
#include <string.h>


/* Does e read a name rooted at tensor r (a view of it, its tensor.dim)? */
static bool reads_root(coll *k, const pto_expr *e, const char *r)
{
	if (!e)
		return false;
	if (e->kind == PTO_E_NAME)
		return e->name == r || lg_root_of(k, e) == r;
	if (e->kind == PTO_E_ATTR)
		return false;
	if (reads_root(k, pto_expr_base(e), r) || reads_root(k, pto_expr_rhs(e), r))
		return true;
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		if (reads_root(k, e->items[i], r))
			return true;
	for (size_t i = 0; i < e->nkw; i++)
		if (reads_root(k, e->kwvals[i], r))
			return true;
	return false;
}

typedef struct pack_group {
	const char *key;
	size_t *members;   /* indices into the hoisted vector */
	size_t n, cap;
} pack_group;

/* The allocation's group key: its create call and annotation printed with
 * the leading extent blanked (same element type, layout, trailing extents);
 * NULL when it cannot be packed (shape not literal, or not the annotation's). */
static const char *pack_key(hilo_pto_program *p, const hoist *h, int64_t *d0)
{
	pto_call cl;
	int64_t ext[8], aext[8];
	size_t n = 0, an = 0;
	if (!h->stmt || !h->ann || !pto_call_decode(p, h->value, &cl) || !cl.nargs ||
	    !lg_literal_extents(cl.args[0], ext, 8, &n))
		return NULL;
	pto_expr *const *ashape = pto_type_shape(h->ann, &an);
	if (!ashape || an != n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!pto_const_int(ashape[i], &aext[i]) || aext[i] != ext[i])
			return NULL;
	pto_expr *c = pto_expr_clone(p, h->value), *a = pto_expr_clone(p, h->ann);
	c->items[0]->items[0] = pto_int(p, 0);
	((pto_expr *)pto_type_unwrap(a, NULL))->items[0]->items[0] = pto_int(p, 0);
	hilo_buf b;
	hilo_buf_init_in(&b, p->arena); /* tracked: growth failure jumps */
	pto_print_expr(&b, c);
	hilo_buf_put(&b, " : ", 3);
	pto_print_expr(&b, a);
	if (b.oom)
		pto_oom(p->arena);
	const char *key = pto_intern_n(p, b.data, b.len);
	hilo_buf_free(&b);
	*d0 = ext[0];
	return key;
}

/* Beyond PyPTO (seed 002 "Not yet handled"): the runtime's boundary holds
 * at most 128 tensors (GRAPH_MAX_TENSOR_ARGS). When hoisting takes a Graph
 * over that, its hoisted Step C allocations are packed. A group is the
 * allocations with the same create arguments apart from the leading extent
 * (element type, layout) and the same literal trailing extents; its members
 * are stacked along dimension 0 in one call-site buffer `<graph>__arena<N>`
 * (an appended InOut parameter at the first member's place), and each
 * create becomes the view pl.tensor.slice(arena, [its shape], [its row
 * offset, 0, ...]). The offsets are literals, so the views are legal in
 * place (replay-invariant windows) and record no allocation node; the
 * windows are disjoint and in bounds, so the allocations stay as distinct
 * as the buffers were, and a call site still allocates per call. Mixed
 * element types pack per group, the largest groups first, until the Graph
 * fits; when packing every group of two or more still leaves over 128
 * tensors, GB003 reports the count after packing. An allocation a hoisted
 * value reads (a hoisted view of it, its pl.tensor.dim) is not packed: the
 * call site names it. False after a rejection. */
bool lg_pack_allocations(coll *k, plan *pl)
{
	hilo_pto_program *p = k->p;
	hoist *hs = pl->hoisted.data;
	size_t tensors = k->tensor_params.n, nh = pl->hoisted.n;
	for (size_t i = 0; i < nh; i++)
		tensors += hs[i].tensor;
	if (tensors <= PTO_GRAPH_MAX_TENSORS)
		return true;
	/* group the packable allocations */
	hilo_arena *pa = pl->a; /* its scratch lives with the plan */
	pto_map gidx;
	pto_map_init_scratch(&gidx, pa);
	vec groups = { NULL, 0, 0 };
	int64_t *d0 = hilo_arena_alloc(pa, (nh + 1) * sizeof *d0);
	if (!d0)
		pto_oom(pa);
	for (size_t i = 0; i < nh; i++) {
		if (!hs[i].stmt)
			continue;
		const char *key = pack_key(p, &hs[i], &d0[i]);
		bool read = false;
		for (size_t j = 0; key && j < nh && !read; j++)
			read = j != i && reads_root(k, hs[j].value, hs[i].name);
		if (!key || read)
			continue;
		size_t g = (size_t)pto_map_get(&gidx, key);
		if (!g) {
			pack_group *ng = vec_push(pa, &groups, sizeof *ng);
			memset(ng, 0, sizeof *ng);
			ng->key = key;
			g = groups.n;
			pto_map_put(&gidx, key, (void *)g);
		}
		pack_group *gr = &((pack_group *)groups.data)[g - 1];
		if (gr->n == gr->cap) {
			size_t nc = gr->cap ? gr->cap * 2 : 4;
			gr->members = hilo_arena_grow(pa, gr->members, gr->n, nc, sizeof *gr->members);
			if (!gr->members)
				pto_oom(pa);
			gr->cap = nc;
		}
		gr->members[gr->n++] = i;
	}
	/* largest groups first until the Graph fits */
	pack_group *gs = groups.data;
	size_t ng = groups.n, packed = 0, arenas = 0, after = tensors;
	bool *use = hilo_arena_alloc(pa, (ng + 1) * sizeof *use);
	if (!use)
		pto_oom(pa);
	/* a group whose stacked extent would overflow int64 is never packed */
	bool *too_big = hilo_arena_alloc(pa, (ng + 1) * sizeof *too_big);
	if (!too_big)
		pto_oom(pa);
	for (size_t g = 0; g < ng; g++) {
		int64_t total = 0;
		for (size_t q = 0; q < gs[g].n && !too_big[g]; q++) {
			too_big[g] = d0[gs[g].members[q]] > INT64_MAX - total;
			total += too_big[g] ? 0 : d0[gs[g].members[q]];
		}
	}
	while (after > PTO_GRAPH_MAX_TENSORS) {
		size_t best = ng;
		for (size_t g = 0; g < ng; g++)
			if (!use[g] && !too_big[g] && gs[g].n >= 2 && (best == ng || gs[g].n > gs[best].n))
				best = g;
		if (best == ng)
			break;
		use[best] = true;
		after -= gs[best].n - 1;
		packed += gs[best].n;
		arenas++;
	}
	if (after > PTO_GRAPH_MAX_TENSORS) {
		pto_error(p, k->d, k->c->f->line, k->c->f->col, "GB003",
			"Graph function '%s' takes %zu tensor parameters after hoisting, over the runtime's "
			"boundary limit of %d, and packing its hoisted allocations (into one arena per element "
			"type and trailing shape: %zu allocations into %zu arenas) leaves %zu. Pack several of "
			"the parameters into one larger tensor and slice it inside the region, or split the "
			"region.", k->c->f->name, tensors, PTO_GRAPH_MAX_TENSORS, packed, arenas, after);
		return false;
	}
	/* build the arenas; the hoisted vector keeps its order, an arena at its
	 * first member's place */
	hoist **arena_of = hilo_arena_alloc(pa, (nh + 1) * sizeof *arena_of);
	bool *first = hilo_arena_alloc(pa, (nh + 1) * sizeof *first);
	hoist *arena_h = hilo_arena_alloc(pa, (ng + 1) * sizeof *arena_h);
	if (!arena_of || !first || !arena_h)
		pto_oom(pa);
	int na = 0;
	for (size_t g = 0; g < ng; g++) {
		if (!use[g])
			continue;
		const pack_group *gr = &gs[g];
		const hoist *m0 = &hs[gr->members[0]];
		int64_t total = 0;
		for (size_t q = 0; q < gr->n; q++)
			total += d0[gr->members[q]]; /* no overflow: too_big */
		const char *an;
		do
			an = pto_intern(p, hilo_arena_printf(pa, "%s__arena%d", k->c->f->name, na++));
		while (pto_vars_has(k->c->vars, an));
		pto_vars_add(k->c->vars, an, PTO_V_LOCAL)->tensor = true; /* reserve the name */
		hoist *ah = &arena_h[g];
		*ah = *m0;
		ah->name = an;
		ah->stmt = NULL;
		ah->value = pto_expr_clone(p, m0->value);
		ah->value->items[0]->items[0] = pto_int(p, total);
		pto_expr *aann = pto_expr_clone(p, m0->ann);
		((pto_expr *)pto_type_unwrap(aann, NULL))->items[0]->items[0] = pto_int(p, total);
		ah->ann = aann;
		ah->dir = PTO_DIR_INOUT;
		ah->tensor = true;
		int64_t off = 0;
		for (size_t q = 0; q < gr->n; q++) {
			const hoist *m = &hs[gr->members[q]];
			pto_call cl;
			pto_call_decode(p, m->value, &cl);
			pto_expr *view = pto_expr_new(p, PTO_E_CALL, m->value->pos);
			view->base = pto_attr(p, pto_attr(p, pto_name(p, "pl"), "tensor"), "slice");
			pto_items_push(p, &view->items, &view->nitems, pto_name(p, an));
			pto_items_push(p, &view->items, &view->nitems, pto_expr_clone(p, cl.args[0]));
			pto_expr *offs = pto_expr_new(p, PTO_E_LIST, 0);
			pto_items_push(p, &offs->items, &offs->nitems, pto_int(p, off));
			for (size_t r = 1; r < pto_expr_nitems(cl.args[0]); r++)
				pto_items_push(p, &offs->items, &offs->nitems, pto_int(p, 0));
			pto_items_push(p, &view->items, &view->nitems, offs);
			pto_map_put(&pl->slot_view, m->stmt, view);
			off += d0[gr->members[q]];
			arena_of[gr->members[q]] = ah;
			first[gr->members[q]] = q == 0;
		}
	}
	vec out = { NULL, 0, 0 };
	for (size_t i = 0; i < nh; i++) {
		if (arena_of[i] && !first[i])
			continue;
		hoist *h = vec_push(pa, &out, sizeof *h);
		*h = arena_of[i] ? *arena_of[i] : hs[i];
	}
	hilo_heap_free(pa, pl->hoisted.data);
	pl->hoisted = out;
	return true;
}

/* neuron_repeated_dus_to_concat (#108; seed 000, "NeuronRepeatedDusToConcat").
 *
 * Rewrites a buffer that is written slab by slab
 *   b  = broadcast(init)
 *   d1 = dynamic-update-slice(b,  u1, i1...)
 *   d2 = dynamic-update-slice(d1, u2, i2...)
 *   ...
 *   dn = dynamic-update-slice(dn-1, un, in...)
 * into one concatenate(u_(1), ..., u_(n)), the updates in increasing offset
 * order along the tiling axis, replacing dn.
 *
 * Exact conditions (everything else declines with a remark saying why):
 *   - the chain starts at a broadcast (the base) and has n >= 2 links; each
 *     intermediate link di (i < n) has exactly one user, di+1, as its
 *     operand 0 (a link with another user ends the chain there);
 *   - every start index is known: a constant operand, or an axis where the
 *     update is as long as the base (dynamic-update-slice clamps that start
 *     to 0), or "dusidxnow=" tokens, one per dimension (docs/tokens.md);
 *     each start is clamped into [0, dim - update_dim] exactly as
 *     dynamic-update-slice clamps it; the offsets decide, "iterationidx="
 *     only orders the remark text;
 *   - there is one axis a on which the updates are as long as the base on
 *     every other axis, and whose windows [s, s + len) sorted by s tile
 *     [0, base.dims[a]) exactly: no gap, no overlap;
 *   - the concatenated shape equals the base's dims and element type (the
 *     seed's CreateConcatFromGroup check).
 * Call-wrapped chains (the seed's MoveDusOutOfCall): first, for every
 * call C(T) whose body B has one parameter p and a tuple root R, where
 *   - B has no other call site, T is a tuple used only by C, C is not a
 *     root and every user of C is a get-tuple-element,
 *   - R's element j is d = DUS(get-tuple-element(p, j), u, i...), d is used
 *     only by R, and nothing else in B reads element j of p,
 *   - d's starts are known (as above),
 * d moves to the caller: B stops taking and returning element j and
 * returns u as a new last element; the caller computes DUS(T.operand(j),
 * get-tuple-element(C, last), constant clamped starts) and uses it wherever
 * it used element j of C. Calls are handled in caller order, so an unrolled
 * loop's chain (call -> gte -> tuple -> call ...) becomes a flat chain of
 * DUSes in the caller. Sound: the moved DUS computes, from the same buffer
 * and the same update value, what element j of the call returned.
 * Then get-tuple-element(tuple(..., d, ...)) with d a DUS is forwarded to d
 * (the tuple-simplifier step, applied first so chains that pass through a
 * tuple become direct), then dce; after any change, tuple-simplifier and
 * dce tidy up as in the seed (the old chain goes away). Bodies that do not
 * fit are reported (remark) and left alone.
 *
 * Why it is sound: each link writes its update at its clamped window and
 * keeps every other element. If the windows are pairwise disjoint and
 * together cover the whole buffer, every element of dn comes from exactly
 * one update, at its offset, and none from the broadcast; that is exactly
 * the concatenation of the updates in offset order along a. The order in
 * which the links ran is irrelevant because no window overlaps another.
 */
#include "concat_util.h"
#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/tokens.h"
#include "pass_util.h"
#include "variants.h"

#include <stdlib.h>
#include <string.h>


typedef struct link {
	hilo_instr *dus;
	int64_t start[HILO_MAX_RANK];  /* clamped */
	int64_t iter;             /* first iterationidx= value, or -1 */
} link;

/* Reads the clamped start of every dimension (hilo_known_starts: constant
 * operands, full-extent axes, starts the index simplifier proved in this
 * run; never input tokens); false if one is unknown. */
static bool link_starts(hilo_pass_ctx *ctx, hilo_instr *d, const hilo_shape *base, link *l)
{
	if (!hilo_shape_compatible(d->operands[0]->shape, base) ||
	    hilo_known_starts(ctx, d, l->start, HILO_MAX_RANK) != base->rank)
		return false;
	int64_t it;
	l->iter = hilo_tokens_get(ctx->m, d, HILO_TOK_ITER, &it, 1) > 0 ? it : -1;
	return true;
}

/* Sorts links by start on axis a (insertion sort: chains are short and this
 * keeps equal starts in chain order, so overlaps are reported stably). */
static void sort_by_axis(link *ls, int n, int a)
{
	for (int i = 1; i < n; i++) {
		link t = ls[i];
		int j = i;
		while (j > 0 && ls[j - 1].start[a] > t.start[a]) {
			ls[j] = ls[j - 1];
			j--;
		}
		ls[j] = t;
	}
}

/* Orders links by slab_key of their start on axis a and iterationidx=
 * (stable: the sound key, the start, keeps sort_by_axis's order). */
static void sort_by_key(link *ls, int n, int a, hilo_dus_slab_key_fn slab_key)
{
	for (int i = 1; i < n; i++) {
		link t = ls[i];
		int64_t kt = slab_key(t.start[a], t.iter);
		int j = i;
		while (j > 0 && slab_key(ls[j - 1].start[a], ls[j - 1].iter) > kt) {
			ls[j] = ls[j - 1];
			j--;
		}
		ls[j] = t;
	}
}

/* Is axis a one where every update spans the base on all other axes? */
static bool full_off_axis(const link *ls, int n, const hilo_shape *base, int a)
{
	for (int i = 0; i < n; i++) {
		const hilo_shape *us = ls[i].dus->operands[1]->shape;
		for (int d = 0; d < base->rank; d++)
			if (d != a && us->dims[d] != base->dims[d])
				return false;
	}
	return true;
}

/* Checks exact tiling on axis a (ls sorted); writes why not into why. */
static bool tiles_exactly(const link *ls, int n, const hilo_shape *base, int a, char *why, size_t wn)
{
	int64_t at = 0;
	for (int i = 0; i < n; i++) {
		int64_t len = ls[i].dus->operands[1]->shape->dims[a];
		if (ls[i].start[a] > at) {
			snprintf(why, wn, "gap on dimension %d: [%lld, %lld) is never written", a,
				(long long)at, (long long)ls[i].start[a]);
			return false;
		}
		if (ls[i].start[a] < at) {
			snprintf(why, wn, "windows overlap on dimension %d at offset %lld (%s)", a,
				(long long)ls[i].start[a], ls[i].dus->name);
			return false;
		}
		at += len;
	}
	if (at != base->dims[a]) {
		snprintf(why, wn, "gap on dimension %d: [%lld, %lld) is never written", a, (long long)at,
			(long long)base->dims[a]);
		return false;
	}
	return true;
}

/* Tries to rewrite the chain starting at d1 (operand 0 is the broadcast). */
static bool rewrite_chain(hilo_pass_ctx *ctx, hilo_instr *bcast, hilo_instr *d1,
	hilo_dus_slab_key_fn slab_key)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = d1->parent;
	const hilo_shape *base = bcast->shape;
	int rank = base->rank;
	if (!hilo_shape_is_array(base) || rank > HILO_MAX_RANK || rank == 0) {
		hilo_remark(ctx, c, d1, "declined", "DUS chain base %s has an unsupported shape", bcast->name);
		return false;
	}
	/* collect the chain */
	int n = 0, cap = 8;
	link *ls = hilo_heap_alloc(m->arena, (size_t)cap * sizeof *ls);
	if (!ls)
		return false;
	hilo_instr *cur = d1;
	bool ok = true;
	for (;;) {
		if (n == cap) {
			cap *= 2;
			link *g = hilo_heap_realloc(m->arena, ls, (size_t)cap * sizeof *ls);
			if (!g) {
				ok = false;
				break;
			}
			ls = g;
		}
		memset(&ls[n], 0, sizeof ls[n]);
		ls[n++].dus = cur;
		if (cur->nusers != 1 || cur->users[0].slot != 0 ||
		    cur->users[0].user->op != HILO_OP_DYNAMIC_UPDATE_SLICE) {
			/* the chain ends here; say so when a next link exists */
			for (uint32_t u = 0; u < cur->nusers && cur->nusers > 1; u++)
				if (cur->users[u].user->op == HILO_OP_DYNAMIC_UPDATE_SLICE && cur->users[u].slot == 0) {
					hilo_remark(ctx, c, cur, "declined",
						"DUS %s has %u users besides the next link; the chain ends here", cur->name,
						cur->nusers - 1);
					break;
				}
			break;
		}
		cur = cur->users[0].user;
	}
	hilo_instr *last = ls[n - 1].dus;
	char why[256] = "";
	int axis = -1;
	if (!ok) {
		snprintf(why, sizeof why, "out of memory");
	} else if (n < 2) {
		snprintf(why, sizeof why, "a single dynamic-update-slice is not a chain");
		ok = false;
	}
	for (int i = 0; ok && i < n; i++) {
		hilo_instr *d = ls[i].dus;
		if (d->operands[1]->shape->rank != rank || d->operands[1]->shape->type != base->type ||
		    !hilo_shape_compatible(d->shape, base)) {
			snprintf(why, sizeof why, "update of %s does not match the base shape", d->name);
			ok = false;
		} else if (!link_starts(ctx, d, base, &ls[i])) {
			char kw[200];
			hilo_known_starts_why(ctx, d, kw, sizeof kw);
			snprintf(why, sizeof why, "start indices of %s are not known: %s", d->name, kw);
			ok = false;
		}
	}
	if (ok) {
		char first_why[256] = "";
		for (int a = 0; a < rank && axis < 0; a++) {
			if (!full_off_axis(ls, n, base, a))
				continue;
			sort_by_axis(ls, n, a);
			if (tiles_exactly(ls, n, base, a, why, sizeof why))
				axis = a;
			else if (!first_why[0])
				memcpy(first_why, why, sizeof why);
		}
		if (axis < 0) {
			if (first_why[0])
				memcpy(why, first_why, sizeof why);
			else
				snprintf(why, sizeof why,
					"the updates are not full extent on all axes but one");
			ok = false;
		}
	}
	if (!ok) {
		hilo_remark(ctx, c, last, "declined", "Leaving DUS operations unchanged: %s (chain of %d from %s)",
			why, n, bcast->name);
		hilo_heap_free(m->arena, ls);
		return false;
	}
	/* CreateConcatFromGroup: the concatenated shape must be the base's */
	int64_t total = 0;
	for (int i = 0; i < n; i++)
		total += ls[i].dus->operands[1]->shape->dims[axis];
	if (total != base->dims[axis]) {
		hilo_remark(ctx, c, last, "declined",
			"Skipping group due to shape mismatch returned by CreateConcatFromGroup. ");
		hilo_heap_free(m->arena, ls);
		return false;
	}
	bool iter_order = true, have_iter = false;
	for (int i = 0; i < n; i++) {
		have_iter |= ls[i].iter >= 0;
		if (i && ls[i].iter < ls[i - 1].iter)
			iter_order = false;
	}
	sort_by_key(ls, n, axis, slab_key);
	hilo_instr *cat = hilo_instr_create(m, HILO_OP_CONCATENATE, last->shape, "concatenate");
	for (int i = 0; i < n; i++)
		hilo_instr_add_operand(m, cat, ls[i].dus->operands[1]);
	int64_t ax = axis;
	hilo_attr_set_ints(m, hilo_instr_set_attr(m, cat, HILO_A_DIMENSIONS, HILO_ATTR_INTS), &ax, 1);
	hilo_comp_insert_before(c, last, cat);
	hilo_remark(ctx, c, last, "rewritten",
		"DUS chain of %d from %s tiles dimension %d exactly -> %s%s", n, bcast->name, axis, cat->name,
		!have_iter ? "" : iter_order ? " (iterationidx= order agrees with offsets)"
		                              : " (iterationidx= order differs from offsets; offsets used)");
	hilo_instr_replace_all_uses(m, last, cat);
	ctx->rewrites++;
	hilo_heap_free(m->arena, ls);
	return true;
}

/* get-tuple-element(tuple(..., d, ...)) with d a DUS -> d. */
static bool forward_tuple_dus(hilo_module *m, hilo_comp *c)
{
	bool changed = false;
	for (hilo_instr *g = c->first; g; g = g->next) {
		int64_t idx;
		if (g->op != HILO_OP_GET_TUPLE_ELEMENT || g->noperands != 1 || g->operands[0]->op != HILO_OP_TUPLE ||
		    !hilo_instr_get_int(g, HILO_A_INDEX, &idx) || idx < 0 ||
		    (uint64_t)idx >= g->operands[0]->noperands)
			continue;
		hilo_instr *d = g->operands[0]->operands[idx];
		if (d->op != HILO_OP_DYNAMIC_UPDATE_SLICE || !hilo_cu_interchangeable(g->shape, d->shape) ||
		    (g->nusers == 0 && g != c->root))
			continue;
		hilo_instr_replace_all_uses(m, g, d);
		changed = true;
	}
	return changed;
}

/* ---- moving a DUS out of a call (the seed's call-wrapped chain) ---------- */

/* A tuple shape equal to s without element drop (or -1) plus `add` (or NULL). */
static hilo_shape *tuple_shape_edit(hilo_module *m, const hilo_shape *s, int drop, hilo_shape *add)
{
	hilo_shape *o = drop >= 0 ? hilo_shape_tuple_remove(m->shapes, s, drop) : (hilo_shape *)s;
	return add ? hilo_shape_tuple_insert(m->shapes, o, o->ntuple, add) : o;
}

/* Checks whether element j of the body's result is DUS(gte(p, j), u, idx)
 * that can leave the body; returns the DUS or NULL. */
static hilo_instr *movable_dus(hilo_pass_ctx *ctx, hilo_comp *body, int j, int64_t *starts)
{
	hilo_instr *r = body->root, *p = body->nparams == 1 ? body->params[0] : NULL;
	if (!p || !r || r->op != HILO_OP_TUPLE || (uint32_t)j >= r->noperands)
		return NULL;
	hilo_instr *d = r->operands[j];
	if (d->op != HILO_OP_DYNAMIC_UPDATE_SLICE || d->nusers != 1 || d->noperands < 3)
		return NULL;
	hilo_instr *g = d->operands[0];
	int64_t idx;
	if (g->op != HILO_OP_GET_TUPLE_ELEMENT || g->operands[0] != p || g->nusers != 1 ||
	    !hilo_instr_get_int(g, HILO_A_INDEX, &idx) || idx != j)
		return NULL;
	/* nothing else may read element j, and p must only feed get-tuple-elements */
	for (uint32_t u = 0; u < p->nusers; u++) {
		hilo_instr *x = p->users[u].user;
		int64_t k;
		if (x->op != HILO_OP_GET_TUPLE_ELEMENT || !hilo_instr_get_int(x, HILO_A_INDEX, &k))
			return NULL;
		if (k == j && x != g && x->nusers)
			return NULL;
	}
	link l;
	if (d->shape->rank > HILO_MAX_RANK || !link_starts(ctx, d, d->shape, &l))
		return NULL;
	memcpy(starts, l.start, (size_t)d->shape->rank * sizeof *starts);
	return d;
}

/* Moves d = element j of call C's body out into C's computation:
 * the body stops taking and returning element j and returns d's update
 * as a new last element; the caller computes DUS(buffer_in, update,
 * constant starts) and uses it wherever it used element j of C. */
static bool move_dus_out_of_call(hilo_pass_ctx *ctx, hilo_instr *call, const hilo_ptrmap *sites)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = call->parent, *body = hilo_instr_called(call)[0];
	hilo_instr *t = call->operands[0];
	if (body->nparams != 1 || !body->root || body->root->op != HILO_OP_TUPLE || body->root->nusers ||
	    t->op != HILO_OP_TUPLE ||
	    t->nusers != 1 || call->is_root || !hilo_shape_is_tuple(call->shape) ||
	    hilo_pu_call_sites(sites, body) != 1)
		return false;
	for (uint32_t u = 0; u < call->nusers; u++)
		if (call->users[u].user->op != HILO_OP_GET_TUPLE_ELEMENT)
			return false;
	hilo_instr *p = body->params[0], *r = body->root;
	if (!hilo_shape_is_tuple(p->shape) || p->shape->ntuple != (int)t->noperands ||
	    r->noperands != t->noperands || p->shape->ntuple < 2)
		return false;
	for (uint32_t j = 0; j < r->noperands; j++) {
		int64_t st[HILO_MAX_RANK];
		hilo_instr *d = movable_dus(ctx, body, (int)j, st);
		if (!d)
			continue;
		hilo_instr *g = d->operands[0], *u = d->operands[1];
		int n = (int)r->noperands;
		/* body: drop input/output element j, append the update */
		hilo_shape *rs = tuple_shape_edit(m, r->shape, (int)j, u->shape);
		hilo_shape *ps = tuple_shape_edit(m, p->shape, (int)j, NULL);
		hilo_instr **ro = hilo_heap_alloc(m->arena, (size_t)n * sizeof *ro);
		if (!ro)
			return false;
		memcpy(ro, r->operands, (size_t)n * sizeof *ro);
		hilo_instr_clear_operands(r);
		for (int k = 0; k < n; k++)
			if (k != (int)j)
				hilo_instr_add_operand(m, r, ro[k]);
		hilo_instr_add_operand(m, r, u);
		hilo_heap_free(m->arena, ro);
		hilo_instr_set_shape(m, r, rs);
		hilo_cu_erase_dead(m, d);    /* and g with it */
		(void)g;
		/* (g had d as its only user, so it is gone now) */
		for (uint32_t q = 0; q < p->nusers; q++) {
			hilo_instr *x = p->users[q].user;
			int64_t k;
			if (hilo_instr_get_int(x, HILO_A_INDEX, &k) && k > (int64_t)j)
				hilo_instr_attr(x, HILO_A_INDEX)->v.i = k - 1;
		}
		/* dead get-tuple-elements of element j (no users) go too */
		for (uint32_t q = p->nusers; q-- > 0;) {
			hilo_instr *x = p->users[q].user;
			int64_t k;
			if (hilo_instr_get_int(x, HILO_A_INDEX, &k) && k == (int64_t)j && x->nusers == 0)
				hilo_comp_remove(body, x);
		}
		hilo_instr_set_shape(m, p, ps);
		/* caller: the tuple stops passing element j */
		hilo_instr *buf_in = t->operands[j];
		hilo_instr **to = hilo_heap_alloc(m->arena, (size_t)n * sizeof *to);
		if (!to)
			return false;
		memcpy(to, t->operands, (size_t)n * sizeof *to);
		hilo_instr_clear_operands(t);
		for (int k = 0; k < n; k++)
			if (k != (int)j)
				hilo_instr_add_operand(m, t, to[k]);
		hilo_heap_free(m->arena, to);
		hilo_instr_set_shape(m, t, ps);
		hilo_instr_set_shape(m, call, rs);
		hilo_instr *after = call->next;
		hilo_instr *ug = hilo_instr_create(m, HILO_OP_GET_TUPLE_ELEMENT, u->shape, "get-tuple-element");
		hilo_instr_add_operand(m, ug, call);
		hilo_instr_set_attr(m, ug, HILO_A_INDEX, HILO_ATTR_INT)->v.i = n - 1;
		hilo_comp_insert_before(c, after, ug);
		hilo_instr *nd = hilo_instr_clone(m, d, NULL);
		hilo_instr_set_shape(m, nd, buf_in->shape);
		hilo_instr_add_operand(m, nd, buf_in);
		hilo_instr_add_operand(m, nd, ug);
		int rank = buf_in->shape->rank;
		hilo_ptype it = d->operands[2]->shape->type;
		if (!hilo_ptype_is_int(it) || d->operands[2]->shape->rank != 0)
			it = HILO_T_S32;
		for (int k = 0; k < rank; k++) {
			hilo_instr *ci = hilo_cu_int_constant(m, c, after, it, st[k]);
			if (!ci)
				return false;
			hilo_instr_add_operand(m, nd, ci);
		}
		hilo_comp_insert_before(c, after, nd);
		/* element j of the call is now nd; later elements shift down */
		for (uint32_t q = call->nusers; q-- > 0;) {
			hilo_instr *x = call->users[q].user;
			int64_t k;
			if (x == ug || !hilo_instr_get_int(x, HILO_A_INDEX, &k))
				continue;
			if (k == (int64_t)j) {
				hilo_instr_replace_all_uses(m, x, nd);
				hilo_comp_remove(c, x);
			} else if (k > (int64_t)j) {
				hilo_instr_attr(x, HILO_A_INDEX)->v.i = k - 1;
			}
		}
		ctx->rewrites++;
		hilo_remark(ctx, c, call, "rewritten",
			"moved DUS %s out of call %s into %s (as %s)", d->name, body->name, c->name, nd->name);
		return true;
	}
	return false;
}

/* Moves DUS links out of called bodies, in caller order, so call-wrapped
 * chains become flat in the caller. */
static bool move_dus_out_of_calls(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	bool changed = false;
	hilo_ptrmap sites;
	hilo_ptrmap_init_in(&sites, m->arena);
	hilo_pu_count_call_sites(m, &sites); /* once per run: hoisting neither adds nor removes call sites */
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		for (hilo_instr *i = c->first; i; i = i->next)
			if (i->op == HILO_OP_CALL && hilo_instr_ncalled(i) == 1 && i->noperands == 1)
				while (move_dus_out_of_call(ctx, i, &sites))
					changed = true;
	}
	hilo_ptrmap_free(&sites);
	return changed;
}

/* A DUS still inside a called computation, writing into a parameter's
 * tuple element, could not be moved out: say why not. */
static void note_call_wrapped(hilo_pass_ctx *ctx, hilo_comp *c)
{
	if (c->is_entry)
		return;
	for (hilo_instr *d = c->first; d; d = d->next) {
		if (d->op != HILO_OP_DYNAMIC_UPDATE_SLICE)
			continue;
		hilo_instr *b = d->operands[0];
		if (b->op == HILO_OP_GET_TUPLE_ELEMENT && b->operands[0]->op == HILO_OP_PARAMETER)
			hilo_remark(ctx, c, d, "declined",
				"Found DUS in computation %s writing into a parameter: the chain is call-wrapped and "
				"it cannot be moved out of the call (needs one call site, tuple operand and "
				"get-tuple-element users, the DUS only returned, known start indices)", c->name);
	}
}

static int64_t offset_key(int64_t offset, int64_t iter)
{
	return offset;
}

hilo_pass_result hilo_pass_neuron_repeated_dus_to_concat(hilo_pass_ctx *ctx)
{
	return hilo_dus_concat_run(ctx, offset_key);
}

hilo_pass_result hilo_dus_concat_run(hilo_pass_ctx *ctx, hilo_dus_slab_key_fn slab_key)
{
	hilo_module *m = ctx->m;
	/* the seed's pre-cleanup: a dead extra user of a chain link must not
	 * end the chain */
	bool changed = hilo_cu_dce(ctx) == HILO_PASS_CHANGED;
	bool found = move_dus_out_of_calls(ctx);
	for (uint32_t ci = 0; ci < m->ncomps; ci++)
		found |= forward_tuple_dus(m, m->comps[ci]);
	changed |= found;
	if (found)
		hilo_cu_dce(ctx);
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		bool cc = false;
		note_call_wrapped(ctx, c);
		/* snapshot the chain heads: rewriting adds and removes instructions */
		uint32_t n = 0;
		hilo_instr **heads = hilo_heap_alloc(m->arena, ((size_t)c->ninstrs + 1) * 2 * sizeof *heads);
		if (!heads) {
			hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, 0, 0, NULL, 0,
				"neuron_repeated_dus_to_concat: out of memory");
			return HILO_PASS_ERROR;
		}
		for (hilo_instr *d = c->first; d; d = d->next) {
			if (d->op != HILO_OP_DYNAMIC_UPDATE_SLICE || d->noperands < 3)
				continue;
			hilo_instr *b = d->operands[0];
			if (b->op == HILO_OP_BROADCAST) {
				found = true;
				heads[n++] = b;
				heads[n++] = d;
			} else if (b->op != HILO_OP_DYNAMIC_UPDATE_SLICE && b->op != HILO_OP_GET_TUPLE_ELEMENT) {
				hilo_remark(ctx, c, d, "declined",
					"Leaving DUS operations unchanged: base %s of %s is not a broadcast", b->name, d->name);
			}
		}
		for (uint32_t k = 0; k < n; k += 2)
			if (heads[k + 1]->parent == c && heads[k + 1]->operands[0] == heads[k])
				cc |= rewrite_chain(ctx, heads[k], heads[k + 1], slab_key);
		hilo_heap_free(m->arena, heads);
		changed |= cc;
	}
	/* the seed's post-cleanup, whenever a chain was found (its map was
	 * not empty) */
	if (found) {
		changed |= hilo_cu_cleanup(ctx, hilo_pass_tuple_simplifier) == HILO_PASS_CHANGED;
		changed |= hilo_cu_dce(ctx) == HILO_PASS_CHANGED;
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

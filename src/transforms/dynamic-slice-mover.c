/* dynamic-slice-mover (#87): lowers a dynamic-slice with known start
 * indices inside a called computation to a static slice and hoists it into
 * the caller (seed 003, "NeuronDynamicSliceMover").
 *
 * Rewrites, for `c = call(T), to_apply=B` and, in B,
 *   g = get-tuple-element(param), index=j ; d = dynamic-slice(g, i0, ...)
 * into, in the caller,
 *   s = slice(T.operand(j)), slice={[c0:c0+n0], ...}     (static, stride 1)
 * passed to B through its parameter tuple, and d's uses in B read
 * get-tuple-element(param) of that new element. When g (and every other
 * get-tuple-element of element j) has no user but d and none of them is
 * B's root, element j itself is narrowed to the slice ("updated_param");
 * otherwise the slice is appended
 * as a new tuple element so element j keeps its full value for its other
 * users (the root tuple, other slices). T is rebuilt (a private copy when
 * T has other users) and B's parameter shape updated; the call's result
 * shape never changes. NeuronBoundaryMarker-Start/-End custom-calls are
 * stripped everywhere first, with the one stripping the marker passes
 * share (hilo_pu_strip_boundary_markers, src/transforms/pass_util.h: each
 * replaced by its single operand, control edges relayed; a marker whose
 * shape differs from its operand's is no identity and is kept).
 *
 * Exact conditions (each failure is a "declined" remark using the seed's
 * wording where it has one):
 *  - c's operand is a tuple instruction ("Call operand is not a tuple");
 *  - d's operand 0 is a get-tuple-element g of B's only parameter
 *    ("Dynamic slice inside call doesn't use GTE as input");
 *  - every user of g is a dynamic-slice, B's root tuple or a
 *    NeuronBoundaryMarker-End ("Cannot move dynamic slice outside call:
 *    GTE g has other users than ...: X which is not a dynamic-slice, root,
 *    or output tuple"); a "note" remark "Found N dynamic-slice users for
 *    GTE g" is written once per GTE;
 *  - every user of B's parameter is a get-tuple-element (markers are
 *    stripped before): anything else reads the whole parameter, whose
 *    shape the move changes (narrowed or appended element), so the module
 *    would no longer verify;
 *  - every start is known (hilo_known_starts, include/hilo/pass.h): a
 *    constant (or constant index arithmetic), a full-extent window, or a
 *    start neuron-dus-ds-index-simplifier proved earlier in this run
 *    (recorded by instruction id). A constant operand always wins over a
 *    proven value. dsidxnow= tokens read from the input are never used:
 *    a decline says "dsidxnow= token ignored: not proven", and a token list
 *    of the wrong length gets the seed's "Not enough indices for
 *    instruction=" message. Starts are the effective (clamped) ones;
 *  - B is called from this call site only; otherwise B is cloned for the
 *    call first (proven starts of the original's dynamic-slices carry over
 *    to the clone, which runs for a subset of the same executions);
 *  - with ctx->disable_slice_move_from_param, a slice whose source traces
 *    (through tuple / get-tuple-element / call pass-through) to a parameter
 *    of the entry computation is not moved; the seed's notices are emitted
 *    as remarks, the "PRARAMS" typo included.
 * A marker without exactly one operand is kept with a declined remark in
 * the seed's wording ("NeuronBoundaryMarker-End expected to have 1 operand
 * but has N"): it is no identity. The pass ends with the seed's note "Completed
 * handling dynamic slices outside calls." and, unconditionally, the dce
 * pass (the seed's trailing HloDCE).
 *
 * Why it is sound: inside B, element j of the parameter is exactly
 * T.operand(j); a dynamic-slice whose starts are known equals the static
 * slice at the clamped starts with unit strides, so computing it in the
 * caller and passing the result in gives d's value unchanged. Narrowing
 * only happens when nothing else in B reads element j, and only
 * get-tuple-elements read the parameter, so no other instruction sees a
 * different value or shape; the call's outputs are untouched.
 */
#include "hilo/float.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"
#include "pass_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The known, clamped starts of dynamic-slice d (hilo_known_starts: constant
 * operands, full-extent windows, or starts the index simplifier proved in
 * this run; never tokens from the input). False with the reason in buf. */
static bool ds_starts(hilo_pass_ctx *ctx, const hilo_instr *d, int64_t *starts, char *buf,
	size_t nbuf)
{
	const hilo_shape *in = d->operands[0]->shape;
	int rank = in->rank;
	int nsz = 0;
	const int64_t *sizes = hilo_instr_get_ints(d, HILO_A_DYNAMIC_SLICE_SIZES, &nsz);
	if (!sizes || nsz != rank || !hilo_shape_is_array(d->shape) || d->shape->rank != rank) {
		snprintf(buf, nbuf, "dynamic-slice sizes do not match its operand rank");
		return false;
	}
	for (int k = 0; k < rank; k++)
		if (sizes[k] < 0 || sizes[k] > in->dims[k] || d->shape->dims[k] != sizes[k]) {
			snprintf(buf, nbuf, "dynamic-slice size out of range");
			return false;
		}
	int n = hilo_known_starts(ctx, d, starts, 64);
	if (n == rank)
		return true;
	char why[384];
	hilo_known_starts_why(ctx, d, why, sizeof why);
	int ntok = hilo_tokens_get(ctx->m, d, HILO_TOK_DS, NULL, 0);
	if (ntok > 0 && ntok != rank)
		/* the seed's message for a token list of the wrong length */
		snprintf(buf, nbuf, "Not enough indices for instruction=%s (%d %s tokens for rank %d); %s",
			d->name, ntok, HILO_TOK_DS, rank, why);
	else
		snprintf(buf, nbuf, "%s", why);
	return false;
}

/* The first user of g that is not a dynamic-slice reading it, the body's
 * root tuple or a NeuronBoundaryMarker-End, or NULL; *nds counts g's
 * dynamic-slice users. */
static const hilo_instr *gte_bad_user(const hilo_instr *g, const hilo_comp *body, uint32_t *nds)
{
	const hilo_instr *bad = NULL;
	*nds = 0;
	for (uint32_t u = 0; u < g->nusers; u++) {
		const hilo_instr *us = g->users[u].user;
		if (us->op == HILO_OP_DYNAMIC_SLICE && g->users[u].slot == 0) {
			(*nds)++;
			continue;
		}
		if (us == body->root && us->op == HILO_OP_TUPLE)
			continue;
		if (hilo_instr_is_boundary_marker_end(us))
			continue;
		if (!bad)
			bad = us;
	}
	return bad;
}

/* The first user of the body parameter that is not a get-tuple-element,
 * or NULL. Markers were stripped before; anything else reads the whole
 * parameter and would see its shape change. */
static const hilo_instr *param_bad_user(const hilo_instr *param)
{
	for (uint32_t u = 0; u < param->nusers; u++)
		if (param->users[u].user->op != HILO_OP_GET_TUPLE_ELEMENT)
			return param->users[u].user;
	return NULL;
}

/* Does v trace to a parameter of the entry computation through tuple /
 * get-tuple-element / call pass-through plumbing? */
static bool traces_to_entry_param(hilo_module *m, hilo_instr *v, int depth)
{
	while (v && depth++ < 10000) {
		if (v->op == HILO_OP_PARAMETER)
			return v->parent == m->entry;
		if (v->op != HILO_OP_GET_TUPLE_ELEMENT)
			return false;
		int64_t idx;
		hilo_instr *t = v->operands[0];
		if (!hilo_instr_get_int(v, HILO_A_INDEX, &idx))
			return false;
		if (t->op == HILO_OP_TUPLE && idx >= 0 && (uint32_t)idx < t->noperands) {
			v = t->operands[idx];
		} else if (t->op == HILO_OP_CALL && hilo_instr_ncalled(t) == 1 && hilo_instr_called(t)[0]->root &&
			hilo_instr_called(t)[0]->root->op == HILO_OP_TUPLE &&
			(uint32_t)idx < hilo_instr_called(t)[0]->root->noperands) {
			hilo_instr *r = hilo_instr_called(t)[0]->root->operands[idx];
			int64_t ri;
			if (r->op == HILO_OP_GET_TUPLE_ELEMENT && r->operands[0]->op == HILO_OP_PARAMETER &&
				hilo_instr_get_int(r, HILO_A_INDEX, &ri) && ri == idx && t->noperands == 1) {
				hilo_instr *op = t->operands[0];
				if (op->op == HILO_OP_TUPLE && (uint32_t)ri < op->noperands)
					v = op->operands[ri];
				else
					return false;
			} else {
				return false;
			}
		} else if (t->op == HILO_OP_PARAMETER) {
			/* a parameter tuple of a called computation: conservatively
			 * assume it may carry entry parameters */
			return true;
		} else {
			return false;
		}
	}
	return false;
}

static hilo_shape *tuple_shape(hilo_module *m, const hilo_shape *old, int replace, hilo_shape *rep,
	hilo_shape *append)
{
	const hilo_shape *s = replace >= 0 ? hilo_shape_tuple_set(m->shapes, old, replace, rep) : old;
	return append ? hilo_shape_tuple_insert(m->shapes, s, s->ntuple, append) : (hilo_shape *)s;
}

/* A clone of a shared body runs for one of the original's call sites, so
 * what was proved for a dynamic-slice of the original (on every execution)
 * holds for its clone: carry the proven starts over (hilo_comp_clone keeps
 * the instruction order). */
static void copy_proofs(hilo_pass_ctx *ctx, const hilo_comp *src, const hilo_comp *cl)
{
	const hilo_instr *a = src->first, *b = cl->first;
	for (; a && b; a = a->next, b = b->next) {
		if (a->op != b->op)
			return;
		if (a->op != HILO_OP_DYNAMIC_SLICE)
			continue;
		int64_t v[64];
		int n = hilo_proven_starts(ctx, a, v, 64);
		if (n >= 0 && n <= 64)
			hilo_proven_starts_set(ctx, b, v, n);
	}
}

/* Tries to move one dynamic-slice d of the body of call c. */
static bool move_one(hilo_pass_ctx *ctx, hilo_instr *c, hilo_instr *d, hilo_ptrmap *noted)
{
	hilo_module *m = ctx->m;
	hilo_comp *body = hilo_instr_called(c)[0];
	hilo_instr *param = body->params[0];
	hilo_instr *g = d->operands[0];
	int64_t j;
	if (g->op != HILO_OP_GET_TUPLE_ELEMENT || g->operands[0] != param ||
		!hilo_instr_get_int(g, HILO_A_INDEX, &j)) {
		hilo_remark(ctx, body, d, "declined", "Dynamic slice inside call doesn't use GTE as input");
		return false;
	}
	uint32_t nds = 0;
	const hilo_instr *bad = gte_bad_user(g, body, &nds);
	if (!hilo_ptrmap_get(noted, g)) {
		/* once per GTE (a body has one call site when it is walked) */
		hilo_ptrmap_put(noted, g, g);
		hilo_remark(ctx, body, g, "note", "Found %u dynamic-slice users for GTE %s", nds, g->name);
	}
	if (bad) {
		hilo_remark(ctx, body, d, "declined",
			"Cannot move dynamic slice outside call: GTE %s has other users than dynamic-slice, "
			"root tuple, or NeuronBoundaryMarker-End: %s %s which is not a dynamic-slice, root, "
			"or output tuple", g->name, hilo_opcode_name(bad->op), bad->name);
		return false;
	}
	bad = param_bad_user(param);
	if (bad) {
		hilo_remark(ctx, body, d, "declined",
			"Cannot move dynamic slice outside call: parameter %s has other users than "
			"get-tuple-element: %s %s reads the whole parameter, whose shape the move changes",
			param->name, hilo_opcode_name(bad->op), bad->name);
		return false;
	}
	int rank = g->shape->rank;
	if (!hilo_shape_is_array(g->shape) || rank > 64) {
		hilo_remark(ctx, body, d, "declined", "dynamic-slice operand is not an array of rank <= 64");
		return false;
	}
	int64_t starts[64];
	char why[512];
	if (!ds_starts(ctx, d, starts, why, sizeof why)) {
		hilo_remark(ctx, body, d, "declined", "%s", why);
		return false;
	}
	hilo_instr *t = c->operands[0];
	if (j < 0 || (uint32_t)j >= t->noperands) {
		hilo_remark(ctx, body, d, "declined", "tuple index out of range");
		return false;
	}
	hilo_instr *src = t->operands[j];
	if (ctx->disable_slice_move_from_param && traces_to_entry_param(m, src, 0)) {
		hilo_remark(ctx, body, d, "declined", "NOTICING NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1");
		hilo_remark(ctx, body, d, "declined",
			"NOT MOVING DYNAMIC-SLICE FROM PRARAMS AS NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM IS ENABLED.");
		hilo_remark(ctx, body, d, "declined", "NOT MOVING ds= %s", d->name);
		return false;
	}

	/* private copy of the call's tuple when it has other users */
	if (t->nusers > 1 || t->parent->root == t || hilo_instr_nctrl_succs(t)) {
		hilo_instr *nt = hilo_instr_create(m, HILO_OP_TUPLE, t->shape, t->name);
		for (uint32_t k = 0; k < t->noperands; k++)
			hilo_instr_add_operand(m, nt, t->operands[k]);
		hilo_comp_insert_before(c->parent, c, nt);
		hilo_instr_set_operand(m, c, 0, nt);
		t = nt;
	}

	/* the static slice in the caller */
	hilo_instr *s = hilo_instr_create(m, HILO_OP_SLICE, d->shape, "slice"); /* not an attribute key */
	hilo_instr_add_operand(m, s, src);
	hilo_attr *sa = hilo_instr_set_attr(m, s, HILO_A_SLICE, HILO_ATTR_SLICE);
	int64_t *tr = hilo_arena_alloc(m->arena, (size_t)(3 * (rank ? rank : 1)) * sizeof *tr);
	for (int k = 0; k < rank; k++) {
		tr[3 * k] = starts[k];
		tr[3 * k + 1] = starts[k] + d->shape->dims[k];
		tr[3 * k + 2] = 1;
	}
	sa->n = rank;
	sa->v.ints = tr;
	hilo_instr_copy_metadata(m, s, d);
	hilo_comp_insert_before(c->parent, t, s);

	/* narrow element j when d is its only reader, else append. Not when
	 * g or another reader of element j is the body's root: a root has no
	 * users, and narrowing would remove it or change the call's result
	 * type (issue 30: both were exit 3 on valid modules) */
	bool narrow = g->nusers == 1 && g != body->root;
	for (uint32_t u = 0; narrow && u < param->nusers; u++) {
		hilo_instr *o = param->users[u].user;
		int64_t oi;
		if (o->op != HILO_OP_GET_TUPLE_ELEMENT || !hilo_instr_get_int(o, HILO_A_INDEX, &oi))
			narrow = false;
		else if (oi == j && o != g && (o->nusers > 0 || o == body->root))
			narrow = false;
	}
	if (narrow) {
		for (uint32_t u = param->nusers; u-- > 0;) {
			hilo_instr *o = param->users[u].user;
			int64_t oi;
			if (o != g && hilo_instr_get_int(o, HILO_A_INDEX, &oi) && oi == j && o->nusers == 0)
				hilo_comp_remove(body, o);
		}
		hilo_instr_set_operand(m, t, (uint32_t)j, s);
		t->shape = tuple_shape(m, t->shape, (int)j, s->shape, NULL);
		param->shape = tuple_shape(m, param->shape, (int)j, s->shape, NULL);
		g->shape = s->shape;
		hilo_instr_replace_all_uses(m, d, g);
	} else {
		int64_t ni = t->shape->ntuple;
		hilo_instr_add_operand(m, t, s);
		t->shape = tuple_shape(m, t->shape, -1, NULL, s->shape);
		param->shape = tuple_shape(m, param->shape, -1, NULL, s->shape);
		hilo_instr *ng = hilo_instr_create(m, HILO_OP_GET_TUPLE_ELEMENT, s->shape, "get-tuple-element");
		hilo_instr_add_operand(m, ng, param);
		hilo_attr *ia = hilo_instr_set_attr(m, ng, HILO_A_INDEX, HILO_ATTR_INT);
		ia->v.i = ni;
		hilo_comp_insert_before(body, d, ng);
		hilo_instr_replace_all_uses(m, d, ng);
	}
	if (d->nusers == 0 && body->root != d)
		hilo_comp_remove(body, d);
	hilo_remark(ctx, body, d, "rewritten", "moved dynamic-slice out of call %s as static %s (%s)",
		c->name, s->name, narrow ? "parameter narrowed" : "parameter element appended");
	return true;
}

hilo_pass_result hilo_pass_dynamic_slice_mover(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	bool changed = hilo_pu_strip_boundary_markers(ctx) > 0;
	uint32_t nc = 0;
	hilo_ptrmap sites, noted; /* noted: the GTEs a "Found N users" note named */
	hilo_ptrmap_init_in(&sites, hilo_pass_scratch(ctx));
	hilo_ptrmap_init_in(&noted, hilo_pass_scratch(ctx));
	/* the computation order and the call-site counts in one walk */
	hilo_comp **order = hilo_module_comp_post_order_calls(m, &nc, hilo_pu_add_call_sites_of, &sites);
	for (uint32_t ci = 0; ci < nc; ci++) {
		hilo_comp *comp = order[ci];
		uint32_t n = 0;
		hilo_instr **instrs = hilo_comp_post_order(m, comp, &n);
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *c = instrs[k];
			if (c->op != HILO_OP_CALL || hilo_instr_ncalled(c) != 1 || c->noperands != 1)
				continue;
			hilo_comp *body = hilo_instr_called(c)[0];
			if (body->nparams != 1)
				continue;
			/* candidates: dynamic-slices reading a GTE of the parameter */
			bool any = false;
			for (hilo_instr *i = body->first; i; i = i->next)
				if (i->op == HILO_OP_DYNAMIC_SLICE)
					any = true;
			if (!any)
				continue;
			if (c->operands[0]->op != HILO_OP_TUPLE) {
				hilo_remark(ctx, comp, c, "declined", "Call operand is not a tuple");
				continue;
			}
			if (hilo_pu_call_sites(&sites, body) > 1) {
				const char *nm = hilo_arena_printf(m->arena, "%s.clone", body->name);
				for (int sfx = 1; hilo_module_find_comp(m, nm); sfx++)
					nm = hilo_arena_printf(m->arena, "%s.clone.%d", body->name, sfx);
				hilo_comp *cl = hilo_comp_clone(m, body, nm);
				copy_proofs(ctx, body, cl);
				hilo_module_add_comp(m, cl, comp);
				hilo_instr_called(c)[0] = cl;
				hilo_pu_call_sites_add(&sites, body, -1);
				hilo_pu_call_sites_add(&sites, cl, 1);
				for (hilo_instr *q = cl->first; q; q = q->next)
					for (uint32_t r = 0; r < hilo_instr_ncalled(q); r++)
						hilo_pu_call_sites_add(&sites, hilo_instr_called(q)[r], 1);
				body = cl;
				hilo_remark(ctx, comp, c, "rewritten", "cloned shared body into %s", cl->name);
				changed = true;
			}
			uint32_t nb = 0;
			hilo_instr **bi = hilo_comp_post_order(m, body, &nb);
			for (uint32_t q = 0; q < nb; q++) {
				if (bi[q]->op != HILO_OP_DYNAMIC_SLICE || !bi[q]->parent)
					continue;
				if (move_one(ctx, c, bi[q], &noted)) {
					ctx->rewrites++;
					changed = true;
				}
			}
		}
	}
	hilo_ptrmap_free(&sites);
	hilo_ptrmap_free(&noted);
	hilo_remark(ctx, NULL, NULL, "note", "Completed handling dynamic slices outside calls.");
	/* the seed's trailing HloDCE, unconditionally; its removals are not
	 * this pass's rewrites */
	uint64_t r = ctx->rewrites;
	hilo_pass_result dr = hilo_pass_dce(ctx);
	ctx->rewrites = r;
	if (dr == HILO_PASS_ERROR)
		return dr;
	return changed || dr == HILO_PASS_CHANGED ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

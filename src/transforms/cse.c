/* cse: common subexpression elimination (XLA's HloCSE, name "cse").
 *
 * Rewrites, per computation:
 *  1. constants: two constants with equal shapes (layout included), equal
 *     known values and equal attributes (sharding, ...) -> the first one.
 *     Elided constants ({...}: values unknown) are never merged.
 *  2. in post order, an instruction identical to an earlier one -> the
 *     earlier one. Identical means: same opcode, same shape (layout and
 *     dynamic dimensions included), the same operand instructions (for
 *     add, multiply, and, or, xor, and for minimum and maximum on integer
 *     and pred elements, also in swapped order), the same
 *     attributes (every key and value; raw ones such as sharding,
 *     replica_groups, frontend_attributes compared as text; channel_id by
 *     value, so collectives differing only in channel_id stay apart) and
 *     the same called computations, or called computations that are
 *     identical (3.). A get-tuple-element of a
 *     multi-output fusion reads index j as the earliest index i whose
 *     fused root tuple operand is the same instruction (after the fused
 *     computation itself was CSE'd: computations are visited callees
 *     first), so get-tuple-elements of now-identical outputs merge.
 *  3. called computations: two computations are identical when their
 *     instructions, in post order, pair off one to one with the same
 *     opcode, shape, parameter number, literal, attributes (metadata
 *     aside), operands at the same positions and identical called
 *     computations, the roots paired, no control edges, one execution
 *     thread (XLA's HloComputation equality, which HloCSE uses: calls of
 *     two identical computations on the same operands, and while loops
 *     with identical conditions and bodies on the same input, merge:
 *     XLA's CompareComputations and
 *     WhileLoopsIdenticalConditionsAndBodiesSameInput). Callees are
 *     paired first; the duplicate computation is left for dce.
 * Candidates: instructions with at least one operand, or the zero-operand
 * partition-id, replica-id, iota, and any zero-operand instruction with
 * the frontend attribute _xla_cse_safe_zero_operand="true" (XLA's marker
 * for e.g. the GetRngSeed custom-call: identical ones may be merged);
 * in every case without side effects (looking into called computations;
 * the marker never overrides a side effect), without control
 * dependencies, not parameters, without a MUST_FUSE frontend attribute.
 * The duplicate is removed once unused.
 *
 * Not XLA's: minimum/maximum, add and multiply on floats are not
 * commutative here (XLA's HloCSE swaps them): the evaluator, like XLA's
 * HloEvaluator, returns the lhs on a signed-zero tie and one NaN operand
 * by position, so the swap would change a result bit (issue 30).
 *
 * Why it is sound: HLO ops without side effects are pure functions of
 * their operands and attributes, so two identical applications yield the
 * same value; two identical computations compute the same function of
 * their parameters (by induction over the paired post order: each pair
 * applies the same op to paired values), so calling either gives one
 * value (side-effecting calls and loops are no candidates); and/or/xor
 * are exactly commutative, integer add, multiply, min and max too. A
 * zero-operand instruction without side effects is a constant function
 * (the evaluator gives identical ones one value).
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 2).
 */
#include "hilo/pass.h"
#include "support/hash.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Shapes are interned: the table's hash covers the whole key (layout
 * included), and within the module equal shapes are one pointer. */
static uint64_t hash_shape(uint64_t h, const hilo_shape *s)
{
	return hilo_hash_combine(h, s->hash);
}

/* Binary ops whose operands may be swapped without changing a bit of the
 * result (hilo_instr_is_commutative: on floats max(-0, +0) != max(+0, -0)). */
static bool commutative(const hilo_instr *i)
{
	return hilo_instr_is_commutative(i);
}

/* A get-tuple-element of a multi-output fusion whose fused root tuple
 * returns the same instruction at an earlier index reads the same value:
 * the earliest such index (XLA's HloCseTest.MultiOutputFusion). */
static int64_t gte_canonical_index(const hilo_instr *i)
{
	int64_t idx;
	if (!hilo_instr_get_int(i, HILO_A_INDEX, &idx))
		return -1;
	const hilo_instr *f = i->operands[0];
	if (f->op != HILO_OP_FUSION || hilo_instr_ncalled(f) != 1 || !hilo_instr_called(f)[0]->root)
		return idx;
	const hilo_instr *r = hilo_instr_called(f)[0]->root;
	if (r->op != HILO_OP_TUPLE || idx < 0 || idx >= r->noperands)
		return idx;
	for (int64_t k = 0; k < idx; k++)
		if (r->operands[k] == r->operands[idx] &&
		    hilo_shape_equal(f->shape->elems[k], f->shape->elems[idx]))
			return k;
	return idx;
}

static uint64_t hash_instr(const hilo_instr *i)
{
	uint64_t h = hilo_hash_combine(0x12345, (uint64_t)i->op);
	h = hash_shape(h, i->shape);
	if (i->op == HILO_OP_GET_TUPLE_ELEMENT && i->noperands == 1) {
		h = hilo_hash_combine(h, i->operands[0]->id);
		h = hilo_hash_combine(h, (uint64_t)gte_canonical_index(i));
		return h;
	}
	if (commutative(i) && i->noperands == 2) {
		uint64_t a = i->operands[0]->id, b = i->operands[1]->id;
		h = hilo_hash_combine(h, a < b ? a : b);
		h = hilo_hash_combine(h, a < b ? b : a);
	} else {
		for (uint32_t k = 0; k < i->noperands; k++)
			h = hilo_hash_combine(h, i->operands[k]->id);
	}
	for (uint32_t k = 0; k < i->nattrs; k++)
		if (i->attrs[k].kind != HILO_ATTR_METADATA && i->attrs[k].kind != HILO_ATTR_CONTROL)
			h = hash_str(h, i->attrs[k].key);
	if (hilo_instr_literal(i) && hilo_instr_literal(i)->data && !hilo_instr_literal(i)->elided) {
		const unsigned char *p = hilo_instr_literal(i)->data;
		size_t n = hilo_instr_literal(i)->nbytes < 256 ? hilo_instr_literal(i)->nbytes : 256;
		for (size_t k = 0; k < n; k++)
			h = (h ^ p[k]) * 0x100000001b3ull;
	}
	return h;
}

/* The computation standing for every computation identical to c (3.):
 * reps maps a computation paired with an earlier one to that one. */
static const hilo_comp *rep_of(const hilo_ptrmap *reps, const hilo_comp *c)
{
	const hilo_comp *r = hilo_ptrmap_get(reps, c);
	return r ? r : c;
}

static bool same_comp(const hilo_ptrmap *reps, const hilo_comp *a, const hilo_comp *b)
{
	return rep_of(reps, a) == rep_of(reps, b);
}

static bool attr_equal(const hilo_ptrmap *reps, const hilo_instr *a, const hilo_attr *x,
	const hilo_instr *b, const hilo_attr *y)
{
	if (x->kind != y->kind || x->n != y->n)
		return false;
	switch (x->kind) {
	case HILO_ATTR_RAW:
	case HILO_ATTR_STRING:
	case HILO_ATTR_ENUM:
		return (x->v.text == y->v.text) ||
			(x->v.text && y->v.text && !strcmp(x->v.text, y->v.text));
	case HILO_ATTR_INT:
	case HILO_ATTR_BOOL:
		return x->v.i == y->v.i;
	case HILO_ATTR_INTS:
		return x->n == 0 || !memcmp(x->v.ints, y->v.ints, (size_t)x->n * sizeof(int64_t));
	case HILO_ATTR_SLICE:
	case HILO_ATTR_PADDING:
		return x->n == 0 || !memcmp(x->v.ints, y->v.ints, (size_t)x->n * 3 * sizeof(int64_t));
	case HILO_ATTR_COMP:
		return same_comp(reps, hilo_instr_called(a)[x->v.i], hilo_instr_called(b)[y->v.i]);
	case HILO_ATTR_COMPS:
		for (int k = 0; k < x->n; k++)
			if (!same_comp(reps, hilo_instr_called(a)[x->v.i + k], hilo_instr_called(b)[y->v.i + k]))
				return false;
		return true;
	case HILO_ATTR_CONTROL:
	case HILO_ATTR_METADATA:
		return true;
	}
	return false;
}

static uint32_t semantic_attrs(const hilo_instr *i)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < i->nattrs; k++)
		n += i->attrs[k].kind != HILO_ATTR_METADATA && i->attrs[k].kind != HILO_ATTR_CONTROL;
	return n;
}

static bool literal_equal(const hilo_literal *a, const hilo_literal *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->elided || b->elided || a->ntuple || b->ntuple)
		return false;
	if (!hilo_shape_equal(a->shape, b->shape) || a->nbytes != b->nbytes || a->splat != b->splat)
		return false;
	return a->nbytes == 0 || (a->data && b->data && !memcmp(a->data, b->data, a->nbytes));
}

/* Everything but the operands (opcode, shape, callees, literal,
 * attributes). */
static bool same_but_operands(const hilo_ptrmap *reps, const hilo_instr *a, const hilo_instr *b)
{
	if (a->op != b->op || a->async_op != b->async_op || a->noperands != b->noperands ||
	    hilo_instr_ncalled(a) != hilo_instr_ncalled(b) || a->shape != b->shape) /* interned: one module */
		return false;
	for (uint32_t k = 0; k < hilo_instr_ncalled(a); k++)
		if (!same_comp(reps, hilo_instr_called(a)[k], hilo_instr_called(b)[k]))
			return false;
	if (a->op == HILO_OP_CONSTANT && !literal_equal(hilo_instr_literal(a), hilo_instr_literal(b)))
		return false;
	if (hilo_instr_param_no(a) != hilo_instr_param_no(b) || semantic_attrs(a) != semantic_attrs(b))
		return false;
	for (uint32_t k = 0; k < a->nattrs; k++) {
		const hilo_attr *x = &a->attrs[k];
		if (x->kind == HILO_ATTR_METADATA || x->kind == HILO_ATTR_CONTROL)
			continue;
		const hilo_attr *y = hilo_instr_attr_match(b, x);
		if (!y || !attr_equal(reps, a, x, b, y))
			return false;
	}
	return true;
}

/* What identical computations share (opcodes, shapes and operand counts
 * in list order): only computations with one sketch are compared. */
static uint64_t comp_sketch(const hilo_comp *c)
{
	uint64_t h = hilo_hash_combine(0x5ca1ab1e, c->nparams);
	for (const hilo_instr *i = c->first; i; i = i->next)
		h = hilo_hash_combine(hilo_hash_combine(hilo_hash_combine(h, i->op), i->shape->hash), i->noperands);
	return h;
}

/* 3.: a and b, computations of one module, are identical. pos is
 * scratch: instruction -> its post-order position + 1. */
static bool comps_identical(hilo_module *m, const hilo_ptrmap *reps, hilo_ptrmap *pos, hilo_comp *a,
	hilo_comp *b)
{
	if (a->nparams != b->nparams || a->ninstrs != b->ninstrs || !a->root || !b->root ||
	    a->root->shape != b->root->shape ||
	    (a->execution_thread != b->execution_thread &&
	     (!a->execution_thread || !b->execution_thread || strcmp(a->execution_thread, b->execution_thread))))
		return false;
	uint32_t na, nb;
	hilo_instr **pa = hilo_comp_post_order(m, a, &na), **pb = hilo_comp_post_order(m, b, &nb);
	if (!pa || !pb || na != nb)
		return false;
	hilo_ptrmap_clear(pos);
	for (uint32_t k = 0; k < na; k++) {
		hilo_ptrmap_put(pos, pa[k], (void *)(uintptr_t)(k + 1));
		hilo_ptrmap_put(pos, pb[k], (void *)(uintptr_t)(k + 1));
	}
	if (hilo_ptrmap_get(pos, a->root) != hilo_ptrmap_get(pos, b->root))
		return false;
	for (uint32_t k = 0; k < na; k++) {
		const hilo_instr *x = pa[k], *y = pb[k];
		if (hilo_instr_nctrl_preds(x) || hilo_instr_nctrl_preds(y) || !same_but_operands(reps, x, y))
			return false;
		for (uint32_t j = 0; j < x->noperands; j++)
			if (hilo_ptrmap_get(pos, x->operands[j]) != hilo_ptrmap_get(pos, y->operands[j]))
				return false;
	}
	return true;
}

static bool identical(const hilo_ptrmap *reps, const hilo_instr *a, const hilo_instr *b)
{
	if (a->op != b->op || a->async_op != b->async_op || a->noperands != b->noperands ||
	    hilo_instr_ncalled(a) != hilo_instr_ncalled(b) || a->shape != b->shape) /* interned: one module */
		return false;
	bool same = true;
	for (uint32_t k = 0; k < a->noperands && same; k++)
		same = a->operands[k] == b->operands[k];
	if (!same && !(commutative(a) && a->noperands == 2 &&
	               a->operands[0] == b->operands[1] && a->operands[1] == b->operands[0]))
		return false;
	for (uint32_t k = 0; k < hilo_instr_ncalled(a); k++)
		if (!same_comp(reps, hilo_instr_called(a)[k], hilo_instr_called(b)[k]))
			return false;
	if (a->op == HILO_OP_CONSTANT && !literal_equal(hilo_instr_literal(a), hilo_instr_literal(b)))
		return false;
	if (a->op == HILO_OP_GET_TUPLE_ELEMENT && a->noperands == 1 &&
	    semantic_attrs(a) == 1 && semantic_attrs(b) == 1)
		return gte_canonical_index(a) == gte_canonical_index(b);
	if (semantic_attrs(a) != semantic_attrs(b))
		return false;
	for (uint32_t k = 0; k < a->nattrs; k++) {
		const hilo_attr *x = &a->attrs[k];
		if (x->kind == HILO_ATTR_METADATA || x->kind == HILO_ATTR_CONTROL)
			continue;
		const hilo_attr *y = hilo_instr_attr_match(b, x);
		if (!y || !attr_equal(reps, a, x, b, y))
			return false;
	}
	return true;
}

static bool must_fuse(const hilo_instr *i)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_FRONTEND_ATTRIBUTES);
	return a && a->kind == HILO_ATTR_RAW && a->v.text && strstr(a->v.text, "MUST_FUSE");
}

static bool candidate(hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo)
{
	if (i->op == HILO_OP_PARAMETER || hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i))
		return false;
	if (i->op == HILO_OP_CONSTANT)
		return hilo_instr_literal(i) && !hilo_instr_literal(i)->elided && !hilo_instr_literal(i)->ntuple;
	char v[8];
	if (i->noperands == 0 && i->op != HILO_OP_PARTITION_ID && i->op != HILO_OP_REPLICA_ID &&
	    i->op != HILO_OP_IOTA &&
	    !(hilo_instr_frontend_attr(i, "_xla_cse_safe_zero_operand", v, sizeof v) &&
	      !strcmp(v, "true")))
		return false;
	switch (i->op) {
	case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE:
	case HILO_OP_COPY_START:
	case HILO_OP_COPY_DONE:
		return false;
	default:
		break;
	}
	return !must_fuse(i) && !hilo_instr_has_side_effect_deep(m, i, memo);
}

static uint64_t cse_comp(hilo_pass_ctx *ctx, hilo_comp *c, hilo_ptrmap *memo, const hilo_ptrmap *reps)
{
	hilo_module *m = ctx->m;
	uint32_t n;
	hilo_instr **order = hilo_comp_post_order(m, c, &n);
	size_t cap = 16;
	while (cap < (size_t)n * 2)
		cap *= 2;
	hilo_instr **table = hilo_heap_alloc(m->arena, (cap) * sizeof *table);
	if (!table)
		return 0;
	uint64_t merged = 0;
	/* constants first (XLA's CombineConstants), then everything else in
	 * post order so operands are canonical before their users are hashed */
	for (int phase = 0; phase < 2; phase++) {
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *i = order[k];
			if ((i->op == HILO_OP_CONSTANT) != (phase == 0) || !i->parent)
				continue;
			if (!candidate(m, i, memo))
				continue;
			size_t s = (size_t)hash_instr(i) & (cap - 1);
			hilo_instr *found = NULL;
			while (table[s]) {
				if (identical(reps, table[s], i)) {
					found = table[s];
					break;
				}
				s = (s + 1) & (cap - 1);
			}
			if (!found) {
				table[s] = i;
				continue;
			}
			hilo_remark(ctx, c, i, "rewritten", "identical to %s", found->name);
			hilo_instr_replace_all_uses(m, i, found);
			if (i->nusers == 0 && c->root != i)
				hilo_comp_remove(c, i);
			merged++;
		}
	}
	hilo_heap_free(m->arena, table);
	return merged;
}

hilo_pass_result hilo_pass_cse(hilo_pass_ctx *ctx)
{
	hilo_ptrmap memo;
	hilo_ptrmap_init_in(&memo, ctx->m->arena);
	uint64_t merged = 0;
	uint32_t nc;
	hilo_comp **comps = hilo_module_comp_post_order(ctx->m, &nc);
	hilo_ptrmap reps, pos;
	hilo_ptrmap_init_in(&reps, ctx->m->arena);
	hilo_ptrmap_init_in(&pos, ctx->m->arena);
	uint64_t *sketch = hilo_heap_alloc(ctx->m->arena, (nc + 1) * sizeof *sketch);
	if (!sketch)
		return HILO_PASS_UNCHANGED;
	/* callees first: each computation CSE'd, then paired with an earlier
	 * identical one (3.) before its callers compare calls of it */
	for (uint32_t k = 0; k < nc; k++) {
		merged += cse_comp(ctx, comps[k], &memo, &reps);
		sketch[k] = comp_sketch(comps[k]);
		for (uint32_t j = 0; j < k && !comps[k]->is_entry; j++)
			if (sketch[j] == sketch[k] && !hilo_ptrmap_get(&reps, comps[j]) &&
			    comps_identical(ctx->m, &reps, &pos, comps[j], comps[k])) {
				hilo_ptrmap_put(&reps, comps[k], comps[j]);
				break;
			}
	}
	hilo_ptrmap_free(&reps);
	hilo_ptrmap_free(&pos);
	hilo_heap_free(ctx->m->arena, sketch);
	hilo_ptrmap_free(&memo);
	ctx->rewrites += merged;
	return merged ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

/* simplify-concat (#27; seed 000, "SimplifyConcat").
 *
 * Runs five concatenate peepholes over the entry computation only, in the
 * seed's order, each over a post-order snapshot; changed = OR of the five.
 * The seed leaves the exact predicates open (MED); these are ours, each
 * chosen so the rewrite is exact bit for bit:
 *
 * 1. selectionRemoval: select(p, a, b) where p is a constant pred with
 *    known values (or a broadcast of one) that are all true -> a, all
 *    false -> b. Sound: select picks per element, and every element picks
 *    the same side. The chosen operand must be interchangeable in shape
 *    (type, dims, layout when both print one).
 *
 * 2. additionToConcatenation: add(pad(a, za), pad(b, zb)) -> concatenate
 *    (a, b) (or (b, a)) on axis d when: the add and both pads have the same
 *    integer (not pred) or floating type; neither pad has interior or
 *    negative padding; on every axis but d both pads are 0_0; on d one pad
 *    is 0_len(b) and the other len(a)_0 (complementary, non-overlapping,
 *    covering the result); za, zb are scalar constants (or broadcasts of
 *    one) equal to zero -- for integer types any zero, for floating types
 *    *negative* zero only. Sound: each element is x + z with z the identity
 *    of the addition; for floats only -0 is an exact identity (x + -0 == x
 *    for every x including -0 and quiet NaNs, while -0 + +0 == +0), so
 *    pads with +0 are declined with a remark; and only for an x that is
 *    never a signalling NaN (the add quiets one: nan(0x1) becomes
 *    nan(0x400001)), so a float operand not made by arithmetic (a
 *    parameter, a bitcast; hilo_cu_never_snan) declines too (issue 30). With --assume-no-signed-zeros
 *    (ctx->assume_no_signed_zeros, the meaning of LLVM's nsz; XLA's
 *    algebraic simplifier rewrites A + 0 => A unconditionally) +0 pads
 *    count too: the result then differs at most in the sign of a zero,
 *    and the equivalence check compares modulo the sign of zero.
 *
 * 3. fuseConcatenations: concatenate(..., concatenate(y1..yk), ...) on the
 *    same dimension -> concatenate(..., y1..yk, ...), in place. Sound:
 *    concatenation along one axis is associative. The inner concatenate
 *    stays if it has other users.
 *
 * 4. simplifyConcatenatedSum: add(concatenate(x1..xn), concatenate(y1..yn))
 *    with both concatenates on the same dimension d, the same operand count
 *    and xi.dims[d] == yi.dims[d] for every i (identical split points), and
 *    each concatenate used only by this add -> concatenate(add(x1, y1), ...,
 *    add(xn, yn)) on d. Sound: add is elementwise and both sides place part
 *    i at the same offsets. (The single-user condition keeps the rewrite
 *    from duplicating work; it is not needed for soundness.)
 *
 * 5. simplifyConcatenatedZeros: operands of a concatenate that are
 *    broadcasts of a scalar zero constant (+0 or -0, any type but complex)
 *    with bit-identical scalars:
 *    - if exactly one operand x is not such a zero -> pad(x, scalar) with
 *      padding lo = total zero extent before x, hi = total after, on the
 *      concat axis (0_0 elsewhere); pad writes exactly that scalar's bits.
 *    - else adjacent runs of two or more such zeros merge into one
 *      broadcast of the scalar with the summed extent; a concatenate left
 *      with one operand is replaced by it.
 *    Zero arrays that are not broadcasts of a scalar are left alone.
 *
 * Like XLA's ReplaceInstruction, each rewrite removes the replaced
 * instruction and the operands that became dead with it (transitively);
 * nothing else is touched, so unrelated dead code stays.
 */
#include "concat_util.h"
#include "variants.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo/float.h"

/* The scalar constant c is or broadcasts (rank 0, values known), or NULL. */
static hilo_instr *scalar_const(hilo_instr *i)
{
	if (i->op == HILO_OP_BROADCAST && i->noperands == 1)
		i = i->operands[0];
	if (i->op != HILO_OP_CONSTANT || !hilo_instr_literal(i) || hilo_instr_literal(i)->elided || !hilo_instr_literal(i)->data ||
	    !hilo_shape_is_array(i->shape) || i->shape->rank != 0)
		return NULL;
	return i;
}

static bool same_bits(const hilo_instr *a, const hilo_instr *b)
{
	return a->shape->type == b->shape->type && hilo_instr_literal(a)->nbytes == hilo_instr_literal(b)->nbytes &&
		memcmp(hilo_instr_literal(a)->data, hilo_instr_literal(b)->data, hilo_instr_literal(a)->nbytes) == 0;
}

/* Exact additive identity for type t: integer 0, or float -0; any float
 * zero with nsz (--assume-no-signed-zeros). */
static bool additive_identity(hilo_instr *z, hilo_ptype t, bool nsz)
{
	hilo_instr *c = scalar_const(z);
	if (!c || c->shape->type != t || !hilo_cu_is_zero(c))
		return false;
	if (hilo_ptype_is_int(t))
		return true;
	if (!hilo_ptype_is_float(t))
		return false;
	return nsz || signbit(hilo_elem_get_f64(t, hilo_instr_literal(c)->data, 0)) != 0;
}

/* The post order of c the rewrites walk. A rewrite that reports no change
 * has edited neither the list nor an operand (every edit sets changed),
 * so the next one walks the same order: computed once until something
 * changes (five post orders of a large entry computation were the pass's
 * main cost). */
typedef struct po_cache {
	hilo_instr **po;
	uint32_t n;
	bool valid;
	hilo_concat_add_keeps_fn keeps; /* x + -0 is x bit for bit for this x */
} po_cache;

static hilo_instr **snapshot(hilo_module *m, hilo_comp *c, uint32_t *n, po_cache *pc)
{
	if (!pc->valid) {
		pc->po = hilo_comp_post_order(m, c, &pc->n);
		pc->valid = pc->po != NULL;
		if (!pc->po)
			pc->n = 0;
	}
	*n = pc->n;
	return pc->po;
}

static bool live(const hilo_instr *i, const hilo_comp *c)
{
	return i->parent == c;
}

/* ---- 1. selectionRemoval ---------------------------------------------- */

static bool selection_removal(hilo_pass_ctx *ctx, hilo_comp *c, po_cache *pc)
{
	uint32_t n;
	hilo_instr **po = snapshot(ctx->m, c, &n, pc);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *s = po[k];
		if (!live(s, c) || s->op != HILO_OP_SELECT || s->noperands != 3)
			continue;
		hilo_instr *p = s->operands[0];
		if (p->op == HILO_OP_BROADCAST && p->noperands == 1)
			p = p->operands[0];
		if (p->op != HILO_OP_CONSTANT || !hilo_instr_literal(p) || hilo_instr_literal(p)->elided || !hilo_instr_literal(p)->data ||
		    p->shape->type != HILO_T_PRED)
			continue;
		int64_t ne = hilo_shape_elements(p->shape);
		if (ne <= 0)
			continue;
		const unsigned char *v = hilo_instr_literal(p)->data;
		if (hilo_instr_literal(p)->splat) /* one stored element */
			ne = 1;
		bool all_t = true, all_f = true;
		for (int64_t e = 0; e < ne; e++) {
			all_t &= v[e] != 0;
			all_f &= v[e] == 0;
		}
		if (!all_t && !all_f)
			continue;
		hilo_instr *pick = s->operands[all_t ? 1 : 2];
		if (!hilo_cu_interchangeable(s->shape, pick->shape)) {
			hilo_remark(ctx, c, s, "declined", "selectionRemoval: %s differs in shape or layout", pick->name);
			continue;
		}
		hilo_remark(ctx, c, s, "rewritten", "selectionRemoval: predicate is constant %s -> %s",
			all_t ? "true" : "false", pick->name);
		hilo_instr_replace_all_uses(ctx->m, s, pick);
		hilo_cu_erase_dead(ctx->m, s);
		ctx->rewrites++;
		changed = true;
	}
	return changed;
}

/* ---- 2. additionToConcatenation ---------------------------------------- */

static hilo_attr *plain_padding(const hilo_instr *pad)
{
	hilo_attr *a = hilo_instr_attr(pad, HILO_A_PADDING);
	if (!a || a->kind != HILO_ATTR_PADDING || a->n != pad->shape->rank)
		return NULL;
	for (int d = 0; d < a->n; d++)
		if (a->v.ints[3 * d] < 0 || a->v.ints[3 * d + 1] < 0 || a->v.ints[3 * d + 2] != 0)
			return NULL;
	return a;
}

static hilo_instr *make_concat(hilo_module *m, hilo_shape *shape, int64_t dim, hilo_instr *const *ops, uint32_t n)
{
	hilo_instr *cat = hilo_instr_create(m, HILO_OP_CONCATENATE, shape, "concatenate");
	for (uint32_t k = 0; k < n; k++)
		hilo_instr_add_operand(m, cat, ops[k]);
	hilo_attr_set_ints(m, hilo_instr_set_attr(m, cat, HILO_A_DIMENSIONS, HILO_ATTR_INTS), &dim, 1);
	return cat;
}

static bool addition_to_concatenation(hilo_pass_ctx *ctx, hilo_comp *c, po_cache *pc)
{
	hilo_module *m = ctx->m;
	uint32_t n;
	hilo_instr **po = snapshot(m, c, &n, pc);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *add = po[k];
		if (!live(add, c) || add->op != HILO_OP_ADD || add->noperands != 2)
			continue;
		hilo_instr *pa = add->operands[0], *pb = add->operands[1];
		if (pa->op != HILO_OP_PAD || pb->op != HILO_OP_PAD)
			continue;
		hilo_ptype t = add->shape->type;
		hilo_attr *aa = plain_padding(pa), *ab = plain_padding(pb);
		int rank = add->shape->rank;
		if (!aa || !ab || pa->shape->type != t || pb->shape->type != t || rank == 0)
			continue;
		int axis = -1;
		bool ok = true;
		for (int d = 0; d < rank && ok; d++) {
			bool zero = aa->v.ints[3 * d] == 0 && aa->v.ints[3 * d + 1] == 0 &&
				ab->v.ints[3 * d] == 0 && ab->v.ints[3 * d + 1] == 0;
			if (zero)
				continue;
			if (axis >= 0)
				ok = false;
			axis = d;
		}
		if (!ok || axis < 0)
			continue;
		hilo_instr *a = pa->operands[0], *b = pb->operands[0];
		int64_t la = a->shape->dims[axis], lb = b->shape->dims[axis];
		const int64_t *A = aa->v.ints + 3 * axis, *B = ab->v.ints + 3 * axis;
		hilo_instr *ops[2];
		if (A[0] == 0 && A[1] == lb && B[0] == la && B[1] == 0) {
			ops[0] = a;
			ops[1] = b;
		} else if (B[0] == 0 && B[1] == la && A[0] == lb && A[1] == 0) {
			ops[0] = b;
			ops[1] = a;
		} else {
			hilo_remark(ctx, c, add, "declined",
				"additionToConcatenation: pad regions on dimension %d are not complementary", axis);
			continue;
		}
		bool nsz = ctx->assume_no_signed_zeros;
		if (!additive_identity(pa->operands[1], t, nsz) ||
		    !additive_identity(pb->operands[1], t, nsz)) {
			hilo_remark(ctx, c, add, "declined",
				"additionToConcatenation: padding values are not an exact additive identity "
				"(integer 0 or float -0%s)", nsz ? "" : "; +0 only with --assume-no-signed-zeros");
			continue;
		}
		if (!pc->keeps(a) || !pc->keeps(b)) {
			/* x + -0 quiets a signalling NaN: nan(0x1) -> nan(0x400001) */
			hilo_remark(ctx, c, add, "declined",
				"additionToConcatenation: a padded value may be a signalling NaN, which the add "
				"would quiet (it is not made by arithmetic)");
			continue;
		}
		hilo_instr *cat = make_concat(m, add->shape, axis, ops, 2);
		hilo_comp_insert_before(c, add, cat);
		hilo_remark(ctx, c, add, "rewritten", "additionToConcatenation: add of complementary pads -> %s%s",
			cat->name, nsz ? " (assuming no signed zeros)" : "");
		hilo_instr_replace_all_uses(m, add, cat);
		hilo_cu_erase_dead(m, add);
		ctx->rewrites++;
		changed = true;
	}
	return changed;
}

/* ---- 3. fuseConcatenations --------------------------------------------- */

static int64_t cat_dim(const hilo_instr *i)
{
	int n;
	const int64_t *v = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &n);
	return v && n == 1 ? v[0] : -1;
}

static bool fuse_concatenations(hilo_pass_ctx *ctx, hilo_comp *c, po_cache *pc)
{
	hilo_module *m = ctx->m;
	uint32_t n;
	hilo_instr **po = snapshot(m, c, &n, pc);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *cat = po[k];
		if (!live(cat, c) || cat->op != HILO_OP_CONCATENATE)
			continue;
		int64_t d = cat_dim(cat);
		uint32_t total = 0;
		bool any = false;
		for (uint32_t o = 0; o < cat->noperands; o++) {
			hilo_instr *in = cat->operands[o];
			if (in->op == HILO_OP_CONCATENATE && d >= 0 && cat_dim(in) == d) {
				total += in->noperands;
				any = true;
			} else {
				total++;
			}
		}
		if (!any)
			continue;
		hilo_instr **ops = hilo_heap_alloc(m->arena, ((size_t)total + 1) * sizeof *ops);
		if (!ops)
			return changed;
		uint32_t t = 0;
		for (uint32_t o = 0; o < cat->noperands; o++) {
			hilo_instr *in = cat->operands[o];
			if (in->op == HILO_OP_CONCATENATE && cat_dim(in) == d)
				for (uint32_t q = 0; q < in->noperands; q++)
					ops[t++] = in->operands[q];
			else
				ops[t++] = in;
		}
		hilo_instr **old = hilo_heap_alloc(m->arena, ((size_t)cat->noperands + 1) * sizeof *old);
		uint32_t nold = cat->noperands;
		if (old)
			memcpy(old, cat->operands, nold * sizeof *old);
		hilo_instr_clear_operands(cat);
		for (uint32_t q = 0; q < t; q++)
			hilo_instr_add_operand(m, cat, ops[q]);
		hilo_heap_free(m->arena, ops);
		for (uint32_t q = 0; old && q < nold; q++)
			hilo_cu_erase_dead(m, old[q]);
		hilo_heap_free(m->arena, old);
		hilo_remark(ctx, c, cat, "rewritten", "fuseConcatenations: nested concatenates on dimension %lld flattened",
			(long long)d);
		ctx->rewrites++;
		changed = true;
	}
	return changed;
}

/* ---- 4. simplifyConcatenatedSum ----------------------------------------- */

static bool only_used_by(const hilo_instr *i, const hilo_instr *user)
{
	for (uint32_t u = 0; u < i->nusers; u++)
		if (i->users[u].user != user)
			return false;
	return !i->is_root;
}

static bool simplify_concatenated_sum(hilo_pass_ctx *ctx, hilo_comp *c, po_cache *pc)
{
	hilo_module *m = ctx->m;
	uint32_t n;
	hilo_instr **po = snapshot(m, c, &n, pc);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *add = po[k];
		if (!live(add, c) || add->op != HILO_OP_ADD || add->noperands != 2)
			continue;
		hilo_instr *x = add->operands[0], *y = add->operands[1];
		if (x->op != HILO_OP_CONCATENATE || y->op != HILO_OP_CONCATENATE)
			continue;
		int64_t d = cat_dim(x);
		bool ok = d >= 0 && d == cat_dim(y) && x->noperands == y->noperands && x->noperands >= 2 &&
			x->shape->type == add->shape->type && y->shape->type == add->shape->type;
		for (uint32_t o = 0; ok && o < x->noperands; o++)
			ok = x->operands[o]->shape->dims[d] == y->operands[o]->shape->dims[d];
		if (!ok) {
			if (d >= 0)
				hilo_remark(ctx, c, add, "declined",
					"simplifyConcatenatedSum: concatenates do not share split points");
			continue;
		}
		if (!only_used_by(x, add) || !only_used_by(y, add)) {
			hilo_remark(ctx, c, add, "declined",
				"simplifyConcatenatedSum: a concatenate has other users (would duplicate work)");
			continue;
		}
		hilo_instr **parts = hilo_heap_alloc(m->arena, ((size_t)x->noperands + 1) * sizeof *parts);
		if (!parts)
			return changed;
		for (uint32_t o = 0; o < x->noperands; o++) {
			hilo_shape *s = hilo_shape_with_dim(m->shapes, add->shape, (int)d, x->operands[o]->shape->dims[d]);
			hilo_instr *p = hilo_instr_create(m, HILO_OP_ADD, s, "add");
			hilo_instr_add_operand(m, p, x->operands[o]);
			hilo_instr_add_operand(m, p, y->operands[o]);
			hilo_comp_insert_before(c, add, p);
			parts[o] = p;
		}
		hilo_instr *cat = make_concat(m, add->shape, d, parts, x->noperands);
		hilo_heap_free(m->arena, parts);
		hilo_comp_insert_before(c, add, cat);
		hilo_remark(ctx, c, add, "rewritten", "simplifyConcatenatedSum: add of %u-part concatenates -> %s",
			x->noperands, cat->name);
		hilo_instr_replace_all_uses(m, add, cat);
		hilo_cu_erase_dead(m, add);
		ctx->rewrites++;
		changed = true;
	}
	return changed;
}

/* ---- 5. simplifyConcatenatedZeros --------------------------------------- */

/* The scalar zero constant a broadcast operand repeats, or NULL. */
static hilo_instr *zero_scalar(hilo_instr *i)
{
	if (i->op != HILO_OP_BROADCAST || i->noperands != 1)
		return NULL;
	hilo_instr *s = scalar_const(i);
	return s && hilo_cu_is_zero(s) && !hilo_ptype_is_complex(s->shape->type) ? s : NULL;
}

static bool to_pad(hilo_pass_ctx *ctx, hilo_comp *c, hilo_instr *cat, int64_t d, hilo_instr *x,
	hilo_instr *z, int64_t lo, int64_t hi)
{
	hilo_module *m = ctx->m;
	int rank = cat->shape->rank;
	hilo_instr *pad = hilo_instr_create(m, HILO_OP_PAD, cat->shape, "pad");
	hilo_instr_add_operand(m, pad, x);
	hilo_instr_add_operand(m, pad, z);
	hilo_attr *a = hilo_instr_set_attr(m, pad, HILO_A_PADDING, HILO_ATTR_PADDING);
	a->n = rank;
	a->v.ints = hilo_arena_alloc(m->arena, (size_t)(3 * rank + 1) * sizeof(int64_t));
	a->v.ints[3 * d] = lo;
	a->v.ints[3 * d + 1] = hi;
	hilo_comp_insert_before(c, cat, pad);
	hilo_remark(ctx, c, cat, "rewritten", "simplifyConcatenatedZeros: concat of %s with zeros -> %s (%lld_%lld)",
		x->name, pad->name, (long long)lo, (long long)hi);
	hilo_instr_replace_all_uses(m, cat, pad);
	hilo_cu_erase_dead(m, cat);
	ctx->rewrites++;
	return true;
}

static bool simplify_concatenated_zeros(hilo_pass_ctx *ctx, hilo_comp *c, po_cache *pc)
{
	hilo_module *m = ctx->m;
	uint32_t n;
	hilo_instr **po = snapshot(m, c, &n, pc);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *cat = po[k];
		if (!live(cat, c) || cat->op != HILO_OP_CONCATENATE || cat->noperands < 2)
			continue;
		int64_t d = cat_dim(cat);
		if (d < 0)
			continue;
		hilo_instr *z0 = NULL, *x = NULL;
		uint32_t nonzero = 0, zeros = 0;
		int64_t lo = 0, hi = 0;
		for (uint32_t o = 0; o < cat->noperands; o++) {
			hilo_instr *op = cat->operands[o];
			hilo_instr *z = zero_scalar(op);
			if (z && (!z0 || same_bits(z0, z))) {
				z0 = z0 ? z0 : z;
				zeros++;
				*(x ? &hi : &lo) += op->shape->dims[d];
			} else {
				nonzero++;
				x = op;
			}
		}
		if (!zeros)
			continue;
		if (nonzero == 1 && z0->shape->type == cat->shape->type &&
		    hilo_cu_interchangeable(x->shape, hilo_shape_with_dim(m->shapes, cat->shape, (int)d, x->shape->dims[d]))) {
			changed |= to_pad(ctx, c, cat, d, x, z0, lo, hi);
			continue;
		}
		/* merge runs of adjacent identical zeros */
		hilo_instr **ops = hilo_heap_alloc(m->arena, ((size_t)cat->noperands + 1) * sizeof *ops);
		if (!ops)
			return changed;
		uint32_t t = 0;
		bool merged = false;
		for (uint32_t o = 0; o < cat->noperands;) {
			hilo_instr *op = cat->operands[o];
			hilo_instr *z = zero_scalar(op);
			uint32_t e = o + 1;
			int64_t ext = op->shape->dims[d];
			while (z && e < cat->noperands) {
				hilo_instr *z2 = zero_scalar(cat->operands[e]);
				if (!z2 || !same_bits(z, z2))
					break;
				ext += cat->operands[e]->shape->dims[d];
				e++;
			}
			if (e - o >= 2) {
				hilo_instr *b = hilo_instr_clone(m, op, NULL);
				hilo_instr_set_shape(m, b, hilo_shape_with_dim(m->shapes, op->shape, (int)d, ext));
				hilo_instr_add_operand(m, b, op->operands[0]);
				hilo_comp_insert_before(c, cat, b);
				ops[t++] = b;
				merged = true;
			} else {
				ops[t++] = op;
			}
			o = e;
		}
		if (merged) {
			hilo_remark(ctx, c, cat, "rewritten", "simplifyConcatenatedZeros: merged %u zero operands into %u",
				cat->noperands, t);
			uint32_t nold = cat->noperands;
			hilo_instr **old = hilo_heap_alloc(m->arena, ((size_t)nold + 1) * sizeof *old);
			if (old)
				memcpy(old, cat->operands, nold * sizeof *old);
			if (t == 1 && hilo_cu_interchangeable(cat->shape, ops[0]->shape)) {
				hilo_instr_replace_all_uses(m, cat, ops[0]);
				hilo_cu_erase_dead(m, cat);
			} else {
				hilo_instr_clear_operands(cat);
				for (uint32_t q = 0; q < t; q++)
					hilo_instr_add_operand(m, cat, ops[q]);
			}
			for (uint32_t q = 0; old && q < nold; q++)
				hilo_cu_erase_dead(m, old[q]);
			hilo_heap_free(m->arena, old);
			ctx->rewrites++;
			changed = true;
		}
		hilo_heap_free(m->arena, ops);
	}
	return changed;
}

hilo_pass_result hilo_pass_simplify_concat(hilo_pass_ctx *ctx)
{
	return hilo_simplify_concat_run(ctx, hilo_cu_never_snan);
}

hilo_pass_result hilo_simplify_concat_run(hilo_pass_ctx *ctx, hilo_concat_add_keeps_fn keeps)
{
	hilo_comp *c = ctx->m->entry;
	if (!c)
		return HILO_PASS_UNCHANGED;
	static bool (*const rewrites[])(hilo_pass_ctx *, hilo_comp *, po_cache *) = {
		selection_removal, addition_to_concatenation, fuse_concatenations,
		simplify_concatenated_sum, simplify_concatenated_zeros,
	};
	po_cache pc = {NULL, 0, false, keeps};
	bool changed = false;
	for (size_t k = 0; k < sizeof rewrites / sizeof *rewrites; k++)
		if (rewrites[k](ctx, c, &pc)) {
			changed = true;
			pc.valid = false; /* the next rewrite takes a fresh post order */
		}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

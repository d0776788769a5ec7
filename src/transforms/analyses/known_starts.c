/* The one reader of "the known start of this dynamic-slice /
 * dynamic-update-slice" (docs/tokens.md; include/hilo/pass.h, "known
 * starts"). Every pass that acts on a start index asks here.
 *
 * A start is known, per dimension, only when hilo itself established it:
 *   1. the start operand folds to a constant: a constant, or pure index
 *      arithmetic over constants (hilo_index_op_foldable) evaluated with
 *      the evaluator (hilo_eval_instr), never with semantics of our own;
 *   2. the window is as long as the operand on that dimension (the clamp
 *      pins the start at 0 whatever the index is);
 *   3. neuron-dus-ds-index-simplifier proved the start earlier in this run
 *      and recorded it by instruction id (hilo_proven_starts).
 * The result is the effective start, clamped into [0, dim - size] exactly
 * as dynamic-slice / dynamic-update-slice clamp. Index tokens in the
 * instruction's text (dsidxnow= / dusidxnow=) are never read as facts:
 * they only change the wording of hilo_known_starts_why().
 *
 * Why it is sound: (1) and (2) hold on every execution by the op's
 * semantics; (3) is a fact the simplifier proved for this very instruction
 * (ids are stable and never reused; instructions a pass creates carry no
 * facts). A proven value outside the current clamp range (the instruction
 * changed shape since) is not used.
 */
#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"

#include <stdio.h>
#include <string.h>

enum {
	FOLD_MAX_ELEMS = 1024, /* largest value folded */
	FOLD_NODES = 256,      /* instructions folded per start operand */
	FOLD_DEPTH = 64,
};

/* Broadcast and iota are left out as constant folding leaves them out
 * (XLA's HloConstantFolding never folds them): the index
 * simplifier's "folded to a constant" must mean what folding the inlined
 * clone means, or it would splice constants over broadcast bases. */
bool hilo_index_op_foldable(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ADD: case HILO_OP_SUBTRACT: case HILO_OP_MULTIPLY:
	case HILO_OP_DIVIDE: case HILO_OP_REMAINDER: case HILO_OP_NEGATE:
	case HILO_OP_ABS: case HILO_OP_MAXIMUM: case HILO_OP_MINIMUM:
	case HILO_OP_CLAMP: case HILO_OP_SELECT: case HILO_OP_COMPARE:
	case HILO_OP_AND: case HILO_OP_OR: case HILO_OP_XOR: case HILO_OP_NOT:
	case HILO_OP_SHL: case HILO_OP_SHRA: case HILO_OP_SHRL:
	case HILO_OP_CONVERT: case HILO_OP_BITCAST_CONVERT:
	case HILO_OP_RESHAPE: case HILO_OP_SLICE:
	case HILO_OP_CONCATENATE: case HILO_OP_TRANSPOSE:
	case HILO_OP_DYNAMIC_SLICE: case HILO_OP_SIGN: case HILO_OP_COPY:
	case HILO_OP_POPCNT: case HILO_OP_CLZ:
		return true;
	default:
		return false;
	}
}

static bool small_array(const hilo_shape *s)
{
	if (!s || !hilo_shape_is_array(s))
		return false;
	int64_t n = hilo_shape_elements(s);
	return n >= 0 && n <= FOLD_MAX_ELEMS;
}

static hilo_literal *fold(hilo_module *m, const hilo_instr *i, int depth, int *budget)
{
	if (--*budget < 0 || depth > FOLD_DEPTH || !small_array(i->shape))
		return NULL;
	if (i->op == HILO_OP_CONSTANT) {
		hilo_literal *l = hilo_instr_literal(i);
		if (!l || l->elided || l->ntuple || !l->data)
			return NULL;
		return l;
	}
	if (!hilo_index_op_foldable(i->op) || i->noperands > 8 || hilo_instr_ncalled(i) ||
	    hilo_instr_has_side_effect(m, i))
		return NULL;
	hilo_literal *ops[8];
	for (uint32_t k = 0; k < i->noperands; k++)
		if (!(ops[k] = fold(m, i->operands[k], depth + 1, budget)))
			return NULL;
	hilo_diags d;
	hilo_diags_init_in(&d, m->arena);
	hilo_literal *r = hilo_eval_instr(m, i, ops, &d);
	hilo_diags_free(&d);
	return r && !r->ntuple && r->data ? r : NULL;
}

hilo_literal *hilo_fold_constant_cone(hilo_module *m, const hilo_instr *i)
{
	int budget = FOLD_NODES;
	return fold(m, i, 0, &budget);
}

/* Element k of an integer literal as a start: unsigned values past
 * INT64_MAX read as INT64_MAX (they clamp to the top either way). */
static bool lit_start(const hilo_literal *l, const hilo_shape *fallback, size_t k, int64_t *out)
{
	const hilo_shape *s = l->shape ? l->shape : fallback;
	if (!s || !hilo_shape_is_array(s) || !hilo_ptype_is_int(s->type))
		return false;
	int64_t n = hilo_shape_elements(s);
	if (n < 0 || (uint64_t)k >= (uint64_t)n)
		return false;
	int64_t v = hilo_elem_get_i64(s->type, l->data, hilo_literal_slot(l, k));
	if (hilo_ptype_is_unsigned_int(s->type) && v < 0)
		v = INT64_MAX;
	*out = v;
	return true;
}

/* Why a dimension is unknown, for hilo_known_starts_why. */
typedef enum { KS_OK, KS_MALFORMED, KS_UNKNOWN } ks_status;

static ks_status known(const hilo_pass_ctx *ctx, const hilo_instr *i, int64_t *out, int *rank,
	int *bad_dim)
{
	*bad_dim = -1;
	bool dus = i->op == HILO_OP_DYNAMIC_UPDATE_SLICE;
	if ((!dus && i->op != HILO_OP_DYNAMIC_SLICE) || i->noperands < (dus ? 3u : 2u))
		return KS_MALFORMED;
	const hilo_shape *in = i->operands[0]->shape;
	if (!hilo_shape_is_array(in) || in->rank > HILO_MAX_RANK)
		return KS_MALFORMED;
	int r = in->rank;
	uint32_t first = dus ? 2 : 1;
	/* the old single-vector form: one rank-1 index operand */
	bool vec = i->noperands == first + 1 && r != 1 && i->operands[first]->shape &&
		hilo_shape_is_array(i->operands[first]->shape) && i->operands[first]->shape->rank == 1;
	if (!vec && i->noperands != first + (uint32_t)r)
		return KS_MALFORMED;
	const int64_t *extent;
	if (dus) {
		const hilo_shape *u = i->operands[1]->shape;
		if (!hilo_shape_is_array(u) || u->rank != r)
			return KS_MALFORMED;
		extent = u->dims;
	} else {
		int n = 0;
		extent = hilo_instr_get_ints(i, HILO_A_DYNAMIC_SLICE_SIZES, &n);
		if (!extent || n != r)
			return KS_MALFORMED;
	}
	for (int d = 0; d < r; d++)
		if (extent[d] < 0 || extent[d] > in->dims[d])
			return KS_MALFORMED;
	int64_t proven[HILO_MAX_RANK];
	int np = hilo_proven_starts(ctx, i, proven, HILO_MAX_RANK);
	hilo_literal *vl = vec ? hilo_fold_constant_cone(ctx->m, i->operands[first]) : NULL;
	for (int d = 0; d < r; d++) {
		int64_t hi = in->dims[d] - extent[d], v;
		const hilo_instr *ix = i->operands[vec ? first : first + (uint32_t)d];
		hilo_literal *l = vec ? vl : hilo_fold_constant_cone(ctx->m, ix);
		if (l && lit_start(l, ix->shape, vec ? (size_t)d : 0, &v))
			out[d] = v < 0 ? 0 : v > hi ? hi : v;
		else if (hi == 0)
			out[d] = 0; /* full-extent window: the clamp pins it */
		else if (np == r && proven[d] >= 0 && proven[d] <= hi)
			out[d] = proven[d];
		else {
			*bad_dim = d;
			return KS_UNKNOWN;
		}
	}
	*rank = r;
	return KS_OK;
}

int hilo_known_starts(const hilo_pass_ctx *ctx, const hilo_instr *i, int64_t *out, int max)
{
	int64_t v[HILO_MAX_RANK];
	int r = 0, bad;
	if (known(ctx, i, v, &r, &bad) != KS_OK)
		return -1;
	for (int d = 0; d < r && d < max; d++)
		out[d] = v[d];
	return r;
}

void hilo_known_starts_why(const hilo_pass_ctx *ctx, const hilo_instr *i, char *buf, size_t n)
{
	int64_t v[HILO_MAX_RANK];
	int r = 0, bad;
	ks_status st = known(ctx, i, v, &r, &bad);
	if (!n)
		return;
	if (st == KS_OK) {
		snprintf(buf, n, "start indices are known");
		return;
	}
	if (st == KS_MALFORMED) {
		snprintf(buf, n, "malformed start indices or sizes");
		return;
	}
	const char *key = i->op == HILO_OP_DYNAMIC_SLICE ? HILO_TOK_DS : HILO_TOK_DUS;
	int ntok = hilo_tokens_get(ctx->m, i, key, NULL, 0);
	int nbad = hilo_tokens_malformed(ctx->m, i, key);
	snprintf(buf, n,
		"start index of dimension %d is neither constant nor proven by "
		"neuron-dus-ds-index-simplifier in this run%s%s%s",
		bad, ntok ? "; " : "", ntok ? key : "", ntok ? " token ignored: not proven" : "");
	if (nbad) {
		size_t len = strlen(buf);
		if (len < n)
			snprintf(buf + len, n - len, "; malformed %s token ignored", key);
	}
}

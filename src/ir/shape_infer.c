/* Result-shape inference for an instruction written without a shape.
 *
 * XLA's parser accepts `r = reduce(p, c), dimensions={0}, to_apply=add`:
 * when no shape precedes the opcode it asks xla::ShapeInference for one
 * (hlo_parser.cc: CanInferShape lists the opcodes, CreateInstruction calls
 * the inference of each). This file gives the same shapes for the same
 * opcodes, with XLA's layout conventions so that the printed text matches
 * what XLA prints:
 *  - a shape derived from an operand keeps that operand's layout
 *    (elementwise ops, select, clamp, reverse, sort, scatter, fft, topk,
 *    calls, loops and conditionals: the callee's or the init's shape);
 *  - transpose permutes the layout so that the transpose is a bitcast
 *    (ShapeUtil::PermuteDimensions);
 *  - a freshly built shape (broadcast, concatenate, pad, reduce,
 *    reduce-window, dot, gather, convolution, ...) has the default layout.
 * Opcodes XLA never infers (convert, reshape, slice, custom-call, fusion,
 * collectives, ...) get an error naming them: their shape is not a
 * function of the operands in XLA's parser either.
 *
 * Inference never guesses: any operand or attribute that does not fit the
 * opcode is an error with the reason, which the parser reports at the
 * place where the shape would have been written. The verifier still
 * checks the result like any written shape.
 */
#include "ir/window.h"
#include "hilo/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct ictx {
	hilo_module *m;
	const hilo_instr *i;
	char *err;
	size_t errlen;
} ictx;

static hilo_shape *fail(ictx *X, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static hilo_shape *fail(ictx *X, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (X->errlen)
		vsnprintf(X->err, X->errlen, fmt, ap);
	va_end(ap);
	return NULL;
}

static const char *sh(ictx *X, const hilo_shape *s)
{
	return hilo_shape_str(X->m->arena, s);
}

/* ---- shape builders ---- */

/* An array shape with XLA's default layout (ShapeUtil::MakeShape). */
static hilo_shape *array(ictx *X, hilo_ptype t, int rank, const int64_t *dims, const uint8_t *dyn)
{
	return hilo_shape_array_default(X->m->shapes, t, rank, dims, dyn);
}

static hilo_shape *scalar(ictx *X, hilo_ptype t)
{
	return array(X, t, 0, NULL, NULL);
}

/* s with another element type, layout kept (ShapeUtil::ChangeElementType). */
static hilo_shape *retype(ictx *X, const hilo_shape *s, hilo_ptype t)
{
	if (s->type == t)
		return (hilo_shape *)s;
	return hilo_shape_retype(X->m->shapes, s, t);
}

static hilo_shape *tuple(ictx *X, int n, hilo_shape *const *elems)
{
	return hilo_shape_tuple(X->m->shapes, n, elems);
}

static uint8_t dyn_of(const hilo_shape *s, int d)
{
	return s->dyn ? s->dyn[d] : HILO_DIM_STATIC;
}

/* ---- operand and attribute access ---- */

static const hilo_shape *opshape(const ictx *X, uint32_t k)
{
	return X->i->operands[k]->shape;
}

static bool need_operands(ictx *X, uint32_t n)
{
	if (X->i->noperands != n) {
		fail(X, "expects %u operand%s, has %u", n, n == 1 ? "" : "s", X->i->noperands);
		return false;
	}
	return true;
}

static bool need_array(ictx *X, uint32_t k)
{
	if (!hilo_shape_is_array(opshape(X, k))) {
		fail(X, "operand %u is %s, not an array", k, sh(X, opshape(X, k)));
		return false;
	}
	return true;
}

/* An integer-list attribute; absent gives n = 0 and false. */
static bool ints(const ictx *X, hilo_attr_id key, const int64_t **v, int *n)
{
	hilo_attr *a = hilo_instr_attr(X->i, key);
	*n = 0;
	*v = NULL;
	if (!a || a->kind != HILO_ATTR_INTS)
		return false;
	*n = a->n;
	*v = a->v.ints;
	return true;
}

static bool need_ints(ictx *X, hilo_attr_id key, const int64_t **v, int *n)
{
	if (!ints(X, key, v, n)) {
		fail(X, "attribute %s= is required", hilo_attr_id_key(key));
		return false;
	}
	return true;
}

static bool need_dim(ictx *X, const char *what, int64_t d, int rank)
{
	if (d < 0 || d >= rank) {
		fail(X, "%s %lld is out of range for rank %d", what, (long long)d, rank);
		return false;
	}
	return true;
}

/* A called computation with a root, by attribute key. */
static hilo_comp *callee(ictx *X, hilo_attr_id key)
{
	hilo_comp *c = hilo_instr_get_comp(X->i, key);
	if (!c || !c->root)
		fail(X, "attribute %s= is required", hilo_attr_id_key(key));
	return c;
}

/* ---- element types ---- */

/* XLA lets floats of different precision mix (the wider one wins); any
 * other pair of element types must be equal. */
static bool merge_type(hilo_ptype a, hilo_ptype b, hilo_ptype *out)
{
	if (a == b) {
		*out = a;
		return true;
	}
	if (!hilo_ptype_is_float(a) || !hilo_ptype_is_float(b))
		return false;
	int ba = hilo_ptype_bits(a), bb = hilo_ptype_bits(b);
	if (ba != bb)
		*out = ba > bb ? a : b;
	else /* bf16 has the wider exponent range of the 16-bit pair */
		*out = b == HILO_T_BF16 ? b : a;
	return true;
}

static hilo_ptype complex_part(hilo_ptype t)
{
	return t == HILO_T_C128 ? HILO_T_F64 : HILO_T_F32;
}

static bool is_signed_num(hilo_ptype t)
{
	return hilo_ptype_is_signed_int(t) || hilo_ptype_is_float(t) || hilo_ptype_is_complex(t);
}

/* ---- elementwise ---- */

static hilo_shape *unary(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	hilo_ptype t = s->type;
	bool fl = hilo_ptype_is_float(t), cx = hilo_ptype_is_complex(t), in = hilo_ptype_is_int(t);
	const char *op = hilo_opcode_name(X->i->op);
	switch (X->i->op) {
	case HILO_OP_ABS:
		return cx ? retype(X, s, complex_part(t)) : (hilo_shape *)s;
	case HILO_OP_REAL:
	case HILO_OP_IMAG:
		if (cx)
			return retype(X, s, complex_part(t));
		if (fl)
			return (hilo_shape *)s;
		return fail(X, "%s expects a complex or floating-point operand, got %s", op, sh(X, s));
	case HILO_OP_FLOOR:
	case HILO_OP_CEIL:
	case HILO_OP_ROUND_AFZ:
	case HILO_OP_ROUND_EVEN:
		if (!fl)
			return fail(X, "%s expects a floating-point operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	case HILO_OP_IS_FINITE:
		if (!fl)
			return fail(X, "%s expects a floating-point operand, got %s", op, sh(X, s));
		return retype(X, s, HILO_T_PRED);
	case HILO_OP_CLZ:
	case HILO_OP_POPCNT:
		if (!in)
			return fail(X, "%s expects an integer operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	case HILO_OP_NOT:
		if (!in && t != HILO_T_PRED)
			return fail(X, "%s expects a pred or integer operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	case HILO_OP_NEGATE:
		if (!in && !fl && !cx)
			return fail(X, "%s expects a numeric operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	case HILO_OP_SIGN:
		if (!is_signed_num(t))
			return fail(X, "%s expects a signed operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	case HILO_OP_COPY:
		return (hilo_shape *)s;
	default: /* exp, log, sqrt, tanh, sine, ...: float or complex */
		if (!fl && !cx)
			return fail(X, "%s expects a floating-point or complex operand, got %s", op, sh(X, s));
		return (hilo_shape *)s;
	}
}

/* a's shape with the dynamic flags of a and b merged. */
static hilo_shape *merge_dyn(ictx *X, hilo_shape *a, const hilo_shape *b)
{
	if (!b->dyn || a->rank != b->rank)
		return a;
	bool differ = !a->dyn;
	for (int d = 0; d < a->rank && !differ; d++)
		differ = b->dyn[d] > a->dyn[d];
	if (!differ)
		return a;
	uint8_t dyn[HILO_MAX_RANK];
	for (int d = 0; d < a->rank && d < HILO_MAX_RANK; d++)
		dyn[d] = dyn_of(a, d) > b->dyn[d] ? dyn_of(a, d) : b->dyn[d];
	return a->rank <= HILO_MAX_RANK ? hilo_shape_with_dyn(X->m->shapes, a, dyn)
	                                : fail(X, "too many dimensions");
}

static hilo_shape *binary(ictx *X)
{
	if (!need_operands(X, 2) || !need_array(X, 0) || !need_array(X, 1))
		return NULL;
	const hilo_shape *a = opshape(X, 0), *b = opshape(X, 1);
	const char *op = hilo_opcode_name(X->i->op);
	if (!hilo_shape_same_dims(a, b))
		return fail(X, "operand shapes %s and %s differ (an HLO %s does not broadcast)", sh(X, a),
			sh(X, b), op);
	hilo_ptype t;
	if (!merge_type(a->type, b->type, &t))
		return fail(X, "operand element types differ: %s and %s", sh(X, a), sh(X, b));
	bool in = hilo_ptype_is_int(t), fl = hilo_ptype_is_float(t), cx = hilo_ptype_is_complex(t);
	hilo_ptype rt = t;
	switch (X->i->op) {
	case HILO_OP_COMPARE:
		rt = HILO_T_PRED;
		break;
	case HILO_OP_AND:
	case HILO_OP_OR:
	case HILO_OP_XOR:
		if (!in && t != HILO_T_PRED)
			return fail(X, "%s expects pred or integer operands, got %s", op, sh(X, a));
		break;
	case HILO_OP_SHL:
	case HILO_OP_SHRA:
	case HILO_OP_SHRL:
		if (!in)
			return fail(X, "%s expects integer operands, got %s", op, sh(X, a));
		break;
	case HILO_OP_ATAN2:
		if (!fl && !cx)
			return fail(X, "%s expects floating-point operands, got %s", op, sh(X, a));
		break;
	case HILO_OP_COMPLEX:
		if (t != HILO_T_F32 && t != HILO_T_F64)
			return fail(X, "%s expects f32 or f64 operands, got %s", op, sh(X, a));
		rt = t == HILO_T_F64 ? HILO_T_C128 : HILO_T_C64;
		break;
	default:
		if (t == HILO_T_PRED && X->i->op != HILO_OP_MAXIMUM && X->i->op != HILO_OP_MINIMUM)
			return fail(X, "%s expects numeric operands, got %s", op, sh(X, a));
		break;
	}
	return merge_dyn(X, retype(X, a, rt), b);
}

static hilo_shape *select_op(ictx *X)
{
	if (!need_operands(X, 3))
		return NULL;
	for (uint32_t k = 0; k < 3; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *p = opshape(X, 0), *a = opshape(X, 1), *b = opshape(X, 2);
	if (p->type != HILO_T_PRED)
		return fail(X, "select's predicate must be pred, got %s", sh(X, p));
	if (!hilo_shape_same_dims(a, b))
		return fail(X, "select's branches differ: %s and %s", sh(X, a), sh(X, b));
	if (p->rank != 0 && !hilo_shape_same_dims(p, a))
		return fail(X, "select's predicate %s is neither a scalar nor of the branches' dimensions %s",
			sh(X, p), sh(X, a));
	hilo_ptype t;
	if (!merge_type(a->type, b->type, &t))
		return fail(X, "select's branch element types differ: %s and %s", sh(X, a), sh(X, b));
	return merge_dyn(X, retype(X, a, t), b);
}

static hilo_shape *clamp_op(ictx *X)
{
	if (!need_operands(X, 3))
		return NULL;
	for (uint32_t k = 0; k < 3; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *lo = opshape(X, 0), *x = opshape(X, 1), *hi = opshape(X, 2);
	for (int k = 0; k < 2; k++) {
		const hilo_shape *bnd = k ? hi : lo;
		if (bnd->type != x->type)
			return fail(X, "clamp bound %s and operand %s differ in element type", sh(X, bnd), sh(X, x));
		if (bnd->rank != 0 && !hilo_shape_same_dims(bnd, x))
			return fail(X, "clamp bound %s is neither a scalar nor of the operand's dimensions %s",
				sh(X, bnd), sh(X, x));
	}
	return (hilo_shape *)x;
}

/* ---- structure and control flow ---- */

static hilo_shape *tuple_op(ictx *X)
{
	const hilo_instr *i = X->i;
	hilo_shape **el = hilo_heap_alloc(X->m->arena, (i->noperands + 1) * sizeof *el);
	for (uint32_t k = 0; k < i->noperands; k++)
		el[k] = i->operands[k]->shape;
	hilo_shape *r = tuple(X, (int)i->noperands, el);
	hilo_heap_free(X->m->arena, el);
	return r;
}

static hilo_shape *gte_op(ictx *X)
{
	int64_t idx;
	if (!need_operands(X, 1))
		return NULL;
	if (!hilo_instr_get_int(X->i, HILO_A_INDEX, &idx))
		return fail(X, "attribute index= is required");
	const hilo_shape *t = opshape(X, 0);
	if (t->type != HILO_T_TUPLE)
		return fail(X, "operand is %s, not a tuple", sh(X, t));
	if (idx < 0 || idx >= t->ntuple)
		return fail(X, "index %lld is out of range for %s", (long long)idx, sh(X, t));
	return t->elems[idx];
}

/* Checks the operands (from operand `first`, n of them) against the
 * callee's parameters, like ShapeInference::InferCallShape. */
static bool args_fit(ictx *X, const hilo_comp *c, uint32_t first, uint32_t n)
{
	if (c->nparams != n) {
		fail(X, "computation '%s' takes %u parameter%s, given %u", c->name, c->nparams,
			c->nparams == 1 ? "" : "s", n);
		return false;
	}
	for (uint32_t k = 0; k < n; k++) {
		const hilo_shape *a = opshape(X, first + k), *p = c->params[k]->shape;
		if (!hilo_shape_compatible(a, p)) {
			fail(X, "operand %u %s does not match parameter %u %s of '%s'", first + k, sh(X, a), k,
				sh(X, p), c->name);
			return false;
		}
	}
	return true;
}

static hilo_shape *call_op(ictx *X)
{
	hilo_comp *c = callee(X, HILO_A_TO_APPLY);
	if (!c || !args_fit(X, c, 0, X->i->noperands))
		return NULL;
	return c->root->shape;
}

static hilo_shape *while_op(ictx *X)
{
	if (!need_operands(X, 1))
		return NULL;
	hilo_comp *cond = callee(X, HILO_A_CONDITION);
	if (!cond)
		return NULL;
	hilo_comp *body = callee(X, HILO_A_BODY);
	if (!body)
		return NULL;
	const hilo_shape *init = opshape(X, 0), *cr = cond->root->shape;
	if (cr->type != HILO_T_PRED || cr->rank != 0)
		return fail(X, "the condition '%s' returns %s, not pred[]", cond->name, sh(X, cr));
	if (!args_fit(X, cond, 0, 1) || !args_fit(X, body, 0, 1))
		return NULL;
	if (!hilo_shape_compatible(body->root->shape, init))
		return fail(X, "the body '%s' returns %s, not the loop state %s", body->name,
			sh(X, body->root->shape), sh(X, init));
	return (hilo_shape *)init;
}

static hilo_shape *conditional_op(ictx *X)
{
	const hilo_instr *i = X->i;
	if (i->noperands < 1)
		return fail(X, "expects a branch index operand");
	const hilo_shape *bi = opshape(X, 0);
	if (bi->type != HILO_T_TUPLE && bi->rank != 0)
		return fail(X, "the branch index %s is not a scalar", sh(X, bi));
	hilo_comp *br[2], **branches = br;
	uint32_t n;
	if (bi->type == HILO_T_PRED) {
		if (!(br[0] = callee(X, HILO_A_TRUE_COMPUTATION)) || !(br[1] = callee(X, HILO_A_FALSE_COMPUTATION)))
			return NULL;
		n = 2;
	} else if (bi->type == HILO_T_S32) {
		hilo_attr *a = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
		if (!a || a->kind != HILO_ATTR_COMPS || a->n < 1)
			return fail(X, "attribute branch_computations= is required");
		branches = hilo_instr_called(i) + a->v.i;
		n = (uint32_t)a->n;
	} else {
		return fail(X, "the branch index %s is neither pred[] nor s32[]", sh(X, bi));
	}
	if (i->noperands != n + 1)
		return fail(X, "%u branches take %u operands after the index, given %u", n, n, i->noperands - 1);
	for (uint32_t k = 0; k < n; k++) {
		if (!branches[k]->root)
			return fail(X, "branch '%s' has no root", branches[k]->name);
		if (!args_fit(X, branches[k], k + 1, 1))
			return NULL;
		if (!hilo_shape_compatible(branches[k]->root->shape, branches[0]->root->shape))
			return fail(X, "branch '%s' returns %s, branch '%s' %s", branches[k]->name,
				sh(X, branches[k]->root->shape), branches[0]->name, sh(X, branches[0]->root->shape));
	}
	return branches[0]->root->shape;
}

/* ---- data movement ---- */

/* XLA's parser passes dimensions= to ShapeInference::InferBroadcastShape
 * (operand, broadcast_sizes): the values become the sizes of new leading
 * dimensions. That is only a valid broadcast when the dimensions then map
 * the operand onto the result; anything else is an error here. */
static hilo_shape *broadcast_op(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	const int64_t *dv;
	int nd;
	if (!ints(X, HILO_A_DIMENSIONS, &dv, &nd) && s->rank != 0)
		return fail(X, "attribute dimensions= is required");
	if (nd + s->rank > HILO_MAX_RANK)
		return fail(X, "too many dimensions");
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK] = {0};
	for (int k = 0; k < nd; k++) {
		if (dv[k] < 0)
			return fail(X, "dimensions={...} read as sizes holds a negative size %lld", (long long)dv[k]);
		dims[k] = dv[k];
	}
	for (int k = 0; k < s->rank; k++) {
		dims[nd + k] = s->dims[k];
		dyn[nd + k] = dyn_of(s, k);
	}
	hilo_shape *r = array(X, s->type, nd + s->rank, dims, dyn);
	bool fits = nd == s->rank;
	for (int k = 0; fits && k < nd; k++)
		fits = dv[k] < r->rank && r->dims[dv[k]] == s->dims[k];
	if (!fits)
		return fail(X, "XLA's parser reads dimensions= as the sizes of new leading dimensions here, "
			"giving %s, and the dimensions do not map the operand %s into it; write the result shape",
			sh(X, r), sh(X, s));
	return r;
}

static hilo_shape *concatenate_op(ictx *X)
{
	const hilo_instr *i = X->i;
	const int64_t *dv;
	int nd;
	if (!need_ints(X, HILO_A_DIMENSIONS, &dv, &nd))
		return NULL;
	if (nd != 1)
		return fail(X, "dimensions= must hold one dimension");
	if (i->noperands < 1)
		return fail(X, "expects at least one operand");
	for (uint32_t k = 0; k < i->noperands; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *s0 = opshape(X, 0);
	int64_t d = dv[0];
	if (!need_dim(X, "concatenate dimension", d, s0->rank))
		return NULL;
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	for (int k = 0; k < s0->rank; k++) {
		dims[k] = s0->dims[k];
		dyn[k] = dyn_of(s0, k);
	}
	for (uint32_t k = 1; k < i->noperands; k++) {
		const hilo_shape *s = opshape(X, k);
		bool ok = s->rank == s0->rank && s->type == s0->type;
		for (int e = 0; ok && e < s->rank; e++)
			ok = e == d || s->dims[e] == s0->dims[e];
		if (!ok)
			return fail(X, "operand %u %s does not fit operand 0 %s", k, sh(X, s), sh(X, s0));
		dims[d] += s->dims[d];
		if (dyn_of(s, (int)d) > dyn[d])
			dyn[d] = dyn_of(s, (int)d);
	}
	return array(X, s0->type, s0->rank, dims, dyn);
}

static bool is_permutation(const int64_t *p, int n)
{
	bool seen[HILO_MAX_RANK] = {false};
	for (int k = 0; k < n; k++) {
		if (p[k] < 0 || p[k] >= n || seen[p[k]])
			return false;
		seen[p[k]] = true;
	}
	return true;
}

static hilo_shape *transpose_op(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	const int64_t *p;
	int n;
	if (!need_ints(X, HILO_A_DIMENSIONS, &p, &n))
		return NULL;
	if (n != s->rank || !is_permutation(p, n))
		return fail(X, "dimensions= is not a permutation of the %d dimensions of %s", s->rank, sh(X, s));
	int64_t dims[HILO_MAX_RANK], inv[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	for (int k = 0; k < n; k++) {
		dims[k] = s->dims[p[k]];
		dyn[k] = dyn_of(s, (int)p[k]);
		inv[p[k]] = k;
	}
	if (s->layout && s->layout->n == n) {
		/* the physical order stays: the transpose is a bitcast */
		int64_t m2m[HILO_MAX_RANK];
		for (int k = 0; k < n; k++)
			m2m[k] = inv[s->layout->minor_to_major[k]];
		hilo_layout l = {n, m2m, s->layout->tail};
		return hilo_shape_array_layout(X->m->shapes, s->type, n, dims, dyn, &l);
	}
	if (!s->layout)
		return hilo_shape_array(X->m->shapes, s->type, n, dims, dyn);
	return array(X, s->type, n, dims, dyn);
}

static hilo_shape *reverse_op(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	const int64_t *dv;
	int nd;
	if (!need_ints(X, HILO_A_DIMENSIONS, &dv, &nd))
		return NULL;
	for (int k = 0; k < nd; k++)
		if (!need_dim(X, "reverse dimension", dv[k], s->rank))
			return NULL;
	return (hilo_shape *)s;
}

static hilo_shape *pad_op(ictx *X)
{
	if (!need_operands(X, 2) || !need_array(X, 0) || !need_array(X, 1))
		return NULL;
	const hilo_shape *s = opshape(X, 0), *v = opshape(X, 1);
	if (v->rank != 0 || v->type != s->type)
		return fail(X, "the padding value %s is not a scalar of the operand's type", sh(X, v));
	hilo_attr *a = hilo_instr_attr(X->i, HILO_A_PADDING);
	if (!a || a->kind != HILO_ATTR_PADDING)
		return fail(X, "attribute padding= is required");
	if (a->n != s->rank)
		return fail(X, "padding= has %d dimensions, the operand %s has %d", a->n, sh(X, s), s->rank);
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	for (int k = 0; k < s->rank; k++) {
		const int64_t *q = &a->v.ints[3 * k];
		if (q[2] < 0)
			return fail(X, "negative interior padding in dimension %d", k);
		int64_t d = s->dims[k];
		dims[k] = q[0] + q[1] + d + (d > 0 ? (d - 1) * q[2] : 0);
		if (dims[k] < 0)
			return fail(X, "padding makes dimension %d negative (%lld)", k, (long long)dims[k]);
		dyn[k] = dyn_of(s, k);
	}
	return array(X, s->type, s->rank, dims, dyn);
}

/* ---- reductions ---- */

/* Element type of a reducer's result k (of n): the root's, or its k-th
 * tuple element's. */
static bool reducer_type(ictx *X, const hilo_comp *c, uint32_t k, uint32_t n, hilo_ptype *t)
{
	const hilo_shape *r = c->root->shape;
	if (n > 1) {
		if (r->type != HILO_T_TUPLE || (uint32_t)r->ntuple != n) {
			fail(X, "the reducer '%s' returns %s, not a tuple of %u", c->name, sh(X, r), n);
			return false;
		}
		r = r->elems[k];
	}
	if (!hilo_shape_is_array(r) || r->rank != 0) {
		fail(X, "the reducer '%s' returns %s, not scalars", c->name, sh(X, c->root->shape));
		return false;
	}
	*t = r->type;
	return true;
}

/* The operands of reduce and reduce-window: N inputs then N init values,
 * and the to_apply reducer (NULL after a diagnostic). */
static hilo_comp *reducer_operands(ictx *X, uint32_t *n)
{
	const hilo_instr *i = X->i;
	if (i->noperands == 0 || i->noperands % 2) {
		fail(X, "expects an even number of operands (inputs, then init values), has %u", i->noperands);
		return NULL;
	}
	*n = i->noperands / 2;
	return callee(X, HILO_A_TO_APPLY);
}

/* The result of reduce and reduce-window: one array of the given
 * dimensions per input, of the reducer's k-th result type, checking that
 * every input has input 0's dimensions and every init value is a scalar. */
/* The results of reduce and reduce-window: reduce's elements have the
 * reducer's types, reduce-window's (init_types) the init values' (XLA's
 * shape inference; they differ only where the verifier's fp-precision
 * leeway lets a bf16 init value meet an f32 reducer). */
static hilo_shape *reducer_results(ictx *X, hilo_comp *c, uint32_t n, int rank, const int64_t *dims,
				   const uint8_t *dyn, bool init_types)
{
	const hilo_shape *s0 = opshape(X, 0);
	hilo_shape *el[HILO_MAX_RANK];
	if (n > HILO_MAX_RANK)
		return fail(X, "too many inputs");
	for (uint32_t k = 0; k < n; k++) {
		const hilo_shape *s = opshape(X, k), *init = opshape(X, n + k);
		if (!hilo_shape_same_dims(s, s0))
			return fail(X, "input %u %s and input 0 %s differ in dimensions", k, sh(X, s), sh(X, s0));
		if (init->rank != 0)
			return fail(X, "init value %u %s is not a scalar", k, sh(X, init));
		hilo_ptype t;
		if (!reducer_type(X, c, k, n, &t))
			return NULL;
		el[k] = array(X, init_types ? init->type : t, rank, dims, dyn);
	}
	return n == 1 ? el[0] : tuple(X, (int)n, el);
}

static hilo_shape *reduce_op(ictx *X)
{
	uint32_t n;
	hilo_comp *c = reducer_operands(X, &n);
	if (!c)
		return NULL;
	if (c->nparams != 2 * n)
		return fail(X, "the reducer '%s' takes %u parameters, %u inputs need %u", c->name, c->nparams, n, 2 * n);
	const int64_t *dv;
	int nd;
	if (!need_ints(X, HILO_A_DIMENSIONS, &dv, &nd))
		return NULL;
	for (uint32_t k = 0; k < 2 * n; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *s0 = opshape(X, 0);
	bool drop[HILO_MAX_RANK] = {false};
	for (int k = 0; k < nd; k++) {
		if (!need_dim(X, "reduce dimension", dv[k], s0->rank))
			return NULL;
		if (drop[dv[k]])
			return fail(X, "reduce dimension %lld appears twice", (long long)dv[k]);
		drop[dv[k]] = true;
	}
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	int rank = 0;
	for (int d = 0; d < s0->rank; d++)
		if (!drop[d]) {
			dims[rank] = s0->dims[d];
			dyn[rank++] = dyn_of(s0, d);
		}
	return reducer_results(X, c, n, rank, dims, dyn, false);
}

/* One output dimension of a windowed op (ShapeInference's
 * InferWindowOutputShape). */
static int64_t window_out(const hilo_window *w, int d, int64_t in)
{
	int64_t base = in == 0 ? 0 : (in - 1) * w->ldil[d] + 1;
	int64_t win = w->size[d] == 0 ? 0 : (w->size[d] - 1) * w->rdil[d] + 1;
	int64_t padded = base + w->lo[d] + w->hi[d];
	if (padded < win)
		return 0;
	return (padded - win) / w->stride[d] + 1;
}

static bool read_window(ictx *X, int rank, hilo_window *w)
{
	if (rank > HILO_MAX_WINDOW_RANK) {
		fail(X, "window of rank %d is too large", rank);
		return false;
	}
	hilo_attr *a = hilo_instr_attr(X->i, HILO_A_WINDOW);
	const char *t = a && a->kind == HILO_ATTR_RAW ? a->v.text : NULL;
	if (!hilo_window_parse(t, rank, w)) {
		if (t)
			fail(X, "window=%s does not fit rank %d", t, rank);
		else
			fail(X, "attribute window= (of rank %d) is required", rank);
		return false;
	}
	return true;
}

static hilo_shape *reduce_window_op(ictx *X)
{
	uint32_t n;
	hilo_comp *c = reducer_operands(X, &n);
	if (!c)
		return NULL;
	for (uint32_t k = 0; k < 2 * n; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *s0 = opshape(X, 0);
	hilo_window w;
	if (!read_window(X, s0->rank, &w))
		return NULL;
	int64_t dims[HILO_MAX_RANK];
	for (int d = 0; d < s0->rank; d++)
		dims[d] = window_out(&w, d, s0->dims[d]);
	return reducer_results(X, c, n, s0->rank, dims, NULL, true);
}

static hilo_shape *map_op(ictx *X)
{
	const hilo_instr *i = X->i;
	hilo_comp *c = callee(X, HILO_A_TO_APPLY);
	if (!c)
		return NULL;
	if (i->noperands < 1)
		return fail(X, "expects at least one operand");
	for (uint32_t k = 0; k < i->noperands; k++) {
		if (!need_array(X, k))
			return NULL;
		if (!hilo_shape_same_dims(opshape(X, k), opshape(X, 0)))
			return fail(X, "operand %u %s and operand 0 %s differ in dimensions", k, sh(X, opshape(X, k)),
				sh(X, opshape(X, 0)));
	}
	if (c->nparams != i->noperands)
		return fail(X, "'%s' takes %u parameters, given %u operands", c->name, c->nparams, i->noperands);
	const hilo_shape *r = c->root->shape, *s = opshape(X, 0);
	if (!hilo_shape_is_array(r) || r->rank != 0)
		return fail(X, "'%s' returns %s, not a scalar", c->name, sh(X, r));
	return array(X, r->type, s->rank, s->dims, s->dyn);
}

static hilo_shape *sort_op(ictx *X)
{
	const hilo_instr *i = X->i;
	if (i->noperands < 1)
		return fail(X, "expects at least one operand");
	for (uint32_t k = 0; k < i->noperands; k++) {
		if (!need_array(X, k))
			return NULL;
		if (!hilo_shape_same_dims(opshape(X, k), opshape(X, 0)))
			return fail(X, "operand %u %s and operand 0 %s differ in dimensions", k, sh(X, opshape(X, k)),
				sh(X, opshape(X, 0)));
	}
	return i->noperands == 1 ? (hilo_shape *)opshape(X, 0) : tuple_op(X);
}

static hilo_shape *scatter_op(ictx *X)
{
	const hilo_instr *i = X->i;
	if (i->noperands < 3 || i->noperands % 2 == 0)
		return fail(X, "expects an odd number of operands (inputs, indices, updates), has %u", i->noperands);
	uint32_t n = i->noperands / 2;
	if (!callee(X, HILO_A_TO_APPLY))
		return NULL;
	if (n == 1)
		return (hilo_shape *)opshape(X, 0);
	hilo_shape *el[HILO_MAX_RANK];
	if (n > HILO_MAX_RANK)
		return fail(X, "too many inputs");
	for (uint32_t k = 0; k < n; k++)
		el[k] = X->i->operands[k]->shape;
	return tuple(X, (int)n, el);
}

/* ---- contractions ---- */

static bool in_list(const int64_t *v, int n, int64_t x)
{
	for (int k = 0; k < n; k++)
		if (v[k] == x)
			return true;
	return false;
}

/* ShapeInference::InferDotOpShape: batch dims, then lhs and rhs free dims.
 * skip_rhs lists rhs dimensions dropped from the result besides the
 * contracting and batch ones (ragged-dot's group dimension). */
static hilo_shape *dot_of(ictx *X, const hilo_shape *l, const hilo_shape *r, const int64_t *skip_rhs, int nskip)
{
	const int64_t *lc, *rc, *lb, *rb;
	int nlc, nrc, nlb, nrb;
	ints(X, HILO_A_LHS_CONTRACTING_DIMS, &lc, &nlc);
	ints(X, HILO_A_RHS_CONTRACTING_DIMS, &rc, &nrc);
	ints(X, HILO_A_LHS_BATCH_DIMS, &lb, &nlb);
	ints(X, HILO_A_RHS_BATCH_DIMS, &rb, &nrb);
	if (!hilo_shape_is_array(l) || !hilo_shape_is_array(r))
		return fail(X, "dot operands must be arrays, got %s and %s", sh(X, l), sh(X, r));
	if (nlc != nrc || nlb != nrb)
		return fail(X, "the lhs and rhs list different numbers of contracting or batch dimensions");
	for (int k = 0; k < nlc; k++) {
		if (!need_dim(X, "lhs contracting dimension", lc[k], l->rank) ||
		    !need_dim(X, "rhs contracting dimension", rc[k], r->rank))
			return NULL;
		if (l->dims[lc[k]] != r->dims[rc[k]])
			return fail(X, "contracting dimensions %lld of %s and %lld of %s differ in size",
				(long long)lc[k], sh(X, l), (long long)rc[k], sh(X, r));
	}
	for (int k = 0; k < nlb; k++) {
		if (!need_dim(X, "lhs batch dimension", lb[k], l->rank) ||
		    !need_dim(X, "rhs batch dimension", rb[k], r->rank))
			return NULL;
		if (l->dims[lb[k]] != r->dims[rb[k]])
			return fail(X, "batch dimensions %lld of %s and %lld of %s differ in size",
				(long long)lb[k], sh(X, l), (long long)rb[k], sh(X, r));
	}
	hilo_ptype t;
	if (!merge_type(l->type, r->type, &t))
		return fail(X, "dot operand element types differ: %s and %s", sh(X, l), sh(X, r));
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	int n = 0;
	for (int k = 0; k < nlb && n < HILO_MAX_RANK; k++) {
		dims[n] = l->dims[lb[k]];
		dyn[n++] = dyn_of(l, (int)lb[k]);
	}
	for (int d = 0; d < l->rank && n < HILO_MAX_RANK; d++)
		if (!in_list(lb, nlb, d) && !in_list(lc, nlc, d)) {
			dims[n] = l->dims[d];
			dyn[n++] = dyn_of(l, d);
		}
	for (int d = 0; d < r->rank && n < HILO_MAX_RANK; d++)
		if (!in_list(rb, nrb, d) && !in_list(rc, nrc, d) && !in_list(skip_rhs, nskip, d)) {
			dims[n] = r->dims[d];
			dyn[n++] = dyn_of(r, d);
		}
	return array(X, t, n, dims, dyn);
}

static hilo_shape *ragged_dot_op(ictx *X)
{
	if (!need_operands(X, 3))
		return NULL;
	const hilo_shape *l = opshape(X, 0), *r = opshape(X, 1), *g = opshape(X, 2);
	const int64_t *lr, *rg, *lc, *lb;
	int nlr, nrg, nlc, nlb;
	ints(X, HILO_A_LHS_RAGGED_DIMS, &lr, &nlr);
	ints(X, HILO_A_RHS_GROUP_DIMS, &rg, &nrg);
	ints(X, HILO_A_LHS_CONTRACTING_DIMS, &lc, &nlc);
	ints(X, HILO_A_LHS_BATCH_DIMS, &lb, &nlb);
	if (nlr != 1)
		return fail(X, "lhs_ragged_dims= must hold one dimension");
	if (!hilo_shape_is_array(g) || g->rank < 1)
		return fail(X, "the group sizes %s are not an array", sh(X, g));
	if (in_list(lc, nlc, lr[0])) { /* ragged contracting: a group dim leads */
		hilo_shape *d = dot_of(X, l, r, NULL, 0);
		if (!d || d->rank + 1 > HILO_MAX_RANK)
			return d;
		int64_t dims[HILO_MAX_RANK];
		uint8_t dyn[HILO_MAX_RANK] = {0};
		dims[0] = g->dims[g->rank - 1];
		for (int k = 0; k < d->rank; k++) {
			dims[k + 1] = d->dims[k];
			dyn[k + 1] = dyn_of(d, k);
		}
		return array(X, d->type, d->rank + 1, dims, dyn);
	}
	if (in_list(lb, nlb, lr[0])) /* ragged batch */
		return dot_of(X, l, r, NULL, 0);
	/* ragged non-contracting: the rhs group dimension is consumed */
	if (nrg != 1)
		return fail(X, "rhs_group_dims= must hold one dimension for a ragged non-contracting dot");
	return dot_of(X, l, r, rg, 1);
}

/* dim_labels=b01f_01io->b01f: for lhs/out the batch, feature and spatial
 * dimension indices; for the kernel input feature, output feature and
 * spatial ones. */
typedef struct conv_labels {
	int n;  /* spatial dimensions */
	int lb, lf, ls[HILO_MAX_RANK];
	int ki, ko, ks[HILO_MAX_RANK];
	int ob, of, os[HILO_MAX_RANK];
	int lrank, krank, orank;
} conv_labels;

static bool read_part(const char *s, size_t len, char a, char b, int *pa, int *pb, int *sp, int *nsp, int *rank)
{
	*pa = *pb = -1;
	int n = 0;
	for (size_t k = 0; k < len; k++) {
		char c = s[k];
		if (c == a)
			*pa = (int)k;
		else if (c == b)
			*pb = (int)k;
		else if (c >= '0' && c <= '9') {
			int d = c - '0';
			if (d >= HILO_MAX_RANK)
				return false;
			sp[d] = (int)k;
			if (d + 1 > n)
				n = d + 1;
		} else if (c != '?') {
			return false;
		}
	}
	*nsp = n;
	*rank = (int)len;
	return *pa >= 0 && *pb >= 0;
}

static bool read_labels(const char *t, conv_labels *L)
{
	const char *u = strchr(t, '_'), *ar = u ? strstr(u, "->") : NULL;
	if (!u || !ar)
		return false;
	int n1, n2, n3;
	if (!read_part(t, (size_t)(u - t), 'b', 'f', &L->lb, &L->lf, L->ls, &n1, &L->lrank) ||
	    !read_part(u + 1, (size_t)(ar - u - 1), 'i', 'o', &L->ki, &L->ko, L->ks, &n2, &L->krank) ||
	    !read_part(ar + 2, strlen(ar + 2), 'b', 'f', &L->ob, &L->of, L->os, &n3, &L->orank))
		return false;
	L->n = n1;
	return n1 == n2 && n2 == n3;
}

static hilo_shape *convolution_op(ictx *X)
{
	if (!need_operands(X, 2) || !need_array(X, 0) || !need_array(X, 1))
		return NULL;
	const hilo_shape *l = opshape(X, 0), *k = opshape(X, 1);
	hilo_attr *a = hilo_instr_attr(X->i, HILO_A_DIM_LABELS);
	conv_labels L;
	if (!a || a->kind != HILO_ATTR_RAW)
		return fail(X, "attribute dim_labels= is required");
	if (!read_labels(a->v.text, &L))
		return fail(X, "cannot read dim_labels=%s", a->v.text);
	if (L.lrank != l->rank || L.krank != k->rank)
		return fail(X, "dim_labels=%s does not fit %s and %s", a->v.text, sh(X, l), sh(X, k));
	int64_t fgc = 1, bgc = 1;
	hilo_instr_get_int(X->i, HILO_A_FEATURE_GROUP_COUNT, &fgc);
	hilo_instr_get_int(X->i, HILO_A_BATCH_GROUP_COUNT, &bgc);
	if (fgc < 1 || bgc < 1)
		return fail(X, "group counts must be positive");
	hilo_window w;
	if (!read_window(X, L.n, &w))
		return NULL;
	for (int s = 0; s < L.n; s++)
		if (w.size[s] != k->dims[L.ks[s]])
			return fail(X, "window size %lld of spatial dimension %d is not the kernel's %lld",
				(long long)w.size[s], s, (long long)k->dims[L.ks[s]]);
	if (l->dims[L.lf] != k->dims[L.ki] * fgc)
		return fail(X, "input features %lld are not the kernel's %lld times feature_group_count %lld",
			(long long)l->dims[L.lf], (long long)k->dims[L.ki], (long long)fgc);
	if (l->dims[L.lb] % bgc)
		return fail(X, "the batch %lld is not a multiple of batch_group_count %lld", (long long)l->dims[L.lb],
			(long long)bgc);
	hilo_ptype t;
	if (!merge_type(l->type, k->type, &t))
		return fail(X, "convolution operand element types differ: %s and %s", sh(X, l), sh(X, k));
	int64_t dims[HILO_MAX_RANK] = {0};
	dims[L.ob] = l->dims[L.lb] / bgc;
	dims[L.of] = k->dims[L.ko];
	for (int s = 0; s < L.n; s++)
		dims[L.os[s]] = window_out(&w, s, l->dims[L.ls[s]]);
	return array(X, t, L.orank, dims, NULL);
}

static hilo_shape *gather_op(ictx *X)
{
	if (!need_operands(X, 2) || !need_array(X, 0) || !need_array(X, 1))
		return NULL;
	const hilo_shape *s = opshape(X, 0), *ix = opshape(X, 1);
	const int64_t *od, *cd, *sim, *ss, *obd;
	int nod, ncd, nsim, nss, nobd;
	int64_t ivd;
	if (!need_ints(X, HILO_A_OFFSET_DIMS, &od, &nod) || !need_ints(X, HILO_A_COLLAPSED_SLICE_DIMS, &cd, &ncd) ||
	    !need_ints(X, HILO_A_START_INDEX_MAP, &sim, &nsim) || !need_ints(X, HILO_A_SLICE_SIZES, &ss, &nss))
		return NULL;
	ints(X, HILO_A_OPERAND_BATCHING_DIMS, &obd, &nobd);
	if (!hilo_instr_get_int(X->i, HILO_A_INDEX_VECTOR_DIM, &ivd))
		return fail(X, "attribute index_vector_dim= is required");
	if (!hilo_ptype_is_int(ix->type))
		return fail(X, "the start indices %s are not integers", sh(X, ix));
	if (ivd < 0 || ivd > ix->rank)
		return fail(X, "index_vector_dim %lld is out of range for %s", (long long)ivd, sh(X, ix));
	if (nss != s->rank)
		return fail(X, "slice_sizes= has %d entries, the operand %s has rank %d", nss, sh(X, s), s->rank);
	int nbatch = ix->rank - (ivd < ix->rank ? 1 : 0);
	int orank = nbatch + nod;
	if (orank > HILO_MAX_RANK)
		return fail(X, "too many dimensions");
	int64_t offs[HILO_MAX_RANK];
	int noff = 0;
	for (int d = 0; d < s->rank; d++) {
		if (ss[d] < 0 || ss[d] > s->dims[d])
			return fail(X, "slice size %lld of dimension %d does not fit %s", (long long)ss[d], d, sh(X, s));
		if (!in_list(cd, ncd, d) && !in_list(obd, nobd, d))
			offs[noff++] = ss[d];
	}
	if (noff != nod)
		return fail(X, "offset_dims= has %d entries, the slices keep %d dimensions", nod, noff);
	int64_t dims[HILO_MAX_RANK];
	int oi = 0, bi = 0;
	for (int d = 0; d < orank; d++) {
		if (in_list(od, nod, d)) {
			dims[d] = offs[oi++];
		} else {
			if (bi == ivd)
				bi++;
			if (bi >= ix->rank)
				return fail(X, "offset_dims= do not fit an output of rank %d", orank);
			dims[d] = ix->dims[bi++];
		}
	}
	if (oi != nod)
		return fail(X, "offset_dims= entries out of range for an output of rank %d", orank);
	return array(X, s->type, orank, dims, NULL);
}

/* ---- the rest ---- */

static hilo_shape *fft_op(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	const char *ty = hilo_instr_get_enum(X->i, HILO_A_FFT_TYPE);
	const int64_t *fl;
	int nfl;
	if (!ty)
		return fail(X, "attribute fft_type= is required");
	if (!need_ints(X, HILO_A_FFT_LENGTH, &fl, &nfl))
		return NULL;
	if (nfl < 1 || nfl > 3 || nfl > s->rank)
		return fail(X, "fft_length= must hold 1 to 3 lengths, at most the operand's rank");
	int last = s->rank - 1;
	if (!strcmp(ty, "FFT") || !strcmp(ty, "IFFT")) {
		if (!hilo_ptype_is_complex(s->type))
			return fail(X, "%s expects a complex operand, got %s", ty, sh(X, s));
		return (hilo_shape *)s;
	}
	if (!strcmp(ty, "RFFT")) {
		if (s->type != HILO_T_F32 && s->type != HILO_T_F64)
			return fail(X, "RFFT expects an f32 or f64 operand, got %s", sh(X, s));
		for (int k = 0; k < nfl; k++)
			if (s->dims[s->rank - nfl + k] != fl[k])
				return fail(X, "fft_length= does not match the operand's last dimensions %s", sh(X, s));
		hilo_shape *r = retype(X, s, s->type == HILO_T_F64 ? HILO_T_C128 : HILO_T_C64);
		return hilo_shape_with_dim(X->m->shapes, r, last, fl[nfl - 1] / 2 + 1);
	}
	if (!strcmp(ty, "IRFFT")) {
		if (!hilo_ptype_is_complex(s->type))
			return fail(X, "IRFFT expects a complex operand, got %s", sh(X, s));
		if (s->dims[last] != fl[nfl - 1] / 2 + 1)
			return fail(X, "the last dimension of %s is not fft_length/2+1", sh(X, s));
		hilo_shape *r = retype(X, s, complex_part(s->type));
		return hilo_shape_with_dim(X->m->shapes, r, last, fl[nfl - 1]);
	}
	return fail(X, "unknown fft_type=%s", ty);
}

static hilo_shape *topk_op(ictx *X)
{
	if (!need_operands(X, 1) || !need_array(X, 0))
		return NULL;
	const hilo_shape *s = opshape(X, 0);
	int64_t k;
	if (!hilo_instr_get_int(X->i, HILO_A_K, &k))
		return fail(X, "attribute k= is required");
	if (s->rank < 1 || k < 0 || k > s->dims[s->rank - 1])
		return fail(X, "k=%lld does not fit the last dimension of %s", (long long)k, sh(X, s));
	hilo_shape *v = hilo_shape_with_dim(X->m->shapes,
		hilo_shape_with_buffer(X->m->shapes, s, false), s->rank - 1, k);
	hilo_shape *el[2] = {v, retype(X, v, HILO_T_S32)};
	return tuple(X, 2, el);
}

static hilo_shape *batch_norm_op(ictx *X)
{
	const hilo_instr *i = X->i;
	uint32_t need = i->op == HILO_OP_BATCH_NORM_TRAINING ? 3 : 5;
	if (!need_operands(X, need))
		return NULL;
	for (uint32_t k = 0; k < need; k++)
		if (!need_array(X, k))
			return NULL;
	const hilo_shape *s = opshape(X, 0);
	int64_t f;
	if (!hilo_instr_get_int(i, HILO_A_FEATURE_INDEX, &f))
		return fail(X, "attribute feature_index= is required");
	if (!need_dim(X, "feature_index", f, s->rank))
		return NULL;
	for (uint32_t k = 1; k < need; k++) {
		const hilo_shape *v = opshape(X, k);
		bool vec = v->rank == 1 && v->dims[0] == s->dims[f] && v->type == s->type;
		/* batch-norm-grad's last operand is the output gradient */
		if (i->op == HILO_OP_BATCH_NORM_GRAD && k == 4)
			vec = hilo_shape_same_dims(v, s) && v->type == s->type;
		if (!vec)
			return fail(X, "operand %u %s does not fit the operand %s at feature_index %lld", k, sh(X, v),
				sh(X, s), (long long)f);
	}
	if (i->op == HILO_OP_BATCH_NORM_INFERENCE)
		return (hilo_shape *)s;
	hilo_shape *fv = array(X, s->type, 1, &s->dims[f], NULL);
	hilo_shape *el[3] = {(hilo_shape *)s, fv, fv};
	return tuple(X, 3, el);
}

static hilo_shape *scan_op(ictx *X)
{
	const hilo_instr *i = X->i;
	hilo_comp *c = callee(X, HILO_A_TO_APPLY);
	if (!c)
		return NULL;
	int64_t nc;
	const int64_t *dv;
	int nd;
	if (!hilo_instr_get_int(i, HILO_A_NUM_CARRIES, &nc))
		return fail(X, "attribute num_carries= is required");
	if (!need_ints(X, HILO_A_DIMENSIONS, &dv, &nd))
		return NULL;
	if (nd != 1)
		return fail(X, "dimensions= must hold one dimension");
	if (c->nparams != i->noperands)
		return fail(X, "'%s' takes %u parameters, given %u operands", c->name, c->nparams, i->noperands);
	if (nc < 0 || (uint64_t)nc > i->noperands)
		return fail(X, "num_carries=%lld does not fit %u operands", (long long)nc, i->noperands);
	if ((int64_t)i->noperands == nc)
		return fail(X, "a scan with no inputs has no inferable shape");
	if (!need_array(X, 0) || !need_dim(X, "scan dimension", dv[0], opshape(X, 0)->rank))
		return NULL;
	int64_t len = opshape(X, 0)->dims[dv[0]];
	const hilo_shape *r = c->root->shape;
	int nr = r->type == HILO_T_TUPLE ? r->ntuple : 1;
	hilo_shape *el[HILO_MAX_RANK];
	if (nr > HILO_MAX_RANK)
		return fail(X, "too many results");
	for (int k = 0; k < nr; k++) {
		const hilo_shape *e = r->type == HILO_T_TUPLE ? r->elems[k] : r;
		bool stacked = r->type == HILO_T_TUPLE ? k + nc < nr : nc == 0;
		if (!stacked) {
			el[k] = (hilo_shape *)e;
			continue;
		}
		if (!hilo_shape_is_array(e) || e->rank + 1 > HILO_MAX_RANK || dv[0] > e->rank)
			return fail(X, "'%s' result %d %s cannot take the scan dimension", c->name, k, sh(X, e));
		int64_t dims[HILO_MAX_RANK];
		uint8_t dyn[HILO_MAX_RANK] = {0};
		for (int d = 0, s = 0; d < e->rank + 1; d++) {
			if (d == dv[0]) {
				dims[d] = len;
				continue;
			}
			dyn[d] = dyn_of(e, s);
			dims[d] = e->dims[s++];
		}
		el[k] = array(X, e->type, e->rank + 1, dims, dyn);
	}
	return r->type == HILO_T_TUPLE ? tuple(X, nr, el) : el[0];
}

hilo_shape *hilo_infer_shape(hilo_module *m, const hilo_instr *i, char *err, size_t errlen)
{
	ictx X = {m, i, err, errlen};
	if (errlen)
		err[0] = 0;
	if (i->async_op != HILO_OP_COUNT)
		return fail(&X, "XLA's parser requires the result shape of %s-%s", hilo_opcode_name(i->async_op),
			i->op == HILO_OP_ASYNC_START ? "start" : i->op == HILO_OP_ASYNC_UPDATE ? "update" : "done");
	switch (i->op) {
	case HILO_OP_TUPLE:
		return tuple_op(&X);
	case HILO_OP_GET_TUPLE_ELEMENT:
		return gte_op(&X);
	case HILO_OP_CALL:
		return call_op(&X);
	case HILO_OP_WHILE:
		return while_op(&X);
	case HILO_OP_CONDITIONAL:
		return conditional_op(&X);
	case HILO_OP_SELECT:
		return select_op(&X);
	case HILO_OP_CLAMP:
		return clamp_op(&X);
	case HILO_OP_BROADCAST:
		return broadcast_op(&X);
	case HILO_OP_CONCATENATE:
		return concatenate_op(&X);
	case HILO_OP_TRANSPOSE:
		return transpose_op(&X);
	case HILO_OP_REVERSE:
		return reverse_op(&X);
	case HILO_OP_PAD:
		return pad_op(&X);
	case HILO_OP_REDUCE:
		return reduce_op(&X);
	case HILO_OP_REDUCE_WINDOW:
		return reduce_window_op(&X);
	case HILO_OP_MAP:
		return map_op(&X);
	case HILO_OP_SORT:
		return sort_op(&X);
	case HILO_OP_SCATTER:
		return scatter_op(&X);
	case HILO_OP_SELECT_AND_SCATTER:
		if (!need_operands(&X, 3) || !callee(&X, HILO_A_SELECT) || !callee(&X, HILO_A_SCATTER))
			return NULL;
		return (hilo_shape *)opshape(&X, 0);
	case HILO_OP_DOT:
		if (!need_operands(&X, 2))
			return NULL;
		return dot_of(&X, opshape(&X, 0), opshape(&X, 1), NULL, 0);
	case HILO_OP_SCALED_DOT: /* the dot of operands 0 and 2; 1 and 3 scale them */
		if (!need_operands(&X, 4))
			return NULL;
		return dot_of(&X, opshape(&X, 0), opshape(&X, 2), NULL, 0);
	case HILO_OP_RAGGED_DOT:
		return ragged_dot_op(&X);
	case HILO_OP_CONVOLUTION:
		return convolution_op(&X);
	case HILO_OP_GATHER:
		return gather_op(&X);
	case HILO_OP_FFT:
		return fft_op(&X);
	case HILO_OP_TOPK:
		return topk_op(&X);
	case HILO_OP_BATCH_NORM_TRAINING:
	case HILO_OP_BATCH_NORM_INFERENCE:
	case HILO_OP_BATCH_NORM_GRAD:
		return batch_norm_op(&X);
	case HILO_OP_SCAN:
		return scan_op(&X);
	case HILO_OP_CHOLESKY:
		if (!need_operands(&X, 1) || !need_array(&X, 0))
			return NULL;
		if (opshape(&X, 0)->rank < 2)
			return fail(&X, "cholesky expects a matrix, got %s", sh(&X, opshape(&X, 0)));
		return (hilo_shape *)opshape(&X, 0);
	case HILO_OP_TRIANGULAR_SOLVE:
		if (!need_operands(&X, 2) || !need_array(&X, 0) || !need_array(&X, 1))
			return NULL;
		return (hilo_shape *)opshape(&X, 1);
	case HILO_OP_GET_DIMENSION_SIZE: {
		const int64_t *dv;
		int nd;
		if (!need_operands(&X, 1) || !need_array(&X, 0) || !need_ints(&X, HILO_A_DIMENSIONS, &dv, &nd))
			return NULL;
		if (nd != 1 || !need_dim(&X, "dimension", dv[0], opshape(&X, 0)->rank))
			return nd != 1 ? fail(&X, "dimensions= must hold one dimension") : NULL;
		return scalar(&X, HILO_T_S32);
	}
	case HILO_OP_SET_DIMENSION_SIZE: {
		const int64_t *dv;
		int nd;
		if (!need_operands(&X, 2) || !need_array(&X, 0) || !need_ints(&X, HILO_A_DIMENSIONS, &dv, &nd))
			return NULL;
		const hilo_shape *s = opshape(&X, 0), *v = opshape(&X, 1);
		if (nd != 1 || !need_dim(&X, "dimension", dv[0], s->rank))
			return nd != 1 ? fail(&X, "dimensions= must hold one dimension") : NULL;
		if (v->type != HILO_T_S32 || v->rank != 0)
			return fail(&X, "the size %s is not an s32 scalar", sh(&X, v));
		uint8_t dyn[HILO_MAX_RANK];
		for (int k = 0; k < s->rank; k++)
			dyn[k] = dyn_of(s, k);
		if (dyn[dv[0]] == HILO_DIM_STATIC)
			dyn[dv[0]] = HILO_DIM_BOUNDED;
		return hilo_shape_array_layout(X.m->shapes, s->type, s->rank, s->dims, dyn, s->layout);
	}
	case HILO_OP_REPLICA_ID:
	case HILO_OP_PARTITION_ID:
		if (!need_operands(&X, 0))
			return NULL;
		return scalar(&X, HILO_T_U32);
	case HILO_OP_AFTER_ALL:
		for (uint32_t k = 0; k < i->noperands; k++)
			if (opshape(&X, k)->type != HILO_T_TOKEN)
				return fail(&X, "operand %u %s is not a token", k, sh(&X, opshape(&X, k)));
		return scalar(&X, HILO_T_TOKEN);
	case HILO_OP_ADD_DEPENDENCY:
		if (!need_operands(&X, 2))
			return NULL;
		return (hilo_shape *)opshape(&X, 0);
	case HILO_OP_DOMAIN:
	case HILO_OP_OPT_BARRIER:
		if (!need_operands(&X, 1))
			return NULL;
		return (hilo_shape *)opshape(&X, 0);
	case HILO_OP_CONVERT:
	case HILO_OP_STOCHASTIC_CONVERT:
	case HILO_OP_MULHI:
	case HILO_OP_REDUCE_PRECISION:
		break;
	default:
		if (hilo_opcode_flags(i->op) & HILO_OPF_EW) {
			int ar = hilo_opcode_arity(i->op);
			return ar == 1 ? unary(&X) : binary(&X);
		}
		break;
	}
	return fail(&X, "XLA's parser requires the result shape of %s", hilo_opcode_name(i->op));
}

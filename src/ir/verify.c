/* Structural verifier: the invariants every pass must preserve.
 * Runs after parsing and, with --verify-each, after every pass. Checks
 * are independent of how the IR was built: use lists are rebuilt from
 * the operand arrays and compared. */
#include "hilo/verify.h"

#include <stdlib.h>
#include <string.h>

typedef struct vctx {
	hilo_module *m;
	const char *file;
	hilo_diags *d;
	bool ok;
	bool quiet; /* the fast walk: a failure only clears ok (no diagnostic) */
	bool layout_sensitive; /* hilo_module_layout_sensitive(m) */
} vctx;

static void fail(vctx *V, const hilo_comp *c, const hilo_instr *i, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail(vctx *V, const hilo_comp *c, const hilo_instr *i, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	V->ok = false;
	if (V->quiet)
		return;
	int line = i ? i->line : c ? c->line : 0, col = i ? i->col : c ? c->col : 0;
	if (i)
		hilo_diag_add(V->d, HILO_SEV_ERROR, V->file, line, col, NULL, 0,
			"instruction '%s' in computation '%s': %s", i->name, c ? c->name : "?", msg);
	else if (c)
		hilo_diag_add(V->d, HILO_SEV_ERROR, V->file, line, col, NULL, 0,
			"computation '%s': %s", c->name, msg);
	else
		hilo_diag_add(V->d, HILO_SEV_ERROR, V->file, 0, 0, NULL, 0, "%s", msg);
}

static const char *sh(vctx *V, const hilo_shape *s)
{
	return hilo_shape_str(V->m->arena, s);
}

/* Equal element types, or two floats: XLA's shape inference compares
 * element types ignoring floating-point precision (its verifier's
 * allow_mixed_precision, which XLA's own tests use). */
static bool same_type_ignoring_fp(hilo_ptype a, hilo_ptype b)
{
	return a == b || (hilo_ptype_is_float(a) && hilo_ptype_is_float(b));
}

/* Whether operand element type ot fits elementwise instruction i with
 * result element type rt: the same type up to float precision, except for
 * ops that change the type. */
static bool ew_type_ok(const hilo_instr *i, hilo_ptype ot, hilo_ptype rt)
{
	switch (i->op) {
	case HILO_OP_CONVERT:
	case HILO_OP_BITCAST_CONVERT:
		return true;
	case HILO_OP_IS_FINITE:
		return hilo_ptype_is_float(ot) && rt == HILO_T_PRED;
	case HILO_OP_REAL:
	case HILO_OP_IMAG:
	case HILO_OP_ABS:
		if (ot == HILO_T_C64)
			return rt == HILO_T_F32;
		if (ot == HILO_T_C128)
			return rt == HILO_T_F64;
		return same_type_ignoring_fp(ot, rt);
	case HILO_OP_COMPLEX:
		return (rt == HILO_T_C64 && ot == HILO_T_F32) || (rt == HILO_T_C128 && ot == HILO_T_F64);
	default:
		return same_type_ignoring_fp(ot, rt);
	}
}

static const char *const kind_names[] = {
	"raw", "int", "ints", "bool", "string", "enum", "slice", "padding",
	"computation", "computations", "control", "metadata",
};

/* Attributes against the table (hilo/attrs.def): a known attribute has
 * the table's kind (or RAW, a value kept verbatim), appears once, and its
 * computation references are in range. */
static void check_attrs(vctx *V, hilo_comp *c, hilo_instr *i)
{
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		if (a->kind > HILO_ATTR_METADATA) {
			fail(V, c, i, "attribute '%s' has an invalid kind %d", a->key, (int)a->kind);
			continue;
		}
		if (a->id > HILO_A_UNKNOWN) {
			fail(V, c, i, "attribute '%s' has an invalid id %d", a->key, (int)a->id);
			continue;
		}
		hilo_attr_id id = (hilo_attr_id)a->id;
		if (id != HILO_A_UNKNOWN) {
			hilo_attr_kind want = hilo_attr_id_kind(id);
			if (a->kind != want && a->kind != HILO_ATTR_RAW)
				fail(V, c, i, "attribute '%s' is %s, the attribute table says %s",
					a->key, kind_names[a->kind], kind_names[want]);
			if (hilo_instr_attr(i, id) != a)
				fail(V, c, i, "attribute '%s' appears twice", a->key);
		}
		if ((a->kind == HILO_ATTR_COMP && (a->v.i < 0 || (uint64_t)a->v.i >= hilo_instr_ncalled(i))) ||
		    (a->kind == HILO_ATTR_COMPS && (a->v.i < 0 || a->n < 0 ||
		                                    (uint64_t)a->v.i + (uint64_t)a->n > hilo_instr_ncalled(i))))
			fail(V, c, i, "attribute '%s' names a computation the instruction does not call", a->key);
	}
}

/* Do shapes a and b disagree on a layout both carry (arrays compared
 * where both have one, tuples element by element)? */
static bool layouts_differ(const hilo_shape *a, const hilo_shape *b)
{
	if (!a || !b || a->type != b->type)
		return false;
	if (a->type == HILO_T_TUPLE) {
		for (int k = 0; k < a->ntuple && k < b->ntuple; k++)
			if (layouts_differ(a->elems[k], b->elems[k]))
				return true;
		return false;
	}
	const hilo_layout *x = a->layout, *y = b->layout;
	if (!x || !y || a->rank != b->rank)
		return false;
	if (x->n != y->n)
		return true;
	for (int d = 0; d < x->n; d++)
		if (x->minor_to_major[d] != y->minor_to_major[d])
			return true;
	return (x->tail == NULL) != (y->tail == NULL) || (x->tail && strcmp(x->tail, y->tail));
}

/* XLA's layout-sensitive verifier (ShapeVerifier::CheckOperandAndParameter
 * and CheckShape for kCall, kWhile, kConditional, kFusion): a called
 * computation's parameter has the layout of the operand bound to it, and
 * its root the layout of the result: a bitcast inside reads the layout
 * that reaches it, so a mismatch would let a callee-level proof read
 * another layout than the caller passes (issue 30). XLA runs it past
 * layout assignment only; hilo where the module says it is past it
 * (is_scheduled=true): XLA's own dumps before optimisation pass other
 * layouts to calls and loops (the llama, torax and deepseek dumps of the
 * corpus). Where either shape carries no layout nothing is compared. */
static void check_call_layouts(vctx *V, hilo_comp *c, hilo_instr *i)
{
	if (!V->layout_sensitive)
		return;
	hilo_comp *callee[2] = {NULL, NULL};
	uint32_t first = 0;
	switch (i->op) {
	case HILO_OP_CALL: case HILO_OP_FUSION:
		if (hilo_instr_ncalled(i) >= 1)
			callee[0] = hilo_instr_called(i)[0];
		break;
	case HILO_OP_WHILE:
		callee[0] = hilo_instr_get_comp(i, HILO_A_BODY);
		callee[1] = hilo_instr_get_comp(i, HILO_A_CONDITION);
		break;
	case HILO_OP_CONDITIONAL:
		first = 1;
		break;
	default:
		return;
	}
	if (i->op == HILO_OP_CONDITIONAL) {
		/* branch k takes operand k + 1 */
		for (uint32_t k = 0; k < hilo_instr_ncalled(i) && k + 1 < i->noperands; k++) {
			hilo_comp *b = hilo_instr_called(i)[k];
			if (b->nparams == 1 && b->params[0] &&
			    layouts_differ(i->operands[k + first]->shape, b->params[0]->shape))
				fail(V, c, i, "operand %u %s and the parameter %s of branch '%s' have different "
					"layouts", k + first, sh(V, i->operands[k + first]->shape),
					sh(V, b->params[0]->shape), b->name);
			if (b->root && layouts_differ(b->root->shape, i->shape))
				fail(V, c, i, "result %s and the root %s of branch '%s' have different layouts",
					sh(V, i->shape), sh(V, b->root->shape), b->name);
		}
		return;
	}
	for (int q = 0; q < 2; q++) {
		hilo_comp *f = callee[q];
		if (!f || f->nparams != i->noperands)
			continue;
		for (uint32_t k = 0; k < f->nparams; k++)
			if (f->params[k] && layouts_differ(i->operands[k]->shape, f->params[k]->shape))
				fail(V, c, i, "operand %u %s and the parameter %s of '%s' have different layouts",
					k, sh(V, i->operands[k]->shape), sh(V, f->params[k]->shape), f->name);
		if (q == 0 && f->root && layouts_differ(f->root->shape, i->shape))
			fail(V, c, i, "result %s and the root %s of '%s' have different layouts",
				sh(V, i->shape), sh(V, f->root->shape), f->name);
	}
}

/* output_to_operand_aliasing, as XLA's verifier checks it: each pair names
 * an operand, its two shape indices exist (ShapeUtil::IndexIsValid), and
 * the output part and the operand part it reuses are the same shape
 * (compatible: element type and dims; equal, layouts too, once the module
 * is layout-sensitive). */
static void check_aliasing(vctx *V, hilo_comp *c, hilo_instr *i)
{
	if (!hilo_instr_attr(i, HILO_A_OUTPUT_TO_OPERAND_ALIASING))
		return;
	hilo_aliasing al;
	if (!hilo_instr_aliasing(V->m->arena, i, &al)) {
		fail(V, c, i, "output_to_operand_aliasing does not parse");
		return;
	}
	for (size_t k = 0; k < al.n; k++) {
		const hilo_alias_pair *pr = &al.pairs[k];
		if (pr->operand < 0 || pr->operand >= (int64_t)i->noperands) {
			fail(V, c, i, "output_to_operand_aliasing pair %zu names operand %lld; it has %u "
				"operands", k, (long long)pr->operand, i->noperands);
			continue;
		}
		const hilo_shape *os = hilo_shape_subshape(i->shape, &pr->output);
		const hilo_shape *ps = hilo_shape_subshape(i->operands[pr->operand]->shape, &pr->operand_index);
		if (!os)
			fail(V, c, i, "output_to_operand_aliasing pair %zu: its output index is not an "
				"index of the shape %s", k, sh(V, i->shape));
		if (!ps)
			fail(V, c, i, "output_to_operand_aliasing pair %zu: its operand index is not an "
				"index of operand %lld's shape %s", k, (long long)pr->operand,
				sh(V, i->operands[pr->operand]->shape));
		if (os && ps && !(V->layout_sensitive ? hilo_shape_equal(os, ps) : hilo_shape_compatible(os, ps)))
			fail(V, c, i, "output_to_operand_aliasing pair %zu aliases output %s with operand "
				"%lld's %s: different shapes", k, sh(V, os), (long long)pr->operand, sh(V, ps));
	}
}

/* The leaf buffers of s: 1 for an array, the sum of the elements' for a
 * tuple (XLA's ShapeUtil::GetLeafCount; an empty tuple has none). */
static size_t leaf_count(const hilo_shape *s, int depth)
{
	if (s->type != HILO_T_TUPLE)
		return 1;
	size_t n = 0;
	for (int k = 0; k < s->ntuple && depth < 64; k++)
		n += leaf_count(s->elems[k], depth + 1);
	return n;
}

/* parameter_replication={true,false,...}: one flag per leaf buffer (XLA's
 * parser refuses another count; its proto reader aborts on one). */
static void check_replication(vctx *V, hilo_comp *c, hilo_instr *i)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_PARAMETER_REPLICATION);
	if (!a)
		return;
	const char *t = a->kind == HILO_ATTR_RAW ? a->v.text : NULL;
	size_t n = 0;
	bool ok = t && *t++ == '{';
	while (ok && *t != '}') {
		while (*t == ' ')
			t++;
		if (!strncmp(t, "true", 4))
			t += 4;
		else if (!strncmp(t, "false", 5))
			t += 5;
		else
			ok = false;
		n++;
		while (ok && *t == ' ')
			t++;
		if (ok && *t == ',')
			t++;
		else if (ok && *t != '}')
			ok = false;
	}
	if (!ok || t[1]) {
		fail(V, c, i, "parameter_replication is not a list of true and false");
		return;
	}
	if (i->op != HILO_OP_PARAMETER) {
		fail(V, c, i, "parameter_replication on a %s, not a parameter", hilo_opcode_name(i->op));
		return;
	}
	size_t leaves = leaf_count(i->shape, 0);
	if (n != leaves)
		fail(V, c, i, "parameter_replication has %zu elements; the parameter %s has %zu leaf buffers",
			n, sh(V, i->shape), leaves);
}

static void check_shapes(vctx *V, hilo_comp *c, hilo_instr *i)
{
	check_call_layouts(V, c, i);
	check_aliasing(V, c, i);
	check_replication(V, c, i);
	const hilo_shape *s = i->shape;
	hilo_instr **o = i->operands;
	uint32_t n = i->noperands;
	int cnt;
	const int64_t *v;
	switch (i->op) {
	case HILO_OP_SELECT:
		if (n == 3 && (!hilo_shape_same_dims(o[1]->shape, s) || !hilo_shape_same_dims(o[2]->shape, s) ||
		               (o[0]->shape->rank && !hilo_shape_same_dims(o[0]->shape, s)) ||
		               o[0]->shape->type != HILO_T_PRED ||
		               (hilo_shape_is_array(s) && (!same_type_ignoring_fp(o[1]->shape->type, s->type) ||
		                                           !same_type_ignoring_fp(o[2]->shape->type, s->type)))))
			fail(V, c, i, "select operands %s, %s, %s do not match result %s", sh(V, o[0]->shape),
				sh(V, o[1]->shape), sh(V, o[2]->shape), sh(V, s));
		return;
	case HILO_OP_COMPARE: {
		if (n != 2)
			return;
		if (!hilo_shape_same_dims(o[0]->shape, s) || !hilo_shape_same_dims(o[1]->shape, s) || s->type != HILO_T_PRED ||
		    !same_type_ignoring_fp(o[0]->shape->type, o[1]->shape->type)) {
			fail(V, c, i, "compare of %s and %s cannot give %s", sh(V, o[0]->shape), sh(V, o[1]->shape), sh(V, s));
			return;
		}
		/* XLA accepts only the operand type's own comparison type
		 * (TOTALORDER also on floats): type=UNSIGNED on s32 would make
		 * backends and the evaluator disagree */
		hilo_attr *ta = hilo_instr_attr(i, HILO_A_TYPE);
		hilo_ptype t = o[0]->shape->type;
		if (ta && (ta->kind != HILO_ATTR_ENUM || !hilo_compare_type_ok(t, ta->v.text))) {
			const char *def = hilo_compare_default_type(t);
			fail(V, c, i, "comparison type=%s is not valid for %s operands (expected %s%s)",
				ta->kind == HILO_ATTR_ENUM ? ta->v.text : "<non-enum>", hilo_ptype_name(t),
				def ? def : "no compare", hilo_ptype_is_float(t) ? " or TOTALORDER" : "");
		}
		return;
	}
	case HILO_OP_REDUCE: {
		/* N inputs, then N init values, and a reducer of 2N parameters
		 * (XLA's ShapeInference::InferReduceShape) */
		hilo_comp *r = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
		if (n < 2 || n % 2)
			fail(V, c, i, "reduce takes inputs and as many init values: %u operands", n);
		else if (r && r->nparams != n)
			fail(V, c, i, "the reducer '%s' takes %u parameters; %u inputs need %u", r->name, r->nparams,
				n / 2, n);
		return;
	}
	case HILO_OP_CONVERT:
	case HILO_OP_BITCAST_CONVERT:
		if (n == 1 && i->op == HILO_OP_CONVERT && !hilo_shape_same_dims(o[0]->shape, s))
			fail(V, c, i, "convert changes dimensions: %s -> %s", sh(V, o[0]->shape), sh(V, s));
		return;
	case HILO_OP_BROADCAST:
		v = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &cnt);
		if (!v) {
			if (o[0]->shape->rank)
				fail(V, c, i, "broadcast of a non-scalar needs dimensions=");
			return;
		}
		if (cnt != o[0]->shape->rank) {
			fail(V, c, i, "broadcast dimensions has %d entries for an operand of rank %d", cnt, o[0]->shape->rank);
			return;
		}
		for (int k = 0; k < cnt; k++)
			if (v[k] < 0 || v[k] >= s->rank || s->dims[v[k]] != o[0]->shape->dims[k]) {
				fail(V, c, i, "broadcast of %s to %s with dimensions entry %d = %lld is invalid",
					sh(V, o[0]->shape), sh(V, s), k, (long long)v[k]);
				return;
			}
		return;
	case HILO_OP_RESHAPE:
		if (hilo_shape_elements(o[0]->shape) != hilo_shape_elements(s))
			fail(V, c, i, "reshape changes the element count: %s -> %s", sh(V, o[0]->shape), sh(V, s));
		return;
	case HILO_OP_TRANSPOSE:
		v = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &cnt);
		if (!v || cnt != s->rank || cnt != o[0]->shape->rank) {
			fail(V, c, i, "transpose needs a dimensions permutation of rank %d", s->rank);
			return;
		}
		for (int k = 0; k < cnt; k++)
			if (v[k] < 0 || v[k] >= cnt || s->dims[k] != o[0]->shape->dims[v[k]]) {
				fail(V, c, i, "transpose of %s by dimensions does not give %s", sh(V, o[0]->shape), sh(V, s));
				return;
			}
		return;
	case HILO_OP_SLICE: {
		hilo_attr *a = hilo_instr_attr(i, HILO_A_SLICE);
		if (!a || a->kind != HILO_ATTR_SLICE || a->n != o[0]->shape->rank || s->rank != a->n) {
			fail(V, c, i, "slice needs one [start:limit:stride] per operand dimension");
			return;
		}
		for (int k = 0; k < a->n; k++) {
			int64_t st = a->v.ints[3 * k], li = a->v.ints[3 * k + 1], sd = a->v.ints[3 * k + 2];
			if (st < 0 || li < st || li > o[0]->shape->dims[k] || sd <= 0 ||
			    s->dims[k] != (li - st + sd - 1) / sd) {
				fail(V, c, i, "slice dimension %d [%lld:%lld:%lld] of %s does not give %s", k,
					(long long)st, (long long)li, (long long)sd, sh(V, o[0]->shape), sh(V, s));
				return;
			}
		}
		return;
	}
	case HILO_OP_DYNAMIC_SLICE:
	case HILO_OP_DYNAMIC_UPDATE_SLICE: {
		bool dus = i->op == HILO_OP_DYNAMIC_UPDATE_SLICE;
		uint32_t first_idx = dus ? 2 : 1;
		if (n < first_idx) {
			fail(V, c, i, "too few operands");
			return;
		}
		int r = o[0]->shape->rank;
		bool vec = n == first_idx + 1 && o[first_idx]->shape->rank == 1 && r != 1;
		if (!vec && n != first_idx + (uint32_t)r) {
			fail(V, c, i, "needs %d start indices for an operand of rank %d, has %u", r, r, n - first_idx);
			return;
		}
		for (uint32_t k = first_idx; k < n; k++)
			if (!hilo_ptype_is_int(o[k]->shape->type) || (!vec && o[k]->shape->rank != 0))
				fail(V, c, i, "start index %u must be an integer scalar, is %s", k - first_idx, sh(V, o[k]->shape));
		if (dus) {
			if (!hilo_shape_compatible(s, o[0]->shape) || o[1]->shape->rank != r)
				fail(V, c, i, "dynamic-update-slice result %s must match operand %s", sh(V, s), sh(V, o[0]->shape));
			else
				for (int k = 0; k < r; k++)
					if (o[1]->shape->dims[k] > s->dims[k])
						fail(V, c, i, "update %s larger than operand %s", sh(V, o[1]->shape), sh(V, s));
		} else {
			v = hilo_instr_get_ints(i, HILO_A_DYNAMIC_SLICE_SIZES, &cnt);
			if (!v || cnt != r || s->rank != r) {
				fail(V, c, i, "dynamic_slice_sizes must have one entry per operand dimension");
				return;
			}
			for (int k = 0; k < r; k++)
				if (v[k] < 0 || v[k] > o[0]->shape->dims[k] || s->dims[k] != v[k]) {
					fail(V, c, i, "dynamic_slice_sizes do not fit operand %s / result %s", sh(V, o[0]->shape), sh(V, s));
					return;
				}
		}
		return;
	}
	case HILO_OP_CONCATENATE: {
		v = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &cnt);
		if (!v || cnt != 1 || v[0] < 0 || v[0] >= s->rank) {
			fail(V, c, i, "concatenate needs dimensions={d} within the rank");
			return;
		}
		int64_t sum = 0;
		for (uint32_t k = 0; k < n; k++) {
			const hilo_shape *os = o[k]->shape;
			if (os->rank != s->rank) {
				fail(V, c, i, "operand %u has rank %d, result rank %d", k, os->rank, s->rank);
				return;
			}
			for (int d = 0; d < s->rank; d++)
				if (d != v[0] && os->dims[d] != s->dims[d]) {
					fail(V, c, i, "operand %u %s differs from result %s outside dimension %lld", k,
						sh(V, os), sh(V, s), (long long)v[0]);
					return;
				}
			sum += os->dims[v[0]];
		}
		if (sum != s->dims[v[0]])
			fail(V, c, i, "operands sum to %lld along dimension %lld, result has %lld", (long long)sum,
				(long long)v[0], (long long)s->dims[v[0]]);
		return;
	}
	case HILO_OP_PAD: {
		hilo_attr *a = hilo_instr_attr(i, HILO_A_PADDING);
		if (!a || a->kind != HILO_ATTR_PADDING || a->n != s->rank || o[0]->shape->rank != s->rank ||
		    o[1]->shape->rank != 0) {
			fail(V, c, i, "pad needs a scalar padding value and one padding entry per dimension");
			return;
		}
		for (int k = 0; k < a->n; k++) {
			int64_t d = o[0]->shape->dims[k], lo = a->v.ints[3 * k], hi = a->v.ints[3 * k + 1],
				in = a->v.ints[3 * k + 2];
			int64_t want = lo + hi + d + (d > 0 ? (d - 1) * in : 0);
			if (in < 0 || want != s->dims[k]) {
				fail(V, c, i, "pad dimension %d gives %lld, result has %lld", k, (long long)want,
					(long long)s->dims[k]);
				return;
			}
		}
		return;
	}
	case HILO_OP_TUPLE:
		if (s->type != HILO_T_TUPLE || (uint32_t)s->ntuple != n) {
			fail(V, c, i, "tuple result %s does not have %u elements", sh(V, s), n);
			return;
		}
		for (uint32_t k = 0; k < n; k++)
			if (!hilo_shape_compatible(s->elems[k], o[k]->shape))
				fail(V, c, i, "tuple element %u is %s, operand is %s", k, sh(V, s->elems[k]), sh(V, o[k]->shape));
		return;
	case HILO_OP_GET_TUPLE_ELEMENT: {
		int64_t idx;
		if (!hilo_instr_get_int(i, HILO_A_INDEX, &idx)) {
			fail(V, c, i, "get-tuple-element needs index=");
			return;
		}
		const hilo_shape *t = o[0]->shape;
		if (t->type != HILO_T_TUPLE || idx < 0 || idx >= t->ntuple)
			fail(V, c, i, "index %lld out of range for %s", (long long)idx, sh(V, t));
		else if (!hilo_shape_compatible(t->elems[idx], s))
			fail(V, c, i, "result %s differs from tuple element %s", sh(V, s), sh(V, t->elems[idx]));
		return;
	}
	case HILO_OP_CALL: {
		hilo_comp *callee = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
		if (!callee) {
			fail(V, c, i, "call needs to_apply=");
			return;
		}
		if (callee->nparams != n) {
			fail(V, c, i, "calls '%s' with %u operands, it has %u parameters", callee->name, n, callee->nparams);
			return;
		}
		for (uint32_t k = 0; k < n; k++)
			if (callee->params[k] && !hilo_shape_compatible(callee->params[k]->shape, o[k]->shape))
				fail(V, c, i, "operand %u %s does not match parameter %s", k, sh(V, o[k]->shape),
					sh(V, callee->params[k]->shape));
		if (callee->root && !hilo_shape_compatible(callee->root->shape, s))
			fail(V, c, i, "result %s does not match '%s' root %s", sh(V, s), callee->name, sh(V, callee->root->shape));
		return;
	}
	default:
		break;
	}
	unsigned fl = hilo_opcode_flags(i->op);
	if ((fl & HILO_OPF_EW) && i->async_op == HILO_OP_COUNT) {
		for (uint32_t k = 0; k < n; k++) {
			const hilo_shape *os = o[k]->shape;
			if (!hilo_shape_is_array(os) || !hilo_shape_is_array(s))
				continue;
			/* clamp's bounds (SB: operands 0 and 2) may be scalars */
			bool bound = (fl & HILO_OPF_BOUNDS) && k != 1 && os->rank == 0;
			if (!hilo_shape_same_dims(os, s) && !bound) {
				fail(V, c, i, "elementwise operand %u %s does not match result %s", k, sh(V, os), sh(V, s));
				return;
			}
			if (!ew_type_ok(i, os->type, s->type)) {
				fail(V, c, i, "%s operand %u %s does not fit result element type %s",
					hilo_opcode_name(i->op), k, sh(V, os), hilo_ptype_name(s->type));
				return;
			}
		}
	}
}

static void check_comp(vctx *V, hilo_comp *c, hilo_ptrmap *comps)
{
	if (!c->root || c->root->parent != c) {
		fail(V, c, NULL, "has no root instruction");
		return;
	}
	uint32_t roots = 0, count = 0;
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	for (hilo_instr *i = c->first; i; i = i->next) {
		count++;
		if (i->parent != c)
			fail(V, c, i, "parent link is wrong");
		if (i->shape && i->shape->table != V->m->shapes)
			fail(V, c, i, "its shape %s is not interned in the module's shape table (built by hand "
				"or taken from another module)", sh(V, i->shape));
		if (hilo_instr_literal(i) && hilo_instr_literal(i)->shape && hilo_instr_literal(i)->shape->table != V->m->shapes)
			fail(V, c, i, "its literal's shape %s is not interned in the module's shape table",
				sh(V, hilo_instr_literal(i)->shape));
		if (i->is_root)
			roots++;
		bool ops_ok = true;
		if (i->async_op == HILO_OP_COUNT && !hilo_opcode_operands_ok(i->op, i->noperands)) {
			fail(V, c, i, "%s takes %d operands, has %u", hilo_opcode_name(i->op),
				hilo_opcode_arity(i->op), i->noperands);
			ops_ok = false;
		}
		for (uint32_t k = 0; k < i->noperands; k++) {
			hilo_instr *o = i->operands[k];
			if (!o || o->parent != c) {
				fail(V, c, i, "operand %u is not in this computation", k);
				ops_ok = false;
			} else if (!o->mark) {
				fail(V, c, i, "operand %u '%s' is used before it is defined", k, o->name);
				ops_ok = false;
			}
		}
		/* use list: every (user, slot) entry must be a real operand edge */
		for (uint32_t u = 0; u < i->nusers; u++) {
			hilo_use us = i->users[u];
			if (!us.user || us.slot >= us.user->noperands || us.user->operands[us.slot] != i)
				fail(V, c, i, "use list entry %u is stale", u);
		}
		for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
			if (!hilo_ptrmap_get(comps, hilo_instr_called(i)[k]))
				fail(V, c, i, "calls a computation that is not in the module");
		if (i->op == HILO_OP_PARAMETER &&
		    ((uint64_t)hilo_instr_param_no(i) >= c->nparams || c->params[hilo_instr_param_no(i)] != i))
			fail(V, c, i, "parameter %lld is not registered", (long long)hilo_instr_param_no(i));
		check_attrs(V, c, i);
		if (ops_ok)
			check_shapes(V, c, i);
		i->mark = 1;
	}
	/* count uses from the operand side; must equal the use lists */
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	for (hilo_instr *i = c->first; i; i = i->next)
		for (uint32_t k = 0; k < i->noperands; k++)
			if (i->operands[k])
				i->operands[k]->mark++;
	for (hilo_instr *i = c->first; i; i = i->next)
		if ((uint32_t)i->mark != i->nusers)
			fail(V, c, i, "use list has %u entries but %lld operand edges name it", i->nusers, (long long)i->mark);
	if (roots != 1)
		fail(V, c, NULL, "has %u instructions marked ROOT", roots);
	if (count != c->ninstrs)
		fail(V, c, NULL, "instruction count %u does not match the list (%u)", c->ninstrs, count);
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k] || c->params[k]->parent != c)
			fail(V, c, NULL, "parameter %u is missing", k);
}

/* The fast walk (see verify_module): per instruction id, the computation
 * that defined it (stamp, 1-based) and its use-list length minus the
 * operand edges naming it seen so far (bal). */
typedef struct idslot {
	uint32_t stamp;
	int32_t bal;
} idslot;

typedef struct fast {
	idslot *ids;
	uint32_t nids;
	uint64_t nonzero; /* ids whose bal is not 0 */
	bool bail;        /* an id out of range or seen twice: not decidable here */
} fast;

static void balance(fast *F, uint32_t id, int64_t delta)
{
	int32_t old = F->ids[id].bal;
	int64_t nw = (int64_t)old + delta;
	if (nw < INT32_MIN || nw > INT32_MAX) {
		F->bail = true;
		return;
	}
	F->ids[id].bal = (int32_t)nw;
	F->nonzero += (uint64_t)(nw != 0) - (uint64_t)(old != 0);
}

/* check_comp in one walk and without touching marks: "defined before
 * use" is the operand's stamp, and the use-list count is kept as a
 * running balance per id (+nusers at the definition, -1 per operand edge
 * naming an instruction of c), checked once at the end of the module
 * (every balance 0). Quiet: it only decides whether the module is valid;
 * every rule is check_comp's, and any doubt (an error, a forward edge,
 * an id out of range or repeated) sends verify_module to check_comp. */
static void check_comp_fast(vctx *V, hilo_comp *c, uint32_t cstamp, hilo_ptrmap *comps, fast *F)
{
	if (!c->root || c->root->parent != c) {
		V->ok = false;
		return;
	}
	uint32_t roots = 0, count = 0;
	for (hilo_instr *i = c->first; i && V->ok && !F->bail; i = i->next) {
		count++;
		/* a list walk is one dependent load per instruction: ask early
		 * for what the next two need (hints only, no effect on results) */
		hilo_instr *nx = i->next;
		if (nx) {
			if (nx->next)
				__builtin_prefetch(nx->next);
			__builtin_prefetch(nx->users);
			__builtin_prefetch(nx->operands);
		}
		if (i->parent != c || i->id >= F->nids || F->ids[i->id].stamp) {
			V->ok = false;
			return;
		}
		if (i->is_root)
			roots++;
		if (i->async_op == HILO_OP_COUNT && !hilo_opcode_operands_ok(i->op, i->noperands)) {
			V->ok = false;
			return;
		}
		if ((i->shape && i->shape->table != V->m->shapes) ||
		    (hilo_instr_literal(i) && hilo_instr_literal(i)->shape && hilo_instr_literal(i)->shape->table != V->m->shapes)) {
			V->ok = false;
			return;
		}
		for (uint32_t k = 0; k < i->noperands; k++) {
			hilo_instr *o = i->operands[k];
			if (!o || o->parent != c || o->id >= F->nids || F->ids[o->id].stamp != cstamp) {
				V->ok = false;
				return;
			}
			balance(F, o->id, -1);
		}
		for (uint32_t u = 0; u < i->nusers; u++) {
			hilo_use us = i->users[u];
			if (!us.user || us.slot >= us.user->noperands || us.user->operands[us.slot] != i) {
				V->ok = false;
				return;
			}
		}
		for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
			if (!hilo_ptrmap_get(comps, hilo_instr_called(i)[k])) {
				V->ok = false;
				return;
			}
		if (i->op == HILO_OP_PARAMETER &&
		    ((uint64_t)hilo_instr_param_no(i) >= c->nparams || c->params[hilo_instr_param_no(i)] != i)) {
			V->ok = false;
			return;
		}
		check_attrs(V, c, i);
		check_shapes(V, c, i);
		F->ids[i->id].stamp = cstamp;
		balance(F, i->id, i->nusers);
	}
	if (roots != 1 || count != c->ninstrs)
		V->ok = false;
	for (uint32_t k = 0; k < c->nparams && V->ok; k++)
		if (!c->params[k] || c->params[k]->parent != c)
			V->ok = false;
}

/* Whether check_comp would accept every computation of m without a
 * diagnostic, in one walk of each list (check_comp takes five). */
static bool verify_fast(hilo_module *m, hilo_ptrmap *comps)
{
	vctx V = {m, NULL, NULL, true, true, hilo_module_layout_sensitive(m)};
	fast F = {0};
	F.nids = m->next_id;
	F.ids = hilo_heap_alloc(m->arena, ((size_t)F.nids + 1) * sizeof *F.ids);
	if (!F.ids) /* only without an out-of-memory guard */
		return false;
	for (uint32_t k = 0; k < m->ncomps && V.ok && !F.bail; k++)
		check_comp_fast(&V, m->comps[k], k + 1, comps, &F);
	bool ok = V.ok && !F.bail && F.nonzero == 0;
	hilo_heap_free(m->arena, F.ids);
	return ok;
}

/* Valid modules (nearly every call) take the fast walk; a module it
 * does not accept is checked again by check_comp, which writes the
 * diagnostics, so they are the same whichever walk ran first. */
static bool verify_module(hilo_module *m, const char *filename, hilo_diags *diags)
{
	vctx V = {m, filename, diags, true, false, hilo_module_layout_sensitive(m)};
	hilo_ptrmap comps;
	hilo_ptrmap_init_in(&comps, m->arena);
	for (uint32_t k = 0; k < m->ncomps; k++)
		hilo_ptrmap_put(&comps, m->comps[k], m->comps[k]);
	bool entry_ok = m->entry && hilo_ptrmap_get(&comps, m->entry);
	if (entry_ok && verify_fast(m, &comps)) {
		hilo_ptrmap_free(&comps);
		return true;
	}
	if (!entry_ok)
		fail(&V, NULL, NULL, "module has no entry computation");
	for (uint32_t k = 0; k < m->ncomps; k++)
		check_comp(&V, m->comps[k], &comps);
	hilo_ptrmap_free(&comps);
	return V.ok;
}

bool hilo_verify(hilo_module *m, const char *filename, hilo_diags *diags)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(diags, filename);
		return false;
	}
	bool ok = verify_module(m, filename, diags);
	hilo_oom_end(&g);
	return ok;
}

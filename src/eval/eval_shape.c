/* eval_shape.c - data-movement ops: broadcast, reshape, bitcast (as a
 * reshape), transpose, slice, dynamic-slice, dynamic-update-slice,
 * concatenate, pad, iota, reverse.
 *
 * Every op copies whole elements (hilo_ptype_bytes each) in row-major
 * logical order and checks its operands' dimensions against its own
 * attributes before touching memory, so a malformed module gives an error,
 * never an out-of-bounds access. Dynamic start indices are clamped into
 * [0, operand_dim - size] exactly as XLA's dynamic-slice and
 * dynamic-update-slice do; pad supports negative and interior padding.
 */
#include "eval_internal.h"

#define MAXR 64

static bool arr(const hilo_literal *l)
{
	return l->shape && l->shape->type != HILO_T_TUPLE && l->shape->rank <= MAXR;
}

static hilo_literal *out_new(ev *e, const hilo_instr *i, size_t *n)
{
	if (i->shape->type == HILO_T_TUPLE || i->shape->rank > MAXR)
		return ev_err(e, i, "unsupported result shape");
	int64_t ne = hilo_shape_elements(i->shape);
	if (ne < 0 || !ev_charge(e, i, (uint64_t)ne))
		return ne < 0 ? ev_err(e, i, "result too large") : NULL;
	*n = (size_t)ne;
	return ev_lit_new(e, i, i->shape);
}

#define W(l) ((size_t)hilo_ptype_bytes((l)->shape->type))
#define CP(dst, dk, src, sk, w) \
	memcpy((char *)(dst)->data + (dk) * (w), (const char *)(src)->data + (sk) * (w), (w))

static hilo_literal *broadcast(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	int nd = 0;
	const int64_t *dims = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	const hilo_shape *os = i->shape, *is = a->shape;
	if (!dims && nd == 0 && is->rank == 0)
		dims = NULL; /* scalar broadcast may omit dimensions */
	if (nd != is->rank || is->type != os->type)
		return ev_err(e, i, "broadcast dimensions do not match the operand");
	for (int k = 0; k < nd; k++)
		if (dims[k] < 0 || dims[k] >= os->rank || os->dims[dims[k]] != is->dims[k])
			return ev_err(e, i, "broadcast dimension %d does not match", k);
	if (a->splat && hilo_shape_elements(os) > 0)
		return ev_splat_new(e, i, os, a->data); /* every element is the one */
	if (a->splat && !(a = ev_dense(e, i, a)))
		return NULL;
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		for (int q = 0; q < nd; q++)
			s += idx[dims[q]] * ist[q];
		CP(r, k, a, (size_t)s, w);
		ev_next_index(os, idx);
	}
	return r;
}

static hilo_literal *reshape(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	if (a->shape->type != i->shape->type ||
	    hilo_shape_elements(a->shape) != hilo_shape_elements(i->shape))
		return ev_err(e, i, "reshape changes the element type or count");
	if (a->splat)
		return ev_splat_new(e, i, i->shape, a->data);
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	if (r->nbytes != a->nbytes)
		return ev_err(e, i, "reshape size mismatch");
	memcpy(r->data, a->data, a->nbytes);
	return r;
}

/* Physical strides of a shape under its layout (row-major without one).
 * False when the layout is tiled or malformed. */
static bool phys_strides(const hilo_shape *s, int64_t *st)
{
	const hilo_layout *l = s->layout;
	/* tiles (T(...)) reorder elements; a memory space S(n) does not */
	if (l && l->n && (l->n != s->rank || (l->tail && (strstr(l->tail, "T(") || strstr(l->tail, "E(")))))
		return false;
	return hilo_shape_layout_strides(s, st);
}

static bool row_major(const hilo_shape *s, const int64_t *st)
{
	int64_t rm[MAXR];
	hilo_shape_strides(s, rm);
	for (int d = 0; d < s->rank; d++)
		if (s->dims[d] > 1 && rm[d] != st[d])
			return false;
	return true;
}

/* bitcast reinterprets the physical buffer: with layouts other than
 * row-major on either side the element order changes (a transpose). */
static hilo_literal *bitcast(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	const hilo_shape *os = i->shape, *is = a->shape;
	int64_t ost[MAXR], ist[MAXR];
	if (!phys_strides(os, ost) || !phys_strides(is, ist))
		return ev_err(e, i, "bitcast with a tiled or malformed layout is not supported");
	if (row_major(os, ost) && row_major(is, ist))
		return reshape(e, i, a);
	if (a->shape->type != os->type || hilo_shape_elements(is) != hilo_shape_elements(os))
		return ev_err(e, i, "bitcast changes the element type or count");
	/* physical offset p -> operand logical index, via the operand's
	 * dims sorted by stride */
	int ord[MAXR], r = is->rank;
	for (int d = 0; d < r; d++)
		ord[d] = d;
	for (int x = 1; x < r; x++)
		for (int y = x; y > 0 && ist[ord[y - 1]] < ist[ord[y]]; y--) {
			int t = ord[y];
			ord[y] = ord[y - 1];
			ord[y - 1] = t;
		}
	int64_t lst[MAXR];
	hilo_shape_strides(is, lst);
	size_t n;
	hilo_literal *res = out_new(e, i, &n);
	if (!res)
		return NULL;
	size_t w = W(res);
	int64_t idx[MAXR] = {0};
	for (size_t k = 0; k < n; k++) {
		int64_t p = 0, src = 0;
		for (int d = 0; d < os->rank; d++)
			p += idx[d] * ost[d];
		for (int q = 0; q < r; q++) { /* largest stride first */
			int d = ord[q];
			int64_t v = ist[d] ? p / ist[d] : 0;
			p -= v * ist[d];
			src += v * lst[d];
		}
		CP(res, k, a, (size_t)src, w);
		ev_next_index(os, idx);
	}
	return res;
}

static hilo_literal *transpose(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	int nd = 0;
	const int64_t *perm = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	const hilo_shape *os = i->shape, *is = a->shape;
	if (nd != is->rank || nd != os->rank || is->type != os->type)
		return ev_err(e, i, "transpose dimensions do not match");
	bool used[MAXR] = {0};
	for (int d = 0; d < nd; d++) {
		if (perm[d] < 0 || perm[d] >= nd || used[perm[d]] || os->dims[d] != is->dims[perm[d]])
			return ev_err(e, i, "transpose dimensions are not a permutation of the operand's");
		used[perm[d]] = true;
	}
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		for (int d = 0; d < nd; d++)
			s += idx[d] * ist[perm[d]];
		CP(r, k, a, (size_t)s, w);
		ev_next_index(os, idx);
	}
	return r;
}

static hilo_literal *slice(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	hilo_attr *at = hilo_instr_attr(i, HILO_A_SLICE);
	const hilo_shape *os = i->shape, *is = a->shape;
	if (!at || at->kind != HILO_ATTR_SLICE || at->n != is->rank || os->rank != is->rank ||
	    is->type != os->type)
		return ev_err(e, i, "slice attribute does not match the operand");
	const int64_t *v = at->v.ints;
	for (int d = 0; d < is->rank; d++) {
		int64_t st = v[3 * d], lim = v[3 * d + 1], str = v[3 * d + 2];
		if (str <= 0 || st < 0 || lim > is->dims[d] || st > lim ||
		    os->dims[d] != (lim - st + str - 1) / str)
			return ev_err(e, i, "slice bounds do not match dimension %d", d);
	}
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		for (int d = 0; d < is->rank; d++)
			s += (v[3 * d] + idx[d] * v[3 * d + 2]) * ist[d];
		CP(r, k, a, (size_t)s, w);
		ev_next_index(os, idx);
	}
	return r;
}

/* Reads the start indices of a dynamic-(update-)slice (scalar operands
 * from `first`, or the old single-vector form) and clamps them. */
static bool dyn_starts(ev *e, const hilo_instr *i, hilo_literal *const *ops, uint32_t first,
	const hilo_shape *in, const int64_t *size, int64_t *start)
{
	int rank = in->rank;
	uint32_t nidx = i->noperands - first;
	for (uint32_t q = first; q < i->noperands; q++)
		if (!arr(ops[q]) || !hilo_ptype_is_int(ops[q]->shape->type)) {
			ev_err(e, i, "start indices must be integers");
			return false;
		}
	if ((int)nidx == rank && (rank == 0 || ops[first]->shape->rank == 0)) {
		for (int d = 0; d < rank; d++)
			start[d] = ev_get_index(ops[first + d], 0);
	} else if (nidx == 1 && ops[first]->shape->rank == 1 && ops[first]->shape->dims[0] == rank) {
		for (int d = 0; d < rank; d++)
			start[d] = ev_get_index(ops[first], (size_t)d);
	} else {
		ev_err(e, i, "expected %d start indices", rank);
		return false;
	}
	for (int d = 0; d < rank; d++) {
		if (size[d] < 0 || size[d] > in->dims[d]) {
			ev_err(e, i, "slice size %lld exceeds dimension %d", (long long)size[d], d);
			return false;
		}
		int64_t hi = in->dims[d] - size[d];
		start[d] = start[d] < 0 ? 0 : start[d] > hi ? hi : start[d];
	}
	return true;
}

static hilo_literal *dynamic_slice(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_shape *os = i->shape, *is = ops[0]->shape;
	int64_t start[MAXR];
	if (!arr(ops[0]) || os->rank != is->rank || os->type != is->type)
		return ev_err(e, i, "dynamic-slice result does not match the operand");
	int nsz = 0;
	const int64_t *sz = hilo_instr_get_ints(i, HILO_A_DYNAMIC_SLICE_SIZES, &nsz);
	if (sz && nsz == os->rank)
		for (int d = 0; d < os->rank; d++)
			if (sz[d] != os->dims[d])
				return ev_err(e, i, "dynamic_slice_sizes disagree with the result");
	if (!dyn_starts(e, i, ops, 1, is, os->dims, start))
		return NULL;
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		for (int d = 0; d < is->rank; d++)
			s += (start[d] + idx[d]) * ist[d];
		CP(r, k, ops[0], (size_t)s, w);
		ev_next_index(os, idx);
	}
	return r;
}

static hilo_literal *dynamic_update_slice(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_shape *os = i->shape, *is = ops[0]->shape;
	if (i->noperands < 2 || !arr(ops[0]) || !arr(ops[1]))
		return ev_err(e, i, "dynamic-update-slice needs an operand and an update");
	const hilo_shape *us = ops[1]->shape;
	if (!hilo_shape_compatible(os, is) || us->rank != is->rank || us->type != is->type)
		return ev_err(e, i, "update does not match the operand");
	int64_t start[MAXR];
	if (!dyn_starts(e, i, ops, 2, is, us->dims, start))
		return NULL;
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	memcpy(r->data, ops[0]->data, r->nbytes);
	size_t w = W(r);
	int64_t nu = hilo_shape_elements(us);
	if (!ev_charge(e, i, (uint64_t)nu))
		return NULL;
	int64_t ost[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ost);
	for (int64_t k = 0; k < nu; k++) {
		int64_t s = 0;
		for (int d = 0; d < is->rank; d++)
			s += (start[d] + idx[d]) * ost[d];
		CP(r, (size_t)s, ops[1], (size_t)k, w);
		ev_next_index(us, idx);
	}
	return r;
}

static hilo_literal *concatenate(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	int nd = 0;
	const int64_t *dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	const hilo_shape *os = i->shape;
	if (nd != 1 || dv[0] < 0 || dv[0] >= os->rank || i->noperands < 1)
		return ev_err(e, i, "concatenate needs one dimension");
	int cd = (int)dv[0];
	int64_t total = 0;
	for (uint32_t q = 0; q < i->noperands; q++) {
		const hilo_shape *s = ops[q]->shape;
		if (!arr(ops[q]) || s->rank != os->rank || s->type != os->type)
			return ev_err(e, i, "operand %u does not match the result", q);
		for (int d = 0; d < os->rank; d++)
			if (d != cd && s->dims[d] != os->dims[d])
				return ev_err(e, i, "operand %u differs in dimension %d", q, d);
		total += s->dims[cd];
	}
	if (total != os->dims[cd])
		return ev_err(e, i, "operand sizes do not add up to the result");
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t outer = 1, inner = 1;
	for (int d = 0; d < cd; d++)
		outer *= os->dims[d];
	for (int d = cd + 1; d < os->rank; d++)
		inner *= os->dims[d];
	char *dst = r->data;
	for (int64_t o = 0; o < outer; o++)
		for (uint32_t q = 0; q < i->noperands; q++) {
			size_t blk = (size_t)(ops[q]->shape->dims[cd] * inner) * w;
			if (blk) {
				memcpy(dst, (const char *)ops[q]->data + (size_t)o * blk, blk);
				dst += blk;
			}
		}
	return r;
}

static hilo_literal *pad(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	hilo_attr *at = hilo_instr_attr(i, HILO_A_PADDING);
	const hilo_shape *os = i->shape, *is = ops[0]->shape;
	if (!arr(ops[0]) || !arr(ops[1]) || ops[1]->shape->rank != 0 || is->type != os->type ||
	    ops[1]->shape->type != os->type)
		return ev_err(e, i, "pad needs an array operand and a scalar padding value");
	if (!at || at->kind != HILO_ATTR_PADDING || at->n != is->rank || os->rank != is->rank)
		return ev_err(e, i, "padding attribute does not match the operand");
	const int64_t *v = at->v.ints;
	for (int d = 0; d < is->rank; d++) {
		int64_t lo = v[3 * d], hi = v[3 * d + 1], in = v[3 * d + 2], sz = is->dims[d];
		if (in < 0 || lo + hi + sz + (sz > 0 ? (sz - 1) * in : 0) != os->dims[d])
			return ev_err(e, i, "padding does not give the result's dimension %d", d);
	}
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		bool inside = true;
		for (int d = 0; d < is->rank && inside; d++) {
			int64_t t = idx[d] - v[3 * d], step = v[3 * d + 2] + 1;
			if (t < 0 || t % step != 0 || t / step >= is->dims[d])
				inside = false;
			else
				s += (t / step) * ist[d];
		}
		if (inside)
			CP(r, k, ops[0], (size_t)s, w);
		else
			CP(r, k, ops[1], 0, w);
		ev_next_index(os, idx);
	}
	return r;
}

static hilo_literal *iota(ev *e, const hilo_instr *i)
{
	int64_t d = 0;
	const hilo_shape *os = i->shape;
	if (!hilo_instr_get_int(i, HILO_A_IOTA_DIMENSION, &d) || d < 0 || d >= os->rank)
		return ev_err(e, i, "iota needs a valid iota_dimension");
	if (!hilo_ptype_is_int(os->type) && !hilo_ptype_is_float(os->type) &&
	    !hilo_ptype_is_complex(os->type))
		return ev_err(e, i, "iota of %s is not supported", hilo_ptype_name(os->type));
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	int64_t idx[MAXR] = {0};
	for (size_t k = 0; k < n; k++) {
		if (hilo_ptype_is_int(os->type))
			hilo_elem_set_i64(os->type, r->data, k, idx[d]);
		else
			hilo_elem_set_f64(os->type, r->data, k, (double)idx[d]);
		ev_next_index(os, idx);
	}
	return r;
}

static hilo_literal *reverse(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	int nd = 0;
	const int64_t *dims = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	const hilo_shape *os = i->shape, *is = a->shape;
	if (!hilo_shape_compatible(os, is))
		return ev_err(e, i, "reverse changes the shape");
	bool rev[MAXR] = {0};
	for (int k = 0; k < nd; k++) {
		if (dims[k] < 0 || dims[k] >= is->rank)
			return ev_err(e, i, "reverse dimension out of range");
		rev[dims[k]] = true;
	}
	size_t n;
	hilo_literal *r = out_new(e, i, &n);
	if (!r)
		return NULL;
	size_t w = W(r);
	int64_t ist[MAXR], idx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	for (size_t k = 0; k < n; k++) {
		int64_t s = 0;
		for (int d = 0; d < is->rank; d++)
			s += (rev[d] ? is->dims[d] - 1 - idx[d] : idx[d]) * ist[d];
		CP(r, k, a, (size_t)s, w);
		ev_next_index(os, idx);
	}
	return r;
}

hilo_literal *ev_shape_op(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled)
{
	hilo_opcode op = i->op;
	switch (op) {
	case HILO_OP_BROADCAST: case HILO_OP_RESHAPE: case HILO_OP_BITCAST:
	case HILO_OP_TRANSPOSE: case HILO_OP_SLICE: case HILO_OP_DYNAMIC_SLICE:
	case HILO_OP_DYNAMIC_UPDATE_SLICE: case HILO_OP_CONCATENATE: case HILO_OP_PAD:
	case HILO_OP_REVERSE:
		break;
	case HILO_OP_IOTA:
		return iota(e, i);
	default:
		*handled = false;
		return NULL;
	}
	if (i->noperands < 1)
		return ev_err(e, i, "missing operand");
	for (uint32_t q = 0; q < i->noperands; q++)
		if (!arr(ops[q]))
			return ev_err(e, i, "operand %u is not an array", q);
	if (i->shape->type == HILO_T_TUPLE || i->shape->rank > MAXR)
		return ev_err(e, i, "unsupported result shape");
	switch (op) {
	case HILO_OP_BROADCAST: return broadcast(e, i, ops[0]);
	case HILO_OP_RESHAPE: return reshape(e, i, ops[0]);
	case HILO_OP_BITCAST: return bitcast(e, i, ops[0]);
	case HILO_OP_TRANSPOSE: return transpose(e, i, ops[0]);
	case HILO_OP_SLICE: return slice(e, i, ops[0]);
	case HILO_OP_DYNAMIC_SLICE: return dynamic_slice(e, i, ops);
	case HILO_OP_DYNAMIC_UPDATE_SLICE: return dynamic_update_slice(e, i, ops);
	case HILO_OP_CONCATENATE: return concatenate(e, i, ops);
	case HILO_OP_PAD: return pad(e, i, ops);
	default: return reverse(e, i, ops[0]);
	}
}

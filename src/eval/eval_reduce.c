/* eval_reduce.c - ops that call a computation per element or combine many
 * elements: reduce, reduce-window, map, sort (with a comparator), scatter
 * (with a combiner), plus dot (general) and gather.
 *
 * The called computation runs through ev_apply: scalar arguments point
 * straight into the operand/result buffers (nothing is mutated in place:
 * the result is copied into the accumulator after each call), a reducer
 * whose root is one binary op of its two parameters is run as that op
 * alone, and allocation goes to a private arena recycled every few
 * thousand calls, so a reduce over millions of elements runs in bounded
 * memory.
 *
 * Orders follow XLA's reference evaluator: reduce and reduce-window fold
 * from the init value in row-major order of the reduced positions
 * (reduce-window skips padding and dilation holes); sort is a stable merge
 * sort; scatter applies updates in row-major order of the update operand
 * and skips an update window that would not fit inside the operand; gather
 * and dot are exact index arithmetic (dot converts its operands to the
 * result type and accumulates in XLA's ElementwiseT: double for f64, float
 * for f32 and narrower, 64-bit wrapping for integers).
 */
#include "eval_internal.h"

#include <stdlib.h>

#define MAXR 64
#define RECYCLE 4096

/* ---- apply ------------------------------------------------------------- */

bool ev_apply_init(ev_apply *ap, ev *e, const hilo_comp *c, int nargs)
{
	memset(ap, 0, sizeof *ap);
	ap->e = e;
	ap->c = c;
	ap->fast = -1;
	if (!c || (int)c->nparams != nargs || !c->root) {
		ev_err(e, NULL, "called computation %s does not take %d parameters",
			c ? c->name : "?", nargs);
		return false;
	}
	for (int k = 0; k < nargs; k++)
		if (!c->params[k] || c->params[k]->shape->type == HILO_T_TUPLE ||
		    c->params[k]->shape->rank != 0) {
			ev_err(e, NULL, "parameter %d of %s is not a scalar", k, c->name);
			return false;
		}
	const hilo_instr *r = c->root;
	if (nargs == 2 && r->noperands == 2 && (hilo_opcode_flags(r->op) & HILO_OPF_EW) &&
	    r->op != HILO_OP_COMPARE && r->shape->rank == 0 && r->shape->type != HILO_T_TUPLE &&
	    r->operands[0]->op == HILO_OP_PARAMETER && r->operands[1]->op == HILO_OP_PARAMETER &&
	    r->operands[0] != r->operands[1]) {
		ap->fast = r->op;
		ap->swapped = hilo_instr_param_no(r->operands[0]) == 1;
		ap->fast_instr = r;
	}
	ap->scratch = hilo_arena_create_in(e->m->arena);
	if (!ap->scratch) {
		ev_err(e, NULL, "out of memory");
		return false;
	}
	return true;
}

void ev_apply_fini(ev_apply *ap)
{
	if (ap->scratch)
		hilo_arena_destroy(ap->scratch);
	ap->scratch = NULL;
}

hilo_literal *ev_apply_call(ev_apply *ap, hilo_literal *const *args)
{
	ev *e = ap->e;
	if (++ap->calls % RECYCLE == 0) {
		hilo_arena *n = hilo_arena_create_in(e->m->arena);
		if (!n)
			return ev_err(e, NULL, "out of memory");
		hilo_arena_destroy(ap->scratch);
		ap->scratch = n;
	}
	hilo_arena *saved = e->a;
	e->a = ap->scratch;
	hilo_literal *r;
	if (ap->fast >= 0) {
		hilo_literal *ops[2] = {args[ap->swapped ? 1 : 0], args[ap->swapped ? 0 : 1]};
		for (int k = 0; k < 2; k++)
			if (!hilo_shape_compatible(ops[k]->shape, ap->fast_instr->operands[k]->shape)) {
				e->a = saved;
				return ev_err(e, ap->fast_instr, "argument does not match the parameter");
			}
		r = ev_instr(e, ap->fast_instr, ops);
	} else {
		r = ev_comp(e, ap->c, args);
	}
	e->a = saved;
	return r;
}

/* Scalar literal views into buffers (shape from the parameter). */
static void view(hilo_literal *v, const hilo_shape *s, const hilo_literal *buf, size_t k)
{
	size_t w = (size_t)hilo_ptype_bytes(s->type);
	memset(v, 0, sizeof *v);
	v->shape = (hilo_shape *)s;
	v->nbytes = w;
	v->data = (char *)buf->data + k * w;
}

static bool is_arr(const hilo_literal *l)
{
	return l->shape && l->shape->type != HILO_T_TUPLE && l->shape->rank <= MAXR;
}

/* The i-th array of a result that is one array (n == 1) or a tuple. */
static const hilo_shape *res_shape(const hilo_shape *s, int n, int k)
{
	if (n == 1 && s->type != HILO_T_TUPLE)
		return s;
	if (s->type != HILO_T_TUPLE || s->ntuple != n)
		return NULL;
	return s->elems[k];
}

static hilo_literal *res_part(hilo_literal *r, int n, int k)
{
	return (n == 1 && r->shape->type != HILO_T_TUPLE) ? r : r->elems[k];
}

/* Copies a reducer's result (scalar or tuple of n scalars) into the
 * accumulators at position k. */
static bool store_result(ev *e, const hilo_instr *i, const hilo_literal *res,
	hilo_literal *const *acc, int n, size_t k)
{
	for (int q = 0; q < n; q++) {
		const hilo_literal *p = res;
		if (n > 1 || res->shape->type == HILO_T_TUPLE) {
			if (res->shape->type != HILO_T_TUPLE || res->ntuple != n) {
				ev_err(e, i, "computation returns the wrong number of values");
				return false;
			}
			p = res->elems[q];
		}
		size_t w = (size_t)hilo_ptype_bytes(acc[q]->shape->type);
		if (p->shape->type != acc[q]->shape->type || p->nbytes != w) {
			ev_err(e, i, "computation returns the wrong type");
			return false;
		}
		memmove((char *)acc[q]->data + k * w, p->data, w);
	}
	return true;
}

/* ---- reduce -------------------------------------------------------------- */

static hilo_literal *reduce(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	if (i->noperands < 2 || i->noperands % 2)
		return ev_err(e, i, "reduce needs inputs and as many init values");
	int n = (int)i->noperands / 2;
	int nd = 0;
	const int64_t *dims = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	const hilo_shape *is = ops[0]->shape;
	if (!is_arr(ops[0]))
		return ev_err(e, i, "reduce input is not an array");
	bool red[MAXR] = {0};
	for (int k = 0; k < nd; k++) {
		if (dims[k] < 0 || dims[k] >= is->rank || red[dims[k]])
			return ev_err(e, i, "bad reduce dimensions");
		red[dims[k]] = true;
	}
	for (int q = 0; q < n; q++) {
		const hilo_literal *in = ops[q], *init = ops[n + q];
		const hilo_shape *os = res_shape(i->shape, n, q);
		if (!is_arr(in) || !is_arr(init) || init->shape->rank != 0 || !os ||
		    in->shape->rank != is->rank || os->rank != is->rank - nd ||
		    init->shape->type != os->type)
			return ev_err(e, i, "reduce operand %d does not match", q);
		for (int d = 0, o = 0; d < is->rank; d++) {
			if (in->shape->dims[d] != is->dims[d])
				return ev_err(e, i, "reduce inputs differ in shape");
			if (!red[d] && os->dims[o++] != is->dims[d])
				return ev_err(e, i, "reduce result dimensions do not match");
		}
	}
	hilo_comp *f = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	hilo_literal *acc[MAXR];
	if (n > MAXR)
		return ev_err(e, i, "too many reduce operands");
	int64_t nout = hilo_shape_elements(res_shape(i->shape, n, 0));
	for (int q = 0; q < n; q++) {
		acc[q] = res_part(r, n, q);
		size_t w = (size_t)hilo_ptype_bytes(acc[q]->shape->type);
		for (int64_t k = 0; k < nout; k++)
			memcpy((char *)acc[q]->data + (size_t)k * w, ops[n + q]->data, w);
	}
	int64_t nin = hilo_shape_elements(is);
	if (nin == 0)
		return r;
	ev_apply ap;
	if (!ev_apply_init(&ap, e, f, 2 * n))
		return NULL;
	hilo_literal vs[2 * MAXR];
	hilo_literal *args[2 * MAXR];
	int64_t idx[MAXR] = {0}, ost[MAXR];
	/* strides of the kept dims in the output */
	int64_t acc_s = 1;
	for (int d = is->rank - 1; d >= 0; d--) {
		ost[d] = red[d] ? 0 : acc_s;
		if (!red[d])
			acc_s *= is->dims[d];
	}
	hilo_literal *res = NULL;
	for (int64_t k = 0; k < nin; k++) {
		int64_t o = 0;
		for (int d = 0; d < is->rank; d++)
			o += idx[d] * ost[d];
		for (int q = 0; q < n; q++) {
			view(&vs[q], f->params[q]->shape, acc[q], (size_t)o);
			view(&vs[n + q], f->params[n + q]->shape, ops[q], (size_t)k);
			args[q] = &vs[q];
			args[n + q] = &vs[n + q];
			if (f->params[q]->shape->type != acc[q]->shape->type ||
			    f->params[n + q]->shape->type != ops[q]->shape->type) {
				ev_apply_fini(&ap);
				return ev_err(e, i, "reducer parameter types do not match");
			}
		}
		res = ev_apply_call(&ap, args);
		if (!res || !store_result(e, i, res, acc, n, (size_t)o)) {
			ev_apply_fini(&ap);
			return NULL;
		}
		ev_next_index(is, idx);
	}
	ev_apply_fini(&ap);
	return r;
}

/* ---- reduce-window ------------------------------------------------------- */

typedef hilo_window window;

static hilo_literal *reduce_window(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	if (i->noperands < 2 || i->noperands % 2)
		return ev_err(e, i, "reduce-window needs inputs and as many init values");
	int n = (int)i->noperands / 2;
	if (n > MAXR)
		return ev_err(e, i, "too many operands");
	const hilo_shape *is = ops[0]->shape;
	if (!is_arr(ops[0]))
		return ev_err(e, i, "input is not an array");
	hilo_attr *wa = hilo_instr_attr(i, HILO_A_WINDOW);
	window w;
	if (!hilo_window_parse(wa && wa->kind == HILO_ATTR_RAW ? wa->v.text : NULL, is->rank, &w))
		return ev_err(e, i, "cannot read the window attribute");
	const hilo_shape *os0 = res_shape(i->shape, n, 0);
	if (!os0 || os0->rank != is->rank)
		return ev_err(e, i, "result rank differs from the input's");
	for (int d = 0; d < is->rank; d++) {
		int64_t dil = is->dims[d] ? (is->dims[d] - 1) * w.ldil[d] + 1 : 0;
		int64_t padded = dil + w.lo[d] + w.hi[d];
		int64_t wsz = w.size[d] ? (w.size[d] - 1) * w.rdil[d] + 1 : 0;
		int64_t od = padded < wsz ? 0 : (padded - wsz) / w.stride[d] + 1;
		if (od != os0->dims[d])
			return ev_err(e, i, "window does not give the result's dimension %d", d);
	}
	for (int q = 0; q < n; q++) {
		const hilo_shape *os = res_shape(i->shape, n, q);
		if (!os || !is_arr(ops[q]) ||
		    !is_arr(ops[n + q]) || ops[n + q]->shape->rank != 0 ||
		    ops[n + q]->shape->type != os->type || os->rank != os0->rank)
			return ev_err(e, i, "operand %d does not match", q);
		for (int d = 0; d < os->rank; d++)
			if (os->dims[d] != os0->dims[d] || ops[q]->shape->dims[d] != is->dims[d])
				return ev_err(e, i, "operand %d does not match", q);
	}
	hilo_comp *f = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	hilo_literal *acc[MAXR];
	int64_t nout = hilo_shape_elements(os0);
	for (int q = 0; q < n; q++) {
		acc[q] = res_part(r, n, q);
		size_t sz = (size_t)hilo_ptype_bytes(acc[q]->shape->type);
		for (int64_t k = 0; k < nout; k++)
			memcpy((char *)acc[q]->data + (size_t)k * sz, ops[n + q]->data, sz);
	}
	if (nout == 0)
		return r;
	ev_apply ap;
	if (!ev_apply_init(&ap, e, f, 2 * n))
		return NULL;
	int rank = is->rank;
	int64_t ist[MAXR], oidx[MAXR] = {0};
	hilo_shape_strides(is, ist);
	int64_t wn = hilo_dims_elements(rank, w.size);
	hilo_literal vs[2 * MAXR], *args[2 * MAXR];
	for (int64_t k = 0; k < nout; k++) {
		int64_t widx[MAXR] = {0};
		for (int64_t t = 0; t < wn; t++) {
			int64_t s = 0;
			bool in = true;
			for (int d = 0; d < rank && in; d++) {
				int64_t c = oidx[d] * w.stride[d] + widx[d] * w.rdil[d] - w.lo[d];
				if (c < 0 || c % w.ldil[d] || c / w.ldil[d] >= is->dims[d])
					in = false;
				else
					s += (c / w.ldil[d]) * ist[d];
			}
			ev_next_index_dims(rank, w.size, widx);
			if (!in)
				continue;
			for (int q = 0; q < n; q++) {
				view(&vs[q], f->params[q]->shape, acc[q], (size_t)k);
				view(&vs[n + q], f->params[n + q]->shape, ops[q], (size_t)s);
				args[q] = &vs[q];
				args[n + q] = &vs[n + q];
			}
			hilo_literal *res = ev_apply_call(&ap, args);
			if (!res || !store_result(e, i, res, acc, n, (size_t)k)) {
				ev_apply_fini(&ap);
				return NULL;
			}
		}
		ev_next_index(os0, oidx);
	}
	ev_apply_fini(&ap);
	return r;
}

/* ---- map ------------------------------------------------------------------- */

static hilo_literal *map(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	int n = (int)i->noperands;
	if (n < 1 || n > MAXR || i->shape->type == HILO_T_TUPLE)
		return ev_err(e, i, "bad map");
	for (int q = 0; q < n; q++)
		if (!is_arr(ops[q]) || ops[q]->shape->rank != i->shape->rank ||
		    hilo_shape_elements(ops[q]->shape) != hilo_shape_elements(i->shape))
			return ev_err(e, i, "map operand %d does not match the result", q);
	hilo_comp *f = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	int64_t nout = hilo_shape_elements(i->shape);
	if (nout == 0)
		return r;
	ev_apply ap;
	if (!ev_apply_init(&ap, e, f, n))
		return NULL;
	hilo_literal vs[MAXR], *args[MAXR];
	for (int64_t k = 0; k < nout; k++) {
		for (int q = 0; q < n; q++) {
			if (f->params[q]->shape->type != ops[q]->shape->type) {
				ev_apply_fini(&ap);
				return ev_err(e, i, "map parameter types do not match");
			}
			view(&vs[q], f->params[q]->shape, ops[q], (size_t)k);
			args[q] = &vs[q];
		}
		hilo_literal *res = ev_apply_call(&ap, args);
		if (!res || !store_result(e, i, res, &r, 1, (size_t)k)) {
			ev_apply_fini(&ap);
			return NULL;
		}
	}
	ev_apply_fini(&ap);
	return r;
}

/* ---- sort ------------------------------------------------------------------- */

typedef struct {
	ev_apply *ap;
	const hilo_instr *i;
	hilo_literal *const *ops;
	int n;
	const hilo_comp *f;
	bool failed;
} sorter;

/* comparator(a, b): "a goes before b" */
static bool less(sorter *s, int64_t a, int64_t b)
{
	hilo_literal vs[2 * MAXR], *args[2 * MAXR];
	for (int q = 0; q < s->n; q++) {
		view(&vs[2 * q], s->f->params[2 * q]->shape, s->ops[q], (size_t)a);
		view(&vs[2 * q + 1], s->f->params[2 * q + 1]->shape, s->ops[q], (size_t)b);
		args[2 * q] = &vs[2 * q];
		args[2 * q + 1] = &vs[2 * q + 1];
	}
	hilo_literal *r = ev_apply_call(s->ap, args);
	if (!r || r->shape->type != HILO_T_PRED || r->nbytes != 1) {
		if (r)
			ev_err(s->ap->e, s->i, "comparator must return pred[]");
		s->failed = true;
		return false;
	}
	return *(unsigned char *)r->data != 0;
}

static hilo_literal *sort(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	int n = (int)i->noperands;
	int64_t dim = 0;
	int nd = 0;
	const int64_t *dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
	if (n < 1 || n > MAXR || !is_arr(ops[0]) || !dv || nd != 1)
		return ev_err(e, i, "sort needs operands and one dimension");
	dim = dv[0];
	const hilo_shape *s0 = ops[0]->shape;
	if (dim < 0 || dim >= s0->rank)
		return ev_err(e, i, "sort dimension out of range");
	for (int q = 0; q < n; q++) {
		const hilo_shape *os = res_shape(i->shape, n, q);
		if (!is_arr(ops[q]) || !os || ops[q]->shape->rank != s0->rank ||
		    !hilo_shape_compatible(os, ops[q]->shape))
			return ev_err(e, i, "sort operand %d does not match", q);
		for (int d = 0; d < s0->rank; d++)
			if (ops[q]->shape->dims[d] != s0->dims[d])
				return ev_err(e, i, "sort operands differ in shape");
	}
	hilo_comp *f = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
	ev_apply ap;
	if (!ev_apply_init(&ap, e, f, 2 * n))
		return NULL;
	for (int q = 0; q < 2 * n; q++)
		if (f->params[q]->shape->type != ops[q / 2]->shape->type) {
			ev_apply_fini(&ap);
			return ev_err(e, i, "comparator parameter types do not match");
		}
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r) {
		ev_apply_fini(&ap);
		return NULL;
	}
	int64_t len = s0->dims[dim], total = hilo_shape_elements(s0);
	int64_t st[MAXR];
	hilo_shape_strides(s0, st);
	int64_t stride = st[dim], outer = len ? total / len : 0;
	int64_t *perm = hilo_heap_alloc(e->m->arena, ((size_t)len + 1) * sizeof *perm);
	int64_t *tmp = hilo_heap_alloc(e->m->arena, ((size_t)len + 1) * sizeof *tmp);
	sorter so = {&ap, i, ops, n, f, false};
	bool ok = perm && tmp;
	if (!ok)
		ev_err(e, i, "out of memory");
	/* one sort per line along dim: base = element of index 0 on that line */
	for (int64_t o = 0; ok && o < outer; o++) {
		int64_t base = (o / stride) * stride * len + (o % stride);
		for (int64_t k = 0; k < len; k++)
			perm[k] = base + k * stride;
		for (int64_t wdt = 1; ok && wdt < len; wdt *= 2) {
			for (int64_t lo = 0; lo < len; lo += 2 * wdt) {
				int64_t mid = lo + wdt < len ? lo + wdt : len;
				int64_t hi = lo + 2 * wdt < len ? lo + 2 * wdt : len;
				int64_t a = lo, b = mid, t = lo;
				while (a < mid && b < hi) {
					/* take from the right only when strictly before */
					if (less(&so, perm[b], perm[a]))
						tmp[t++] = perm[b++];
					else
						tmp[t++] = perm[a++];
					if (so.failed)
						break;
				}
				while (a < mid)
					tmp[t++] = perm[a++];
				while (b < hi)
					tmp[t++] = perm[b++];
				if (so.failed) {
					ok = false;
					break;
				}
			}
			if (ok)
				memcpy(perm, tmp, (size_t)len * sizeof *perm);
		}
		for (int q = 0; ok && q < n; q++) {
			hilo_literal *dst = res_part(r, n, q);
			size_t w = (size_t)hilo_ptype_bytes(dst->shape->type);
			for (int64_t k = 0; k < len; k++)
				memcpy((char *)dst->data + (size_t)(base + k * stride) * w,
					(char *)ops[q]->data + (size_t)perm[k] * w, w);
		}
	}
	hilo_heap_free(e->m->arena, perm);
	hilo_heap_free(e->m->arena, tmp);
	ev_apply_fini(&ap);
	return ok ? r : NULL;
}

/* ---- dot --------------------------------------------------------------------- */

static bool dims_attr(const hilo_instr *i, hilo_attr_id k, const int64_t **v, int *n, int rank)
{
	*v = hilo_instr_get_ints(i, k, n);
	if (!*v)
		*n = 0;
	for (int q = 0; q < *n; q++)
		if ((*v)[q] < 0 || (*v)[q] >= rank)
			return false;
	return true;
}

static hilo_literal *dot(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_literal *a = ops[0], *b = ops[1];
	if (!is_arr(a) || !is_arr(b) || i->shape->type == HILO_T_TUPLE)
		return ev_err(e, i, "dot needs array operands");
	const hilo_shape *as = a->shape, *bs = b->shape, *os = i->shape;
	const int64_t *lb, *rb, *lc, *rc;
	int nlb, nrb, nlc, nrc;
	if (!dims_attr(i, HILO_A_LHS_BATCH_DIMS, &lb, &nlb, as->rank) ||
	    !dims_attr(i, HILO_A_RHS_BATCH_DIMS, &rb, &nrb, bs->rank) ||
	    !dims_attr(i, HILO_A_LHS_CONTRACTING_DIMS, &lc, &nlc, as->rank) ||
	    !dims_attr(i, HILO_A_RHS_CONTRACTING_DIMS, &rc, &nrc, bs->rank) || nlb != nrb || nlc != nrc)
		return ev_err(e, i, "bad dot dimension numbers");
	int role_a[MAXR] = {0}, role_b[MAXR] = {0}; /* 0 free, 1 batch, 2 contracting */
	for (int q = 0; q < nlb; q++) {
		if (role_a[lb[q]] || role_b[rb[q]] || as->dims[lb[q]] != bs->dims[rb[q]])
			return ev_err(e, i, "batch dimensions do not match");
		role_a[lb[q]] = role_b[rb[q]] = 1;
	}
	for (int q = 0; q < nlc; q++) {
		if (role_a[lc[q]] || role_b[rc[q]] || as->dims[lc[q]] != bs->dims[rc[q]])
			return ev_err(e, i, "contracting dimensions do not match");
		role_a[lc[q]] = role_b[rc[q]] = 2;
	}
	int fa[MAXR], fb[MAXR], nfa = 0, nfb = 0;
	for (int d = 0; d < as->rank; d++)
		if (!role_a[d])
			fa[nfa++] = d;
	for (int d = 0; d < bs->rank; d++)
		if (!role_b[d])
			fb[nfb++] = d;
	if (os->rank != nlb + nfa + nfb)
		return ev_err(e, i, "dot result rank does not match");
	for (int q = 0; q < nlb; q++)
		if (os->dims[q] != as->dims[lb[q]])
			return ev_err(e, i, "dot result dimensions do not match");
	for (int q = 0; q < nfa; q++)
		if (os->dims[nlb + q] != as->dims[fa[q]])
			return ev_err(e, i, "dot result dimensions do not match");
	for (int q = 0; q < nfb; q++)
		if (os->dims[nlb + nfa + q] != bs->dims[fb[q]])
			return ev_err(e, i, "dot result dimensions do not match");
	hilo_ptype ot = os->type;
	bool fl = hilo_ptype_is_float(ot);
	if (!fl && !hilo_ptype_is_int(ot) && ot != HILO_T_PRED)
		return ev_err(e, i, "dot of %s is not supported", hilo_ptype_name(ot));
	if (hilo_ptype_is_complex(as->type) || hilo_ptype_is_complex(bs->type))
		return ev_err(e, i, "complex dot is not supported");
	int64_t nout = hilo_shape_elements(os), ncon = 1;
	for (int q = 0; q < nlc; q++)
		ncon *= as->dims[lc[q]];
	if (!ev_charge(e, i, (uint64_t)nout * (uint64_t)(ncon ? ncon : 1)))
		return NULL;
	hilo_literal *r = ev_lit_new(e, i, os);
	if (!r)
		return NULL;
	int64_t ast[MAXR], bst[MAXR], oidx[MAXR] = {0};
	hilo_shape_strides(as, ast);
	hilo_shape_strides(bs, bst);
	int64_t cdims[MAXR];
	for (int q = 0; q < nlc; q++)
		cdims[q] = as->dims[lc[q]];
	for (int64_t k = 0; k < nout; k++) {
		int64_t abase = 0, bbase = 0;
		for (int q = 0; q < nlb; q++) {
			abase += oidx[q] * ast[lb[q]];
			bbase += oidx[q] * bst[rb[q]];
		}
		for (int q = 0; q < nfa; q++)
			abase += oidx[nlb + q] * ast[fa[q]];
		for (int q = 0; q < nfb; q++)
			bbase += oidx[nlb + nfa + q] * bst[fb[q]];
		int64_t cidx[MAXR] = {0};
		/* no contracting dimension: the result is the product itself
		 * (XLA CPU: -0 * 3 = -0), so the sum starts from -0, the
		 * additive identity that keeps a product's sign */
		double sf = nlc == 0 ? -0.0 : 0.0;
		float sf32 = nlc == 0 ? -0.0f : 0.0f;
		uint64_t si = 0;
		for (int64_t t = 0; t < ncon; t++) {
			int64_t ao = abase, bo = bbase;
			for (int q = 0; q < nlc; q++) {
				ao += cidx[q] * ast[lc[q]];
				bo += cidx[q] * bst[rc[q]];
			}
			/* XLA: operands converted to the result type, products
			 * summed in order from 0 (-0 without contraction) in its ElementwiseT (double for
			 * f64, float for f32 and narrower, 64-bit for ints) */
			if (ot == HILO_T_F64) {
				sf += ev_get_as_f(a, (size_t)ao, ot) * ev_get_as_f(b, (size_t)bo, ot);
			} else if (fl) {
				float p = (float)ev_get_as_f(a, (size_t)ao, ot) * (float)ev_get_as_f(b, (size_t)bo, ot);
				sf32 = sf32 + p;
			} else {
				si += (uint64_t)ev_get_as_i(a, (size_t)ao, ot) *
				      (uint64_t)ev_get_as_i(b, (size_t)bo, ot);
			}
			ev_next_index_dims(nlc, cdims, cidx);
		}
		if (fl)
			hilo_elem_set_f64(ot, r->data, (size_t)k, ot == HILO_T_F64 ? sf : (double)sf32);
		else
			hilo_elem_set_i64(ot, r->data, (size_t)k, (int64_t)si);
		ev_next_index(os, oidx);
	}
	return r;
}

/* ---- gather / scatter -------------------------------------------------------- */

static bool in_list(const int64_t *v, int n, int64_t x)
{
	for (int q = 0; q < n; q++)
		if (v[q] == x)
			return true;
	return false;
}

/* Reads start index component c for batch position g (indices of the
 * start-indices array without the index vector dim). */
static int64_t start_comp(const hilo_literal *idx, int64_t ivd, const int64_t *g, int64_t c)
{
	const hilo_shape *s = idx->shape;
	int64_t full[MAXR], st[MAXR];
	hilo_shape_strides(s, st);
	int gi = 0;
	for (int d = 0; d < s->rank; d++)
		full[d] = d == ivd ? c : g[gi++];
	int64_t off = 0;
	for (int d = 0; d < s->rank; d++)
		off += full[d] * st[d];
	return ev_get_index(idx, (size_t)off);
}

static hilo_literal *gather(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_literal *a = ops[0], *ix = ops[1];
	if (!is_arr(a) || !is_arr(ix) || !hilo_ptype_is_int(ix->shape->type) ||
	    i->shape->type != a->shape->type)
		return ev_err(e, i, "gather needs an array and integer indices");
	const hilo_shape *as = a->shape, *xs = ix->shape, *os = i->shape;
	const int64_t *offd, *coll, *sim, *ssz, *obd, *sbd;
	int noff, ncoll, nsim, nssz, nobd, nsbd;
	int64_t ivd = 0;
	hilo_instr_get_int(i, HILO_A_INDEX_VECTOR_DIM, &ivd);
	if (!dims_attr(i, HILO_A_OFFSET_DIMS, &offd, &noff, os->rank) ||
	    !dims_attr(i, HILO_A_COLLAPSED_SLICE_DIMS, &coll, &ncoll, as->rank) ||
	    !dims_attr(i, HILO_A_START_INDEX_MAP, &sim, &nsim, as->rank) ||
	    !dims_attr(i, HILO_A_OPERAND_BATCHING_DIMS, &obd, &nobd, as->rank) ||
	    !dims_attr(i, HILO_A_START_INDICES_BATCHING_DIMS, &sbd, &nsbd, xs->rank) ||
	    nobd != nsbd || ivd < 0 || ivd > xs->rank)
		return ev_err(e, i, "bad gather dimension numbers");
	ssz = hilo_instr_get_ints(i, HILO_A_SLICE_SIZES, &nssz);
	if (!ssz || nssz != as->rank)
		return ev_err(e, i, "slice_sizes does not match the operand rank");
	int64_t vlen = ivd == xs->rank ? 1 : xs->dims[ivd];
	if (vlen != nsim)
		return ev_err(e, i, "start_index_map does not match the index vector");
	int nbatch = os->rank - noff;
	if (nbatch != xs->rank - (ivd == xs->rank ? 0 : 1))
		return ev_err(e, i, "gather batch dimensions do not match the indices");
	/* operand dims that carry offsets, in order */
	int offmap[MAXR], nom = 0;
	for (int d = 0; d < as->rank; d++) {
		if (ssz[d] < 0 || ssz[d] > as->dims[d])
			return ev_err(e, i, "slice size out of range");
		if (!in_list(coll, ncoll, d) && !in_list(obd, nobd, d))
			offmap[nom++] = d;
	}
	if (nom != noff)
		return ev_err(e, i, "offset_dims do not match the slice");
	for (int q = 0; q < noff; q++)
		if (os->dims[offd[q]] != ssz[offmap[q]])
			return ev_err(e, i, "result dimension does not match the slice size");
	{
		int bi = 0;
		for (int d = 0; d < os->rank; d++) {
			if (in_list(offd, noff, d))
				continue;
			int xd = bi < ivd || ivd == xs->rank ? bi : bi + 1;
			if (os->dims[d] != xs->dims[xd])
				return ev_err(e, i, "result batch dimension does not match the indices");
			bi++;
		}
	}
	hilo_literal *r = ev_lit_new(e, i, os);
	if (!r)
		return NULL;
	int64_t nout = hilo_shape_elements(os);
	if (!ev_charge(e, i, (uint64_t)nout))
		return NULL;
	size_t w = (size_t)hilo_ptype_bytes(os->type);
	int64_t ast[MAXR], oidx[MAXR] = {0};
	hilo_shape_strides(as, ast);
	for (int64_t k = 0; k < nout; k++) {
		int64_t g[MAXR], off[MAXR], ng = 0, no = 0;
		for (int d = 0; d < os->rank; d++) {
			if (in_list(offd, noff, d))
				off[no++] = oidx[d];
			else
				g[ng++] = oidx[d];
		}
		int64_t in[MAXR] = {0};
		for (int q = 0; q < nsim; q++)
			in[sim[q]] = start_comp(ix, ivd, g, q);
		for (int d = 0; d < as->rank; d++) {
			int64_t hi = as->dims[d] - ssz[d];
			in[d] = in[d] < 0 ? 0 : in[d] > hi ? hi : in[d];
		}
		for (int q = 0; q < nobd; q++) {
			int sd = (int)sbd[q];
			in[obd[q]] = g[sd < ivd || ivd == xs->rank ? sd : sd - 1];
		}
		int64_t src = 0;
		for (int q = 0; q < no; q++)
			in[offmap[q]] += off[q];
		for (int d = 0; d < as->rank; d++)
			src += in[d] * ast[d];
		memcpy((char *)r->data + (size_t)k * w, (char *)a->data + (size_t)src * w, w);
		ev_next_index(os, oidx);
	}
	return r;
}

static hilo_literal *scatter(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	if (i->noperands < 3 || (i->noperands - 1) % 2)
		return ev_err(e, i, "scatter needs operands, indices and updates");
	int n = (int)(i->noperands - 1) / 2;
	if (n > MAXR)
		return ev_err(e, i, "too many operands");
	const hilo_literal *ix = ops[n];
	if (!is_arr(ops[0]) || !is_arr(ix) || !hilo_ptype_is_int(ix->shape->type))
		return ev_err(e, i, "scatter needs arrays and integer indices");
	const hilo_shape *as = ops[0]->shape, *xs = ix->shape, *us = ops[n + 1]->shape;
	for (int q = 0; q < n; q++) {
		const hilo_shape *os = res_shape(i->shape, n, q);
		if (!os || !is_arr(ops[q]) || !is_arr(ops[n + 1 + q]) ||
		    !hilo_shape_compatible(os, ops[q]->shape) ||
		    ops[q]->shape->rank != as->rank || ops[n + 1 + q]->shape->rank != us->rank)
			return ev_err(e, i, "scatter operand %d does not match", q);
		for (int d = 0; d < as->rank; d++)
			if (ops[q]->shape->dims[d] != as->dims[d])
				return ev_err(e, i, "scatter operands differ in shape");
		for (int d = 0; d < us->rank; d++)
			if (ops[n + 1 + q]->shape->dims[d] != us->dims[d])
				return ev_err(e, i, "scatter updates differ in shape");
	}
	const int64_t *uwd, *iwd, *sdod, *ibd, *sibd;
	int nuwd, niwd, nsdod, nibd, nsibd;
	int64_t ivd = 0;
	hilo_instr_get_int(i, HILO_A_INDEX_VECTOR_DIM, &ivd);
	if (!dims_attr(i, HILO_A_UPDATE_WINDOW_DIMS, &uwd, &nuwd, us->rank) ||
	    !dims_attr(i, HILO_A_INSERTED_WINDOW_DIMS, &iwd, &niwd, as->rank) ||
	    !dims_attr(i, HILO_A_SCATTER_DIMS_TO_OPERAND_DIMS, &sdod, &nsdod, as->rank) ||
	    !dims_attr(i, HILO_A_INPUT_BATCHING_DIMS, &ibd, &nibd, as->rank) ||
	    !dims_attr(i, HILO_A_SCATTER_INDICES_BATCHING_DIMS, &sibd, &nsibd, xs->rank) ||
	    nibd != nsibd || ivd < 0 || ivd > xs->rank)
		return ev_err(e, i, "bad scatter dimension numbers");
	int64_t vlen = ivd == xs->rank ? 1 : xs->dims[ivd];
	if (vlen != nsdod)
		return ev_err(e, i, "scatter_dims_to_operand_dims does not match the index vector");
	int nscat = us->rank - nuwd;
	if (nscat != xs->rank - (ivd == xs->rank ? 0 : 1))
		return ev_err(e, i, "update scatter dimensions do not match the indices");
	{
		int si = 0;
		for (int d = 0; d < us->rank; d++) {
			if (in_list(uwd, nuwd, d))
				continue;
			int xd = si < ivd || ivd == xs->rank ? si : si + 1;
			if (us->dims[d] != xs->dims[xd])
				return ev_err(e, i, "update dimension does not match the indices");
			si++;
		}
	}
	int winmap[MAXR], nwm = 0;
	int64_t wsize[MAXR];
	for (int d = 0; d < as->rank; d++) {
		wsize[d] = 1;
		if (!in_list(iwd, niwd, d) && !in_list(ibd, nibd, d))
			winmap[nwm++] = d;
	}
	if (nwm != nuwd)
		return ev_err(e, i, "update_window_dims do not match the operand");
	for (int q = 0; q < nuwd; q++) {
		wsize[winmap[q]] = us->dims[uwd[q]];
		if (wsize[winmap[q]] > as->dims[winmap[q]])
			return ev_err(e, i, "update window larger than the operand");
	}
	hilo_comp *f = hilo_instr_get_comp(i, HILO_A_TO_APPLY);
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	hilo_literal *acc[MAXR];
	for (int q = 0; q < n; q++) {
		acc[q] = res_part(r, n, q);
		memcpy(acc[q]->data, ops[q]->data, acc[q]->nbytes);
	}
	int64_t nu = hilo_shape_elements(us);
	if (nu == 0)
		return r;
	ev_apply ap;
	if (!ev_apply_init(&ap, e, f, 2 * n))
		return NULL;
	int64_t ast[MAXR], uidx[MAXR] = {0};
	hilo_shape_strides(as, ast);
	hilo_literal vs[2 * MAXR], *args[2 * MAXR];
	for (int64_t k = 0; k < nu; k++, ev_next_index(us, uidx)) {
		int64_t g[MAXR], win[MAXR], ng = 0, nw = 0;
		for (int d = 0; d < us->rank; d++) {
			if (in_list(uwd, nuwd, d))
				win[nw++] = uidx[d];
			else
				g[ng++] = uidx[d];
		}
		int64_t in[MAXR] = {0};
		for (int q = 0; q < nsdod; q++)
			in[sdod[q]] = start_comp(ix, ivd, g, q);
		for (int q = 0; q < nibd; q++) {
			int sd = (int)sibd[q];
			in[ibd[q]] = g[sd < ivd || ivd == xs->rank ? sd : sd - 1];
		}
		bool fits = true;
		for (int d = 0; d < as->rank; d++)
			if (in[d] < 0 || in[d] > as->dims[d] - wsize[d])
				fits = false;
		if (!fits)
			continue; /* the whole window is skipped */
		for (int q = 0; q < nw; q++)
			in[winmap[q]] += win[q];
		int64_t dst = 0;
		for (int d = 0; d < as->rank; d++)
			dst += in[d] * ast[d];
		for (int q = 0; q < n; q++) {
			view(&vs[q], f->params[q]->shape, acc[q], (size_t)dst);
			view(&vs[n + q], f->params[n + q]->shape, ops[n + 1 + q], (size_t)k);
			args[q] = &vs[q];
			args[n + q] = &vs[n + q];
			if (f->params[q]->shape->type != acc[q]->shape->type ||
			    f->params[n + q]->shape->type != ops[n + 1 + q]->shape->type) {
				ev_apply_fini(&ap);
				return ev_err(e, i, "combiner parameter types do not match");
			}
		}
		hilo_literal *res = ev_apply_call(&ap, args);
		if (!res || !store_result(e, i, res, acc, n, (size_t)dst)) {
			ev_apply_fini(&ap);
			return NULL;
		}
	}
	ev_apply_fini(&ap);
	return r;
}

hilo_literal *ev_reduce_op(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled)
{
	switch (i->op) {
	case HILO_OP_REDUCE: return reduce(e, i, ops);
	case HILO_OP_REDUCE_WINDOW: return reduce_window(e, i, ops);
	case HILO_OP_MAP: return map(e, i, ops);
	case HILO_OP_SORT: return sort(e, i, ops);
	case HILO_OP_DOT: return dot(e, i, ops);
	case HILO_OP_GATHER: return gather(e, i, ops);
	case HILO_OP_SCATTER: return scatter(e, i, ops);
	default:
		*handled = false;
		return NULL;
	}
}

/* literal.c - literals: create, copy, compare, describe a difference and
 * format an element (issue 29: the IR layer owns the literal, so the text
 * reader and printer, the npy reader, the evaluator and the checker all
 * use these, and nothing below the evaluator reaches up into it). */
#include "ir/literal.h"

#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/hlo_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- create and copy ------------------------------------------------------ */

hilo_literal *hilo_literal_alloc(hilo_arena *a, const hilo_shape *s, size_t *budget_bytes)
{
	hilo_literal *l = hilo_arena_alloc(a, sizeof *l);
	if (!l)
		return NULL;
	l->shape = (hilo_shape *)s;
	if (s->type == HILO_T_TUPLE) {
		l->ntuple = s->ntuple;
		l->elems = hilo_arena_alloc(a, ((size_t)s->ntuple + 1) * sizeof *l->elems);
		if (!l->elems)
			return NULL;
		for (int k = 0; k < s->ntuple; k++)
			if (!(l->elems[k] = hilo_literal_alloc(a, s->elems[k], budget_bytes)))
				return NULL;
		return l;
	}
	int64_t n = s->rank >= 0 ? hilo_shape_elements(s) : -1;
	int eb = hilo_ptype_bytes(s->type);
	if (n < 0 || eb < 0 || (uint64_t)n > *budget_bytes / (eb ? (uint64_t)eb : 1))
		return NULL;
	l->nbytes = (size_t)n * (size_t)eb;
	*budget_bytes -= l->nbytes;
	l->data = hilo_arena_alloc(a, l->nbytes ? l->nbytes : 1);
	return l->data ? l : NULL;
}

static hilo_literal *literal_create(hilo_module *m, const hilo_shape *s)
{
	size_t cap = HILO_LITERAL_MAX_BYTES;
	return hilo_literal_alloc(m->arena, s, &cap);
}

hilo_literal *hilo_literal_copy_in(hilo_arena *a, const hilo_literal *l)
{
	hilo_literal *c = hilo_arena_alloc(a, sizeof *c);
	if (!c)
		return NULL;
	*c = *l;
	if (l->ntuple || (l->shape && l->shape->type == HILO_T_TUPLE)) {
		c->elems = hilo_arena_alloc(a, ((size_t)l->ntuple + 1) * sizeof *c->elems);
		if (!c->elems)
			return NULL;
		for (int k = 0; k < l->ntuple; k++)
			if (!(c->elems[k] = hilo_literal_copy_in(a, l->elems[k])))
				return NULL;
		return c;
	}
	c->data = hilo_arena_alloc(a, l->nbytes ? l->nbytes : 1);
	if (!c->data)
		return NULL;
	if (l->nbytes)
		memcpy(c->data, l->data, l->nbytes);
	return c;
}

/* ---- splats: one stored element ------------------------------------------- */

const void *hilo_literal_elem(const hilo_literal *l, size_t k)
{
	size_t eb = (size_t)hilo_ptype_bytes(l->shape->type);
	return (const char *)l->data + (l->splat ? 0 : k * eb);
}

size_t hilo_literal_count(const hilo_literal *l)
{
	if (!l || !l->shape || !hilo_shape_is_array(l->shape))
		return 0;
	int64_t n = hilo_shape_elements(l->shape);
	return n > 0 ? (size_t)n : 0;
}

bool hilo_literal_has_splat(const hilo_literal *l)
{
	if (!l)
		return false;
	for (int k = 0; k < l->ntuple; k++)
		if (hilo_literal_has_splat(l->elems[k]))
			return true;
	return l->splat && !l->elided;
}

hilo_literal *hilo_literal_dense_in(hilo_arena *a, const hilo_literal *l, size_t *budget_bytes)
{
	if (!hilo_literal_has_splat(l))
		return (hilo_literal *)l;
	hilo_literal *c = hilo_arena_alloc(a, sizeof *c);
	if (!c)
		return NULL;
	*c = *l;
	if (l->ntuple) {
		if (!(c->elems = hilo_arena_alloc(a, ((size_t)l->ntuple + 1) * sizeof *c->elems)))
			return NULL;
		for (int k = 0; k < l->ntuple; k++)
			if (!(c->elems[k] = hilo_literal_dense_in(a, l->elems[k], budget_bytes)))
				return NULL;
		return c;
	}
	size_t n = hilo_literal_count(l), eb = (size_t)hilo_ptype_bytes(l->shape->type);
	if (!eb || n > *budget_bytes / eb)
		return NULL;
	size_t all = n * eb;
	if (!(c->data = hilo_arena_alloc(a, all ? all : 1)))
		return NULL;
	*budget_bytes -= all;
	/* copied by doubling: one memcpy per element takes seconds on a few
	 * hundred million elements */
	size_t done = all ? eb : 0;
	if (all)
		memcpy(c->data, l->data, eb);
	while (done < all) {
		size_t m = done < all - done ? done : all - done;
		memcpy((char *)c->data + done, c->data, m);
		done += m;
	}
	c->nbytes = all;
	c->splat = false;
	return c;
}

/* s without layouts and dynamic flags, in t (a copied literal's shape). */
static hilo_shape *shape_plain(hilo_shape_table *t, hilo_arena *a, const hilo_shape *s)
{
	hilo_shape *r;
	if (s->type == HILO_T_TUPLE) {
		hilo_shape **el = hilo_heap_alloc(a, ((size_t)s->ntuple + 1) * sizeof *el);
		if (!el)
			return NULL;
		int k = 0;
		while (k < s->ntuple && (el[k] = shape_plain(t, a, s->elems[k])))
			k++;
		r = k == s->ntuple ? hilo_shape_tuple(t, s->ntuple, el) : NULL;
		hilo_heap_free(a, el);
	} else {
		r = hilo_shape_array(t, s->type, s->rank, s->dims, NULL);
	}
	return r && s->buffer ? hilo_shape_with_buffer(t, r, true) : r;
}

static hilo_literal *lit_copy_deep(hilo_module *m, const hilo_literal *l)
{
	hilo_literal *c = hilo_literal_copy_in(m->arena, l);
	if (!c || !(c->shape = shape_plain(m->shapes, m->arena, l->shape)))
		return NULL;
	for (int k = 0; k < l->ntuple; k++)
		if (!(c->elems[k] = lit_copy_deep(m, l->elems[k])))
			return NULL;
	return c;
}

static hilo_literal *literal_copy(hilo_module *m, const hilo_literal *l)
{
	return l ? lit_copy_deep(m, l) : NULL;
}

/* Out of memory: NULL, like a shape too large to hold. */
hilo_literal *hilo_literal_create(hilo_module *m, const hilo_shape *s)
{
	HILO_OOM_CATCH(g, m->arena)
		return NULL;
	hilo_literal *r = literal_create(m, s);
	hilo_oom_end(&g);
	return r;
}

hilo_literal *hilo_literal_copy(hilo_module *m, const hilo_literal *l)
{
	HILO_OOM_CATCH(g, m->arena)
		return NULL;
	hilo_literal *r = literal_copy(m, l);
	hilo_oom_end(&g);
	return r;
}

/* ---- equality and differences --------------------------------------------- */

static bool is_nan_elem(hilo_ptype t, const void *data, size_t k)
{
	return (hilo_ptype_is_float(t) || hilo_ptype_is_complex(t)) &&
	       isnan(hilo_elem_get_f64(t, data, k));
}

/* Both elements are zeros of either sign (floats only). */
static bool both_zero(hilo_ptype t, const void *x, const void *y)
{
	return hilo_ptype_is_float(t) && hilo_elem_get_f64(t, x, 0) == 0 &&
	       hilo_elem_get_f64(t, y, 0) == 0;
}

/* Index of the first differing element, or -1 when equal; how:
 * HILO_CMP_NSZ -0 == +0, HILO_CMP_NAN_BITS a NaN equals only the same
 * bits (otherwise any two NaNs are equal). */
static int64_t first_diff(const hilo_literal *a, const hilo_literal *b, unsigned how)
{
	bool nsz = how & HILO_CMP_NSZ, anynan = !(how & HILO_CMP_NAN_BITS);
	hilo_ptype t = a->shape->type;
	int eb = hilo_ptype_bytes(t);
	if (eb <= 0 || !a->data || !b->data || a->elided || b->elided)
		return -1;
	/* two splats differ everywhere or nowhere: compare element 0 */
	size_t n = a->splat && b->splat ? (hilo_literal_count(a) ? 1 : 0) : hilo_literal_count(a);
	for (size_t k = 0; k < n; k++) {
		const unsigned char *pa = hilo_literal_elem(a, k), *pb = hilo_literal_elem(b, k);
		if (!memcmp(pa, pb, (size_t)eb))
			continue;
		if (hilo_ptype_is_complex(t)) {
			int h = eb / 2;
			/* compare the halves separately, NaN == NaN */
			for (int q = 0; q < 2; q++) {
				const unsigned char *xa = pa + (size_t)(q * h);
				const unsigned char *xb = pb + (size_t)(q * h);
				hilo_ptype ht = t == HILO_T_C64 ? HILO_T_F32 : HILO_T_F64;
				if (memcmp(xa, xb, (size_t)h) &&
				    !(anynan && is_nan_elem(ht, xa, 0) && is_nan_elem(ht, xb, 0)) &&
				    !(nsz && both_zero(ht, xa, xb)))
					return (int64_t)k;
			}
			continue;
		}
		if (anynan && is_nan_elem(t, pa, 0) && is_nan_elem(t, pb, 0))
			continue;
		if (nsz && both_zero(t, pa, pb))
			continue;
		return (int64_t)k;
	}
	return -1;
}

bool hilo_literal_equal(const hilo_literal *a, const hilo_literal *b)
{
	if (!a || !b || !a->shape || !b->shape)
		return a == b;
	if (!hilo_shape_compatible(a->shape, b->shape))
		return false;
	if (a->shape->type == HILO_T_TUPLE) {
		if (a->ntuple != b->ntuple)
			return false;
		for (int k = 0; k < a->ntuple; k++)
			if (!hilo_literal_equal(a->elems[k], b->elems[k]))
				return false;
		return true;
	}
	if (a->elided || b->elided || hilo_literal_count(a) != hilo_literal_count(b))
		return false;
	return first_diff(a, b, 0) < 0;
}

/* The multi-dimensional index of row-major element k of array shape s,
 * "i,j,..." (empty for a scalar), into idx (truncated to cap). */
static void format_index(const hilo_shape *s, size_t k, char *idx, size_t cap)
{
	size_t o = 0;
	int64_t rem = (int64_t)k;
	int64_t st[HILO_MAX_RANK];
	hilo_shape_strides(s, st);
	idx[0] = 0;
	for (int d = 0; d < s->rank && d < HILO_MAX_RANK && o + 24 < cap; d++) {
		o += (size_t)snprintf(idx + o, cap - o, "%s%lld", d ? "," : "",
			(long long)(rem / st[d]));
		rem %= st[d];
	}
}

/* Describes the first mismatch between outputs a and b into msg. */
bool hilo_literal_describe_diff_path(hilo_buf *path, const hilo_literal *a, const hilo_literal *b,
	char *msg, size_t cap, uint64_t seed, unsigned nsz)
{
	if (!hilo_shape_compatible(a->shape, b->shape)) {
		snprintf(msg, cap, "output%s: shapes differ (seed %llu)",
			path->len ? hilo_buf_cstr(path) : "", (unsigned long long)seed);
		return true;
	}
	if (a->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < a->ntuple && k < b->ntuple; k++) {
			size_t len = path->len;
			hilo_buf_printf(path, "{%d}", k);
			bool d = hilo_literal_describe_diff_path(path, a->elems[k], b->elems[k], msg, cap, seed, nsz);
			path->len = len;
			if (path->data)
				path->data[len] = 0;
			if (d)
				return true;
		}
		return false;
	}
	int64_t k = first_diff(a, b, nsz);
	if (k < 0)
		return false;
	char idx[256];
	format_index(a->shape, (size_t)k, idx, sizeof idx);
	hilo_buf va, vb;
	hilo_buf_init(&va);
	hilo_buf_init(&vb);
	hilo_literal_format_element(&va, a->shape->type, a->data, hilo_literal_slot(a, (size_t)k));
	hilo_literal_format_element(&vb, a->shape->type, b->data, hilo_literal_slot(b, (size_t)k));
	snprintf(msg, cap, "output%s element [%s]: before=%s after=%s (seed %llu)",
		path->len ? hilo_buf_cstr(path) : "", idx, hilo_buf_cstr(&va),
		hilo_buf_cstr(&vb), (unsigned long long)seed);
	hilo_buf_free(&va);
	hilo_buf_free(&vb);
	return true;
}

bool hilo_literal_describe_diff_nsz(const hilo_literal *a, const hilo_literal *b,
	uint64_t seed, bool zero_sign_insensitive, char *msg, size_t cap)
{
	hilo_buf path;
	hilo_buf_init(&path);
	bool diff = hilo_literal_describe_diff_path(&path, a, b, msg, cap, seed,
		zero_sign_insensitive ? HILO_CMP_NSZ : 0);
	hilo_buf_free(&path);
	return diff;
}

bool hilo_literal_describe_diff(const hilo_literal *a, const hilo_literal *b, uint64_t seed,
	char *msg, size_t cap)
{
	return hilo_literal_describe_diff_nsz(a, b, seed, false, msg, cap);
}

/* ---- comparison within tolerances (hilo-run --compare) ---------------------- */

/* One real value of the test against the reference: within
 * |x - y| <= atol + rtol * |y|, NaN equal to any NaN, an infinity only to
 * itself. *err is the absolute error (infinite for a NaN or infinity
 * mismatch, so those rank worst), *rel the relative one. */
static bool near_real(double x, double y, const hilo_near_opts *o, double *err, double *rel)
{
	if (isnan(x) || isnan(y) || isinf(x) || isinf(y)) {
		bool same = (isnan(x) && isnan(y)) || x == y;
		*err = *rel = same ? 0 : INFINITY;
		return same;
	}
	*err = fabs(x - y);
	*rel = *err == 0 ? 0 : y == 0 ? INFINITY : *err / fabs(y);
	return *err <= o->atol + o->rtol * fabs(y);
}

/* Element k of a against b (array literals of one element type). */
static bool near_elem(const hilo_literal *a, const hilo_literal *b, size_t k,
	const hilo_near_opts *o, double *err, double *rel)
{
	hilo_ptype t = a->shape->type;
	const void *pa = hilo_literal_elem(a, k), *pb = hilo_literal_elem(b, k);
	if (hilo_ptype_is_complex(t)) {
		/* per component; the element's error is its worse part's */
		hilo_ptype ht = t == HILO_T_C64 ? HILO_T_F32 : HILO_T_F64;
		double e1, r1, e2, r2;
		bool ok1 = near_real(hilo_elem_get_f64(ht, pa, 0), hilo_elem_get_f64(ht, pb, 0), o, &e1, &r1);
		bool ok2 = near_real(hilo_elem_get_f64(ht, pa, 1), hilo_elem_get_f64(ht, pb, 1), o, &e2, &r2);
		bool second = e2 > e1 || (ok1 && !ok2);
		*err = second ? e2 : e1;
		*rel = second ? r2 : r1;
		return ok1 && ok2;
	}
	if (hilo_ptype_is_float(t))
		return near_real(hilo_elem_get_f64(t, pa, 0), hilo_elem_get_f64(t, pb, 0), o, err, rel);
	/* integers and pred: exact (compared as int64, the error as double) */
	double x = hilo_elem_get_f64(t, pa, 0), y = hilo_elem_get_f64(t, pb, 0);
	*err = fabs(x - y);
	*rel = *err == 0 ? 0 : y == 0 ? INFINITY : *err / fabs(y);
	return hilo_elem_get_i64(t, pa, 0) == hilo_elem_get_i64(t, pb, 0);
}

static void near_leaf(hilo_buf *path, const hilo_literal *a, const hilo_literal *b,
	const hilo_near_opts *o, hilo_near_result *r)
{
	if (!hilo_shape_compatible(a->shape, b->shape)) {
		r->shape_differs = true;
		return;
	}
	if (a->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < a->ntuple && k < b->ntuple; k++) {
			size_t len = path->len;
			hilo_buf_printf(path, "{%d}", k);
			near_leaf(path, a->elems[k], b->elems[k], o, r);
			path->len = len;
			if (path->data)
				path->data[len] = 0;
		}
		return;
	}
	size_t n = hilo_literal_count(a);
	if (hilo_ptype_bytes(a->shape->type) <= 0)
		return; /* tokens and opaque values hold nothing to compare */
	r->elements += n;
	if (a->elided || b->elided || !a->data || !b->data) {
		r->mismatches += n; /* values unknown: nothing agrees */
		return;
	}
	for (size_t k = 0; k < n; k++) {
		double err, rel;
		bool ok = near_elem(a, b, k, o, &err, &rel);
		if (!ok)
			r->mismatches++;
		/* the worst: a mismatch before any agreeing element, then the
		 * largest absolute error (the first of equals) */
		bool bad = !ok, was_bad = r->has_worst && r->worst_mismatch;
		if (r->has_worst && (was_bad > bad || (was_bad == bad && !(err > r->abs_err))))
			continue;
		if (ok && err == 0)
			continue; /* an exact agreement is nobody's worst */
		r->has_worst = true;
		r->worst_mismatch = bad;
		r->abs_err = err;
		r->rel_err = rel;
		char idx[200];
		format_index(a->shape, k, idx, sizeof idx);
		snprintf(r->where, sizeof r->where, "%s[%s]", path->len ? hilo_buf_cstr(path) : "", idx);
		hilo_buf v;
		hilo_buf_init(&v);
		hilo_literal_format_element(&v, a->shape->type, a->data, hilo_literal_slot(a, k));
		snprintf(r->test, sizeof r->test, "%s", v.len ? hilo_buf_cstr(&v) : "?");
		v.len = 0;
		hilo_literal_format_element(&v, a->shape->type, b->data, hilo_literal_slot(b, k));
		snprintf(r->ref, sizeof r->ref, "%s", v.len ? hilo_buf_cstr(&v) : "?");
		hilo_buf_free(&v);
	}
}

void hilo_literal_compare_near(const hilo_literal *test, const hilo_literal *ref,
	const hilo_near_opts *o, hilo_near_result *r)
{
	memset(r, 0, sizeof *r);
	hilo_buf path;
	hilo_buf_init(&path);
	near_leaf(&path, test, ref, o, r);
	hilo_buf_free(&path);
}

/* ---- one element in HLO text ----------------------------------------------- */

void hilo_literal_format_element(hilo_buf *b, hilo_ptype t, const void *data, size_t k)
{
	if (t == HILO_T_PRED) {
		hilo_buf_puts(b, ((const unsigned char *)data)[k] ? "true" : "false");
	} else if (hilo_ptype_is_complex(t)) {
		hilo_buf_putc(b, '(');
		hilo_ptype ft = t == HILO_T_C64 ? HILO_T_F32 : HILO_T_F64;
		hilo_format_float(b, ft, data, 2 * k);
		hilo_buf_put(b, ", ", 2);
		hilo_format_float(b, ft, data, 2 * k + 1);
		hilo_buf_putc(b, ')');
	} else if (hilo_ptype_is_float(t)) {
		hilo_format_float(b, t, data, k);
	} else if (hilo_ptype_is_unsigned_int(t)) {
		hilo_buf_printf(b, "%llu", (unsigned long long)hilo_elem_get_i64(t, data, k) &
			(hilo_ptype_bits(t) >= 64 ? ~0ull : ((1ull << hilo_ptype_bits(t)) - 1)));
	} else {
		hilo_buf_put_i64(b, hilo_elem_get_i64(t, data, k));
	}
}

/* ---- layout order (LiteralProto values, bitcast buffers) ---- */

bool hilo_shape_layout_strides(const hilo_shape *s, int64_t *st)
{
	int r = s->rank;
	const hilo_layout *l = s->layout;
	if (!l || l->n == 0) {
		hilo_shape_strides(s, st);
		return true;
	}
	if (l->n != r || r > HILO_MAX_RANK)
		return false;
	bool seen[HILO_MAX_RANK] = {0};
	int64_t acc = 1;
	for (int k = 0; k < r; k++) {
		int64_t d = l->minor_to_major[k];
		if (d < 0 || d >= r || seen[d])
			return false;
		seen[d] = true;
		st[d] = acc;
		acc *= s->dims[d];
	}
	return true;
}

bool hilo_shape_layout_reorders(const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE || s->rank < 2 || !s->layout)
		return false;
	int64_t st[HILO_MAX_RANK], rm[HILO_MAX_RANK];
	if (!hilo_shape_layout_strides(s, st))
		return false;
	hilo_shape_strides(s, rm);
	for (int d = 0; d < s->rank; d++)
		if (s->dims[d] > 1 && st[d] != rm[d])
			return true;
	return false;
}

bool hilo_layout_permute(const hilo_shape *s, const void *src, void *dst, size_t es, bool to_layout)
{
	int64_t st[HILO_MAX_RANK], idx[HILO_MAX_RANK] = {0};
	if (!hilo_shape_layout_strides(s, st))
		return false;
	int64_t n = hilo_shape_elements(s);
	int r = s->rank;
	int64_t off = 0; /* the layout offset of row-major element k */
	for (int64_t k = 0; k < n; k++) {
		const char *from = (const char *)src + (size_t)(to_layout ? k : off) * es;
		char *to = (char *)dst + (size_t)(to_layout ? off : k) * es;
		memcpy(to, from, es);
		for (int d = r - 1; d >= 0; d--) { /* the next row-major index */
			off += st[d];
			if (++idx[d] < s->dims[d])
				break;
			off -= st[d] * s->dims[d];
			idx[d] = 0;
		}
	}
	return true;
}

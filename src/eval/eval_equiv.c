/* eval_equiv.c - seeded random inputs, literal equality and the
 * inputs of the before/after equivalence check (src/check/equiv.c).
 *
 * Random values come from splitmix64 keyed by (seed, stream, element), so
 * they are the same on every host and independent of evaluation order.
 * Floats are drawn on a 1/4096 grid in [-8, 8): exact in every float type
 * wide enough, never NaN or inf (a NaN input would hide differences
 * downstream). Integers are small (signed in [-16, 16], unsigned in
 * [0, 32]) so that indices exercise both in-range and clamped starts.
 * The rewrite validator's draws (ev_fill_drawn) add special values to
 * two input sets of three: NaN, infinities, signed zeros, the largest and
 * smallest values of each float type, integer extremes (docs/proof.md
 * "Special values"); the module-level check and hilo-run keep these.
 *
 * Index-aware inputs (issue 12 item 6): an integer or pred parameter of at
 * most IDX_MAX_ELEMS elements whose value reaches (forward through any op,
 * tuples, get-tuple-elements and call/while/conditional operands) a
 * dynamic-slice / dynamic-update-slice start, a gather index or a select
 * predicate gets values from its "interesting" intervals instead:
 *   - a start of dimension d: [-1, dim - size + 1] (the whole clamped range
 *     and one value past each end);
 *   - a gather index: [-1, max_d(dim_d - slice_size_d) + 1];
 *   - a compare against a scalar constant c on the way: [c - 1, c + 1];
 *   - a select predicate: [0, 1].
 * When the intervals hold at most IDX_SWEEP values in all, consecutive
 * seeds sweep them (element e of parameter k takes value number
 * (seed + 5k + e) mod S), so S consecutive seeds try every value of every
 * range (hilo_eval_index_sweep tells the equivalence check how many);
 * otherwise values are drawn uniformly from the intervals, one draw in
 * eight from the small-integer distribution above.
 *
 * The rewrite validator's tests from a computation's parameters ask for
 * more (ev_param_ranges with wide, docs/proof.md "Boundary values"): an
 * integer or pred parameter reaching a conditional's branch index gets
 * [-1, branches] ([0, 1] for a pred), and a float parameter of at most
 * IDX_MAX_ELEMS elements compared with a scalar constant c (or a broadcast
 * of one) gets c and c -/+ max(|c|, 1)/256 (an infinite c: itself) at
 * some elements, its ordinary value at the others (fill_floats).
 */
#include "eval_internal.h"
#include "support/hash.h"

#include <math.h>
#include <stdlib.h>

static void fill(hilo_literal *l, uint64_t key)
{
	if (l->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < l->ntuple; k++)
			fill(l->elems[k], hilo_hash_mix64(key ^ (uint64_t)(k + 1) * 0x100000001b3ull));
		return;
	}
	hilo_ptype t = l->shape->type;
	int eb = hilo_ptype_bytes(t);
	if (eb <= 0)
		return;
	size_t n = l->nbytes / (size_t)eb;
	for (size_t k = 0; k < n; k++) {
		uint64_t r = hilo_hash_mix64(key + k * 0x9e3779b97f4a7c15ull);
		if (t == HILO_T_PRED)
			((unsigned char *)l->data)[k] = (unsigned char)(r >> 63);
		else if (hilo_ptype_is_float(t) || hilo_ptype_is_complex(t))
			hilo_elem_set_f64(t, l->data, k, (double)((int64_t)(r >> 48) - 32768) / 4096.0);
		else if (hilo_ptype_is_signed_int(t))
			hilo_elem_set_i64(t, l->data, k, (int64_t)(r % 33) - 16);
		else
			hilo_elem_set_i64(t, l->data, k, (int64_t)(r % 33));
	}
}

void hilo_literal_fill_random(hilo_literal *l, uint64_t seed, uint64_t stream)
{
	fill(l, hilo_hash_mix64(hilo_hash_mix64(seed) ^ hilo_hash_mix64(stream + 0x51ed27ull)));
}

void ev_fill_random_at(hilo_literal *l, uint64_t seed, uint64_t stream, const int64_t *path,
	int npath)
{
	/* the keys fill() gives the tuple elements on the way down */
	uint64_t key = hilo_hash_mix64(hilo_hash_mix64(seed) ^ hilo_hash_mix64(stream + 0x51ed27ull));
	for (int q = 0; q < npath; q++)
		key = hilo_hash_mix64(key ^ (uint64_t)(path[q] + 1) * 0x100000001b3ull);
	fill(l, key);
}

/* ---- the rewrite validator's draws (special values) ---------------------- */

enum { SPECIAL_MAX = 13 };

/* The special values of float type t, most telling first: a signalling
 * NaN (payload 1), a quiet NaN of payload 5 (neighbouring leaves of a
 * whole-leaf set get two different NaNs: an operand order shows), +inf,
 * -inf, -0, +0, the largest finite value and its negation, the smallest
 * positive value (a subnormal where the format has them) and its
 * negation, a quiet NaN with the sign bit set, the quiet NaN and a
 * signalling NaN with the sign bit set. The NaNs of entries 0, 1 and 12
 * are written by their bits where
 * the format has payloads (set_nan_bits); the others through
 * hilo_elem_set_f64, so each format keeps its own rules (no inf in the fn/fnuz formats: NaN; no -0 in fnuz:
 * +0; no NaN or inf in f4/f6: the largest value; e8m0 has neither zero
 * nor sign). */
static int float_specials(hilo_ptype t, double *v)
{
	double mx = hilo_float_max_finite(t), mn = hilo_float_min_positive(t);
	const double list[SPECIAL_MAX] = {NAN, NAN, INFINITY, -INFINITY, -0.0, 0.0, mx, -mx, mn, -mn,
		-NAN, NAN, -NAN};
	memcpy(v, list, sizeof list);
	return SPECIAL_MAX;
}

/* Is special value j one of the NaNs written by their bits? */
static bool nan_by_bits(uint64_t j)
{
	return j == 0 || j == 1 || j == 12;
}

/* Special NaN number j (0: signalling, payload 1; 1: quiet, payload 5;
 * 12: signalling, payload 1, sign set) as element k of data, by its bits
 * where the format has payloads (f16, bf16, f32, f64); other formats take
 * fallback (their one NaN, or what stands for it). */
static void set_nan_bits(hilo_ptype t, void *data, size_t k, int j, double fallback)
{
	int w = j == 0 ? 0 : j == 1 ? 1 : 2;
	unsigned char *p = data;
	switch (t) {
	case HILO_T_F32: {
		uint32_t v = w == 1 ? 0x7fc00005u : 0x7f800001u;
		if (w == 2)
			v |= 0x80000000u;
		memcpy(p + 4 * k, &v, 4);
		return;
	}
	case HILO_T_F64: {
		uint64_t v = w == 1 ? 0x7ff8000000000005ull : 0x7ff0000000000001ull;
		if (w == 2)
			v |= 0x8000000000000000ull;
		memcpy(p + 8 * k, &v, 8);
		return;
	}
	case HILO_T_F16: case HILO_T_BF16: {
		bool h = t == HILO_T_F16;
		uint16_t v = w == 1 ? (uint16_t)((h ? 0x7e00 : 0x7fc0) | 5) : (uint16_t)((h ? 0x7c00 : 0x7f80) | 1);
		if (w == 2)
			v |= 0x8000;
		memcpy(p + 2 * k, &v, 2);
		return;
	}
	default:
		hilo_elem_set_f64(t, data, k, fallback);
		return;
	}
}

/* The extremes of integer type t: its minimum, its maximum, 0 and -1
 * (for unsigned types 0, the maximum, 0 and the maximum again: -1 wraps). */
static int int_specials(hilo_ptype t, int64_t *v)
{
	int b = hilo_ptype_bits(t);
	bool sgn = hilo_ptype_is_signed_int(t);
	int64_t lo = !sgn ? 0 : b >= 64 ? INT64_MIN : -(int64_t)(1ull << (b - 1));
	int64_t hi = !sgn ? -1 /* all ones, masked to the width */ : b >= 64 ? INT64_MAX
		: (int64_t)((1ull << (b - 1)) - 1);
	v[0] = lo;
	v[1] = hi;
	v[2] = 0;
	v[3] = -1;
	return 4;
}

/* A float with a random 52-bit mantissa, a random sign and an exponent in
 * [-8, 8]: written into narrower formats it rounds once, so every
 * mantissa bit they have is random. */
static double wide_float(uint64_t r)
{
	double m = 1.0 + (double)(r >> 12) / 4503599627370496.0; /* [1, 2) */
	int e = (int)((r >> 1) % 17) - 8;
	return (r & 1) ? -ldexp(m, e) : ldexp(m, e);
}

/* fill() for input set `seed` of the validator (ev_fill_drawn): the
 * ordinary values, then (mode 1) each element special with probability
 * 1/4, a special value drawn at random, the others floats with random
 * mantissas (wide_float), or (mode 2) every element the
 * same special value, number (seed / 3 + ord) mod count (ord: the leaf's
 * stream, then each tuple index + 1 added on the way down), so that
 * successive mode-2 seeds give each leaf every special value in turn and
 * neighbouring leaves different ones. */
static void fill_drawn(hilo_literal *l, uint64_t key, int mode, uint64_t round, uint64_t ord)
{
	if (l->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < l->ntuple; k++)
			fill_drawn(l->elems[k], hilo_hash_mix64(key ^ (uint64_t)(k + 1) * 0x100000001b3ull), mode,
				round, ord + (uint64_t)k + 1);
		return;
	}
	fill(l, key);
	hilo_ptype t = l->shape->type;
	int eb = hilo_ptype_bytes(t);
	bool fl = hilo_ptype_is_float(t) || hilo_ptype_is_complex(t);
	if (mode == EV_DRAW_PLAIN || eb <= 0 || (!fl && !hilo_ptype_is_int(t)))
		return;
	double fv[SPECIAL_MAX];
	int64_t iv[4];
	int ns = fl ? float_specials(hilo_ptype_is_complex(t) ? (t == HILO_T_C64 ? HILO_T_F32
		: HILO_T_F64) : t, fv) : int_specials(t, iv);
	size_t n = l->nbytes / (size_t)eb;
	uint64_t whole = (round + ord) % (uint64_t)ns;
	for (size_t k = 0; k < n; k++) {
		uint64_t j = whole;
		if (mode == EV_DRAW_SPRINKLED) {
			uint64_t r = hilo_hash_mix64(key ^ 0x5bd1e995ull ^ k * 0xc2b2ae3d27d4eb4full);
			if (r & 3) {
				/* the other elements: a random mantissa at an exponent in
				 * [-8, 8], so that rounding shows (the ordinary grid of
				 * 1/4096 in [-8, 8) makes (a + b) + c = a + (b + c)) */
				if (fl)
					hilo_elem_set_f64(t, l->data, k, wide_float(hilo_hash_mix64(r ^ 0x3c6ef372ull)));
				continue;
			}
			j = (r >> 2) % (uint64_t)ns;
		}
		if (fl && nan_by_bits(j))
			set_nan_bits(hilo_ptype_is_complex(t) ? (t == HILO_T_C64 ? HILO_T_F32 : HILO_T_F64) : t,
				l->data, hilo_ptype_is_complex(t) ? 2 * k : k, (int)j, fv[j]);
		else if (fl)
			hilo_elem_set_f64(t, l->data, k, fv[j]);
		else
			hilo_elem_set_i64(t, l->data, k, iv[j]);
	}
}

int ev_draw_mode(uint64_t seed)
{
	return (int)(seed % 3);
}

const char *ev_draw_name(uint64_t seed)
{
	switch (ev_draw_mode(seed)) {
	case EV_DRAW_SPRINKLED: return "special values at random elements";
	case EV_DRAW_WHOLE: return "special values filling whole leaves";
	default: return "ordinary values";
	}
}

uint64_t ev_special_budget(uint64_t budget, uint64_t ref)
{
	if (!ref)
		return budget;
	uint64_t cap = ref > budget / 8 ? budget : ref * 8, floor = budget / 64;
	if (floor < (1u << 16))
		floor = 1u << 16;
	if (cap < floor)
		cap = floor;
	return cap < budget ? cap : budget;
}

void ev_fill_drawn(hilo_literal *l, uint64_t seed, uint64_t stream, const int64_t *path,
	int npath)
{
	uint64_t key = hilo_hash_mix64(hilo_hash_mix64(seed) ^ hilo_hash_mix64(stream + 0x51ed27ull)), ord = stream;
	for (int q = 0; q < npath; q++) {
		key = hilo_hash_mix64(key ^ (uint64_t)(path[q] + 1) * 0x100000001b3ull);
		ord += (uint64_t)path[q] + 1;
	}
	fill_drawn(l, key, ev_draw_mode(seed), seed / 3, ord);
}

/* ---- index-aware inputs ------------------------------------------------ */

enum {
	IDX_MAX_ELEMS = 64,     /* parameters analysed: at most this many elements */
	IDX_MAX_RANGES = 16,    /* intervals kept per parameter */
	IDX_SWEEP = 64,         /* sweep when the intervals hold this many values */
	IDX_WALK = 20000,       /* instructions visited per parameter */
};

_Static_assert((int)IDX_MAX_RANGES == (int)EV_RANGES_MAX, "ev_ranges holds IDX_MAX_RANGES intervals");
typedef ev_ranges idx_ranges;

static void add_range(idx_ranges *r, int64_t lo, int64_t hi)
{
	if (lo > hi)
		return;
	/* absorb every interval that overlaps or touches [lo, hi] */
	for (int k = 0; k < r->n;) {
		if (lo <= r->hi[k] + 1 && hi >= r->lo[k] - 1) {
			if (r->lo[k] < lo)
				lo = r->lo[k];
			if (r->hi[k] > hi)
				hi = r->hi[k];
			r->n--;
			r->lo[k] = r->lo[r->n];
			r->hi[k] = r->hi[r->n];
		} else {
			k++;
		}
	}
	if (r->n < IDX_MAX_RANGES) {
		r->lo[r->n] = lo;
		r->hi[r->n] = hi;
		r->n++;
	}
}

static uint64_t ranges_size(const idx_ranges *r)
{
	uint64_t s = 0;
	for (int k = 0; k < r->n; k++)
		s += (uint64_t)(r->hi[k] - r->lo[k]) + 1;
	return s;
}

static bool scalar_const(const hilo_instr *i, int64_t *v)
{
	return hilo_shape_is_array(i->shape) && hilo_shape_elements(i->shape) == 1 &&
	       hilo_instr_const_int_at(i, 0, v);
}

/* The clamped start range of index operand `slot` of DS/DUS u. */
static void start_range(const hilo_instr *u, uint32_t slot, idx_ranges *r)
{
	bool dus = u->op == HILO_OP_DYNAMIC_UPDATE_SLICE;
	uint32_t first = dus ? 2 : 1;
	const hilo_shape *in = u->operands[0]->shape;
	if (slot < first || !hilo_shape_is_array(in))
		return;
	const int64_t *ext = NULL;
	int next = 0;
	if (dus) {
		const hilo_shape *us = u->operands[1]->shape;
		if (hilo_shape_is_array(us)) {
			ext = us->dims;
			next = us->rank;
		}
	} else {
		ext = hilo_instr_get_ints(u, HILO_A_DYNAMIC_SLICE_SIZES, &next);
	}
	if (!ext || next != in->rank)
		return;
	bool vec = u->noperands == first + 1 && in->rank != 1;
	for (int d = 0; d < in->rank; d++)
		if (vec || (uint32_t)d == slot - first)
			add_range(r, -1, in->dims[d] - ext[d] + 1);
}

static void gather_range(const hilo_instr *u, idx_ranges *r)
{
	const hilo_shape *in = u->operands[0]->shape;
	if (!hilo_shape_is_array(in))
		return;
	int n = 0;
	const int64_t *ss = hilo_instr_get_ints(u, HILO_A_SLICE_SIZES, &n);
	int64_t hi = 0;
	for (int d = 0; d < in->rank; d++) {
		int64_t h = in->dims[d] - (ss && n == in->rank ? ss[d] : 0);
		if (h > hi)
			hi = h;
	}
	add_range(r, -1, hi + 1);
}

/* The value of a float scalar constant, or of a broadcast of one. */
static bool splat_float(const hilo_instr *i, double *v)
{
	if (i->op == HILO_OP_BROADCAST && i->noperands == 1)
		i = i->operands[0];
	const hilo_literal *l = i->op == HILO_OP_CONSTANT ? hilo_instr_literal(i) : NULL;
	if (!l || l->elided || l->ntuple || !l->data || !hilo_shape_is_array(l->shape) ||
	    !hilo_ptype_is_float(l->shape->type) || hilo_shape_elements(l->shape) != 1)
		return false;
	*v = hilo_elem_get_f64(l->shape->type, l->data, 0);
	return !isnan(*v);
}

static void add_float1(idx_ranges *r, double v)
{
	for (int k = 0; k < r->nf; k++)
		if (r->fv[k] == v && signbit(r->fv[k]) == signbit(v))
			return;
	if (r->nf < EV_FLOATS_MAX)
		r->fv[r->nf++] = v;
}

/* A compare against c: c itself and a value on each side of it (one
 * 256th of |c|, at least 1/256, away), so both outcomes of the compare and
 * the tie are drawn; an infinity only as itself. */
static void add_float(idx_ranges *r, double c)
{
	add_float1(r, c);
	if (isinf(c))
		return;
	double d = fabs(c) > 1 ? fabs(c) / 256 : 1.0 / 256;
	add_float1(r, c - d);
	add_float1(r, c + d);
}

/* Follows p's value forward and collects the ranges of its index uses.
 * The work list and the seen set are tracked heap of a, and the callers
 * hold a guard on a: out of memory jumps to it (never a silently shorter
 * walk, which would quietly weaken the equivalence check's inputs). */
static void index_uses(hilo_arena *a, const hilo_instr *p, idx_ranges *r, bool wide)
{
	bool fl = hilo_shape_is_array(p->shape) && hilo_ptype_is_float(p->shape->type);
	hilo_ptrmap seen;
	hilo_ptrmap_init_in(&seen, a);
	size_t n = 0, cap = 64, visited = 0;
	const hilo_instr **st = hilo_heap_alloc(a, cap * sizeof *st);
	if (!st) { /* (only without a guard) */
		hilo_ptrmap_free(&seen);
		return;
	}
	st[n++] = p;
	hilo_ptrmap_put(&seen, p, (void *)1);
	while (n && visited++ < IDX_WALK) {
		const hilo_instr *x = st[--n];
		for (uint32_t q = 0; q < x->nusers; q++) {
			const hilo_instr *u = x->users[q].user;
			uint32_t slot = x->users[q].slot;
			const hilo_instr *next[8];
			int nn = 0;
			switch (u->op) {
			case HILO_OP_DYNAMIC_SLICE:
			case HILO_OP_DYNAMIC_UPDATE_SLICE:
				start_range(u, slot, r);
				break;
			case HILO_OP_GATHER:
				if (slot == 1)
					gather_range(u, r);
				break;
			case HILO_OP_SELECT:
				/* a predicate parameter (integers reach one through a
				 * compare, whose constant gives their range) */
				if (slot == 0 && p->shape->type == HILO_T_PRED)
					add_range(r, 0, 1);
				break;
			case HILO_OP_COMPARE: {
				int64_t c;
				double f;
				if (fl) {
					if (u->noperands == 2 && splat_float(u->operands[1 - (slot & 1)], &f))
						add_float(r, f);
				} else if (u->noperands == 2 && scalar_const(u->operands[1 - (slot & 1)], &c) &&
				    c > INT64_MIN && c < INT64_MAX) {
					add_range(r, c - 1, c + 1);
				}
				break;
			}
			case HILO_OP_CONDITIONAL:
				/* a branch index: every branch and one past each end */
				if (wide && slot == 0 && !fl)
					add_range(r, p->shape->type == HILO_T_PRED ? 0 : -1,
						p->shape->type == HILO_T_PRED ? 1 : (int64_t)hilo_instr_ncalled(u));
				break;
			default:
				break;
			}
			/* where the value flows next */
			if (u->op == HILO_OP_CALL || u->op == HILO_OP_WHILE) {
				for (uint32_t k = 0; k < hilo_instr_ncalled(u) && nn < 8; k++) {
					const hilo_comp *c = hilo_instr_called(u)[k];
					uint32_t pn = u->op == HILO_OP_WHILE ? 0 : slot;
					if (pn < c->nparams && c->params[pn])
						next[nn++] = c->params[pn];
				}
				next[nn++] = u;
			} else if (u->op == HILO_OP_CONDITIONAL) {
				if (slot >= 1 && slot <= hilo_instr_ncalled(u)) {
					const hilo_comp *c = hilo_instr_called(u)[slot - 1];
					if (c->nparams && c->params[0])
						next[nn++] = c->params[0];
				}
				next[nn++] = u;
			} else if (hilo_instr_ncalled(u) == 0) {
				next[nn++] = u;
			}
			/* (the result of a call / while / conditional is taken to
			 * depend on every operand: an over-approximation that only
			 * widens which parameters get index-aware values) */
			for (int k = 0; k < nn; k++) {
				if (hilo_ptrmap_get(&seen, next[k]))
					continue;
				hilo_ptrmap_put(&seen, next[k], (void *)1);
				if (n == cap) {
					const hilo_instr **g = hilo_heap_realloc(a, st, 2 * cap * sizeof *st);
					if (!g)
						goto out;
					st = g;
					cap *= 2;
				}
				st[n++] = next[k];
			}
		}
	}
out:
	hilo_heap_free(a, st);
	hilo_ptrmap_free(&seen);
}

static bool index_candidate(const hilo_instr *p, bool wide)
{
	const hilo_shape *s = p ? p->shape : NULL;
	if (!s || !hilo_shape_is_array(s) || !(hilo_ptype_is_int(s->type) || s->type == HILO_T_PRED ||
	    (wide && hilo_ptype_is_float(s->type))))
		return false;
	int64_t n = hilo_shape_elements(s);
	return n >= 1 && n <= IDX_MAX_ELEMS;
}

static int64_t range_value(const idx_ranges *r, uint64_t k)
{
	for (int q = 0; q < r->n; q++) {
		uint64_t len = (uint64_t)(r->hi[q] - r->lo[q]) + 1;
		if (k < len)
			return r->lo[q] + (int64_t)k;
		k -= len;
	}
	return r->lo[0];
}

static void fill_index(hilo_literal *l, const idx_ranges *r, uint64_t seed, uint64_t stream)
{
	hilo_ptype t = l->shape->type;
	int eb = hilo_ptype_bytes(t);
	uint64_t total = ranges_size(r);
	if (eb <= 0 || !total)
		return;
	size_t n = l->nbytes / (size_t)eb;
	uint64_t key = hilo_hash_mix64(hilo_hash_mix64(seed) ^ hilo_hash_mix64(stream + 0x1dc5ull));
	for (size_t e = 0; e < n; e++) {
		int64_t v;
		if (total <= IDX_SWEEP) {
			v = range_value(r, (seed + 5 * stream + e) % total);
		} else {
			uint64_t x = hilo_hash_mix64(key + e * 0x9e3779b97f4a7c15ull);
			if ((x & 7) == 0)
				v = hilo_ptype_is_signed_int(t) ? (int64_t)((x >> 8) % 33) - 16 : (int64_t)((x >> 8) % 33);
			else
				v = range_value(r, (x >> 3) % total);
		}
		if (t == HILO_T_PRED)
			v = v != 0;
		hilo_elem_set_i64(t, l->data, e, v);
	}
}

int hilo_eval_index_sweep(const hilo_module *m, const hilo_comp *c)
{
	HILO_OOM_CATCH(g, m->arena)
		return -1;
	uint64_t need = 0;
	for (uint32_t k = 0; k < c->nparams; k++) {
		if (!index_candidate(c->params[k], false))
			continue;
		idx_ranges r = {0};
		index_uses(m->arena, c->params[k], &r, false);
		uint64_t s = ranges_size(&r);
		if (s <= IDX_SWEEP && s > need)
			need = s;
	}
	hilo_oom_end(&g);
	return (int)need;
}
void ev_param_ranges(hilo_arena *a, const hilo_instr *p, bool wide, ev_ranges *r)
{
	memset(r, 0, sizeof *r);
	if (index_candidate(p, wide))
		index_uses(a, p, r, wide);
}

int ev_ranges_sweep(const ev_ranges *r)
{
	uint64_t s = r->nf ? (uint64_t)r->nf + 1 : ranges_size(r);
	return s <= IDX_SWEEP ? (int)s : 0;
}

/* Float boundary values: element e takes value number (seed + 5 * stream
 * + e) mod (nf + 1) of the boundary values, the last number meaning the
 * ordinary random value, so nf + 1 consecutive seeds draw each boundary
 * value at each element. */
static void fill_floats(hilo_literal *l, const idx_ranges *r, uint64_t seed, uint64_t stream)
{
	hilo_literal_fill_random(l, seed, stream);
	hilo_ptype t = l->shape->type;
	int eb = hilo_ptype_bytes(t);
	if (eb <= 0)
		return;
	size_t n = l->nbytes / (size_t)eb;
	uint64_t total = (uint64_t)r->nf + 1;
	for (size_t e = 0; e < n; e++) {
		uint64_t k = (seed + 5 * stream + e) % total;
		if (k < (uint64_t)r->nf)
			hilo_elem_set_f64(t, l->data, e, r->fv[k]);
	}
}

void ev_fill_ranges(hilo_literal *l, const ev_ranges *r, uint64_t seed, uint64_t stream)
{
	if (r->nf && hilo_shape_is_array(l->shape) && hilo_ptype_is_float(l->shape->type))
		fill_floats(l, r, seed, stream);
	else if (r->n)
		fill_index(l, r, seed, stream);
	else
		hilo_literal_fill_random(l, seed, stream);
}

static hilo_literal **random_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d, bool drawn);

hilo_literal **hilo_eval_random_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal **r = random_args(m, c, seed, budget, d, false);
	hilo_oom_end(&g);
	return r;
}

/* hilo_eval_random_args with the rewrite validator's draws (special
 * values, ev_fill_drawn) for the parameters without index-aware ranges,
 * when drawn: the module-level check's inputs. */
hilo_literal **ev_check_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d, bool drawn)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal **r = random_args(m, c, seed, budget, d, drawn);
	hilo_oom_end(&g);
	return r;
}

static hilo_literal **random_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d, bool drawn)
{
	/* inputs cost their element count: refuse them above the budget */
	if (!budget)
		budget = HILO_EVAL_DEFAULT_BUDGET;
	uint64_t total = 0;
	for (uint32_t k = 0; k < c->nparams; k++) {
		int64_t ne = c->params[k] && c->params[k]->shape->type != HILO_T_TUPLE
			? hilo_shape_elements(c->params[k]->shape) : 0;
		total += ne < 0 ? budget + 1 : (uint64_t)ne;
		if (total > budget) {
			const hilo_instr *p = c->params[k];
			hilo_diag_add(d, HILO_SEV_ERROR, NULL, p ? p->line : 0, p ? p->col : 0, NULL, 0,
				"evaluator: the inputs of %s are over the evaluation budget of "
				"%llu element-ops", c->name, (unsigned long long)budget);
			return NULL;
		}
	}
	hilo_literal **args = hilo_arena_alloc(m->arena, ((size_t)c->nparams + 1) * sizeof *args);
	if (!args)
		return NULL;
	for (uint32_t k = 0; k < c->nparams; k++) {
		const hilo_instr *p = c->params[k];
		if (!p || !(args[k] = hilo_literal_create(m, p->shape))) {
			hilo_diag_add(d, HILO_SEV_ERROR, NULL, p ? p->line : 0, p ? p->col : 0,
				NULL, 0, "evaluator: input for parameter %u is too large to create", k);
			return NULL;
		}
		idx_ranges r;
		ev_param_ranges(m->arena, p, false, &r);
		if (drawn && !r.n && !r.nf)
			ev_fill_drawn(args[k], seed, k, NULL, 0);
		else
			ev_fill_ranges(args[k], &r, seed, k);
	}
	return args;
}

/* eval_internal.h - private interface between the evaluator's files.
 *
 *   eval.c              driver: computations, budget, literals, dispatch,
 *                       control flow (call/while/conditional/tuple/...)
 *   eval_elementwise.c  unary/binary/compare/select/clamp/convert/bitcast
 *   eval_shape.c        data movement (broadcast ... pad, iota, reverse)
 *   eval_reduce.c       reduce, reduce-window, dot, gather, scatter, sort, map
 *   eval_opaque.c       uninterpreted (hashed) ops
 *   eval_equiv.c        random inputs, literal equality, equivalence check
 */
#ifndef HILO_EVAL_INTERNAL_H
#define HILO_EVAL_INTERNAL_H

#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/hlo_text.h"
#include "ir/literal.h"
#include "ir/window.h"

#include <string.h>

/* One evaluation: where literals go, the budget and the diagnostics. */
typedef struct ev {
	hilo_module *m;
	hilo_arena *a;        /* current allocation arena (while loops swap it) */
	hilo_diags *d;
	uint64_t budget, used;
	int depth;            /* computation nesting, bounded */
	bool failed;          /* a diagnostic was added */
	bool allow_opaque;    /* hash uninterpreted ops (not when folding) */
	bool elided_random;   /* elided constants take seeded values (ev_instr_in_elided) */
	uint64_t elided_seed;
} ev;

/* hilo_eval_instr_in, except (elided_random) that an elided constant
 * ({...}) with a source position takes seeded random values keyed by that
 * position instead of failing: the rewrite validator's cone tests (the
 * same unknown constant has the same value on both sides of a rewrite;
 * clones keep the source position). */
hilo_literal *ev_instr_in_elided(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, const hilo_eval_opts *o, uint64_t *used, bool elided_random,
	uint64_t elided_seed, hilo_diags *d);

/* hilo_eval_comp, also giving the element-ops the evaluation used. */
hilo_literal *ev_comp_used(hilo_module *m, const hilo_comp *c, hilo_literal *const *args,
	const hilo_eval_opts *o, hilo_diags *d, uint64_t *used);

/* ---- index-aware inputs (eval_equiv.c) --------------------------------- */
/* Fills l with the values hilo_literal_fill_random(P, seed, stream) gives
 * the element of a tuple P at index path path[0..npath) (l has that
 * element's shape): a tuple element drawn alone, equal to the element of
 * the whole tuple drawn. */
void ev_fill_random_at(hilo_literal *l, uint64_t seed, uint64_t stream, const int64_t *path,
	int npath);
/* The rewrite validator's draws (docs/proof.md "Special values"): input
 * set `seed` is of mode ev_draw_mode(seed) = seed mod 3:
 *   EV_DRAW_PLAIN      hilo_literal_fill_random's values (ev_fill_random_at's
 *                      for a tuple element), unchanged;
 *   EV_DRAW_SPRINKLED  those values with each float or integer element
 *                      special with probability 1/4 (a value drawn from the
 *                      type's special values: NaN, +-inf, -0, +0, +-largest
 *                      finite, +-smallest positive, -NaN; for integers min,
 *                      max, 0, -1);
 *   EV_DRAW_WHOLE      every element of a float or integer leaf one special
 *                      value, rotating with the seed and the leaf's stream.
 * Pred elements keep their values. ev_fill_drawn(l, seed, stream, path, n)
 * fills the element at tuple path `path` of the leaf (stream, seed) drawn
 * whole (n = 0: the leaf itself), consistently with the whole leaf. */
enum { EV_DRAW_PLAIN, EV_DRAW_SPRINKLED, EV_DRAW_WHOLE };
int ev_draw_mode(uint64_t seed);
/* What input set `seed` draws, for messages ("special values at random
 * elements", ...). */
const char *ev_draw_name(uint64_t seed);
/* Element-ops an input set with special values may use: 8 times what the
 * most costly completed set of its run used (ref; at least budget / 64
 * and 2^16), within the budget; the budget itself when no set completed (ref 0). A special
 * value can make a loop run far longer than ordinary values do (a bound of
 * inf, a trip count of INT_MAX): such a set shows nothing about the
 * ordinary ones, and the callers do not count it. */
uint64_t ev_special_budget(uint64_t budget, uint64_t ref);
/* hilo_eval_random_args with the rewrite validator's draws (special
 * values, ev_fill_drawn) for the parameters without index-aware ranges,
 * when drawn: the module-level check's inputs (src/check/equiv.c). */
hilo_literal **ev_check_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d, bool drawn);
void ev_fill_drawn(hilo_literal *l, uint64_t seed, uint64_t stream, const int64_t *path,
	int npath);

enum { EV_RANGES_MAX = 16, EV_FLOATS_MAX = 16 };
/* The interesting values of one parameter: integer intervals (index uses,
 * compares against constants, select predicates) and float boundary
 * values (wide only). */
typedef struct ev_ranges {
	int n;
	int64_t lo[EV_RANGES_MAX], hi[EV_RANGES_MAX];
	int nf;
	double fv[EV_FLOATS_MAX];
} ev_ranges;
/* The ranges hilo_eval_random_args gives parameter p (wide false). wide
 * (the rewrite validator's tests from the parameters) also gives an
 * integer or pred parameter that selects a conditional's branch every
 * branch index and one past each end, and a float parameter of at most 64
 * elements compared with a scalar constant c (or a broadcast of one) the
 * values c and c -/+ max(|c|, 1)/256 (an infinite c: itself). Needs an
 * out-of-memory guard on a. */
void ev_param_ranges(hilo_arena *a, const hilo_instr *p, bool wide, ev_ranges *r);
/* Consecutive seeds that draw every value of r (0: none to sweep, or too
 * many). */
int ev_ranges_sweep(const ev_ranges *r);
/* Fills l (the value of the parameter r was computed for; stream: its
 * number) for input set seed; plain random values when r holds nothing. */
void ev_fill_ranges(hilo_literal *l, const ev_ranges *r, uint64_t seed, uint64_t stream);

#define EV_MAX_DEPTH 200
#define EV_MAX_BYTES HILO_LITERAL_MAX_BYTES /* largest single literal */

/* Adds an error located at instr (may be NULL); returns NULL for chaining. */
void *ev_err(ev *e, const hilo_instr *i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Charges n element-ops; false (with a diagnostic) when over budget. */
bool ev_charge(ev *e, const hilo_instr *i, uint64_t n);

hilo_literal *ev_lit_new(ev *e, const hilo_instr *i, const hilo_shape *s);

/* Evaluates a called computation on args. */
hilo_literal *ev_comp(ev *e, const hilo_comp *c, hilo_literal *const *args);
/* Evaluates one instruction on its operand values. */
hilo_literal *ev_instr(ev *e, const hilo_instr *i, hilo_literal *const *ops);

/* A scalar "apply" helper for reducers/comparators/map: evaluates c on
 * scalar arguments and keeps allocation bounded by recycling a private
 * arena. */
typedef struct ev_apply {
	ev *e;
	const hilo_comp *c;
	hilo_arena *scratch;
	hilo_arena *saved;
	uint32_t calls;
	int fast;             /* opcode of a binary-op fast path, or -1 */
	bool swapped;         /* fast path with (p1, p0) operand order */
	const hilo_instr *fast_instr;
} ev_apply;

bool ev_apply_init(ev_apply *ap, ev *e, const hilo_comp *c, int nargs);
void ev_apply_fini(ev_apply *ap);
/* Calls c on args (scalar literals); the result lives until the next call. */
hilo_literal *ev_apply_call(ev_apply *ap, hilo_literal *const *args);

/* Row-major helpers. */
/* Advances a multi-index over dims[0..rank) in row-major order; false
 * after the last. */
static inline bool ev_next_index_dims(int rank, const int64_t *dims, int64_t *idx)
{
	for (int d = rank - 1; d >= 0; d--) {
		if (++idx[d] < dims[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

static inline bool ev_next_index(const hilo_shape *s, int64_t *idx)
{
	return ev_next_index_dims(s->rank, s->dims, idx);
}

/* Per-area entry points: each returns NULL with a diagnostic on failure,
 * or sets *handled = false when the op is not theirs. */
hilo_literal *ev_elementwise(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled);
hilo_literal *ev_shape_op(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled);
hilo_literal *ev_reduce_op(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled);
hilo_literal *ev_opaque(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled);

/* ---- splats (one stored element, docs/architecture.md "Splats") ---- */
/* A splat of shape s (an array of at least one element) holding the one
 * element at `elem`, in e's arena; charged one element-op. */
hilo_literal *ev_splat_new(ev *e, const hilo_instr *i, const hilo_shape *s, const void *elem);
/* l with every element stored (l itself without splats), charged the
 * expanded elements: the budget message when over it. */
hilo_literal *ev_dense(ev *e, const hilo_instr *i, const hilo_literal *l);
/* An elementwise op (unary, binary, select, clamp, complex) whose
 * operands are all splats or scalars, computed once on their one elements
 * into a splat; *handled = false when i is not such an op. */
hilo_literal *ev_elementwise_splat(ev *e, const hilo_instr *i, hilo_literal *const *ops,
	bool *handled);
/* May op give a splat for splat operands (elementwise, broadcast, reshape)? */
bool ev_splat_capable(hilo_opcode op);

/* Scalar value as double / int64 / uint64 (element k). */
double ev_get_f(const hilo_literal *l, size_t k);
int64_t ev_get_i(const hilo_literal *l, size_t k);
/* Element k of l converted to element type t by convert's rules (XLA's
 * Literal::Convert), read back as double / int64. */
double ev_get_as_f(const hilo_literal *l, size_t k, hilo_ptype t);
int64_t ev_get_as_i(const hilo_literal *l, size_t k, hilo_ptype t);
/* Reads index operand k-th element as int64 (signed or unsigned). */
int64_t ev_get_index(const hilo_literal *l, size_t k);

#endif

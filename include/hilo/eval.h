/* hilo/eval.h - the reference evaluator.
 *
 * A direct interpreter over the IR (docs/evaluator.md). Literals are dense,
 * row-major in logical index order (layouts are ignored), one
 * hilo_ptype_bytes() slot per element, allocated in the module's arena.
 * Custom-calls, collectives, rng, infeed and other opaque or side-effecting
 * operations are uninterpreted functions: a deterministic hash of (opcode or
 * target, attributes, operand bytes) fills their result, so two programs
 * agree exactly when they make the same opaque calls on the same values.
 *
 * Work is bounded by a budget counted in element-operations; evaluation
 * that would exceed it fails with a diagnostic (equivalence: "skipped").
 * Nothing here exits or aborts on bad input: every failure is NULL plus a
 * diagnostic.
 */
#ifndef HILO_EVAL_H
#define HILO_EVAL_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HILO_EVAL_DEFAULT_BUDGET 100000000ull /* 1e8 element-ops */

typedef struct hilo_eval_opts {
	uint64_t budget; /* element-ops, 0 = default 1e8 */
} hilo_eval_opts;

/* Evaluates one instruction given literals for its operands (used by
 * constant folding). Returns NULL and adds a diagnostic when the op can't
 * be evaluated (elided constant, unsupported, over budget). Called
 * computations (reduce, map, sort, call, while, ...) are evaluated too. */
HILO_API hilo_literal *hilo_eval_instr(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, hilo_diags *d);

/* Evaluates one instruction as it runs inside a computation (uninterpreted
 * ops hashed, called computations evaluated), given its operand values:
 * the rewrite validator's cone tests. Work is charged to *used against
 * o->budget (0 = default), so one budget can span many calls. NULL +
 * diagnostic on failure; the result lives in m's arena. */
HILO_API hilo_literal *hilo_eval_instr_in(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, const hilo_eval_opts *o, uint64_t *used, hilo_diags *d);

/* Evaluates comp on args (literals allocated in m's arena). NULL +
 * diagnostic on failure. o may be NULL (defaults). */
HILO_API hilo_literal *hilo_eval_comp(hilo_module *m, const hilo_comp *c,
	hilo_literal *const *args, const hilo_eval_opts *o, hilo_diags *d);

typedef struct hilo_equiv_report {
	int status; /* 0 equal, 1 mismatch, 2 skipped (budget/unsupported),
	             * 3 out of memory */
	char message[1024];
} hilo_equiv_report;

/* Runs both modules' entry computations on n seeded random input sets
 * (seed, seed+1, ...) and compares outputs bit for bit (NaN == NaN). n is
 * raised to hilo_eval_index_sweep(before, entry) so every value of small
 * index ranges is tried. */
HILO_API void hilo_check_equivalence(hilo_module *before, hilo_module *after, int n,
	uint64_t seed, const hilo_eval_opts *o, hilo_equiv_report *r);
/* The same, with -0 and +0 compared equal when zero_sign_insensitive
 * (hilo-opt --assume-no-signed-zeros, the meaning of LLVM's nsz). */
HILO_API void hilo_check_equivalence_nsz(hilo_module *before, hilo_module *after, int n,
	uint64_t seed, const hilo_eval_opts *o, bool zero_sign_insensitive, hilo_equiv_report *r);

/* ---- helpers shared by hilo-run and tests ---------------------------- */

/* Allocates a zero-filled literal of the given shape (tuples recursively)
 * in m's arena. NULL when the shape is too large to hold. */
HILO_API hilo_literal *hilo_literal_create(hilo_module *m, const hilo_shape *s);

/* Deep-copies a literal (and its shape) into m's arena. */
HILO_API hilo_literal *hilo_literal_copy(hilo_module *m, const hilo_literal *l);

/* Fills a literal with seeded pseudo-random values suited to the element
 * type (floats in [-8, 8) on a 1/4096 grid, small integers, random preds).
 * The same (seed, stream) gives the same values on every host. */
HILO_API void hilo_literal_fill_random(hilo_literal *l, uint64_t seed, uint64_t stream);

/* Random inputs for every parameter of comp (stream = parameter number).
 * Returns an arena array of comp->nparams literals, NULL (+ diagnostic) on
 * failure or when their element count exceeds budget (0 = default).
 *
 * Index-aware: an integer or pred parameter of at most 64 elements whose
 * value reaches (forward through any op, tuples and call / while /
 * conditional operands) a dynamic-slice / dynamic-update-slice start, a
 * gather index or a select predicate takes values concentrated on what
 * matters there: the start's whole clamped range [0, dim - size] plus one
 * value past each end, a gather's index range likewise, c-1..c+1 for a
 * compare against a constant c on the way, 0..1 for a predicate. When
 * those ranges hold at most 64 values in all, consecutive seeds sweep them
 * exactly (see hilo_eval_index_sweep); otherwise values are drawn from the
 * ranges (one in eight from the small-integer distribution). Other
 * parameters are filled by hilo_literal_fill_random. */
HILO_API hilo_literal **hilo_eval_random_args(hilo_module *m, const hilo_comp *c,
	uint64_t seed, uint64_t budget, hilo_diags *d);

/* Describes the first element where a and b differ (NaN == NaN) into msg:
 * "output{path} element [i,j]: before=X after=Y (seed S)". Returns false
 * when they are equal. */
HILO_API bool hilo_literal_describe_diff(const hilo_literal *a, const hilo_literal *b, uint64_t seed,
	char *msg, size_t cap);
/* The same, with -0 and +0 compared equal when zero_sign_insensitive
 * (floats and complex halves; the meaning of LLVM's nsz). */
HILO_API bool hilo_literal_describe_diff_nsz(const hilo_literal *a, const hilo_literal *b,
	uint64_t seed, bool zero_sign_insensitive, char *msg, size_t cap);

/* Compares a test literal with a reference one within tolerances, as
 * XLA's run_hlo_module compares its test platform's result with the
 * reference's (hilo-run --compare): a float element agrees when
 * |test - ref| <= atol + rtol * |ref| (NaN agrees with any NaN, an
 * infinity only with itself), complex per component, integers and pred
 * exactly; tuples leaf by leaf, whose shapes (element type and dims;
 * layouts aside) must agree. */
typedef struct hilo_near_opts {
	double rtol, atol;
} hilo_near_opts;
typedef struct hilo_near_result {
	bool shape_differs;    /* a leaf's shape differs: its elements are not compared */
	uint64_t elements;     /* elements compared (a complex element counts once) */
	uint64_t mismatches;   /* of those, outside the tolerance */
	/* The worst element: the mismatch with the largest absolute error (a
	 * NaN or infinity against another value ranks first), or when every
	 * element agrees the one with the largest nonzero error; has_worst is
	 * false when all are exactly equal. */
	bool has_worst;
	bool worst_mismatch;   /* the worst is a mismatch */
	char where[256];       /* its tuple path and index, "{1}[0,2]" ("[]" a scalar) */
	char test[128], ref[128]; /* both values as HLO text prints them */
	double abs_err, rel_err;  /* |test - ref| and that over |ref| (inf for ref 0) */
} hilo_near_result;
HILO_API void hilo_literal_compare_near(const hilo_literal *test, const hilo_literal *ref,
	const hilo_near_opts *o, hilo_near_result *r);

/* How many consecutive seeds hilo_eval_random_args needs so that every
 * index-aware parameter of c takes every value of its ranges (0 when no
 * parameter has ranges of at most 64 values); -1 when out of memory. */
HILO_API int hilo_eval_index_sweep(const hilo_module *m, const hilo_comp *c);

/* Bitwise equality with NaN == NaN (any payload) for float types. */
HILO_API bool hilo_literal_equal(const hilo_literal *a, const hilo_literal *b);

#ifdef __cplusplus
}
#endif

#endif

/* hilo/pass.h - the pass interface, the registry and remarks.
 *
 * A pass is {name, description, run}. run() rewrites ctx->m in place and
 * returns HILO_PASS_CHANGED / HILO_PASS_UNCHANGED, or HILO_PASS_ERROR after
 * adding a diagnostic to ctx->diags (never exits, never aborts on bad
 * input). Every decision worth explaining goes through hilo_remark(), which
 * writes one JSON object per line to the --remarks file when one is open.
 *
 * The registry is the X-macro list in src/pass/passes.def:
 *   PASS(c_ident, "pass-name", "one-line description")
 * with `hilo_pass_result hilo_pass_<c_ident>(hilo_pass_ctx *ctx)` defined in
 * src/transforms/<pass-name>.c. The build copies that list next to the public
 * headers as hilo/passes.def (and installs it), so this header never
 * reaches into the source tree. The deliberately unsound test passes, which
 * exist only to prove the equivalence checker catches a wrong rewrite, are
 * not in the library: tests/lib registers them into the test binaries
 * (hilo-opt-test), marked test_only and listed by --list-passes --all.
 */
#ifndef HILO_PASS_H
#define HILO_PASS_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hilo_pass_result {
	HILO_PASS_ERROR = -1,
	HILO_PASS_UNCHANGED = 0,
	HILO_PASS_CHANGED = 1,
} hilo_pass_result;

/* Facts one hilo_run_passes() call carries from pass to pass (owned by the
 * driver, see "run state" below). */
typedef struct hilo_run_state hilo_run_state;

typedef struct hilo_pass_ctx {
	hilo_module *m;
	hilo_run_state *run;     /* set by the driver; NULL when a pass runs alone */
	const char *pass;        /* name of the running pass (set by the driver) */
	const char *filename;    /* for diagnostics */
	hilo_diags *diags;
	FILE *remarks;           /* JSON Lines sink, or NULL */
	uint64_t rewrites;       /* passes add the number of rewrites they made */
	bool unroll_markers;     /* while-loop-unroller: wrap iteration roots */
	bool disable_slice_move_from_param; /* NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1 */
	bool assume_equivalent_kernels; /* --assume-equivalent-kernels: the kernel dedup
	                                 * may assume differently configured kernels equal */
	bool assume_no_signed_zeros; /* --assume-no-signed-zeros (LLVM's nsz): passes may
	                              * treat -0 and +0 as the same value (simplify-concat's
	                              * +0 pads are additive identities) */
	hilo_arena *scratch;     /* this pass run's scratch (hilo_pass_scratch): created on
	                          * first use, destroyed by the driver when the pass returns */
} hilo_pass_ctx;

typedef hilo_pass_result (*hilo_pass_fn)(hilo_pass_ctx *ctx);

typedef struct hilo_pass {
	const char *name;
	const char *description;
	hilo_pass_fn run;
	bool test_only;          /* TEST_PASS (tests/lib, test binaries only): unsound on purpose */
} hilo_pass;

/* Each pass's entry point, for the library's own use (passes that run
 * another pass, the registry). Programs run passes through the registry
 * (hilo_pass_find) or the driver; these are not exported. */
#ifdef HILO_BUILDING_LIBRARY
#define PASS(id, name, desc) hilo_pass_result hilo_pass_##id(hilo_pass_ctx *ctx);
#include "hilo/passes.def"
#undef PASS
#endif

/* All registered passes, in registry order (test-only ones included). */
HILO_API const hilo_pass *hilo_pass_list(size_t *n);
/* The pass of that name or alias (XLA's spelling where it differs from
 * ours: constant_folding, while_loop_unroller); NULL if unknown. */
HILO_API const hilo_pass *hilo_pass_find(const char *name);
/* The k-th alias of p (0-based), or NULL past the last. */
HILO_API const char *hilo_pass_alias(const hilo_pass *p, size_t k);

/* Writes {"pass","computation","instruction","action","reason"} to the
 * remarks sink (no-op without one). action is "rewritten" or "declined"
 * (or another verb a pass documents). c and i may be NULL. */
HILO_API void hilo_remark(hilo_pass_ctx *ctx, const hilo_comp *c, const hilo_instr *i,
	const char *action, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- scratch memory of one pass run ------------------------------------
 * The one place for a pass's walking state (visited sets, per-instruction
 * values, work lists): not the instructions' `mark` / `aux` fields, which
 * need a reset before use and collide between nested walks, nor private
 * arenas. hilo_pass_scratch() returns a child arena of the module's
 * (hilo_arena_create_in: an out-of-memory jump frees it, allocations never
 * return NULL under the driver's guard), created on first use; the driver
 * destroys it when the pass returns, so nothing a pass puts there outlives
 * its run. A pass run outside the driver keeps it until the caller calls
 * hilo_pass_scratch_release (or destroys the module). A pass another pass
 * runs as its clean-up (hilo_cu_cleanup) shares the caller's scratch. */
HILO_API hilo_arena *hilo_pass_scratch(hilo_pass_ctx *ctx);
/* A zeroed array of `size`-byte elements, one per instruction id the
 * module has handed out so far (*n of them, m->next_id), in the scratch
 * arena: dense per-instruction state indexed by hilo_instr.id. Instructions
 * created later have ids >= *n. */
HILO_API void *hilo_pass_scratch_by_id(hilo_pass_ctx *ctx, size_t size, uint32_t *n);
/* Destroys ctx's scratch arena, if any (the driver does this after every
 * pass). */
HILO_API void hilo_pass_scratch_release(hilo_pass_ctx *ctx);

/* ---- run state ----------------------------------------------------------
 * What a pass proved and a later pass of the same run may rely on, keyed by
 * stable instruction id (never by text in the module: docs/tokens.md).
 *
 * Proven start indices: neuron-dus-ds-index-simplifier records the effective
 * (clamped) start of each dynamic-slice / dynamic-update-slice whose start
 * operands it proved constant. A consumer may act on a non-constant start
 * only through hilo_proven_starts(); tokens read from the input are hints
 * for remarks. A fact stays true while the module changes because every
 * pass preserves the value of each instruction it keeps; instructions a
 * pass creates have fresh ids and carry no facts.
 *
 * Assumed equalities: a rewrite that cannot be proved and that the user
 * allowed with an explicit flag (--assume-equivalent-kernels) is registered
 * by the pass; the rewrite validator reports it as "assumed", not proved.
 *
 * All functions accept ctx->run == NULL (a pass run outside the driver):
 * nothing is recorded and nothing is proven. Recording may drop a fact when
 * memory runs out; that only makes consumers more conservative. */

HILO_API hilo_run_state *hilo_run_state_create(hilo_arena *a);
HILO_API void hilo_run_state_destroy(hilo_run_state *s);

/* Records the effective starts (one per dimension) proved for i. */
HILO_API void hilo_proven_starts_set(hilo_pass_ctx *ctx, const hilo_instr *i,
	const int64_t *starts, int n);
/* Forgets what was proved for i (e.g. a pass changed i's start operands to
 * values that are not equal to the old ones). */
HILO_API void hilo_proven_starts_clear(hilo_pass_ctx *ctx, const hilo_instr *i);
/* The starts proved for i, or -1 when nothing is proven. Stores up to max
 * values; returns the dimension count. */
HILO_API int hilo_proven_starts(const hilo_pass_ctx *ctx, const hilo_instr *i, int64_t *out, int max);

/* ---- known starts (src/transforms/analyses/known_starts.c) ----------------------------
 * The one reader of "the start of this dynamic-slice / dynamic-update-slice
 * that hilo knows for certain". Per dimension of i's operand 0: the start
 * operand folds to a constant (constants and pure index arithmetic over
 * constants, folded with the evaluator); or the window spans the whole
 * dimension (the clamp pins it at 0); or hilo_proven_starts() holds it. A
 * constant operand always wins over a proven value. Values are effective
 * starts, clamped into [0, dim - size] as the ops clamp. Index tokens in
 * the module text are never read as facts (docs/tokens.md).
 * Returns the rank and stores up to max starts, or -1 when some dimension
 * is unknown or i is not a well-formed dynamic-slice / -update-slice
 * (scalar index operands, or the old single rank-1 index vector). */
HILO_API int hilo_known_starts(const hilo_pass_ctx *ctx, const hilo_instr *i, int64_t *out, int max);
/* After hilo_known_starts() returned -1: why, for a remark (names the
 * unknown dimension; says "dsidxnow= token ignored: not proven" when the
 * instruction carries input tokens). */
HILO_API void hilo_known_starts_why(const hilo_pass_ctx *ctx, const hilo_instr *i, char *buf, size_t n);
/* The value of i when it is a constant, or pure index arithmetic
 * (hilo_index_op_foldable) over constants with at most 1024 elements per
 * value and 256 instructions, evaluated with hilo_eval_instr; NULL
 * otherwise. The literal lives in m's arena. */
HILO_API hilo_literal *hilo_fold_constant_cone(hilo_module *m, const hilo_instr *i);
/* The opcodes index folding evaluates (pure, no called computations). */
HILO_API bool hilo_index_op_foldable(hilo_opcode op);

typedef struct hilo_assumed_eq {
	uint32_t replaced_id;    /* the value in the module before the pass */
	uint32_t by_id;          /* its replacement after the pass */
	const char *pass;
	char *why;               /* malloc'd */
} hilo_assumed_eq;

/* Registers that replacing `replaced` by `by` is assumed, not proved. */
HILO_API void hilo_rewrite_assume(hilo_pass_ctx *ctx, const hilo_instr *replaced,
	const hilo_instr *by, const char *why);
/* The assumed equalities registered so far in this run. */
HILO_API const hilo_assumed_eq *hilo_run_assumed(const hilo_run_state *s, size_t *n);

#ifdef __cplusplus
}
#endif

#endif

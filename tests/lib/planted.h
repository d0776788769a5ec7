/* planted.h - bugs that test-only passes plant in real passes (internal to
 * libhilo, never part of the public API).
 *
 * A test-only pass (TEST_PASS in passes.def, tests/lib/test-*.c) that needs
 * a real pass's own code to make its bug realistic sets one HILO_PLANT_* bit
 * in ctx->planted, runs the real pass, and clears the bit. The driver (and
 * every other caller) zeroes the context, so with planted == 0 the real
 * passes behave exactly as documented in their files. Test-only passes that
 * only perturb a real pass's input or result do not need a bit. */
#ifndef HILO_PLANTED_H
#define HILO_PLANTED_H

#include "hilo/float.h"
#include "hilo/pass.h"

enum {
	/* slice-of-concat-optimizer: operand k's boundary B[k] is taken one
	 * element too far (test-soc-boundary-off-by-one) */
	HILO_PLANT_SOC_BOUNDARY = 1u << 0,
	/* slice-of-concat-optimizer: a dynamic-slice start is used raw, not
	 * clamped (test-soc-unclamped-start; hilo_plant_raw_start) */
	HILO_PLANT_SOC_RAW_START = 1u << 1,
	/* neuron_repeated_dus_to_concat: the updates are concatenated in
	 * iterationidx= order, not offset order (test-dus-concat-iteration-order) */
	HILO_PLANT_DUS_ITER_ORDER = 1u << 2,
	/* neuron_all_gather_duplicate_remover: seed 004's key, without any
	 * gather dimension and without the all-gathers the walk crosses
	 * (test-all-gather-ignore-dimensions) */
	HILO_PLANT_AG_SEED_KEY = 1u << 3,
	/* dce: an instruction's side effects are judged by its own opcode
	 * only, not by the computations it calls (test-dce-shallow-effects) */
	HILO_PLANT_DCE_SHALLOW = 1u << 4,
};

/* The start of dimension d of dynamic-slice ds that
 * test-soc-unclamped-start uses in place of the clamped one. */
int64_t hilo_plant_raw_start(const hilo_instr *ds, int d, int64_t clamped);

/* Element k of an integer constant i, raw (no clamp), as the test passes
 * reading of a start or step; false when i is not such a constant. */
static inline bool hilo_plant_const_int(const hilo_instr *i, size_t k, int64_t *v)
{
	return i && hilo_ptype_is_int(i->shape->type) && hilo_instr_const_int_at(i, k, v);
}

/* Runs real pass fn with planted bug bit(s) set; the pass's result. */
static inline hilo_pass_result hilo_plant_run(hilo_pass_ctx *ctx, hilo_pass_fn fn, unsigned bits)
{
	unsigned old = ctx->planted;
	ctx->planted = old | bits;
	hilo_pass_result r = fn(ctx);
	ctx->planted = old;
	return r;
}

#endif

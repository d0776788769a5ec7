/* test-soc-unclamped-start: slice-of-concat-optimizer taking a
 * dynamic-slice's raw start instead of the clamped one. A deliberately
 * WRONG rewrite, testing only.
 *
 * The bug it plants: dynamic-slice clamps each start into [0, dim - size];
 * this pass skips the clamp and uses the start operand as written. A raw
 * start past the end can never match an operand (its window leaves the
 * concatenate), so the form of the bug that changes results is the raw
 * negative start, read the way NumPy / PyTorch read a negative index:
 * counted from the end (start + dim). XLA clamps it to 0. So
 * dynamic-slice(concatenate(x0[4], x1[4]), -4), size 4, reads x0 (clamp to
 * 0) but the pass matches x1 (-4 + 8 = 4). The real pass's code runs with
 * raw_start below as its slice_start (variants.h), which replaces the clamped start of each constant start operand by its raw
 * value (other starts, e.g. proved by the index simplifier, stay as they are).
 * (The same raw start in dynamic-slice-mover would write a static slice out
 * of bounds, which the verifier rejects with exit 3, not a wrong program;
 * that is why the bug is planted here.)
 *
 * Why it must be caught: the replacement is another operand of the concat
 * than the one the dynamic-slice reads, so the result differs whenever the
 * operands differ. --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/soc_unclamped_start.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "concat_util.h"
#include "planted.h"

static int64_t raw_start(const hilo_instr *ds, int d, int64_t clamped)
{
	int64_t v;
	int rank = ds->operands[0]->shape->rank;
	bool vec = ds->noperands == 2 && ds->operands[1]->shape->rank == 1 && rank != 1;
	bool known = vec ? hilo_plant_const_int(ds->operands[1], (size_t)d, &v)
	                 : (uint32_t)d + 1 < ds->noperands && hilo_plant_const_int(ds->operands[1 + d], 0, &v);
	if (!known)
		return clamped;
	return v < 0 ? v + ds->operands[0]->shape->dims[d] : v;
}

static int64_t operand_start(int64_t running)
{
	return running;
}

hilo_pass_result hilo_pass_test_soc_unclamped_start(hilo_pass_ctx *ctx)
{
	static const hilo_soc_variant bug = {operand_start, raw_start};
	return hilo_soc_run(ctx, &bug);
}

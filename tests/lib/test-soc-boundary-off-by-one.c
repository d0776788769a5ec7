/* test-soc-boundary-off-by-one: slice-of-concat-optimizer with an
 * off-by-one concat boundary. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: the prefix-sum boundary of operand k is taken one
 * element too far, B'[k] = B[k] + 1 (a prefix sum that also counts operand
 * k's first element, the classic inclusive/exclusive mix-up). A window
 * [B[k] + 1, B[k+1] + 1) on the concat axis -- operand k shifted by one,
 * so its last element is operand k+1's first -- then "matches" operand k,
 * and the slice (or dynamic-slice) is replaced by operand k. The real
 * pass's own code runs (collect-then-process, constant / token starts, the
 * clamp, the layout check, DCE) with off_by_one as its operand_start
 * (src/transforms/variants.h), so this is exactly the mistake one wrong `+ 1` in
 * match_operand would make.
 *
 * Why it must be caught: element i of the replacement is x_k[i], element i
 * of the slice is concat[B[k] + 1 + i] = x_k[i + 1] for i < ext - 1 and
 * x_{k+1}[0] for the last: on any input where neighbouring elements differ
 * the program's result changes. --check-equivalence must fail (exit 4)
 * naming this pass (tests/lit/test-passes/soc_boundary_off_by_one.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

/* the bug: each operand taken to start one element too far */
static int64_t off_by_one(int64_t running)
{
	return running + 1;
}

static int64_t clamped(const hilo_instr *ds, int d, int64_t start)
{
	return start;
}

hilo_pass_result hilo_pass_test_soc_boundary_off_by_one(hilo_pass_ctx *ctx)
{
	static const hilo_soc_variant bug = {off_by_one, clamped};
	return hilo_soc_run(ctx, &bug);
}

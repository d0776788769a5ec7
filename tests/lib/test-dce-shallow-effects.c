/* test-dce-shallow-effects: dce that judges an instruction's side effects
 * by its own opcode only. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a dead call (or while, conditional, reduce, ...)
 * whose called computation performs a side effect -- an outfeed, a send,
 * a side-effecting custom-call -- is removed because the call itself is
 * not side-effecting: the mistake of a dce that asks
 * hilo_instr_has_side_effect where it must ask
 * hilo_instr_has_side_effect_deep. The real pass's own code runs with
 * shallow_effect as its side-effect test (src/transforms/variants.h).
 *
 * Why it must be caught: the program no longer performs the effect
 * (XLA's HloDCE keeps such instructions). The returned values are the
 * same, so only the validator's effects record can see it: the entry's
 * events (the callee's, flattened through the call) lose one
 * (src/check/events.c; before issue 30, src/check/records.c effect_kept).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/dce_shallow_effects.hlo). Never in a pipeline;
 * only an explicit --passes= runs it.
 */
#include "planted.h"

/* the bug: an instruction's own side effects only, not its callees' */
static bool shallow_effect(const hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo)
{
	return hilo_instr_has_side_effect(m, i);
}

hilo_pass_result hilo_pass_test_dce_shallow_effects(hilo_pass_ctx *ctx)
{
	const hilo_dce_variant v = {shallow_effect, hilo_instr_renumber_operand_attrs};
	return hilo_dce_run(ctx, &v);
}

/* test-call-operands-swapped: call-inliner binding a callee's first two
 * parameters in reverse. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: an inliner that maps callee parameter k to the wrong
 * operand of the call. It is planted by swapping operands 0 and 1 of the
 * first call (in any computation) whose callee performs an effect and
 * whose first two parameters have one shape, then running the real
 * call-inliner: the inlined body reads them the other way round. Wrong: a
 * callee that does outfeed(p0) now sends the call's second operand; the
 * values the program returns may not change at all.
 *
 * Validator hole it probes: an effect found in a removed call's callee
 * counted as carried by any new instruction of its kind, so the reversed
 * binding was proved. Effects are now events with their operand values
 * (src/check/events.c): the outfeed of the other value is another event.
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/effects_events.hlo). Never in a pipeline; only an
 * explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_call_operands_swapped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			if (i->op != HILO_OP_CALL || i->noperands < 2 || hilo_instr_ncalled(i) != 1 ||
			    i->operands[0] == i->operands[1] ||
			    !hilo_shape_equal(i->operands[0]->shape, i->operands[1]->shape) ||
			    !hilo_instr_has_side_effect_deep(m, i, NULL))
				continue;
			hilo_instr *a = i->operands[0], *b = i->operands[1];
			hilo_instr_set_operand(m, i, 0, b);
			hilo_instr_set_operand(m, i, 1, a);
			hilo_remark(ctx, m->comps[k], i, "rewritten",
				"test only: %s's operands 0 and 1 bound in reverse, then inlined (a "
				"deliberately wrong rewrite)", i->name);
			hilo_pass_call_inliner(ctx);
			ctx->rewrites++;
			return HILO_PASS_CHANGED;
		}
	hilo_remark(ctx, m->entry, NULL, "declined", "no effectful call with two operands of one shape");
	return HILO_PASS_UNCHANGED;
}

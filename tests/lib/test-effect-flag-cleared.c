/* test-effect-flag-cleared: the side-effect flag of a custom-call that
 * returns nothing cleared in place. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: a clean-up that takes a custom-call whose result
 * carries no data (an empty tuple or a token) for an annotation and drops
 * its custom_call_has_side_effect=true, keeping the instruction (same
 * name, same id). Wrong: the flag is what keeps the host callback (a log,
 * a checkpoint write) alive; the next dce removes the call as dead, and
 * a scheduler may move it freely before that.
 *
 * Validator hole it probes: an instruction redefined in place is judged
 * by its value, and the value of `()` or of a token is the same whatever
 * the call does: the redefined effect was "tested" and passed (exit 0).
 * A custom-call without the flag is no event: the entry's events lose
 * one, which the effects record fails (src/check/events.c; before issue
 * 30, records.c effect_redefined). --check-equivalence must fail (exit 4) naming this
 * pass (tests/lit/test-passes/effect_flag_cleared.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

static bool no_data(const hilo_shape *s)
{
	return s->type == HILO_T_TOKEN || (s->type == HILO_T_TUPLE && s->ntuple == 0);
}

hilo_pass_result hilo_pass_test_effect_flag_cleared(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		bool flag = false;
		if (i->op != HILO_OP_CUSTOM_CALL || hilo_instr_is_boundary_marker(i) ||
		    !no_data(i->shape) ||
		    !hilo_instr_get_bool(i, HILO_A_CUSTOM_CALL_HAS_SIDE_EFFECT, &flag) || !flag)
			continue;
		hilo_instr_remove_attr(i, HILO_A_CUSTOM_CALL_HAS_SIDE_EFFECT);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: side-effect flag cleared (a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no side-effecting custom-call without a result");
	return HILO_PASS_UNCHANGED;
}

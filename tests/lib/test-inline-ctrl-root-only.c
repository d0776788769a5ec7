/* test-inline-ctrl-root-only: call-inliner whose call's control
 * successors wait for the inlined root only. A deliberately WRONG
 * rewrite, testing only.
 *
 * The bug it plants (the call-inliner's own code, hilo_inliner_run,
 * src/transforms/variants.h, with the pass's behaviour before issue 30): an effect of the callee outside the
 * root's cone (an outfeed whose token the callee does not return) is no
 * longer ordered before the call's control successors, an effect of the
 * caller that the call made wait. Wrong: the two effects may now happen
 * in either order.
 *
 * Validator hole it probes: a removed call's effects counted as carried
 * by any new instruction of their kind, order not judged: proved. An
 * event's term now holds the events it follows, and what a control
 * predecessor orders is all of its events (src/check/events.c).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/effects_events.hlo). Never in a pipeline; only an
 * explicit --passes= runs it.
 */
#include "hilo/pass.h"
#include "planted.h"

/* Is there a call the bug changes: one with a control successor whose
 * callee performs an effect other than its root? (Elsewhere the planted
 * inliner is the real one.) */
static bool bug_applies(hilo_module *m)
{
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			if (i->op != HILO_OP_CALL || !hilo_instr_nctrl_succs(i) || hilo_instr_ncalled(i) != 1)
				continue;
			hilo_comp *f = hilo_instr_called(i)[0];
			for (hilo_instr *j = f->first; j; j = j->next)
				if (j != f->root && hilo_instr_has_side_effect_deep(m, j, NULL))
					return true;
		}
	return false;
}

/* The bug: the call's control successors wait for the inlined root only */
static bool root_only(const hilo_module *m, const hilo_instr *cl, hilo_ptrmap *memo)
{
	(void)m;
	(void)cl;
	(void)memo;
	return false;
}

hilo_pass_result hilo_pass_test_inline_ctrl_root_only(hilo_pass_ctx *ctx)
{
	if (!bug_applies(ctx->m)) {
		hilo_remark(ctx, ctx->m->entry, NULL, "declined", "no call with a control successor and "
			"an effect besides its callee's root");
		return HILO_PASS_UNCHANGED;
	}
	return hilo_inliner_run(ctx, root_only);
}

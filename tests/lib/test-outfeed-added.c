/* test-outfeed-added: a second copy of an outfeed. A deliberately WRONG
 * rewrite, testing only.
 *
 * The bug it plants: a pass that duplicates an instruction it thinks is
 * pure (to rematerialise it beside a user) and adds an effect. In the
 * entry computation, the first outfeed is cloned with the same operands
 * and the clone is left beside it (nothing uses its token). Wrong: the
 * host receives the value twice; every value the program returns is the
 * same.
 *
 * Validator hole it probes: an added effect was no record at all (only
 * removed ones were), so this gave "0 rewrites". Adding an effect is now
 * a record like removing one (src/check/events.c: the clone is a second
 * event of its kind, operands and past). --check-equivalence must fail
 * (exit 4) naming this pass (tests/lit/test-passes/effects_events.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_outfeed_added(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_OUTFEED)
			continue;
		hilo_instr *n = hilo_instr_clone(m, i, NULL);
		for (uint32_t q = 0; q < i->noperands; q++)
			hilo_instr_add_operand(m, n, i->operands[q]);
		hilo_comp_insert_before(c, i, n);
		ctx->rewrites++;
		hilo_remark(ctx, c, n, "rewritten",
			"test only: a second %s added (a deliberately wrong rewrite)", i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no outfeed");
	return HILO_PASS_UNCHANGED;
}

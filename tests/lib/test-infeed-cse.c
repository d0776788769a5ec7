/* test-infeed-cse: two infeeds with the same operands taken for one value.
 * A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a CSE that keeps side-effecting instructions (it does
 * not remove them) but still lets one stand for another with the same
 * operands and attributes. In the entry computation, the uses of the
 * second of two such infeeds are redirected to the first; both infeeds
 * stay. Wrong: each infeed reads the next item of the feed, so the second
 * one's users now see the first item.
 *
 * Validator hole it probes: the term of an effect's result was a function
 * of (opcode, attributes, operands), so the two infeeds were one term and
 * the rewrite was proved; the evaluator hashes them alike too. They are
 * now two events (ordinals 0 and 1 among identical instructions,
 * src/check/events.c; never a source position), and a random test draws
 * an event's result keyed by its event term (src/check/cone_test.c).
 * --check-equivalence must fail (exit 4) naming
 * this pass (tests/lit/test-passes/infeed_cse.hlo). Never in a pipeline;
 * only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

static bool same_infeed(const hilo_instr *a, const hilo_instr *b)
{
	if (a->op != HILO_OP_INFEED || b->op != HILO_OP_INFEED || a->noperands != b->noperands ||
	    !hilo_shape_equal(a->shape, b->shape))
		return false;
	for (uint32_t q = 0; q < a->noperands; q++)
		if (a->operands[q] != b->operands[q])
			return false;
	return true;
}

hilo_pass_result hilo_pass_test_infeed_cse(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next)
		for (hilo_instr *j = i->next; j; j = j->next) {
			if (!same_infeed(i, j) || !j->nusers)
				continue;
			hilo_instr_replace_all_uses(m, j, i);
			ctx->rewrites++;
			hilo_remark(ctx, c, j, "rewritten",
				"test only: uses of %s given to %s (the same operands; a deliberately "
				"wrong rewrite)", j->name, i->name);
			return HILO_PASS_CHANGED;
		}
	hilo_remark(ctx, c, NULL, "declined", "no two infeeds with the same operands");
	return HILO_PASS_UNCHANGED;
}

/* test-infeed-clone: the second user of an infeed gets a clone of it. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that duplicates an instruction to give each
 * user its own copy (to sink it, or to break a fan-out) and treats an
 * infeed like a pure op. In the entry computation, the first infeed with
 * two or more users is cloned (hilo_instr_clone, the same operands) and
 * its second user is pointed at the clone. Wrong: the clone is a second
 * read of the feed; before, both users saw item A, after, the second one
 * sees item B (and one item more is consumed).
 *
 * Validator hole it probes: an effect's term was named by its source
 * position, which a clone copies, so the clone was "the same event" and
 * the rewrite was proved. Effects are now events (src/check/events.c):
 * the clone is a second event (ordinal 1 among identical ones), which the
 * effects record finds added. --check-equivalence must fail (exit 4)
 * naming this pass (tests/lit/test-passes/effects_events.hlo). Never in
 * a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_infeed_clone(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_INFEED || i->nusers < 2)
			continue;
		hilo_instr *u = i->users[1].user;
		uint32_t slot = i->users[1].slot;
		hilo_instr *n = hilo_instr_clone(m, i, NULL);
		for (uint32_t q = 0; q < i->noperands; q++)
			hilo_instr_add_operand(m, n, i->operands[q]);
		hilo_comp_insert_before(c, u, n);
		hilo_instr_set_operand(m, u, slot, n);
		ctx->rewrites++;
		hilo_remark(ctx, c, n, "rewritten",
			"test only: %s given its own copy of %s (a deliberately wrong rewrite)", u->name,
			i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no infeed with two users");
	return HILO_PASS_UNCHANGED;
}

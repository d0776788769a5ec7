/* test-int-constants-regrouped: integer (x + c1) + c2 regrouped as
 * x + (c1 + c2), the operands rewired in place. A SOUND rewrite, testing
 * only (it pins a false failure of the validator, issue 30 section 5).
 *
 * What it rewrites: in the entry computation, a2 = add(a1, c2) with
 * a1 = add(x, c1), c1 and c2 constants, an integer type, and a1 used by
 * a2 only. In place, keeping both ids: a1 becomes add(c1, c2) and a2
 * becomes add(x, a1).
 *
 * Why it is sound: two's-complement addition wraps, so it is associative
 * and commutative for every value; a1's old value was seen by a2 only,
 * which computes the same sum. --check-equivalence must not fail
 * (tests/lit/test-passes/effects_sound.hlo): before issue 30 a1's own
 * record (its value did change) failed, with one of a2's operand slots:
 * 2 failed.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_int_constants_regrouped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *a2 = c ? c->first : NULL; a2; a2 = a2->next) {
		if (a2->op != HILO_OP_ADD || !hilo_ptype_is_int(a2->shape->type) || a2->noperands != 2)
			continue;
		hilo_instr *a1 = a2->operands[0], *c2 = a2->operands[1];
		if (a1->op != HILO_OP_ADD || a1->nusers != 1 || c2->op != HILO_OP_CONSTANT ||
		    a1->operands[1]->op != HILO_OP_CONSTANT || a1 == c->root)
			continue;
		hilo_instr *x = a1->operands[0], *c1 = a1->operands[1];
		hilo_instr_set_operand(m, a1, 0, c1);
		hilo_instr_set_operand(m, a1, 1, c2);
		hilo_instr_set_operand(m, a2, 0, x);
		hilo_instr_set_operand(m, a2, 1, a1);
		/* a1 now uses c2, which may come after it: definitions first */
		if (c2->parent == c) {
			hilo_comp_remove(c, a1);
			hilo_comp_insert_before(c, a2, a1);
			hilo_instr_add_operand(m, a1, c1);
			hilo_instr_add_operand(m, a1, c2);
		}
		ctx->rewrites++;
		hilo_remark(ctx, c, a2, "rewritten", "test only: (x + c1) + c2 regrouped as x + (c1 + c2) "
			"in place (sound)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no integer (x + c1) + c2");
	return HILO_PASS_UNCHANGED;
}

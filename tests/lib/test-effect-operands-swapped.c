/* test-effect-operands-swapped: a side-effecting custom-call rebuilt with
 * its first two operands swapped. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: a pass that rebuilds an instruction (to move it,
 * give it a fresh name or reorder its operands for a target's calling
 * convention) and gets the operand order wrong. In the entry computation,
 * the first side-effecting custom-call (not a boundary marker) with two
 * different operands of the same shape is replaced by a fresh clone that
 * takes them swapped; the original is removed. Wrong: the host callback
 * (or whatever the effect is) now receives its arguments the other way
 * round; the values the program returns do not change.
 *
 * Validator hole it probes: a removed side effect counted as kept when
 * any new instruction of the same opcode and target was in the
 * computation, whatever its operands: the swap passed in silence (0
 * rewrites). An effect is an event with its operand values
 * (src/check/events.c): the callback of swapped arguments is another
 * event, which the effects record fails. --check-equivalence
 * must fail (exit 4) naming this pass
 * (tests/lit/test-passes/effect_operands_swapped.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_effect_operands_swapped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_CUSTOM_CALL || hilo_instr_is_boundary_marker(i) ||
		    !hilo_instr_has_side_effect(m, i) || i->noperands < 2 ||
		    i->operands[0] == i->operands[1] ||
		    !hilo_shape_equal(i->operands[0]->shape, i->operands[1]->shape))
			continue;
		hilo_instr *n = hilo_instr_clone(m, i, NULL);
		hilo_instr_add_operand(m, n, i->operands[1]);
		hilo_instr_add_operand(m, n, i->operands[0]);
		for (uint32_t q = 2; q < i->noperands; q++)
			hilo_instr_add_operand(m, n, i->operands[q]);
		hilo_comp_insert_before(c, i, n);
		hilo_instr_replace_all_uses(m, i, n);
		hilo_comp_remove(c, i);
		ctx->rewrites++;
		hilo_remark(ctx, c, n, "rewritten",
			"test only: side-effecting custom-call rebuilt with operands 0 and 1 swapped "
			"(a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no side-effecting custom-call with two operands");
	return HILO_PASS_UNCHANGED;
}

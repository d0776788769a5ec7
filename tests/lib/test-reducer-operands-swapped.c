/* test-reducer-operands-swapped: the reducer of an all-reduce with the
 * operands of its root swapped. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: a canonicalisation of reduction computations that
 * orders the operands of the root as if every binary op were commutative.
 * In the first computation an all-reduce or reduce-scatter of the entry
 * calls (to_apply) whose root is a subtract, divide, remainder, power or
 * atan2 of two different values, the root's operands are swapped in
 * place. Wrong for such ops: the collective combines the participants'
 * values with the other operand order.
 *
 * Validator hole it probes: the collective is uninterpreted; the
 * evaluator gives it a value hashed from its callee's outline (opcodes and
 * shapes, not the operands' wiring), so the swapped reducer hashed alike
 * and the random test "agreed": the rewrite was reported tested. An
 * agreement where an uninterpreted op's callee changed is no longer a
 * test: the record is skipped (src/check/cone_test.c,
 * hashed_changed_callee), which --check-equivalence=strict fails (exit 4)
 * (tests/lit/test-passes/reducer_operands_swapped.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

static bool ordered(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_SUBTRACT: case HILO_OP_DIVIDE: case HILO_OP_REMAINDER: case HILO_OP_POWER:
	case HILO_OP_ATAN2:
		return true;
	default:
		return false;
	}
}

hilo_pass_result hilo_pass_test_reducer_operands_swapped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if ((i->op != HILO_OP_ALL_REDUCE && i->op != HILO_OP_REDUCE_SCATTER) ||
		    hilo_instr_ncalled(i) < 1)
			continue;
		hilo_comp *red = hilo_instr_called(i)[0];
		hilo_instr *r = red->root;
		if (!r || !ordered(r->op) || r->noperands != 2 || r->operands[0] == r->operands[1])
			continue;
		hilo_instr *x = r->operands[0], *y = r->operands[1];
		hilo_instr_set_operand(m, r, 0, y);
		hilo_instr_set_operand(m, r, 1, x);
		ctx->rewrites++;
		hilo_remark(ctx, red, r, "rewritten",
			"test only: reducer root's operands swapped (a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no all-reduce with an ordered reducer");
	return HILO_PASS_UNCHANGED;
}

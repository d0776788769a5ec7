/* test-swap-operands: a deliberately WRONG rewrite, for testing only.
 *
 * Rewrites: in the entry computation, the first subtract, divide,
 * remainder, power, atan2 or shift (in instruction order) whose two
 * operands are different instructions of the same shape gets its operands
 * swapped. Nothing else changes.
 *
 * Why it exists: it is the "broken pass" that proves hilo-opt
 * --check-equivalence catches a rewrite that changes a program's result
 * (tests/eval/cli.sh expects exit 4). It is NOT sound and never runs in a
 * pipeline; only an explicit --passes=test-swap-operands runs it.
 *
 * Seed: none (it exists to show that --check-equivalence catches a wrong rewrite).
 */
#include "hilo/pass.h"

static bool swappable(const hilo_instr *i)
{
	switch (i->op) {
	case HILO_OP_SUBTRACT: case HILO_OP_DIVIDE: case HILO_OP_REMAINDER:
	case HILO_OP_POWER: case HILO_OP_ATAN2: case HILO_OP_SHL:
	case HILO_OP_SHRA: case HILO_OP_SHRL:
		return i->noperands == 2 && i->operands[0] != i->operands[1] &&
		       hilo_shape_equal(i->operands[0]->shape, i->operands[1]->shape);
	default:
		return false;
	}
}

hilo_pass_result hilo_pass_test_swap_operands(hilo_pass_ctx *ctx)
{
	hilo_comp *c = ctx->m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (!swappable(i))
			continue;
		hilo_instr *a = i->operands[0], *b = i->operands[1];
		hilo_instr_set_operand(ctx->m, i, 0, b);
		hilo_instr_set_operand(ctx->m, i, 1, a);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: operands swapped (a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no non-commutative binary op to break");
	return HILO_PASS_UNCHANGED;
}

/* test-cse-float-commuted: a float add(y, x) merged into add(x, y). A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a CSE that takes IEEE addition for commutative bit
 * for bit (cse did before issue 30, as XLA's HloCSE does). In the entry
 * computation, the uses of the first float add(y, x) that has a twin
 * add(x, y) go to the twin. Wrong: with two NaN operands the result is
 * one of them by position (the evaluator and XLA CPU keep one operand's
 * payload and sign), which a bitcast-convert or a total-order compare
 * downstream tells apart.
 *
 * Validator hole it probes: float add and multiply operands were ordered
 * by term id (commutative), so the merge was proved, and values compared
 * NaN = NaN. Now they are ordered as written, values compare bit for bit,
 * and neighbouring leaves of a whole-leaf input set draw two different
 * NaNs (docs/proof.md, "Floating-point equality"). --check-equivalence
 * must fail (exit 4) naming this pass (tests/lit/test-passes/nan_bits.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_cse_float_commuted(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *a = c ? c->first : NULL; a; a = a->next) {
		if ((a->op != HILO_OP_ADD && a->op != HILO_OP_MULTIPLY) || a->noperands != 2 ||
		    !hilo_ptype_is_float(a->shape->type))
			continue;
		for (hilo_instr *b = a->next; b; b = b->next) {
			if (b->op != a->op || b->shape != a->shape || b->noperands != 2 ||
			    b->operands[0] != a->operands[1] || b->operands[1] != a->operands[0] ||
			    b->operands[0] == b->operands[1] || !b->nusers)
				continue;
			hilo_instr_replace_all_uses(m, b, a);
			ctx->rewrites++;
			hilo_remark(ctx, c, b, "rewritten", "test only: %s merged into %s, its operands "
				"swapped (a deliberately wrong rewrite)", b->name, a->name);
			return HILO_PASS_CHANGED;
		}
	}
	hilo_remark(ctx, c, NULL, "declined", "no float add or multiply with a swapped twin");
	return HILO_PASS_UNCHANGED;
}

/* test-sub-self-to-zero: x - x taken for 0. A deliberately WRONG rewrite,
 * testing only.
 *
 * The bug it plants: the "algebraic" identity x - x = 0 applied to floats.
 * In the entry computation, the first floating-point subtract whose two
 * operands are one instruction that is not a constant gets its uses
 * replaced by a broadcast of the constant +0 (the subtract stays, dead).
 * Wrong: inf - inf and NaN - NaN are NaN, not 0; for every finite x the
 * result is +0, so the two programs differ only at special values.
 *
 * Validator hole it probes: the random-testing tier drew floats on a grid
 * in [-8, 8) only, never inf or NaN, so the rewrite was "tested" (exit 0).
 * The draws now include special values (docs/proof.md "Special values"),
 * and --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/sub_self_to_zero.hlo). Never in a pipeline; only
 * an explicit --passes= runs it.
 */
#include "concat_util.h"

static bool sub_self(const hilo_instr *i)
{
	return i->op == HILO_OP_SUBTRACT && i->noperands == 2 &&
	       i->operands[0] == i->operands[1] && hilo_shape_is_array(i->shape) &&
	       hilo_ptype_is_float(i->shape->type) && i->operands[0]->op != HILO_OP_CONSTANT;
}

hilo_pass_result hilo_pass_test_sub_self_to_zero(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (!sub_self(i))
			continue;
		hilo_instr *z = hilo_cu_zero_of_shape(m, c, i, i->shape);
		if (!z) {
			hilo_diag_oom(ctx->diags, NULL);
			return HILO_PASS_ERROR;
		}
		hilo_instr_replace_all_uses(m, i, z);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: %s - %s taken for 0 (a deliberately wrong rewrite)",
			i->operands[0]->name, i->operands[0]->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no float subtract of a value from itself");
	return HILO_PASS_UNCHANGED;
}

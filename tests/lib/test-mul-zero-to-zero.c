/* test-mul-zero-to-zero: x * 0 taken for 0. A deliberately WRONG rewrite,
 * testing only.
 *
 * The bug it plants: the "algebraic" identity x * 0 = 0 applied to floats.
 * In the entry computation, the first floating-point multiply of a value
 * that is not a constant by a zero constant (a scalar, or a broadcast of
 * one; either operand) gets its uses replaced by a broadcast of the
 * constant +0 (the multiply stays, dead). Wrong: inf * 0 and NaN * 0 are
 * NaN, and a negative x gives -0. Where x is never negative (abs(y), a
 * square) or signed zeros are one value (--assume-no-signed-zeros), the
 * two programs differ only at infinities and NaN.
 *
 * Validator hole it probes: the random-testing tier drew floats on a grid
 * in [-8, 8) only, never inf or NaN, so such a rewrite was "tested" (exit
 * 0). The draws now include special values (docs/proof.md "Special
 * values"), and --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/mul_zero_to_zero.hlo). Never in a pipeline; only
 * an explicit --passes= runs it.
 */
#include "concat_util.h"

/* The operand of multiply i that a zero constant multiplies, or NULL. */
static hilo_instr *times_zero(const hilo_instr *i)
{
	if (i->op != HILO_OP_MULTIPLY || i->noperands != 2 || !hilo_shape_is_array(i->shape) ||
	    !hilo_ptype_is_float(i->shape->type))
		return NULL;
	for (int k = 0; k < 2; k++) {
		hilo_instr *x = i->operands[k], *z = i->operands[1 - k];
		if (hilo_cu_is_zero(z) && x->op != HILO_OP_CONSTANT && !hilo_cu_is_zero(x))
			return x;
	}
	return NULL;
}

hilo_pass_result hilo_pass_test_mul_zero_to_zero(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		hilo_instr *x = times_zero(i);
		if (!x)
			continue;
		hilo_instr *z = hilo_cu_zero_of_shape(m, c, i, i->shape);
		if (!z) {
			hilo_diag_oom(ctx->diags, NULL);
			return HILO_PASS_ERROR;
		}
		hilo_instr_replace_all_uses(m, i, z);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: %s * 0 taken for 0 (a deliberately wrong rewrite)", x->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no float multiply of a value by a zero constant");
	return HILO_PASS_UNCHANGED;
}

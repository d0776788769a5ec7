/* test-mul-reassociate: float (a * b) * c regrouped as a * (b * c). A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: associativity of real multiplication applied to
 * floats. In the entry computation, the first float
 * multiply(multiply(a, b), c) whose inner multiply has no other user
 * becomes multiply(a, multiply(b, c)). Wrong: each product rounds.
 *
 * Validator hole it probes: on the 1/4096 grid in [-8, 8) a product of
 * three f32 values needs at most 3 * 16 significant bits and often rounds
 * alike; with random mantissas (input set 1, src/eval/eval_equiv.c
 * wide_float) the groupings differ. --check-equivalence must fail (exit
 * 4) naming this pass (tests/lit/test-passes/float_rounding.hlo). Never
 * in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

/* A constant, iota or broadcast of one: a value the regrouping may keep. */
static bool known(const hilo_instr *i)
{
	while (i->op == HILO_OP_BROADCAST && i->noperands == 1)
		i = i->operands[0];
	return i->op == HILO_OP_CONSTANT || i->op == HILO_OP_IOTA;
}

hilo_pass_result hilo_pass_test_mul_reassociate(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *o = c ? c->first : NULL; o; o = o->next) {
		if (o->op != HILO_OP_MULTIPLY || o->noperands != 2 || !hilo_ptype_is_float(o->shape->type))
			continue;
		hilo_instr *in = o->operands[0];
		if (in->op != HILO_OP_MULTIPLY || in->noperands != 2 || in->nusers != 1 ||
		    in->shape != o->shape)
			continue;
		hilo_instr *a = in->operands[0], *b = in->operands[1], *x = o->operands[1];
		/* values, not constants: regrouping constants (x * 1 * 1, powers
		 * of two) can be exact, and this pass is to plant an error */
		if (known(a) || known(b) || known(x))
			continue;
		hilo_instr *bc = hilo_instr_create(m, HILO_OP_MULTIPLY, o->shape, NULL);
		hilo_instr_add_operand(m, bc, b);
		hilo_instr_add_operand(m, bc, x);
		hilo_comp_insert_before(c, o, bc);
		hilo_instr *abc = hilo_instr_create(m, HILO_OP_MULTIPLY, o->shape, NULL);
		hilo_instr_add_operand(m, abc, a);
		hilo_instr_add_operand(m, abc, bc);
		hilo_comp_insert_before(c, o, abc);
		hilo_instr_replace_all_uses(m, o, abc);
		ctx->rewrites++;
		hilo_remark(ctx, c, abc, "rewritten", "test only: (a * b) * c regrouped as a * (b * c) "
			"(a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no float (a * b) * c");
	return HILO_PASS_UNCHANGED;
}

/* test-bitcast-as-reshape: a bitcast between layouts taken for a reshape.
 * A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that replaces bitcast(x) by reshape(x) (they
 * are the same for row-major layouts: XLA's layout-insensitive passes
 * treat a bitcast as a reshape) where a layout is not row-major. In the
 * entry computation, the first bitcast whose operand's or own layout is
 * not the default (minor-to-major rank-1 ... 0) is replaced by a reshape
 * of its operand. Wrong: a bitcast reinterprets the physical buffer, so
 * with a column-major operand it transposes; the reshape does not.
 *
 * Validator hole it probes: tagged evaluation passed a copy's value on as
 * an identity, so bitcast(copy{0,1}(p)) read p's row-major tags and
 * equalled reshape(p): "proved" by tagged-terms. A copy now makes its
 * value in its own layout, as the evaluator does (src/check/tagged.c,
 * eval_one). --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/bitcast_layouts.hlo). Never in a pipeline; only
 * an explicit --passes= runs it.
 */
#include "hilo/pass.h"

static bool row_major(const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE || !s->layout)
		return true;
	if (s->layout->n != s->rank || s->layout->tail)
		return false;
	for (int d = 0; d < s->rank; d++)
		if (s->layout->minor_to_major[d] != s->rank - 1 - d)
			return false;
	return true;
}

hilo_pass_result hilo_pass_test_bitcast_as_reshape(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_BITCAST || i->noperands != 1 || i->shape->type == HILO_T_TUPLE ||
		    (row_major(i->shape) && row_major(i->operands[0]->shape)) ||
		    i->shape->type != i->operands[0]->shape->type)
			continue;
		hilo_instr *r = hilo_instr_create(m, HILO_OP_RESHAPE, i->shape, NULL);
		hilo_instr_add_operand(m, r, i->operands[0]);
		hilo_comp_insert_before(c, i, r);
		hilo_instr_replace_all_uses(m, i, r);
		hilo_comp_remove(c, i);
		ctx->rewrites++;
		hilo_remark(ctx, c, r, "rewritten",
			"test only: bitcast replaced by a reshape whatever the layouts (a deliberately "
			"wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no bitcast between layouts");
	return HILO_PASS_UNCHANGED;
}

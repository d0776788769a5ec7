/* test-reshape-to-bitcast-callee: a reshape of a called computation's
 * parameter turned into a bitcast, judged by the parameter's declared
 * layout. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that turns a reshape into a (free) bitcast
 * when the operand's and result's layouts are both the default, reading
 * the operand's layout from the callee's parameter declaration. In the
 * first non-entry computation, the first reshape of a parameter whose
 * declared layout and result layout are the default, and which a call
 * passes another layout, becomes a bitcast (in a layout-assigned module,
 * is_scheduled=true, every such reshape: there it is sound).
 * Wrong: in a module that is not layout-assigned the caller may pass
 * another layout (a column-major copy): {{1,2},{3,4},{5,6}} becomes
 * {{1,4},{2,5},{3,6}}.
 *
 * Validator hole it probes: the callee's record was proved against the
 * parameter's declared layout (issue 30). A bitcast of a callee
 * parameter's layout is now judged at the call sites, on the layout that
 * reaches it (src/check/records.c chk_layout_unknown). --check-equivalence
 * must fail (exit 4) naming this pass
 * (tests/lit/test-passes/layout_through_calls.hlo). Never in a pipeline;
 * only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

/* Is s an array shape whose layout is the default (or absent)? */
static bool default_layout(hilo_module *m, const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE)
		return false;
	if (!s->layout)
		return true;
	hilo_shape *d = hilo_shape_array_default(m->shapes, s->type, s->rank, s->dims, s->dyn);
	return d && hilo_shape_equal(d, s);
}

/* Does some call of c pass parameter k another layout than declared (the
 * only place the bug shows; elsewhere the bitcast is the reshape)? */
static bool called_with_other_layout(hilo_module *m, const hilo_comp *c, uint32_t k)
{
	for (uint32_t q = 0; q < m->ncomps; q++)
		for (hilo_instr *i = m->comps[q]->first; i; i = i->next)
			if (i->op == HILO_OP_CALL && hilo_instr_ncalled(i) == 1 && hilo_instr_called(i)[0] == c &&
			    k < i->noperands && c->params[k] && !hilo_shape_equal(i->operands[k]->shape, c->params[k]->shape))
				return true;
	return false;
}

hilo_pass_result hilo_pass_test_reshape_to_bitcast_callee(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t k = 0; k < m->ncomps; k++) {
		hilo_comp *c = m->comps[k];
		if (c == m->entry)
			continue;
		for (hilo_instr *i = c->first; i; i = i->next) {
			if (i->op != HILO_OP_RESHAPE || i->noperands != 1 ||
			    i->operands[0]->op != HILO_OP_PARAMETER || !default_layout(m, i->shape) ||
			    !default_layout(m, i->operands[0]->shape) ||
			    (!hilo_module_layout_sensitive(m) &&
			     !called_with_other_layout(m, c, (uint32_t)hilo_instr_param_no(i->operands[0]))))
				continue;
			hilo_instr *b = hilo_instr_create(m, HILO_OP_BITCAST, i->shape, NULL);
			hilo_instr_add_operand(m, b, i->operands[0]);
			hilo_comp_insert_before(c, i, b);
			hilo_instr_replace_all_uses(m, i, b);
			if (c->root == i)
				hilo_comp_set_root(c, b);
			hilo_comp_remove(c, i);
			ctx->rewrites++;
			hilo_remark(ctx, c, b, "rewritten", "test only: reshape of a parameter with the "
				"default layout turned into a bitcast (a deliberately wrong rewrite)");
			return HILO_PASS_CHANGED;
		}
	}
	hilo_remark(ctx, m->entry, NULL, "declined", "no reshape of a callee parameter");
	return HILO_PASS_UNCHANGED;
}

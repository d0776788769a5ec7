/* test-copy-layout-reset-call: the layout of a copy that a called
 * computation reads (through a call, while or conditional operand) reset
 * to the default. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a layout pass that treats a copy passed to a call as
 * a layout-free value. In the entry computation, the first array copy
 * with a non-default layout that is an operand of a call whose callee
 * bitcasts the parameter it is bound to gets the default layout (in
 * place, same id). Wrong: a
 * bitcast inside the callee reinterprets the buffer it is given, whose
 * layout changed (a column-major copy read as row-major transposes).
 *
 * Validator hole it probes: a value does not depend on its layout, so the
 * copy was shared and so was the call: 0 rewrites (issue 30). A call's
 * operands must now keep their layouts for the call to be shared, and a
 * bitcast of a callee parameter's layout is judged at the call sites
 * (src/check/records.c chk_layout_unknown, call_layouts_same).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/layout_through_calls.hlo). Never in a pipeline;
 * only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_copy_layout_reset_call(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_COPY || i->shape->type == HILO_T_TUPLE || !i->shape->layout)
			continue;
		/* a call whose callee bitcasts the parameter the copy is bound to
		 * (elsewhere the layout is not read and the reset is harmless) */
		bool called = false;
		for (uint32_t u = 0; u < i->nusers && !called; u++) {
			hilo_instr *cl = i->users[u].user;
			uint32_t k = i->users[u].slot;
			if (cl->op != HILO_OP_CALL || hilo_instr_ncalled(cl) != 1)
				continue;
			hilo_comp *f = hilo_instr_called(cl)[0];
			for (hilo_instr *b = f->first; b && !called && k < f->nparams; b = b->next)
				called = b->op == HILO_OP_BITCAST && b->noperands == 1 && b->operands[0] == f->params[k];
		}
		hilo_shape *d = hilo_shape_array_default(m->shapes, i->shape->type, i->shape->rank,
			i->shape->dims, i->shape->dyn);
		if (!called || !d || hilo_shape_equal(d, i->shape))
			continue;
		hilo_instr_set_shape(m, i, d);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten", "test only: copy passed to a call given the default "
			"layout (a deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no copy with a layout passed to a call");
	return HILO_PASS_UNCHANGED;
}

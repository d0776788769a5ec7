/* test-copy-skipped-before-bitcast: a bitcast of a layout-changing copy
 * rebuilt on the copy's operand. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: copy elimination that judges a copy by its value
 * alone (a copy is an identity of values) and bypasses it where the user
 * is a bitcast. In the entry computation, the first bitcast of a copy
 * whose layout differs from its operand's gets the copy's operand as its
 * operand (in place). Wrong: the bitcast now reinterprets the other
 * layout's buffer.
 *
 * Validator hole it probes: the changed operand slot was judged as a
 * value record (copy vs its operand: the same term) and proved, though
 * the bitcast reads the operand's layout, not only its value. A bitcast
 * whose operand's layout changes is now another definition, judged
 * whole (src/check/records.c, same_local / bitcast_source_same).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/bitcast_layouts.hlo). Never in a pipeline; only
 * an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_copy_skipped_before_bitcast(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_BITCAST || i->noperands != 1)
			continue;
		hilo_instr *cp = i->operands[0];
		if (cp->op != HILO_OP_COPY || cp->noperands != 1 ||
		    !hilo_shape_compatible(cp->shape, cp->operands[0]->shape) ||
		    hilo_shape_equal(cp->shape, cp->operands[0]->shape))
			continue;
		hilo_instr_set_operand(m, i, 0, cp->operands[0]);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: layout-changing copy %s bypassed (a deliberately wrong rewrite)",
			cp->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no bitcast of a layout-changing copy");
	return HILO_PASS_UNCHANGED;
}

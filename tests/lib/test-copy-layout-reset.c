/* test-copy-layout-reset: the layout of a copy that a bitcast reads reset
 * to the default. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a layout canonicalisation that gives a copy the
 * default layout (minor-to-major rank-1 ... 0) in place, taking a layout
 * for a property of the buffer that no value depends on. In the entry
 * computation, the first copy with another layout whose users include a
 * bitcast gets the default one. Wrong: the bitcast reinterprets the
 * copy's physical buffer, so its result changes with the layout.
 *
 * Validator hole it probes: an instruction was shared (the same function
 * in both modules) when its shape was the same up to layout, and so was
 * the bitcast of it: the run was "identical", 0 rewrites. A bitcast is now
 * the same definition only when the layout it reads (where its operand's
 * value is made, src/check/records.c chk_layout_source) is the same, and
 * its term hashes that layout (src/check/terms.c). --check-equivalence must
 * fail (exit 4) naming this pass (tests/lit/test-passes/bitcast_layouts.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_copy_layout_reset(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_COPY || i->shape->type == HILO_T_TUPLE || !i->shape->layout)
			continue;
		bool bitcast = false;
		for (uint32_t u = 0; u < i->nusers; u++)
			bitcast = bitcast || i->users[u].user->op == HILO_OP_BITCAST ||
			          i->users[u].user->op == HILO_OP_OPT_BARRIER;
		hilo_shape *d = hilo_shape_array_default(m->shapes, i->shape->type, i->shape->rank,
			i->shape->dims, i->shape->dyn);
		if (!bitcast || !d || hilo_shape_equal(d, i->shape))
			continue;
		hilo_instr_set_shape(m, i, d);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: copy given the default layout though a bitcast reads it (a "
			"deliberately wrong rewrite)");
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no copy with a layout a bitcast reads");
	return HILO_PASS_UNCHANGED;
}

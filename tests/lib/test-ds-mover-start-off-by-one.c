/* test-ds-mover-start-off-by-one: dynamic-slice-mover hoisting each
 * dynamic-slice as a static slice with one start off by one. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: the mover lowers dynamic-slice(g, i0, ..., ir-1) with
 * known starts to slice(T.operand(j)) in the caller; this pass gets one
 * dimension's start wrong by one -- the first dimension on which the
 * window can move (size < dim), the usual place for an index that is
 * 1-based in a token or off by one after a clamp. The shift is +1, or -1
 * when the window already touches the end, so the slice stays in bounds
 * and the verifier accepts the module: only the values are wrong. It is
 * planted as a thin wrapper: the real pass runs (marker stripping, legality,
 * clamping, cloning shared bodies, narrowing or appending parameter
 * elements), then every static slice it created that feeds a call's tuple
 * operand is shifted.
 *
 * Why it must be caught: the hoisted slice reads the window next to the
 * one the dynamic-slice read, so the body computes with other values
 * whenever neighbouring elements differ. --check-equivalence must fail
 * (exit 4) naming this pass
 * (tests/lit/test-passes/ds_mover_start_off_by_one.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

/* Is i a slice the mover made: it feeds a tuple that a call takes? */
static bool hoisted(const hilo_instr *i)
{
	for (uint32_t u = 0; u < i->nusers; u++) {
		const hilo_instr *t = i->users[u].user;
		if (t->op != HILO_OP_TUPLE)
			continue;
		for (uint32_t v = 0; v < t->nusers; v++)
			if (t->users[v].user->op == HILO_OP_CALL)
				return true;
	}
	return false;
}

hilo_pass_result hilo_pass_test_ds_mover_start_off_by_one(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	uint32_t first_new = m->next_id;
	hilo_pass_result r = hilo_pass_dynamic_slice_mover(ctx);
	if (r != HILO_PASS_CHANGED)
		return r;
	for (uint32_t ci = 0; ci < m->ncomps; ci++)
		for (hilo_instr *i = m->comps[ci]->first; i; i = i->next) {
			if (i->op != HILO_OP_SLICE || i->id < first_new || i->noperands != 1 || !hoisted(i))
				continue;
			hilo_attr *a = hilo_instr_attr(i, HILO_A_SLICE);
			const hilo_shape *in = i->operands[0]->shape;
			if (!a || a->kind != HILO_ATTR_SLICE || !hilo_shape_is_array(in) || a->n != in->rank)
				continue;
			for (int k = 0; k < a->n; k++) {
				int64_t *t = &a->v.ints[3 * k];
				int64_t size = t[1] - t[0];
				if (t[2] != 1 || size >= in->dims[k])
					continue;
				int64_t shift = t[1] < in->dims[k] ? 1 : -1;
				t[0] += shift;
				t[1] += shift;
				hilo_remark(ctx, i->parent, i, "planted",
					"test only: start of dimension %d moved to %lld (off by %+lld)", k,
					(long long)t[0], (long long)shift);
				break;
			}
		}
	return r;
}

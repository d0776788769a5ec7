/* boundary-marker-removal: strips Neuron boundary markers.
 *
 * Rewrites: custom-call(x), custom_call_target="NeuronBoundaryMarker-Start"
 * or "NeuronBoundaryMarker-End", -> x, in every computation. x may be of
 * any shape, tuples included.
 *
 * Exact conditions: exactly one operand; the marker's shape compatible with
 * the operand's (same element types and dims); no control dependencies
 * (declined with a remark otherwise). The marker is removed once unused.
 *
 * Why it is sound: the markers are identities that only delimit regions
 * for the Neuron compiler (the evaluator treats them as identities too);
 * replacing one with its operand keeps every value.
 *
 * Seed: 003 (the marker stripping neuron-dus-ds-index-simplifier and
 * dynamic-slice-mover perform).
 */
#include "hilo/pass.h"

#include <string.h>


hilo_pass_result hilo_pass_boundary_marker_removal(hilo_pass_ctx *ctx)
{
	bool changed = false;
	for (uint32_t k = 0; k < ctx->m->ncomps; k++) {
		hilo_comp *c = ctx->m->comps[k];
		hilo_instr *next;
		for (hilo_instr *i = c->first; i; i = next) {
			next = i->next;
			if (!hilo_instr_is_boundary_marker(i))
				continue;
			if (i->noperands != 1) {
				hilo_remark(ctx, c, i, "declined", "boundary marker with %u operands (expected one)", i->noperands);
				continue;
			}
			hilo_instr *x = i->operands[0];
			if (!hilo_shape_compatible(i->shape, x->shape)) {
				hilo_remark(ctx, c, i, "declined", "boundary marker shape differs from its operand's");
				continue;
			}
			if (i->nctrl_preds || i->nctrl_succs) {
				hilo_remark(ctx, c, i, "declined", "boundary marker has control dependencies");
				continue;
			}
			hilo_remark(ctx, c, i, "rewritten", "boundary marker replaced by its operand %s", x->name);
			hilo_instr_replace_all_uses(ctx->m, i, x);
			if (i->nusers == 0 && c->root != i)
				hilo_comp_remove(c, i);
			ctx->rewrites++;
			changed = true;
		}
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

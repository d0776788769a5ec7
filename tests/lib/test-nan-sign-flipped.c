/* test-nan-sign-flipped: a constant -NaN replaced by +NaN. A deliberately
 * WRONG rewrite, testing only.
 *
 * The bug it plants: a constant folder or canonicaliser that writes every
 * NaN as the one default NaN. In the entry computation, the first float
 * constant with a NaN element whose sign bit is set is replaced by a copy
 * with every such sign bit cleared. Wrong: compare with
 * type=TOTALORDER orders -NaN below every number and +NaN above, and a
 * bitcast-convert reads the sign bit.
 *
 * Validator hole it probes: constants compared NaN = NaN (and tagged
 * evaluation gave all NaNs of a type one tag): proved. NaNs now compare
 * bit for bit (docs/proof.md, "Floating-point equality").
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/nan_bits.hlo). Never in a pipeline; only an
 * explicit --passes= runs it.
 */
#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/pass.h"

#include <math.h>

hilo_pass_result hilo_pass_test_nan_sign_flipped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		const hilo_literal *l = hilo_instr_literal(i);
		hilo_ptype t = i->shape->type;
		int eb = hilo_ptype_bytes(t);
		if (!l || l->elided || !hilo_ptype_is_float(t) || eb <= 0 || !i->nusers)
			continue;
		size_t n = l->nbytes / (size_t)eb;
		bool any = false;
		for (size_t k = 0; k < n && !any; k++) {
			double v = hilo_elem_get_f64(t, l->data, k);
			any = isnan(v) && signbit(v);
		}
		if (!any)
			continue;
		hilo_instr *nc = hilo_instr_clone(m, i, NULL);
		hilo_literal *nl = hilo_instr_literal(nc);
		for (size_t k = 0; k < n; k++) {
			/* the sign bit is the top bit of the element's last byte */
			unsigned char *top = (unsigned char *)nl->data + k * (size_t)eb + (size_t)eb - 1;
			if (isnan(hilo_elem_get_f64(t, nl->data, k)))
				*top &= 0x7f;
		}
		hilo_comp_insert_before(c, i, nc);
		hilo_instr_replace_all_uses(m, i, nc);
		ctx->rewrites++;
		hilo_remark(ctx, c, nc, "rewritten", "test only: %s's -NaN written as +NaN (a "
			"deliberately wrong rewrite)", i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no constant -NaN");
	return HILO_PASS_UNCHANGED;
}

/* test-concat-add-snan: simplify-concat's additionToConcatenation on
 * values that may be signalling NaNs. A deliberately WRONG rewrite,
 * testing only.
 *
 * The bug it plants (simplify-concat's own code, hilo_simplify_concat_run,
 * src/transforms/variants.h, with the pass's behaviour before issue 30): add(pad(a, -0), pad(b, -0)) with
 * complementary regions becomes concatenate(a, b) although a or b is a
 * parameter. Wrong: the add quiets a signalling NaN (nan(0x1) becomes
 * nan(0x400001), hilo-run shows it); the concatenate passes it on.
 *
 * Validator hole it probes: x + (-0) = x was an exact identity of the
 * terms and of tagged evaluation, and values compared NaN = NaN: proved.
 * The identity now needs an x that is never a signalling NaN, values
 * compare bit for bit, and the random inputs draw signalling NaNs
 * (docs/proof.md, "Floating-point equality"). --check-equivalence must
 * fail (exit 4) naming this pass (tests/lit/test-passes/nan_bits.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"
#include "planted.h"

/* The bug: x + -0 taken for x whatever x is */
static bool any_value(const hilo_instr *x)
{
	(void)x;
	return true;
}

hilo_pass_result hilo_pass_test_concat_add_snan(hilo_pass_ctx *ctx)
{
	return hilo_simplify_concat_run(ctx, any_value);
}

/* test-dce-aliasing-kept: dce dropping unused fusion parameters without
 * renumbering the fusion's output_to_operand_aliasing. A deliberately
 * WRONG rewrite, testing only.
 *
 * The bug it plants (issue 30, what dce did before): the operand list
 * shrinks but the aliasing keeps its numbers, so {}: (2, {}) of
 * fusion(x, y, z, w) names w once y is gone: an in-place kernel now
 * writes its result over w, an entry parameter the program may also
 * return; with the last operand aliased the number falls off the end. It
 * runs the real dce with a renumbering that leaves every attribute as it
 * was. Every value the program computes is unchanged: only the aliasing
 * changed meaning.
 *
 * Validator hole it probes: fusions are judged by their inlined bodies,
 * where aliasing plays no part, so the rewrite was proved. The aliasing
 * record (src/check/alias.c) resolves each pair to the operand it names
 * on each side: --check-equivalence must fail (exit 4)
 * (tests/lit/test-passes/dce_aliasing_kept.hlo). Never in a pipeline.
 */
#include "planted.h"

/* the bug: the attributes keep their operand numbers */
static bool keep_numbers(hilo_module *m, hilo_instr *f, const int64_t *map, size_t nmap)
{
	(void)m, (void)f, (void)map, (void)nmap;
	return true;
}

hilo_pass_result hilo_pass_test_dce_aliasing_kept(hilo_pass_ctx *ctx)
{
	const hilo_dce_variant v = {hilo_instr_has_side_effect_deep, keep_numbers};
	return hilo_dce_run(ctx, &v);
}
